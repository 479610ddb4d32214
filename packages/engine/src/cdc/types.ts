/**
 * The change-capture contract: a source connector that can capture a table's changes offers a
 * ChangeSource (PostgreSQL: logical replication; MySQL/MariaDB: the row-based binlog), a destination
 * that can apply them offers a ChangeSink. The engine keeps one destination table equal to one
 * source table: a snapshot consistent with a source position, then every transaction after it,
 * each applied together with its position so that a restart neither loses nor repeats a change.
 */
import type { ColumnSchema, DatasetRef, RecordBatch, Value } from '../types.js';

export type ChangeOp = 'insert' | 'update' | 'delete' | 'truncate';

export interface RowChange {
  op: ChangeOp;
  /** The table's columns as of this change (they change when the source table does). */
  columns: ColumnSchema[];
  /** insert and update: the new row, one value per column; delete and truncate: null. */
  values: Value[] | null;
  /** delete (and update, when the key changed): the old primary key values, in primary key order. */
  oldKey: Value[] | null;
  /**
   * update: true for a column whose value did not change and was not sent (PostgreSQL's unchanged
   * TOAST values); its entry in `values` is meaningless and must not be written.
   */
  unchanged?: boolean[];
}

export interface SourceTransaction {
  /**
   * Where the source stands once this transaction is applied: what a restart resumes after. Opaque to
   * everything but the source, which orders them (see ChangeSource.compare).
   */
  position: string;
  /** Commit time at the source, ISO 8601 in UTC. */
  commitTime: string;
  /** Changes of the captured table, in commit order; empty for a heartbeat (the position still moves). */
  changes: RowChange[];
}

export interface CdcSnapshot {
  columns: ColumnSchema[];
  primaryKey: string[];
  /** The position streaming continues after; the rows are the table exactly as of it. */
  position: string;
  rows: AsyncIterable<RecordBatch>;
  /** Releases what holds the snapshot; always called. */
  close(): Promise<void>;
}

export interface ChangeSource {
  /**
   * Checks the table can be captured: it exists, has a primary key (PostgreSQL: and a replica identity
   * that sends it), the user has the privileges. Throws a ConnectorError with a message a user can act on.
   */
  describe(table: DatasetRef, signal?: AbortSignal): Promise<{ columns: ColumnSchema[]; primaryKey: string[] }>;
  /** Creates what capture needs (a slot and a publication; nothing for a binlog) and opens a consistent snapshot. */
  snapshot(table: DatasetRef, signal?: AbortSignal): Promise<CdcSnapshot>;
  /**
   * Streams the table's transactions after `position` until `signal` aborts (then resolves) or the
   * source fails (then rejects). Waits for each `onTransaction` before the next. Sends a heartbeat
   * transaction (no changes) at least every `heartbeatMs` while the source is idle, so that positions
   * and lag keep moving.
   */
  stream(
    table: DatasetRef,
    position: string,
    onTransaction: (tx: SourceTransaction) => Promise<void>,
    options: { signal: AbortSignal; heartbeatMs?: number },
  ): Promise<void>;
  /** The destination has committed everything up to `position`: the source may free what precedes it. */
  confirm(position: string): Promise<void>;
  /** Orders two positions of this source (negative, zero, positive). */
  compare(a: string, b: string): number;
  /** Bytes of change data the source holds past `position` (PostgreSQL: WAL), when it can tell. */
  lagBytes?(position: string): Promise<number | null>;
  /** Bytes of WAL the slot retains (PostgreSQL), for the retained-WAL metric. */
  retainedBytes?(): Promise<number | null>;
  /** Removes what capture created (slot, publication). Safe to call when nothing exists. */
  drop(): Promise<void>;
  close(): Promise<void>;
}

export type ApplyMode = 'mirror' | 'changelog';

export interface ChangeSink {
  /** The position saved with the last applied transaction of this capture, or null before the snapshot. */
  position(captureId: string): Promise<string | null>;
  /**
   * Replaces the target with the snapshot (mirror: the rows; changelog: one `snapshot` row each), and
   * saves `snapshot.position` in the same transaction. Returns the rows written.
   */
  loadSnapshot(
    captureId: string,
    target: DatasetRef,
    mode: ApplyMode,
    snapshot: CdcSnapshot,
    signal?: AbortSignal,
  ): Promise<number>;
  /**
   * Applies transactions in order, in one destination transaction together with the last one's
   * position. mirror: upsert and delete by the primary key (unchanged TOAST values are kept),
   * truncate empties the table; changelog: appends one row per change with its operation, source
   * position and commit time. Columns added at the source are added to the target. Returns the
   * changes applied.
   */
  apply(
    captureId: string,
    target: DatasetRef,
    mode: ApplyMode,
    primaryKey: string[],
    transactions: SourceTransaction[],
  ): Promise<number>;
  /** Forgets the saved position (a resync starts over). */
  forget(captureId: string): Promise<void>;
  close(): Promise<void>;
}
