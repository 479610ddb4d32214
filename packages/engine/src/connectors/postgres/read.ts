/**
 * Reads a table in batches through a server-side cursor, so memory holds one batch whatever the
 * table's size; the consumer's pace sets the pace (the next FETCH waits for it).
 */
import type pg from 'pg';
import copyStreams from 'pg-copy-streams';
import type { BulkStream, ColumnSchema, ReadRequest, RecordBatch, Value } from '../../types.js';
import { classify, qualified, quoteIdent } from './client.js';
import { columnOfType } from './type-mapping.js';

const DEFAULT_BATCH = 10_000;

/**
 * The SELECT a read request stands for: the table or the caller's query, narrowed by the incremental
 * bounds and the key range, optionally wrapped in the caller's SELECT (pushed-down transforms).
 * `bind` turns a value into SQL: a `$n` parameter where the statement takes parameters, an escaped
 * literal for COPY, which takes none.
 */
function selectFor(
  request: Omit<ReadRequest, 'batchSize'>,
  defaultSchema: string,
  bind: (value: Value) => string,
): string {
  const from = request.query
    ? `(${request.query}\n) as svc_query`
    : qualified(request.dataset.namespace ?? defaultSchema, request.dataset.name);
  const columns = request.columns?.length ? request.columns.map(quoteIdent).join(', ') : '*';
  const conditions: string[] = [];
  let order = '';
  if (request.incremental) {
    const cursor = quoteIdent(request.incremental.cursorColumn);
    const { after, upTo } = request.incremental;
    if (after !== undefined && after !== null) conditions.push(`${cursor} > ${bind(after)}`);
    if (upTo !== undefined && upTo !== null) conditions.push(`${cursor} <= ${bind(upTo)}`);
    order = ` order by ${cursor}`;
  }
  if (request.range) {
    const column = quoteIdent(request.range.column);
    if (request.range.from !== null && request.range.from !== undefined)
      conditions.push(`${column} >= ${bind(request.range.from)}`);
    if (request.range.to !== null && request.range.to !== undefined)
      conditions.push(`${column} < ${bind(request.range.to)}`);
  }
  const where = conditions.length > 0 ? ` where ${conditions.join(' and ')}` : '';
  // offset 0: the caller's conditions must not be reordered before these bounds (they could raise on rows outside them).
  if (request.select)
    return request.select(`(select ${columns} from ${from}${where}${where ? ' offset 0' : ''}) as svc_relation`);
  return `select ${columns} from ${from}${where}${order}`;
}

const schemaOf = (fields: pg.FieldDef[]): ColumnSchema[] =>
  fields.map((field) => columnOfType(field.name, field.dataTypeID, field.dataTypeModifier));

export async function* readTable(
  client: pg.Client,
  request: ReadRequest,
  defaultSchema: string,
  signal?: AbortSignal,
): AsyncIterable<RecordBatch> {
  const params: unknown[] = [];
  const text = selectFor(request, defaultSchema, (value) => {
    params.push(value);
    return `$${params.length}`;
  });
  const batchSize = request.batchSize ?? DEFAULT_BATCH;
  let schema: ColumnSchema[] | undefined;
  let open = false;
  try {
    await client.query('begin isolation level repeatable read read only');
    open = true;
    // The extended protocol takes exactly one statement: a query cannot smuggle in a second one.
    await client.query({
      text: `declare svc_read no scroll cursor for ${text}`,
      values: params,
      queryMode: 'extended',
    } as pg.QueryConfig);
    for (;;) {
      if (signal?.aborted) throw signal.reason ?? new Error('aborted');
      const result = await client.query({ text: `fetch ${batchSize} from svc_read`, rowMode: 'array' });
      schema ??= schemaOf(result.fields);
      if (result.rows.length === 0) break;
      yield { columns: schema, rows: result.rows as Value[][] };
      if (result.rows.length < batchSize) break;
    }
    await client.query('commit');
    open = false;
  } catch (error) {
    throw classify(error);
  } finally {
    // Also when the consumer stops early (a sample of the first batch): the connection is reused.
    if (open) await client.query('rollback').catch(() => undefined);
  }
}

/**
 * The fast path: the rows as COPY text, streamed as the server produces it, in a read-only
 * transaction. The column types come from a zero-row query of the same select. COPY takes no
 * parameters, so values in it (incremental bounds) are escaped literals.
 */
export async function exportTable(
  client: pg.Client,
  request: Omit<ReadRequest, 'batchSize' | 'range'>,
  defaultSchema: string,
): Promise<BulkStream> {
  const text = selectFor(request, defaultSchema, (value) => client.escapeLiteral(String(value)));
  let fields: pg.FieldDef[];
  try {
    await client.query('begin isolation level repeatable read read only');
    // One statement, checked by the extended protocol; COPY (which takes the simple protocol) then
    // gets the same balanced text, so a query cannot close the parentheses and add a statement.
    fields = (
      await client.query({
        text: `select * from (${text}) as svc_export limit 0`,
        queryMode: 'extended',
      } as pg.QueryConfig)
    ).fields;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw classify(error);
  }
  const stream = client.query(copyStreams.to(`copy (${text}) to stdout`));
  let ended = false;
  const end = (outcome: 'commit' | 'rollback') => {
    if (ended) return;
    ended = true;
    void client.query(outcome).catch(() => undefined);
  };
  stream.once('end', () => end('commit'));
  // \`on\`, not \`once\`: a cancelled COPY may report more than one error, and an unheard one would be thrown.
  stream.on('error', () => end('rollback'));
  // Destroyed by its consumer without an error: neither event comes, the transaction must still end.
  stream.once('close', () => end('rollback'));
  return { format: 'postgres-copy-text', columns: schemaOf(fields), stream };
}

export async function keyBounds(
  client: pg.Client,
  dataset: ReadRequest['dataset'],
  column: string,
  defaultSchema: string,
): Promise<{ min: Value; max: Value } | null> {
  const table = qualified(dataset.namespace ?? defaultSchema, dataset.name);
  try {
    const { rows } = await client.query<{ min: Value; max: Value }>(
      `select min(${quoteIdent(column)}) as min, max(${quoteIdent(column)}) as max from ${table}`,
    );
    const row = rows[0];
    return row && row.min !== null ? row : null;
  } catch (error) {
    throw classify(error);
  }
}
