/**
 * Reads a table in batches through a server-side cursor, so memory holds one batch whatever the
 * table's size; the consumer's pace sets the pace (the next FETCH waits for it).
 */
import type pg from 'pg';
import copyStreams from 'pg-copy-streams';
import type { BulkStream, ColumnSchema, ReadRequest, RecordBatch, Value } from '../../types.js';
import { classify, qualified, quoteIdent } from './client.js';
import { OID_TYPES } from './type-mapping.js';

const DEFAULT_BATCH = 10_000;

export async function* readTable(client: pg.Client, request: ReadRequest, defaultSchema: string, signal?: AbortSignal): AsyncIterable<RecordBatch> {
  const table = qualified(request.dataset.namespace ?? defaultSchema, request.dataset.name);
  const columns = request.columns?.length ? request.columns.map(quoteIdent).join(', ') : '*';
  const params: unknown[] = [];
  const conditions: string[] = [];
  let order = '';
  if (request.incremental) {
    const cursor = quoteIdent(request.incremental.cursorColumn);
    if (request.incremental.after !== undefined && request.incremental.after !== null) {
      params.push(request.incremental.after);
      conditions.push(`${cursor} > $${params.length}`);
    }
    order = ` order by ${cursor}`;
  }
  if (request.range) {
    const column = quoteIdent(request.range.column);
    if (request.range.from !== null && request.range.from !== undefined) {
      params.push(request.range.from);
      conditions.push(`${column} >= $${params.length}`);
    }
    if (request.range.to !== null && request.range.to !== undefined) {
      params.push(request.range.to);
      conditions.push(`${column} < $${params.length}`);
    }
  }
  const where = conditions.length > 0 ? ` where ${conditions.join(' and ')}` : '';
  const batchSize = request.batchSize ?? DEFAULT_BATCH;
  let schema: ColumnSchema[] | undefined;
  try {
    await client.query('begin isolation level repeatable read read only');
    await client.query(`declare svc_read no scroll cursor for select ${columns} from ${table}${where}${order}`, params);
    for (;;) {
      if (signal?.aborted) throw signal.reason ?? new Error('aborted');
      const result = await client.query({ text: `fetch ${batchSize} from svc_read`, rowMode: 'array' });
      schema ??= result.fields.map((field) => ({
        name: field.name,
        type: OID_TYPES[field.dataTypeID] ?? 'string',
        sourceType: String(field.dataTypeID),
        nullable: true,
      }));
      if (result.rows.length === 0) break;
      yield { columns: schema, rows: result.rows as Value[][] };
      if (result.rows.length < batchSize) break;
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw classify(error);
  }
}

/**
 * The fast path: the table as COPY text, streamed as the server produces it. The column types come
 * from a zero-row query of the same select.
 */
export async function exportTable(client: pg.Client, request: { dataset: ReadRequest['dataset']; columns?: string[] }, defaultSchema: string): Promise<BulkStream> {
  const table = qualified(request.dataset.namespace ?? defaultSchema, request.dataset.name);
  const columns = request.columns?.length ? request.columns.map(quoteIdent).join(', ') : '*';
  let fields: pg.FieldDef[];
  try {
    fields = (await client.query(`select ${columns} from ${table} limit 0`)).fields;
  } catch (error) {
    throw classify(error);
  }
  const schema: ColumnSchema[] = fields.map((f) => ({ name: f.name, type: OID_TYPES[f.dataTypeID] ?? 'string', sourceType: String(f.dataTypeID), nullable: true }));
  const stream = client.query(copyStreams.to(`copy (select ${columns} from ${table}) to stdout`));
  return { format: 'postgres-copy-text', columns: schema, stream };
}

export async function keyBounds(client: pg.Client, dataset: ReadRequest['dataset'], column: string, defaultSchema: string): Promise<{ min: Value; max: Value } | null> {
  const table = qualified(dataset.namespace ?? defaultSchema, dataset.name);
  try {
    const { rows } = await client.query<{ min: Value; max: Value }>(`select min(${quoteIdent(column)}) as min, max(${quoteIdent(column)}) as max from ${table}`);
    const row = rows[0];
    return row && row.min !== null ? row : null;
  } catch (error) {
    throw classify(error);
  }
}
