/**
 * Loads a batch of an inbox's accepted requests: the bodies become rows (types inferred over the
 * batch), written through the destination connector in one write per kind of body (JSON and NDJSON
 * together, CSV apart), each exactly once (the write's run id is the batch's). The requests are
 * marked loaded, and the execution succeeds, in one transaction while the job holds its lease; a
 * load retried after a crash takes the same batch again, which the destination does not write twice.
 */
import {
  MISMATCH,
  RecordInference,
  convertCell,
  type ConnectorHandle,
  type Log,
  type RecordBatch,
  type Value,
} from '@svc/engine';
import type { Db } from '../../../platform/db/index.js';
import type { Job, JobHandler, JobQueue } from '../../../platform/jobs.js';
import type { LineageService } from '../../governance/lineage/service.js';
import type { RunRecorder } from '../../operations/executions/recorder.js';
import { settleFailure, watchRun } from '../../operations/executions/run-control.js';
import type { IngestMetrics } from '../file-ingestions/file-ingestion.job.js';
import { writeRequest } from '../file-ingestions/loader.js';
import { kindOf, recordsOf, type BodyRecord } from './bodies.js';
import type { InboxesRepository } from './repository.js';

const BATCH_REQUESTS = 10_000;
const WRITE_ROWS = 5000;

class LoadFailed extends Error {
  readonly retryable = false;
}

export function createInboxLoadHandler(deps: {
  db: Db;
  repository: InboxesRepository;
  recorder: RunRecorder;
  queue: JobQueue;
  openConnector: (id: string, log: Log) => Promise<ConnectorHandle>;
  metrics: IngestMetrics;
  /** What each load read and wrote, recorded with its success. */
  lineage: Pick<LineageService, 'recordRun'>;
}): JobHandler<'inbox_load'> {
  const { db, repository, recorder, metrics } = deps;
  return async (job: Job<'inbox_load'>, leaseSignal: AbortSignal) => {
    const executionId = job.payload.execution_id;
    const execution = await recorder.start(executionId);
    if (!execution) return;
    const { inbox_id: inboxId } = execution.params as { inbox_id: string };
    const log: Log = (level, message, fields) =>
      void recorder.log(executionId, level, message, fields).catch(() => undefined);
    const watch = watchRun(recorder, executionId, leaseSignal);
    let handle: ConnectorHandle | undefined;
    let batch: Array<{ id: string; content_type: string | null; body: Buffer | null }> = [];
    try {
      const inbox = await repository.find(db, inboxId);
      if (!inbox) throw new LoadFailed('the inbox was deleted');
      batch = await repository.claimBatch(db, inboxId, executionId, BATCH_REQUESTS);
      // Rows of each request, by kind of body: text cells (CSV) and JSON values infer differently.
      const groups = new Map<boolean, Array<{ request: string; records: BodyRecord[] }>>();
      let bytes = 0;
      for (const request of batch) {
        if (!request.body) continue;
        bytes += request.body.length;
        const kind = kindOf(request.content_type ?? '') ?? 'json';
        const list = groups.get(kind === 'csv') ?? [];
        list.push({ request: request.id, records: recordsOf(kind, request.body) });
        groups.set(kind === 'csv', list);
      }
      const perRequest = new Map<string, number>();
      let written = 0;
      for (const [textual, requests] of groups) {
        const inference = new RecordInference(textual);
        for (const { records } of requests) for (const r of records) inference.observe(r.keys, r.values);
        const columns = inference.result();
        if (columns.length === 0) continue;
        const types = columns.map((c) => c.type);
        async function* batches(): AsyncIterable<RecordBatch> {
          let rows: Value[][] = [];
          for (const { request, records } of requests) {
            for (const record of records) {
              const row = columns.map((column, i) => {
                const at = record.keys.indexOf(column.name);
                const value = convertCell(at < 0 ? null : record.values[at], types[i]!, textual);
                // Types are inferred over every value of the batch: a value always fits.
                return value === MISMATCH ? null : value;
              });
              rows.push(row);
              if (rows.length >= WRITE_ROWS) {
                yield { columns, rows };
                rows = [];
              }
            }
            perRequest.set(request, records.length);
          }
          if (rows.length) yield { columns, rows };
        }
        handle ??= await deps.openConnector(inbox.destination.connector_id, log);
        const summary = await handle.write!(
          writeRequest(inbox.destination, columns, `inbox:${executionId}:${textual ? 'csv' : 'json'}`),
          batches(),
          watch.signal,
        );
        written += summary.rowsWritten;
      }
      const rows = [...perRequest.values()].reduce((a, b) => a + b, 0);
      await db.transaction().execute(async (trx) => {
        await deps.queue.holdLease(trx, job);
        await repository.finishBatch(
          trx,
          batch.map((r) => ({ id: r.id, rows: perRequest.get(r.id) ?? 0 })),
          'loaded',
          null,
        );
        await repository.setLoadExecution(trx, inboxId, null);
        // The inbox's endpoint in (the requests posted to it), the destination table out.
        await deps.lineage.recordRun(trx, {
          runId: executionId,
          projectId: inbox.project_id,
          job: { kind: 'inbox_load', itemId: inbox.id },
          inputs: [{ ol: { namespace: 'svc-inbox', name: `/api/v1/inboxes/${inbox.id}/receive` } }],
          outputs: [
            {
              connector_id: inbox.destination.connector_id,
              namespace: inbox.destination.namespace ?? null,
              name: inbox.destination.table,
              rowCount: rows,
            },
          ],
        });
        await recorder.succeed(trx, executionId, {
          rows_read: rows,
          rows_written: rows,
          bytes_read: bytes,
          bytes_written: 0,
        });
      });
      metrics.items.inc({ source: 'inbox', outcome: 'loaded' }, batch.length);
      metrics.bytes.inc({ source: 'inbox', direction: 'loaded' }, bytes);
      metrics.rows.inc({ source: 'inbox' }, rows);
      log('info', `loaded ${batch.length} request(s): ${rows} rows (${written} written now)`);
    } catch (error) {
      const reason = watch.signal.aborted ? (watch.signal.reason as Error) : (error as Error);
      const final = (reason as { retryable?: boolean }).retryable === false || job.attempts >= job.maxAttempts;
      if (final && !leaseSignal.aborted) {
        await repository
          .finishBatch(
            db,
            batch.map((r) => ({ id: r.id, rows: 0 })),
            'failed',
            reason.message,
          )
          .catch(() => undefined);
        await repository.setLoadExecution(db, inboxId, null).catch(() => undefined);
        metrics.items.inc({ source: 'inbox', outcome: 'rejected' }, batch.length);
      }
      await settleFailure(recorder, job, executionId, reason, leaseSignal, log, 'inbox load');
    } finally {
      watch.stop();
      await handle?.close();
    }
  };
}
