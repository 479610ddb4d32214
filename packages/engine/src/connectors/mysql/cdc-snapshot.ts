/**
 * A table's rows as of a binlog position. MariaDB reports the binlog position of a consistent
 * snapshot (binlog_snapshot_file/position) without any lock; MySQL does not, so there the position is
 * taken under a brief global read lock (FLUSH TABLES WITH READ LOCK, as mysqldump does).
 */
import type { Readable } from 'node:stream';
import type { PoolConnection, RowDataPacket } from 'mysql2';
import type { CdcSnapshot } from '../../cdc/types.js';
import type { RecordBatch, Value } from '../../types.js';
import { type MysqlClient, qualified, quoteIdent } from './client.js';
import { checkCaptureSupport, currentBinlogPosition, describeKeyedTable, type KeyedTable } from './cdc-checks.js';
import { type BinlogPosition, formatPosition } from './cdc-position.js';
import { DEFAULT_BATCH_SIZE } from './read.js';
import { decoder } from './type-mapping.js';

/** Rows the driver may buffer ahead of the consumer. */
const READ_AHEAD = 1_000;

async function snapshotStatus(conn: PoolConnection): Promise<Map<string, string>> {
  const [rows] = await conn.promise().query<RowDataPacket[]>("show status like 'binlog_snapshot_%'");
  return new Map(rows.map((row) => [String(row['Variable_name']).toLowerCase(), String(row['Value'])]));
}

/**
 * The server's GTID position, when it provably matches `position`: read between two reads of the
 * binlog's end that both equal it (nothing committed in between). Informational only.
 */
async function gtidAt(conn: PoolConnection, position: BinlogPosition): Promise<string | undefined> {
  const same = (p: BinlogPosition) => p.file === position.file && p.offset === position.offset;
  if (!same(await currentBinlogPosition(conn))) return undefined;
  const [rows] = await conn.promise().query<RowDataPacket[]>('select @@global.gtid_binlog_pos as gtid');
  const gtid = String(rows[0]?.['gtid'] ?? '');
  return gtid !== '' && same(await currentBinlogPosition(conn)) ? gtid : undefined;
}

/** Starts a consistent-snapshot transaction on `conn` and returns the binlog position it is consistent with. */
async function startSnapshot(conn: PoolConnection): Promise<BinlogPosition> {
  const p = conn.promise();
  const begin = async () => {
    await p.query('set transaction isolation level repeatable read');
    await p.query('start transaction with consistent snapshot');
  };
  if ((await snapshotStatus(conn)).has('binlog_snapshot_file')) {
    await begin();
    const status = await snapshotStatus(conn);
    const position = {
      file: status.get('binlog_snapshot_file') ?? '',
      offset: Number(status.get('binlog_snapshot_position')),
    };
    const gtid = await gtidAt(conn, position);
    return gtid ? { ...position, gtid } : position;
  }
  await p.query('flush tables with read lock');
  try {
    await begin();
    return await currentBinlogPosition(conn);
  } finally {
    await p.query('unlock tables');
  }
}

interface SnapshotReader {
  conn: PoolConnection;
  client: MysqlClient;
  sql: string;
  table: KeyedTable;
  /** Whether a result set is being read: an abandoned one leaves the connection unusable. */
  reading: boolean;
}

async function* snapshotRows(reader: SnapshotReader, signal?: AbortSignal): AsyncIterable<RecordBatch> {
  const decoders = reader.table.columns.map(decoder);
  const stream: Readable = reader.conn
    .execute({ sql: reader.sql, rowsAsArray: true })
    .stream({ highWaterMark: READ_AHEAD });
  const onAbort = () => stream.destroy(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  reader.reading = true;
  try {
    let rows: Value[][] = [];
    for await (const raw of stream as AsyncIterable<unknown[]>) {
      rows.push(decoders.map((decode, i) => decode(raw[i] ?? null)));
      if (rows.length >= DEFAULT_BATCH_SIZE) {
        yield { columns: reader.table.columns, rows };
        rows = [];
      }
    }
    reader.reading = false;
    if (rows.length > 0) yield { columns: reader.table.columns, rows };
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw reader.client.classify(error);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * Opens a snapshot of `database`.`table`: checks capture is possible, starts the snapshot
 * transaction, then describes the table under it (reading it first takes the metadata lock, so the
 * columns cannot change until close; a change since the snapshot began makes the server refuse).
 */
export async function openSnapshot(
  client: MysqlClient,
  database: string,
  table: string,
  signal?: AbortSignal,
): Promise<CdcSnapshot> {
  const conn = await client.connection();
  let reader: SnapshotReader | undefined;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    if (reader?.reading) return conn.destroy();
    try {
      // Each snapshot has its own statement: do not let them pile up on a pooled connection.
      if (reader) conn.promise().unprepare({ sql: reader.sql, rowsAsArray: true });
      await conn.promise().query('commit');
      conn.release();
    } catch {
      conn.destroy();
    }
  };
  try {
    signal?.throwIfAborted();
    await checkCaptureSupport(conn, database, table);
    const position = await startSnapshot(conn);
    await conn.promise().query(`select 1 from ${qualified(database, table)} limit 0`);
    const keyed = await describeKeyedTable(conn, database, table);
    const sql = `select ${keyed.columns.map((c) => quoteIdent(c.name)).join(', ')} from ${qualified(database, table)}`;
    reader = { conn, client, sql, table: keyed, reading: false };
    return {
      columns: keyed.columns,
      primaryKey: keyed.primaryKey,
      position: formatPosition(position),
      rows: snapshotRows(reader, signal),
      close,
    };
  } catch (error) {
    await close();
    if (signal?.aborted) throw signal.reason;
    throw client.classify(error);
  }
}
