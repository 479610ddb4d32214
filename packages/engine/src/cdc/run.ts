/**
 * Keeps one destination table equal to one source table: the snapshot when the destination has no
 * position yet (or on resync), then the stream from the saved position. Transactions arriving while
 * an apply is in flight are applied together in the next one (one destination transaction, one
 * position), which is what keeps up with a busy source; the source is told a position only once the
 * destination has committed it.
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

const MAX_BUFFERED = 5_000;

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

  // Applies: sequential, each covering every transaction buffered since the previous one.
  const stop = new AbortController();
  const stopOnSignal = () => stop.abort(options.signal.reason);
  options.signal.addEventListener('abort', stopOnSignal, { once: true });
  let buffer: SourceTransaction[] = [];
  let applying: Promise<void> = Promise.resolve();
  let failure: Error | undefined;
  const applyBuffered = async () => {
    while (buffer.length > 0 && !failure) {
      const batch = buffer;
      buffer = [];
      try {
        const changes = await sink.apply(captureId, target, mode, described.primaryKey, batch);
        const last = batch.at(-1)!;
        await source.confirm(last.position);
        options.onApplied({ changes, position: last.position, commitTime: last.commitTime, appliedAt: new Date() });
      } catch (error) {
        failure = error as Error;
        stop.abort(failure);
      }
    }
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
    buffer.push(transaction);
    applying = applying.then(applyBuffered);
    // Backpressure: a destination slower than the source holds the stream.
    if (buffer.length >= MAX_BUFFERED) await applying;
    if (failure) throw failure;
  };
  try {
    await source.stream(table, position, onTransaction, { signal: stop.signal, heartbeatMs: options.heartbeatMs });
  } finally {
    // Also when the stream failed: an apply in flight finishes (or fails) before the capture ends, so
    // nothing commits behind the back of whoever runs next.
    await applying;
    options.signal.removeEventListener('abort', stopOnSignal);
  }
  if (failure) throw failure;
}
