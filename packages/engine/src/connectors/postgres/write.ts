/**
 * Loads batches with COPY FROM STDIN. The target table is created, or widened with the columns it
 * lacks. append: COPY into the table with the run's marker, once per run. overwrite: TRUNCATE and COPY in one transaction (readers see
 * the old rows until it commits; a failure leaves them untouched). upsert: COPY into a temporary
 * staging table, then one INSERT .. ON CONFLICT on the key columns, in one transaction.
 */
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import copyStreams from 'pg-copy-streams';
import {
  ConnectorError,
  type BulkStream,
  type ColumnSchema,
  type RecordBatch,
  type WriteRequest,
  type WriteSummary,
} from '../../types.js';
import { classify, ensureSchema, qualified, quoteIdent } from './client.js';
import { copyLines } from './copy-text.js';
import { ddlType } from './type-mapping.js';

/** Per destination schema: which runs have committed their appends (see append below). */
export const RUNS_TABLE = '_svc_runs';

export async function existingColumns(client: pg.Client, schema: string, table: string): Promise<string[] | undefined> {
  const { rows } = await client.query<{ column_name: string }>(
    'select column_name from information_schema.columns where table_schema = $1 and table_name = $2 order by ordinal_position',
    [schema, table],
  );
  return rows.length > 0 ? rows.map((r) => r.column_name) : undefined;
}

/**
 * Ranges of one run write the same table in parallel, each in its own transaction; two of them
 * creating it (or adding a column) at once collide on the catalog ("type ... already exists").
 * The one that must change the table takes a lock on its name until it commits; the others then
 * find the table made. Only a run that creates or widens the table waits; the lock is not taken
 * when the table is already as it should be.
 */
async function lockDefinition(client: pg.Client, table: string): Promise<void> {
  await client.query('select pg_advisory_xact_lock(hashtext($1))', [`svc.write:${table}`]);
}

async function prepareTable(client: pg.Client, schema: string, request: WriteRequest): Promise<void> {
  const table = qualified(schema, request.dataset.name);
  let existing = await existingColumns(client, schema, request.dataset.name);
  if (!existing || request.columns.some((c) => !existing!.includes(c.name))) {
    await lockDefinition(client, table);
    existing = await existingColumns(client, schema, request.dataset.name);
  }
  if (!existing) {
    const keys = request.keyColumns?.length ? `, primary key (${request.keyColumns.map(quoteIdent).join(', ')})` : '';
    await ensureSchema(client, schema);
    await client.query(
      `create table if not exists ${table} (${request.columns.map((c) => `${quoteIdent(c.name)} ${ddlType(c)}`).join(', ')}${keys})`,
    );
    return;
  }
  for (const column of request.columns.filter((c) => !existing.includes(c.name))) {
    await client.query(`alter table ${table} add column if not exists ${quoteIdent(column.name)} ${ddlType(column)}`);
  }
}

export async function copyInto(
  client: pg.Client,
  table: string,
  columns: ColumnSchema[],
  batches: AsyncIterable<RecordBatch>,
  bytes: { written: number },
  signal?: AbortSignal,
): Promise<number> {
  const stream = client.query(
    copyStreams.from(`copy ${table} (${columns.map((c) => quoteIdent(c.name)).join(', ')}) from stdin`),
  );
  const finished = new Promise<void>((resolve, reject) => {
    stream.on('finish', () => resolve());
    stream.on('error', reject);
  });
  // The COPY can fail while we are still writing (a constraint, say): that rejection is handled below,
  // in the catch; this keeps it from counting as unhandled in between.
  finished.catch(() => undefined);
  let rows = 0;
  try {
    for await (const batch of batches) {
      if (signal?.aborted) throw signal.reason ?? new Error('aborted');
      // Batches may carry their columns in another order than the request: follow the request's.
      const positions = columns.map((c) => batch.columns.findIndex((b) => b.name === c.name));
      const reordered = positions.every((p, i) => p === i)
        ? batch.rows
        : batch.rows.map((row) => positions.map((p) => (p < 0 ? null : (row[p] ?? null))));
      const text = copyLines(
        reordered,
        columns.map((c) => c.type),
      );
      bytes.written += Buffer.byteLength(text);
      if (!stream.write(text)) await once(stream, 'drain');
      rows += batch.rows.length;
    }
    stream.end();
    await finished;
    return rows;
  } catch (error) {
    stream.destroy(error as Error);
    await finished.catch(() => undefined);
    throw error;
  }
}

/** Copies rows into the named table and says how many; the modes below decide which table that is. */
export interface Loader {
  (table: string): Promise<number>;
  /** Bytes sent so far. */
  bytes: { written: number };
}

export function batchLoader(
  client: pg.Client,
  columns: ColumnSchema[],
  batches: AsyncIterable<RecordBatch>,
  signal?: AbortSignal,
): Loader {
  const bytes = { written: 0 };
  return Object.assign((table: string) => copyInto(client, table, columns, batches, bytes, signal), { bytes });
}

/** Pipes a COPY text stream (from another PostgreSQL server), or CSV text, straight into COPY FROM STDIN. */
const quoteLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;

export function bulkLoader(client: pg.Client, columns: ColumnSchema[], bulk: BulkStream): Loader {
  const bytes = { written: 0 };
  const load = async (table: string) => {
    const options =
      bulk.format === 'csv'
        ? ` with (format csv, header ${bulk.csv?.header ? 'true' : 'false'}, delimiter ${quoteLiteral(bulk.csv?.delimiter ?? ',')})`
        : '';
    const target = client.query(
      copyStreams.from(`copy ${table} (${columns.map((c) => quoteIdent(c.name)).join(', ')}) from stdin${options}`),
    );
    const piped = pipeline(bulk.stream as NodeJS.ReadableStream, target);
    // Attached after the pipe, so it only watches the chunks flowing through.
    bulk.stream.on('data', (chunk: Buffer) => (bytes.written += chunk.length));
    await piped;
    return target.rowCount ?? 0;
  };
  return Object.assign(load, { bytes });
}

/**
 * Rows computed here from another connector's rows: the bulk stream COPYed into a temporary table of
 * its own columns, then the rows of `select` over it inserted into the target (or the upsert's
 * staging table). `staged` counts the rows copied in.
 */
export function stagedLoader(
  client: pg.Client,
  bulk: BulkStream,
  output: ColumnSchema[],
  select: (relation: string) => string,
): Loader & { staged: { rows: number } } {
  const copy = bulkLoader(client, bulk.columns, bulk);
  const staged = { rows: 0 };
  const load = async (table: string) => {
    await client.query(
      `create temporary table svc_input (${bulk.columns.map((c) => `${quoteIdent(c.name)} ${ddlType(c)}`).join(', ')}) on commit drop`,
    );
    staged.rows = await copy('svc_input');
    const inserted = await client.query(
      `insert into ${table} (${output.map((c) => quoteIdent(c.name)).join(', ')}) ${select('svc_input')}`,
    );
    return inserted.rowCount ?? 0;
  };
  return Object.assign(load, { bytes: copy.bytes, staged });
}

export async function writeTable(
  client: pg.Client,
  request: WriteRequest,
  defaultSchema: string,
  load: Loader,
  discard: () => Promise<void>,
): Promise<WriteSummary> {
  const schema = request.dataset.namespace ?? defaultSchema;
  const table = qualified(schema, request.dataset.name);
  if (request.mode === 'upsert' && !request.keyColumns?.length) {
    throw new ConnectorError('invalid_config', 'upsert needs key columns', false);
  }
  try {
    await client.query('begin');
    await prepareTable(client, schema, request);
    let rows: number;
    if (request.mode === 'append') {
      // Exactly once per run: the rows and the run's marker commit together; a retried run that
      // finds its marker writes nothing (its input is still consumed, so the caller's cursor advances).
      const runs = await client.query('select to_regclass($1) as t', [qualified(schema, RUNS_TABLE)]);
      if (!runs.rows[0]?.t) await lockDefinition(client, qualified(schema, RUNS_TABLE));
      await client.query(
        `create table if not exists ${qualified(schema, RUNS_TABLE)} (run_id text not null, dataset text not null, committed_at timestamptz not null default now(), primary key (run_id, dataset))`,
      );
      const done = await client.query(
        `select 1 from ${qualified(schema, RUNS_TABLE)} where run_id = $1 and dataset = $2`,
        [request.runId, request.dataset.name],
      );
      if (done.rowCount) {
        await discard();
        await client.query('commit');
        return { rowsWritten: 0 };
      }
      rows = await load(table);
      await client.query(`insert into ${qualified(schema, RUNS_TABLE)} (run_id, dataset) values ($1, $2)`, [
        request.runId,
        request.dataset.name,
      ]);
    } else if (request.mode === 'overwrite') {
      await client.query(`truncate ${table}`);
      rows = await load(table);
    } else {
      const keys = request.keyColumns!.map(quoteIdent).join(', ');
      const names = request.columns.map((c) => quoteIdent(c.name)).join(', ');
      await client.query(`create temporary table svc_staging (like ${table} including defaults) on commit drop`);
      rows = await load('svc_staging');
      const updates = request.columns
        .filter((c) => !request.keyColumns!.includes(c.name))
        .map((c) => `${quoteIdent(c.name)} = excluded.${quoteIdent(c.name)}`)
        .join(', ');
      // The last row of a key wins when the input carries the same key twice.
      await client.query(
        `insert into ${table} (${names}) select distinct on (${keys}) ${names} from svc_staging order by ${keys}, ctid desc ` +
          `on conflict (${keys}) do ${updates ? `update set ${updates}` : 'nothing'}`,
      );
    }
    await client.query('commit');
    return { rowsWritten: rows, bytesWritten: load.bytes.written };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    if (error instanceof ConnectorError) throw error;
    const code = (error as { code?: string }).code;
    if (code === '42P10')
      throw new ConnectorError(
        'schema_mismatch',
        `upsert needs a primary key or unique constraint on (${request.keyColumns?.join(', ')}) in ${schema}.${request.dataset.name}`,
        false,
        { cause: error },
      );
    throw classify(error);
  }
}
