/**
 * Reads a table as a stream of rows cut into batches: the driver pauses the socket while the
 * consumer is busy, so memory holds about one batch whatever the table's size. The query is a
 * prepared statement: the cursor value is a real parameter, and the binary protocol carries FLOAT
 * values exactly where the text protocol prints six digits (16777216 -> 16777200).
 */
import type { Readable } from 'node:stream';
import type { ColumnSchema, ReadRequest, RecordBatch, Value } from '../../types.js';
import { ConnectorError } from '../../types.js';
import { type MysqlClient, qualified, quoteIdent } from './client.js';
import { describeTable } from './discover.js';
import { decoder, encodeValue, type Param } from './type-mapping.js';

export const DEFAULT_BATCH_SIZE = 10_000;

/** MySQL's and MariaDB's spatial types: mysql2 would decode them into objects, so they are read as WKT text. */
const SPATIAL_TYPES = new Set([
  'geometry',
  'point',
  'linestring',
  'polygon',
  'multipoint',
  'multilinestring',
  'multipolygon',
  'geometrycollection',
  'geomcollection',
]);

export const isSpatial = (column: Pick<ColumnSchema, 'sourceType'>): boolean =>
  SPATIAL_TYPES.has(/^[a-z]+/.exec(column.sourceType.toLowerCase())?.[0] ?? '');

/** A column in a select list, read as the text its canonical type holds (a spatial value as its WKT). */
export const selectColumn = (column: Pick<ColumnSchema, 'name' | 'sourceType'>): string =>
  isSpatial(column) ? `st_astext(${quoteIdent(column.name)}) as ${quoteIdent(column.name)}` : quoteIdent(column.name);
/** Rows the driver may buffer ahead of the consumer. */
const READ_AHEAD = 1_000;

function pick(all: ColumnSchema[], names: string[] | undefined, table: string): ColumnSchema[] {
  if (!names?.length) return all;
  return names.map((name) => {
    const column = all.find((c) => c.name === name);
    if (!column)
      throw new ConnectorError('schema_mismatch', `column "${name}" does not exist in table "${table}"`, false);
    return column;
  });
}

export async function* readTable(
  client: MysqlClient,
  request: ReadRequest,
  defaultDatabase: string,
  signal?: AbortSignal,
): AsyncIterable<RecordBatch> {
  const database = request.dataset.namespace ?? defaultDatabase;
  const table = request.dataset.name;
  const batchSize = Math.max(1, request.batchSize ?? DEFAULT_BATCH_SIZE);
  const conn = await client.connection();
  let stream: Readable | undefined;
  let streaming = false;
  let sql: string | undefined;
  const onAbort = () => stream?.destroy(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    signal?.throwIfAborted();
    const schema = await describeTable(conn, database, table);
    if (!schema) throw new ConnectorError('not_found', `table "${database}"."${table}" does not exist`, false);
    const columns = pick(schema.columns, request.columns, table);

    const values: Param[] = [];
    const conditions: string[] = [];
    let order = '';
    if (request.incremental) {
      const [cursor] = pick(schema.columns, [request.incremental.cursorColumn], table);
      const after = request.incremental.after;
      if (after !== undefined && after !== null) {
        values.push(encodeValue(after, cursor!.type));
        conditions.push(`${quoteIdent(cursor!.name)} > ?`);
      }
      order = ` order by ${quoteIdent(cursor!.name)}`;
    }
    if (request.range) {
      const [key] = pick(schema.columns, [request.range.column], table);
      if (request.range.from !== null && request.range.from !== undefined) {
        values.push(encodeValue(request.range.from, key!.type));
        conditions.push(`${quoteIdent(key!.name)} >= ?`);
      }
      if (request.range.to !== null && request.range.to !== undefined) {
        values.push(encodeValue(request.range.to, key!.type));
        conditions.push(`${quoteIdent(key!.name)} < ?`);
      }
    }
    const where = conditions.length > 0 ? ` where ${conditions.join(' and ')}` : '';
    sql = `select ${columns.map(selectColumn).join(', ')} from ${qualified(database, table)}${where}${order}`;
    const decoders = columns.map(decoder);

    streaming = true;
    stream = conn
      .execute({ sql, values, rowsAsArray: true })
      .stream({ highWaterMark: Math.min(READ_AHEAD, batchSize) });
    signal?.throwIfAborted();
    let rows: Value[][] = [];
    for await (const raw of stream as AsyncIterable<unknown[]>) {
      rows.push(decoders.map((decode, i) => decode(raw[i] ?? null)));
      if (rows.length >= batchSize) {
        yield { columns, rows };
        rows = [];
      }
    }
    streaming = false;
    if (rows.length > 0) yield { columns, rows };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    // A server error ends the statement and leaves the connection usable.
    const e = error as { sqlState?: string; fatal?: boolean };
    if (e.sqlState !== undefined && e.fatal !== true) streaming = false;
    throw client.classify(error);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // A half-read result cannot be abandoned on a live connection: an abort or an early stop closes it.
    if (streaming) conn.destroy();
    else {
      // Each read has its own statement text: do not let them pile up on a pooled connection.
      if (sql) conn.promise().unprepare({ sql, rowsAsArray: true });
      conn.release();
    }
  }
}
