/**
 * Change capture of a MySQL/MariaDB table from the row-based binlog (docs/cdc.md): a consistent
 * snapshot with its binlog position, then the table's transactions read with zongji as a replica
 * would. A binlog reader creates nothing at the source, so there is nothing to drop or free; how long
 * the server keeps binlogs (binlog_expire_logs_seconds) bounds how long a capture may stay stopped.
 */
import type { ChangeSource } from '../../cdc/types.js';
import type { ConnectorContext, DatasetRef } from '../../types.js';
import { MysqlClient, type MysqlConfig } from './client.js';
import { binaryLogs, checkCaptureSupport, currentBinlogPosition, describeKeyedTable } from './cdc-checks.js';
import { type BinlogPosition, comparePositions, parsePosition } from './cdc-position.js';
import { openSnapshot } from './cdc-snapshot.js';
import { BinlogTableStream, DEFAULT_HEARTBEAT_MS } from './cdc-stream.js';

export interface MysqlChangeSource extends ChangeSource {
  /** The last position confirm() was given (null before the first). */
  readonly confirmedPosition: string | null;
}

/** Bytes of binlog from `from` to `to`, given the server's binlog files; null when `from`'s file is gone. */
export function binlogBytesBetween(
  from: BinlogPosition,
  to: BinlogPosition,
  logs: { file: string; size: number }[],
): number | null {
  if (comparePositions(from, to) >= 0) return 0;
  if (from.file === to.file) return to.offset - from.offset;
  const first = logs.findIndex((log) => log.file === from.file);
  const last = logs.findIndex((log) => log.file === to.file);
  if (first < 0 || last < first) return null;
  const between = logs.slice(first + 1, last).reduce((sum, log) => sum + log.size, 0);
  return logs[first]!.size - from.offset + between + to.offset;
}

export function mysqlChangeSource(
  config: MysqlConfig,
  captureId: string,
  context: Pick<ConnectorContext, 'egress'> | undefined,
): MysqlChangeSource {
  const client = new MysqlClient(config, context);
  // Ends streams still running when the source is closed.
  const closing = new AbortController();
  const running = new Set<Promise<void>>();
  let confirmed: string | null = null;

  const databaseOf = (table: DatasetRef) => table.namespace ?? config.database;

  return {
    get confirmedPosition() {
      return confirmed;
    },
    async describe(table, signal) {
      signal?.throwIfAborted();
      const conn = await client.connection();
      try {
        await checkCaptureSupport(conn, databaseOf(table), table.name);
        return await describeKeyedTable(conn, databaseOf(table), table.name);
      } catch (error) {
        throw client.classify(error);
      } finally {
        conn.release();
      }
    },
    snapshot(table, signal) {
      return openSnapshot(client, databaseOf(table), table.name, signal);
    },
    async stream(table, position, onTransaction, options) {
      const reader = new BinlogTableStream(client, config, {
        database: databaseOf(table),
        table: table.name,
        captureId,
        from: parsePosition(position),
        onTransaction,
        signal: AbortSignal.any([options.signal, closing.signal]),
        heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
      });
      const run = reader.run();
      running.add(run);
      try {
        await run;
      } finally {
        running.delete(run);
      }
    },
    async confirm(position) {
      parsePosition(position);
      confirmed = position;
    },
    compare(a, b) {
      return comparePositions(parsePosition(a), parsePosition(b));
    },
    async lagBytes(position) {
      const from = parsePosition(position);
      const conn = await client.connection();
      try {
        const current = await currentBinlogPosition(conn);
        return binlogBytesBetween(from, current, from.file === current.file ? [] : await binaryLogs(conn));
      } catch (error) {
        throw client.classify(error);
      } finally {
        conn.release();
      }
    },
    async retainedBytes() {
      return null;
    },
    async drop() {
      // A binlog reader creates nothing at the source.
    },
    async close() {
      closing.abort();
      await Promise.allSettled(running);
      await client.close();
    },
  };
}
