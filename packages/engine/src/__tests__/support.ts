/** Shared helpers and fixtures of the connector tests. */
import pg from 'pg';
import { unrestrictedEgress } from '../egress.js';
import {
  JsonText,
  type CanonicalType,
  type ColumnSchema,
  type ConnectorContext,
  type RecordBatch,
  type Value,
} from '../types.js';

/** No log, and no egress limits: connector tests reach their servers on this machine. */
export const quiet: ConnectorContext = { log: () => undefined, egress: unrestrictedEgress };

export async function collect(iterable: AsyncIterable<RecordBatch>): Promise<RecordBatch[]> {
  const batches: RecordBatch[] = [];
  for await (const batch of iterable) batches.push(batch);
  return batches;
}

/** One batch per chunk of rows. */
export async function* batchesOf(columns: ColumnSchema[], ...chunks: Value[][][]): AsyncIterable<RecordBatch> {
  for (const rows of chunks) yield { columns, rows };
}

export const col = (name: string, type: CanonicalType, extra: Partial<ColumnSchema> = {}): ColumnSchema => ({
  name,
  type,
  sourceType: type,
  nullable: true,
  ...extra,
});
export const dataset = (name: string) => ({ namespace: null, name });
/** Rows with json read as text (JsonText) parsed, to compare with documents written as values. */
export const parsedRows = (rows: Value[][]): Value[][] =>
  rows.map((row) => row.map((value) => (value instanceof JsonText ? value.parse() : value)));
export const rowsOf = (batches: RecordBatch[]) => parsedRows(batches.flatMap((b) => b.rows));

/** One column of every canonical type, and rows that probe their edges (null, limits, unicode, escapes). */
export const CANONICAL_COLUMNS = [
  col('id', 'int32'),
  col('flag', 'boolean'),
  col('small', 'int16'),
  col('big', 'int64'),
  col('real_value', 'float32'),
  col('double_value', 'float64'),
  col('money', 'decimal', { precision: 20, scale: 6 }),
  col('label', 'string'),
  col('ident', 'uuid'),
  col('day', 'date'),
  col('clock', 'time'),
  col('local_ts', 'timestamp'),
  col('instant', 'timestamptz'),
  col('doc', 'json'),
  col('bytes', 'binary'),
];
export const CANONICAL_LABEL = 'tab\there, "quoted", comma, newline\nthere, back\\slash, 😀 ünïcödé';
export const CANONICAL_DOC = { nested: { list: [1, 'two', null] }, quote: '"' };
export const CANONICAL_ROWS: Value[][] = [
  [
    1,
    true,
    32767,
    '9223372036854775807',
    1.5,
    0.1 + 0.2,
    '12345678901234.567890',
    CANONICAL_LABEL,
    '3b241101-e2bb-4255-8caf-4136c566a962',
    '2024-02-29',
    '23:59:59.123456',
    '2024-02-29T12:34:56.789012',
    '2024-02-29T12:34:56.789012Z',
    CANONICAL_DOC,
    Buffer.from([0, 1, 2, 254, 255]),
  ],
  [
    2,
    false,
    -32768,
    '-9223372036854775808',
    -2.25,
    -1.7976931348623157e308,
    '-0.000001',
    '',
    '00000000-0000-0000-0000-000000000000',
    '0001-01-01',
    '00:00:00',
    '1970-01-01T00:00:00',
    '1970-01-01T00:00:00.000000Z',
    [],
    Buffer.alloc(0),
  ],
  [3, null, null, null, null, null, null, null, null, null, null, null, null, null, null],
];

/** One statement on a database of the PostgreSQL server `adminUrl` points at, on a connection of its own. */
export async function pgQuery(adminUrl: string, database: string, text: string): Promise<pg.QueryResult> {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

/** A connector's host, port, login and database from a server URL (postgres:// or mysql://) and a database name. */
export function serverConfigOf(url: string, database: string) {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || (parsed.protocol.startsWith('mysql') ? 3306 : 5432)),
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database,
  };
}
