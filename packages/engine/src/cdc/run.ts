/**
 * Keeps one destination table equal to one source table: the snapshot when the destination has no
 * position yet (or on resync), then the stream from the saved position. Transactions arriving while
 * an apply is in flight are applied together in the next one (one destination transaction, one
 * position), which is what keeps up with a busy source; the source is told a position only once the
 * destination has committed it.
 *
 * Backpressure: the changes read but not yet applied are bounded (`maxInFlightChanges`); when the
 * destination is slower than the source, the reader waits in `onTransaction`, which holds the stream
 * (the source stops reading its socket), so memory stays bounded whatever the write rate. One apply
 * takes at most `maxBatchChanges` (whole transactions), so that a backlog is applied in pieces of a
 * bounded size rather than in one huge statement.
 */
import { ConnectorError, type ColumnSchema, type DatasetRef } from '../types.js';
import type { ApplyMode, ChangeSink, ChangeSource, SourceTransaction } from './types.js';

type Log = (level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;

export interface CaptureProgress {
  /** Changes applied by this apply (0 for a heartbeat). */
  changes: number;
  position: string;
  /** Commit time at the source of the last transaction applied. */
  commitTime: string;
  appliedAt: Date;
}

export interface CaptureOptions {
  captureId: string;
  source: ChangeSource;
  sink: ChangeSink;
  table: DatasetRef;
  target: DatasetRef;
  mode: ApplyMode;
  /** Start over: a new snapshot (and, for PostgreSQL, a new slot). */
  resync: boolean;
  signal: AbortSignal;
  heartbeatMs?: number;
  log: Log;
  onPhase(
    phase: 'snapshotting' | 'streaming',
    details: { position: string | null; snapshotRows?: number },
  ): Promise<void>;
  onApplied(progress: CaptureProgress): void;
  /** Changes read but not yet applied at most (default 10,000; a larger transaction is let in alone). */
  maxInFlightChanges?: number;
  /** Changes one apply takes at most, in whole transactions (default half of maxInFlightChanges). */
  maxBatchChanges?: number;
  /** Told the changes in flight each time a transaction is let in (for tests and metrics). */
  onInFlight?(changes: number): void;
}

/** A schema change the capture cannot follow without losing data: stops it with a clear message. */
export class SchemaChangeError extends ConnectorError {
  constructor(message: string) {
    super('schema_mismatch', message, false);
    this.name = 'SchemaChangeError';
  }
}

/** What changed between two versions of the source's columns. */
export function compareColumns(before: ColumnSchema[], after: ColumnSchema[]) {
  return {
    added: after.filter((c) => !before.some((b) => b.name === c.name)),
    dropped: before.filter((b) => !after.some((c) => c.name === b.name)),
    retyped: after
      .filter((c) => before.some((b) => b.name === c.name && b.type !== c.type))
      .map((c) => ({ name: c.name, from: before.find((b) => b.name === c.name)!.type, to: c.type })),
  };
}

export const DEFAULT_MAX_IN_FLIGHT_CHANGES = 10_000;

export async function runCapture(options: CaptureOptions): Promise<void> {
  const { source, sink, captureId, table, target, mode, log } = options;
  const described = await source.describe(table, options.signal);
  if (options.resync) {
    await sink.forget(captureId);
    log('info', 'resync: starting over from a new snapshot');
  }
  let position = options.resync ? null : await sink.position(captureId);
  let columns = described.columns;
  if (position === null) {
    await options.onPhase('snapshotting', { position: null });
    const snapshot = await source.snapshot(table, options.signal);
    try {
      log(
        'info',
        `snapshot of ${table.namespace ? `${table.namespace}.` : ''}${table.name} started at ${snapshot.position}`,
      );
      const rows = await sink.loadSnapshot(captureId, target, mode, snapshot, options.signal);
      position = snapshot.position;
      columns = snapshot.columns;
      log('info', `snapshot loaded: ${rows} rows`, { rows, position });
      await options.onPhase('streaming', { position, snapshotRows: rows });
    } finally {
      await snapshot.close();
    }
    await source.confirm(position);
  } else {
    log('info', `resuming after ${position}`);
    await options.onPhase('streaming', { position });
  }

  // Applies: sequential, each covering the transactions buffered since the previous one, up to maxBatch changes.
  const maxInFlight = Math.max(1, options.maxInFlightChanges ?? DEFAULT_MAX_IN_FLIGHT_CHANGES);
  const maxBatch = Math.max(1, options.maxBatchChanges ?? Math.ceil(maxInFlight / 2));
  const stop = new AbortController();
  const stopOnSignal = () => stop.abort(options.signal.reason);
  options.signal.addEventListener('abort', stopOnSignal, { once: true });
  // Aborted already (while the snapshot loaded or the phase was reported): the listener will not fire.
  if (options.signal.aborted) stopOnSignal();
  let buffer: SourceTransaction[] = [];
  /** Changes of the buffer and of the apply running: read, not yet applied. */
  let inFlight = 0;
  let applying: Promise<void> | undefined;
  let failure: Error | undefined;
  /** Woken after each apply (and on failure or abort): the reader waiting for room looks again. */
  let roomMade: (() => void) | undefined;
  const wakeReader = () => {
    roomMade?.();
    roomMade = undefined;
  };
  stop.signal.addEventListener('abort', wakeReader, { once: true });
  const weight = (tx: SourceTransaction) => Math.max(1, tx.changes.length);
  const applyBuffered = async () => {
    // Once stopped, what is buffered is left: it was never confirmed, so the next reader reads it again.
    while (buffer.length > 0 && !failure && !stop.signal.aborted) {
      let take = 0;
      let changes = 0;
      while (take < buffer.length && (take === 0 || changes + weight(buffer[take]!) <= maxBatch))
        changes += weight(buffer[take++]!);
      const batch = buffer.slice(0, take);
      buffer = buffer.slice(take);
      try {
        const applied = await sink.apply(captureId, target, mode, described.primaryKey, batch);
        const last = batch.at(-1)!;
        await source.confirm(last.position);
        options.onApplied({
          changes: applied,
          position: last.position,
          commitTime: last.commitTime,
          appliedAt: new Date(),
        });
      } catch (error) {
        failure = error as Error;
        stop.abort(failure);
      }
      inFlight -= changes;
      wakeReader();
      // Let other work of this process (the API, under `svc start`) run between applies.
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  /** Starts the applies unless they run; they pick up what arrives meanwhile. */
  const kick = () => {
    applying ??= applyBuffered().finally(() => {
      applying = undefined;
      if (buffer.length > 0 && !failure && !stop.signal.aborted) kick();
    });
  };
  const onTransaction = async (transaction: SourceTransaction) => {
    for (const change of transaction.changes) {
      if (change.op === 'truncate' || change.columns.length === 0) continue;
      const diff = compareColumns(columns, change.columns);
      if (diff.dropped.length || diff.retyped.length) {
        const what = [
          ...diff.dropped.map((c) => `column "${c.name}" was dropped`),
          ...diff.retyped.map((c) => `column "${c.name}" changed type from ${c.from} to ${c.to}`),
        ].join('; ');
        throw new SchemaChangeError(
          `the source table changed: ${what}. The destination keeps its data; resync to rebuild it with the new columns`,
        );
      }
      if (diff.added.length)
        log('info', `source columns added: ${diff.added.map((c) => c.name).join(', ')}; the destination gets them too`);
      columns = change.columns;
    }
    // Backpressure: wait (holding the stream) until the destination has made room for this transaction.
    const size = weight(transaction);
    while (inFlight > 0 && inFlight + size > maxInFlight && !failure && !stop.signal.aborted)
      await new Promise<void>((resolve) => (roomMade = resolve));
    if (failure) throw failure;
    if (stop.signal.aborted) return;
    buffer.push(transaction);
    inFlight += size;
    options.onInFlight?.(inFlight);
    kick();
  };
  try {
    await source.stream(table, position, onTransaction, { signal: stop.signal, heartbeatMs: options.heartbeatMs });
  } finally {
    // Also when the stream failed: an apply in flight finishes (or fails) before the capture ends, so
    // nothing commits behind the back of whoever runs next.
    stop.abort(options.signal.reason ?? new Error('the stream ended'));
    while (applying) await applying;
    options.signal.removeEventListener('abort', stopOnSignal);
  }
  if (failure) throw failure;
}
