/**
 * Runs one sync execution: for each stream, read batches from the source connector and write them to
 * the destination connector, then save the incremental cursor, after the data it covers is committed.
 * Cancellation (the execution's flag, watched every second) and a lost lease abort the run.
 */
import { Transform } from 'node:stream';
import { ConnectorError, type ConnectorHandle, type RecordBatch, type Value } from '@svc/engine';
import type { Job, JobHandler } from '../platform/jobs.js';
import type { RunRecorder } from '../areas/operations/executions/recorder.js';
import type { SyncParams } from '../areas/operations/executions/service.js';
import type { Counter } from 'prom-client';

export interface SyncDeps {
  recorder: RunRecorder;
  openConnector: (id: string, log: (level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void) => Promise<ConnectorHandle>;
  rowsMoved: Counter<'direction'>;
}

class Cancelled extends Error {
  readonly retryable = false;
}

/** Orders cursor values: numbers as numbers, int64 strings exactly (BigInt), everything else as text (ISO times sort as text). */
export function compareCursor(a: Value, b: Value): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const [x, y] = [String(a), String(b)];
  if (/^-?\d+$/.test(x) && /^-?\d+$/.test(y)) {
    const d = BigInt(x) - BigInt(y);
    return d > 0n ? 1 : d < 0n ? -1 : 0;
  }
  if (/^-?\d+(\.\d+)?$/.test(x) && /^-?\d+(\.\d+)?$/.test(y)) return Number(x) - Number(y);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function createSyncHandler(deps: SyncDeps): JobHandler {
  const { recorder } = deps;
  return async (job: Job, leaseSignal: AbortSignal) => {
    const executionId = String(job.payload['execution_id']);
    const execution = await recorder.start(executionId);
    if (!execution) return; // cancelled or finished meanwhile: nothing to run
    const params = execution.params as unknown as SyncParams;
    const log = (level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void recorder.log(executionId, level, message, fields).catch(() => undefined);

    const controller = new AbortController();
    const abortWith = (reason: Error) => controller.abort(reason);
    leaseSignal.addEventListener('abort', () => abortWith(leaseSignal.reason as Error), { once: true });
    const watch = setInterval(() => {
      recorder.cancelRequested(executionId).then((yes) => yes && abortWith(new Cancelled('cancelled on request')), () => undefined);
    }, 1000);

    const counters = { rows_read: 0, rows_written: 0, bytes_read: 0 };
    let source: ConnectorHandle | undefined;
    let destination: ConnectorHandle | undefined;
    try {
      log('info', `sync started (attempt ${execution.attempts})`, { streams: params.streams.length });
      source = await deps.openConnector(params.source_connector_id, log);
      destination = await deps.openConnector(params.destination_connector_id, log);
      if (!source.read || !destination.write) throw new ConnectorError('unsupported', 'the source cannot be read or the destination cannot be written', false);

      for (const stream of params.streams) {
        const datasetKey = `${stream.namespace ?? ''}.${stream.name}`;
        const cursorKey = { source: params.source_connector_id, destination: params.destination_connector_id, dataset: datasetKey };
        const target = { namespace: params.destination_namespace ?? null, name: stream.destination_name ?? stream.name };
        // Fast path for full copies between connectors that share a bulk format (PostgreSQL to PostgreSQL).
        if (!stream.cursor_column && source.exportBulk && destination.importBulk) {
          const bulk = await source.exportBulk({ dataset: { namespace: stream.namespace ?? null, name: stream.name } }, controller.signal);
          if (destination.bulkFormats?.includes(bulk.format)) {
            let lines = 0;
            let lastReport = Date.now();
            const counting = new Transform({
              transform(chunk: Buffer, _encoding, done) {
                // One line per row in COPY text (newlines inside values are escaped).
                for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
                counters.bytes_read += chunk.length;
                if (Date.now() - lastReport > 1000) {
                  lastReport = Date.now();
                  void recorder.progress(executionId, { ...counters, rows_read: counters.rows_read + lines }).catch(() => undefined);
                }
                done(null, chunk);
              },
            });
            (bulk.stream as NodeJS.ReadableStream).pipe(counting);
            bulk.stream.on('error', (error: Error) => counting.destroy(error));
            const summary = await destination.importBulk(
              { dataset: target, mode: stream.mode, keyColumns: stream.key_columns, columns: bulk.columns, runId: executionId },
              { ...bulk, stream: counting },
              controller.signal,
            );
            counters.rows_read += lines;
            counters.rows_written += summary.rowsWritten;
            deps.rowsMoved.inc({ direction: 'read' }, lines);
            deps.rowsMoved.inc({ direction: 'written' }, summary.rowsWritten);
            await recorder.progress(executionId, counters);
            log('info', `${datasetKey}: ${lines} rows read, ${summary.rowsWritten} written (${stream.mode}, bulk copy)`);
            continue;
          }
          bulk.stream.destroy();
        }
        const saved = stream.cursor_column ? await recorder.cursor(cursorKey) : undefined;
        const after = saved && saved.cursor_column === stream.cursor_column ? (saved.cursor_value as Value) : undefined;
        const batches = source.read({ dataset: { namespace: stream.namespace ?? null, name: stream.name }, incremental: stream.cursor_column ? { cursorColumn: stream.cursor_column, after } : undefined }, controller.signal);
        const iterator = batches[Symbol.asyncIterator]();
        const first = await iterator.next();
        if (first.done) {
          log('info', `${datasetKey}: nothing new to copy`);
          continue;
        }
        let maxCursor: Value | undefined = after;
        const cursorIndex = stream.cursor_column ? first.value.columns.findIndex((c) => c.name === stream.cursor_column) : -1;
        if (stream.cursor_column && cursorIndex < 0) throw new ConnectorError('schema_mismatch', `cursor column "${stream.cursor_column}" is not in ${datasetKey}`, false);
        let streamRows = 0;
        const counted = async function* (): AsyncIterable<RecordBatch> {
          let batch: RecordBatch | undefined = first.value;
          while (batch) {
            if (controller.signal.aborted) throw controller.signal.reason;
            streamRows += batch.rows.length;
            counters.rows_read += batch.rows.length;
            deps.rowsMoved.inc({ direction: 'read' }, batch.rows.length);
            if (cursorIndex >= 0) for (const row of batch.rows) if (row[cursorIndex] !== null && (maxCursor === undefined || maxCursor === null || compareCursor(row[cursorIndex], maxCursor) > 0)) maxCursor = row[cursorIndex];
            await recorder.progress(executionId, counters);
            yield batch;
            const next = await iterator.next();
            batch = next.done ? undefined : next.value;
          }
        };
        const summary = await destination.write(
          {
            dataset: target,
            mode: stream.mode,
            keyColumns: stream.key_columns,
            columns: first.value.columns,
            runId: executionId,
          },
          counted(),
          controller.signal,
        );
        counters.rows_written += summary.rowsWritten;
        deps.rowsMoved.inc({ direction: 'written' }, summary.rowsWritten);
        await recorder.progress(executionId, counters);
        // The cursor moves only once the rows it covers are committed in the destination.
        if (stream.cursor_column && maxCursor !== undefined) await recorder.saveCursor(cursorKey, stream.cursor_column, maxCursor);
        log('info', `${datasetKey}: ${streamRows} rows read, ${summary.rowsWritten} written (${stream.mode})`);
      }
      await recorder.finish(executionId, 'succeeded');
      log('info', 'sync succeeded', counters);
    } catch (error) {
      const reason = controller.signal.aborted ? (controller.signal.reason as Error) : (error as Error);
      if (reason instanceof Cancelled) {
        await recorder.finish(executionId, 'cancelled', null);
        log('warn', 'sync cancelled');
        throw reason;
      }
      const retryable = !(reason instanceof Cancelled) && (reason as { retryable?: boolean }).retryable !== false && job.attempts < job.maxAttempts;
      const message = reason.message || String(reason);
      if (leaseSignal.aborted) {
        log('warn', `sync interrupted: ${message}`);
      } else {
        await recorder.finish(executionId, retryable ? 'queued' : 'failed', message);
        log('error', retryable ? `sync failed, will retry: ${message}` : `sync failed: ${message}`);
      }
      throw Object.assign(reason, { retryable });
    } finally {
      clearInterval(watch);
      await source?.close();
      await destination?.close();
    }
  };
}
