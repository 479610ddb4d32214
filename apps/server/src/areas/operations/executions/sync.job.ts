/**
 * Runs sync executions. The coordinator job copies each stream: read batches from the source
 * connector, write them to the destination, then save the incremental cursor once the rows it covers
 * are committed. A stream with `ranges` is split into key ranges instead, each its own job
 * (sync_range) that any worker slot runs and that is retried on its own; the execution ends when the
 * coordinator and every range are done. Cancellation (the execution's flag, watched every second)
 * and a lost lease abort a run.
 */
import {
  approximateBytes,
  compareCursor,
  ConnectorError,
  countingCopyText,
  type ConnectorHandle,
  type Log,
  type RecordBatch,
  type Value,
} from '@svc/engine';
import type { Counter } from 'prom-client';
import type { Job, JobHandler } from '../../../platform/jobs.js';
import type { RunRecorder } from './recorder.js';
import type { RunCounters } from './repository.js';
import { settleFailure, watchRun } from './run-control.js';
import type { SyncParams, SyncStream } from './service.js';

export interface SyncDeps {
  recorder: RunRecorder;
  openConnector: (id: string, log: Log) => Promise<ConnectorHandle>;
  rowsMoved: Counter<'direction'>;
}

type Counters = RunCounters;

/** Splits [min, max] of an integer key into `count` ranges [from, to), the last one open-ended. */
export function splitRange(min: Value, max: Value, count: number): Array<{ from: string; to: string | null }> {
  if (!/^-?\d+$/.test(String(min)) || !/^-?\d+$/.test(String(max))) {
    throw new ConnectorError(
      'unsupported',
      `key ranges need an integer range_column (found values like ${JSON.stringify(min)})`,
      false,
    );
  }
  const low = BigInt(String(min));
  const high = BigInt(String(max));
  const width = (high - low + 1n + BigInt(count) - 1n) / BigInt(count);
  const ranges: Array<{ from: string; to: string | null }> = [];
  for (let i = 0n; i < BigInt(count); i++) {
    const from = low + i * width;
    if (from > high) break;
    ranges.push({
      from: String(from),
      to: i === BigInt(count) - 1n || from + width > high ? null : String(from + width),
    });
  }
  return ranges;
}

/** Opens the connectors, watches for cancellation, and always closes what it opened. */
async function withRun<T>(
  deps: SyncDeps,
  executionId: string,
  params: SyncParams,
  leaseSignal: AbortSignal,
  log: Log,
  work: (ctx: { source: ConnectorHandle; destination: ConnectorHandle; signal: AbortSignal }) => Promise<T>,
): Promise<T> {
  const watch = watchRun(deps.recorder, executionId, leaseSignal);
  let source: ConnectorHandle | undefined;
  let destination: ConnectorHandle | undefined;
  try {
    source = await deps.openConnector(params.source_connector_id, log);
    destination = await deps.openConnector(params.destination_connector_id, log);
    if (!source.read || !destination.write)
      throw new ConnectorError('unsupported', 'the source cannot be read or the destination cannot be written', false);
    return await work({ source, destination, signal: watch.signal });
  } catch (error) {
    throw watch.signal.aborted ? (watch.signal.reason as Error) : error;
  } finally {
    watch.stop();
    await source?.close();
    await destination?.close();
  }
}

/** Copies one stream (or one key range of it) with the batch path. */
async function copyBatches(
  deps: SyncDeps,
  ctx: { source: ConnectorHandle; destination: ConnectorHandle; signal: AbortSignal },
  params: SyncParams,
  stream: SyncStream,
  options: {
    runId: string;
    after?: Value;
    range?: { from: Value; to: Value };
    counters: Counters;
    onProgress: () => Promise<void>;
  },
): Promise<{ read: number; written: number; maxCursor: Value | undefined }> {
  const datasetKey = `${stream.namespace ?? ''}.${stream.name}`;
  const batches = ctx.source.read!(
    {
      dataset: { namespace: stream.namespace ?? null, name: stream.name },
      incremental: stream.cursor_column ? { cursorColumn: stream.cursor_column, after: options.after } : undefined,
      range: options.range && stream.range_column ? { column: stream.range_column, ...options.range } : undefined,
    },
    ctx.signal,
  );
  const iterator = batches[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return { read: 0, written: 0, maxCursor: options.after };
  let maxCursor: Value | undefined = options.after;
  const cursorIndex = stream.cursor_column ? first.value.columns.findIndex((c) => c.name === stream.cursor_column) : -1;
  if (stream.cursor_column && cursorIndex < 0)
    throw new ConnectorError(
      'schema_mismatch',
      `cursor column "${stream.cursor_column}" is not in ${datasetKey}`,
      false,
    );
  let read = 0;
  const counted = async function* (): AsyncIterable<RecordBatch> {
    let batch: RecordBatch | undefined = first.value;
    while (batch) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      read += batch.rows.length;
      options.counters.rows_read += batch.rows.length;
      options.counters.bytes_read += approximateBytes(batch);
      deps.rowsMoved.inc({ direction: 'read' }, batch.rows.length);
      if (cursorIndex >= 0) {
        for (const row of batch.rows) {
          const value = row[cursorIndex];
          if (value !== null && (maxCursor === undefined || maxCursor === null || compareCursor(value, maxCursor) > 0))
            maxCursor = value;
        }
      }
      await options.onProgress();
      yield batch;
      const next = await iterator.next();
      batch = next.done ? undefined : next.value;
    }
  };
  const summary = await ctx.destination.write!(
    {
      dataset: { namespace: params.destination_namespace ?? null, name: stream.destination_name ?? stream.name },
      mode: stream.mode,
      keyColumns: stream.key_columns,
      columns: first.value.columns,
      runId: options.runId,
    },
    counted(),
    ctx.signal,
  );
  options.counters.rows_written += summary.rowsWritten;
  options.counters.bytes_written += summary.bytesWritten ?? 0;
  deps.rowsMoved.inc({ direction: 'written' }, summary.rowsWritten);
  return { read, written: summary.rowsWritten, maxCursor };
}

/** A value or a line the destination refused (SQLSTATE class 22, data exception; 23, a constraint). */
function refusedData(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'))) return true;
  }
  return false;
}

/**
 * Full copy between connectors that share a bulk format, no value decoding: PostgreSQL to PostgreSQL
 * (COPY text), a MySQL/MariaDB table to PostgreSQL (the text protocol's values written as COPY
 * text), a CSV or TSV file to PostgreSQL (the file's bytes into COPY ... CSV). When the
 * server refuses a row of a file (its line is in the message), the stream is read as batches
 * instead, which either loads it or names the record that does not fit its column.
 */
async function copyBulk(
  deps: SyncDeps,
  ctx: { source: ConnectorHandle; destination: ConnectorHandle; signal: AbortSignal },
  params: SyncParams,
  stream: SyncStream,
  options: { runId: string; counters: Counters; onProgress: () => void; log: Log },
): Promise<{ read: number; written: number } | undefined> {
  if (stream.cursor_column || !ctx.source.exportBulk || !ctx.destination.importBulk) return undefined;
  const bulk = await ctx.source.exportBulk(
    { dataset: { namespace: stream.namespace ?? null, name: stream.name } },
    ctx.signal,
  );
  if (!bulk) return undefined;
  if (!ctx.destination.bulkFormats?.includes(bulk.format)) {
    bulk.stream.destroy();
    return undefined;
  }
  let countedBytes = 0;
  const counting = countingCopyText((_rows, bytes) => {
    options.counters.bytes_read += bytes - countedBytes;
    countedBytes = bytes;
    options.onProgress();
  });
  (bulk.stream as NodeJS.ReadableStream).pipe(counting);
  bulk.stream.on('error', (error: Error) => counting.destroy(error));
  // The destination's pipe reports a source failure; once that pipe has ended (a cancelled or failed
  // COPY on the destination, say) a late source error must not be thrown as an unheard 'error' event.
  counting.on('error', () => undefined);
  let summary: Awaited<ReturnType<NonNullable<ConnectorHandle['importBulk']>>>;
  try {
    summary = await ctx.destination.importBulk(
      {
        dataset: { namespace: params.destination_namespace ?? null, name: stream.destination_name ?? stream.name },
        mode: stream.mode,
        keyColumns: stream.key_columns,
        columns: bulk.columns,
        runId: options.runId,
      },
      { ...bulk, stream: counting },
      ctx.signal,
    );
  } catch (error) {
    bulk.stream.destroy();
    // The destination cannot take a bulk stream after all (a MySQL server with local_infile off):
    // it wrote nothing, and the stream is read as batches.
    const unsupported = error instanceof ConnectorError && error.code === 'unsupported';
    if (ctx.signal.aborted || !(unsupported || (bulk.format === 'csv' && refusedData(error)))) throw error;
    options.counters.bytes_read -= countedBytes;
    options.log(
      'warn',
      unsupported
        ? `${stream.name}: ${(error as Error).message}; reading it as batches`
        : `${stream.name}: the destination refused the file as CSV (${(error as Error).message}); reading it as batches`,
    );
    return undefined;
  }
  // COPY text has one line a row; CSV has a header, and newlines inside quoted values: the server's count.
  const lines = bulk.format === 'csv' ? summary.rowsWritten : counting.rows();
  options.counters.bytes_read += counting.bytes() - countedBytes;
  options.counters.rows_read += lines;
  options.counters.rows_written += summary.rowsWritten;
  options.counters.bytes_written += summary.bytesWritten ?? 0;
  deps.rowsMoved.inc({ direction: 'read' }, lines);
  deps.rowsMoved.inc({ direction: 'written' }, summary.rowsWritten);
  return { read: lines, written: summary.rowsWritten };
}

export function createSyncHandler(deps: SyncDeps): JobHandler<'sync'> {
  const { recorder } = deps;
  return async (job: Job<'sync'>, leaseSignal: AbortSignal) => {
    const executionId = job.payload.execution_id;
    const execution = await recorder.start(executionId);
    if (!execution) return; // cancelled or finished meanwhile: nothing to run
    const params = execution.params as unknown as SyncParams;
    const log: Log = (level, message, fields) =>
      void recorder.log(executionId, level, message, fields).catch(() => undefined);
    const counters: Counters = { rows_read: 0, rows_written: 0, bytes_read: 0, bytes_written: 0 };
    const report = () => recorder.progress(executionId, counters).then(() => undefined);
    try {
      log('info', `sync started (attempt ${execution.attempts})`, { streams: params.streams.length });
      await withRun(deps, executionId, params, leaseSignal, log, async (ctx) => {
        for (const [index, stream] of params.streams.entries()) {
          const datasetKey = `${stream.namespace ?? ''}.${stream.name}`;
          if (stream.ranges && stream.range_column) {
            if (!ctx.source.keyBounds)
              throw new ConnectorError('unsupported', `the source cannot split ${datasetKey} into key ranges`, false);
            const bounds = await ctx.source.keyBounds(
              { namespace: stream.namespace ?? null, name: stream.name },
              stream.range_column,
              ctx.signal,
            );
            if (!bounds) {
              log('info', `${datasetKey}: empty, no ranges to copy`);
              continue;
            }
            const ranges = splitRange(bounds.min, bounds.max, stream.ranges);
            await recorder.planRanges(executionId, index, ranges);
            log('info', `${datasetKey}: split into ${ranges.length} ranges of ${stream.range_column}`, {
              min: bounds.min,
              max: bounds.max,
            });
            continue;
          }
          const bulk = await copyBulk(deps, ctx, params, stream, {
            runId: executionId,
            counters,
            onProgress: () => void report().catch(() => undefined),
            log,
          });
          if (bulk) {
            await report();
            log('info', `${datasetKey}: ${bulk.read} rows read, ${bulk.written} written (${stream.mode}, bulk copy)`);
            continue;
          }
          const cursorKey = {
            source: params.source_connector_id,
            destination: params.destination_connector_id,
            dataset: datasetKey,
          };
          const saved = stream.cursor_column ? await recorder.cursor(cursorKey) : undefined;
          const after =
            saved && saved.cursor_column === stream.cursor_column ? (saved.cursor_value as Value) : undefined;
          const copied = await copyBatches(deps, ctx, params, stream, {
            runId: executionId,
            after,
            counters,
            onProgress: report,
          });
          await report();
          // The cursor moves only once the rows it covers are committed in the destination.
          if (stream.cursor_column && copied.maxCursor !== undefined && copied.maxCursor !== after)
            await recorder.saveCursor(cursorKey, stream.cursor_column, copied.maxCursor);
          log(
            'info',
            copied.read === 0
              ? `${datasetKey}: nothing new to copy`
              : `${datasetKey}: ${copied.read} rows read, ${copied.written} written (${stream.mode})`,
          );
        }
      });
      const finished = await recorder.coordinatorDone(job, executionId);
      log('info', finished ? 'sync succeeded' : 'sync waiting for its key ranges', { ...counters });
    } catch (error) {
      await settleFailure(deps.recorder, job, executionId, error as Error, leaseSignal, log, 'sync');
    }
  };
}

/** One key range of a stream: copied, then marked done (which may finish the execution). */
export function createSyncRangeHandler(deps: SyncDeps): JobHandler<'sync_range'> {
  const { recorder } = deps;
  return async (job: Job<'sync_range'>, leaseSignal: AbortSignal) => {
    const { execution_id: executionId, stream_index: streamIndex, range_no: rangeNo } = job.payload;
    const [execution, range] = await Promise.all([
      recorder.find(executionId),
      recorder.range(executionId, streamIndex, rangeNo),
    ]);
    if (
      !execution ||
      !range ||
      range.state === 'done' ||
      !['queued', 'running'].includes(execution.status) ||
      execution.cancel_requested
    )
      return;
    const params = execution.params as unknown as SyncParams;
    const stream = params.streams[streamIndex]!;
    const log: Log = (level, message, fields) =>
      void recorder.log(executionId, level, message, { range: rangeNo, ...fields }).catch(() => undefined);
    const counters: Counters = { rows_read: 0, rows_written: 0, bytes_read: 0, bytes_written: 0 };
    try {
      const copied = await withRun(deps, executionId, params, leaseSignal, log, (ctx) =>
        copyBatches(deps, ctx, params, stream, {
          // Each range appends once: its own marker in the destination.
          runId: `${executionId}:${streamIndex}:${rangeNo}`,
          range: { from: range.range_from as Value, to: range.range_to as Value },
          counters,
          onProgress: async () => undefined,
        }),
      );
      const finished = await recorder.rangeDone(job, executionId, streamIndex, rangeNo, counters);
      log(
        'info',
        `range ${rangeNo} of ${stream.name}: ${copied.read} rows read, ${copied.written} written (attempt ${job.attempts})`,
      );
      if (finished) log('info', 'sync succeeded');
    } catch (error) {
      await settleFailure(deps.recorder, job, executionId, error as Error, leaseSignal, log, 'sync');
    }
  };
}
