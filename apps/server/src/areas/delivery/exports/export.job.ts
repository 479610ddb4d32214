/**
 * Runs export executions: reads the export as it is now, delivers its rows (runs.ts), then commits
 * the account, the snapshot, the cursor, the failed rows and the execution's end together, while
 * the job's lease is held. A run in which rows failed ends `partially_failed`, never `succeeded`.
 */
import type { Log } from '@svc/engine';
import type { Counter } from 'prom-client';
import type { Job, JobHandler } from '../../../platform/jobs.js';
import type { RunRecorder } from '../../operations/executions/recorder.js';
import { Cancelled, settleFailure, watchRun } from '../../operations/executions/run-control.js';
import type { ExportAccount } from './repository.js';
import type { ExportRunParams, ExportRuns } from './runs.js';
import { ExportSourceError } from './source.js';

export interface ExportJobDeps {
  recorder: RunRecorder;
  runs: ExportRuns;
  /** The export's destination with its secrets (never logged). */
  destinationOf(row: NonNullable<Awaited<ReturnType<ExportRuns['load']>>>): Record<string, unknown>;
  rowsMoved: Counter<'direction'>;
  /** Rows of export runs by outcome (delivered, failed). */
  exportRows: Counter<'outcome'>;
}

const countersOf = (account: ExportAccount) => ({
  rows_read: account.extracted,
  rows_written: account.delivered,
  bytes_read: 0,
  bytes_written: 0,
});

export function createExportHandler(deps: ExportJobDeps): JobHandler<'export'> {
  const { recorder, runs } = deps;
  return async (job: Job<'export'>, leaseSignal: AbortSignal) => {
    const executionId = job.payload.execution_id;
    const execution = await recorder.start(executionId);
    if (!execution) return; // cancelled or finished meanwhile
    const params = execution.params as unknown as ExportRunParams;
    const log: Log = (level, message, fields) =>
      void recorder.log(executionId, level, message, fields).catch(() => undefined);
    const watch = watchRun(recorder, executionId, leaseSignal);
    let lastProgress = 0;
    try {
      const row = await runs.load(params.export_id);
      if (!row) throw new ExportSourceError(`export ${params.export_name} no longer exists`);
      await runs.begin({
        execution_id: executionId,
        export_id: row.id,
        project_id: row.project_id,
        full_resync: params.full_resync,
      });
      log('info', `export ${row.name} started (attempt ${execution.attempts})`, {
        mode: row.mode,
        destination: row.destination['kind'],
        full_resync: params.full_resync,
      });
      const result = await runs.execute({
        row,
        destination: deps.destinationOf(row),
        executionId,
        runTime: execution.created_at,
        fullResync: params.full_resync,
        viewer: execution.created_by ?? row.created_by,
        signal: watch.signal,
        log,
        onProgress: (account) => {
          if (Date.now() - lastProgress < 1000) return;
          lastProgress = Date.now();
          void recorder.progress(executionId, countersOf(account)).catch(() => undefined);
        },
      });
      const status = await runs.complete(job, executionId, row, params, result);
      const { account } = result;
      deps.rowsMoved.inc({ direction: 'read' }, account.extracted);
      deps.rowsMoved.inc({ direction: 'written' }, account.delivered);
      deps.exportRows.inc({ outcome: 'delivered' }, account.delivered);
      deps.exportRows.inc({ outcome: 'failed' }, account.failed);
      log(
        account.failed > 0 ? 'warn' : 'info',
        `export ${status}: ${account.extracted} rows extracted, ${account.added} added, ${account.changed} changed, ${account.removed} removed, ${account.delivered} delivered, ${account.failed} failed`,
        { ...account, files: result.files.map((f) => f.name) },
      );
    } catch (error) {
      const reason = watch.signal.aborted ? (watch.signal.reason as Error) : (error as Error);
      const retryable =
        !(reason instanceof ExportSourceError) && (reason as { retryable?: boolean }).retryable !== false;
      if (!retryable || job.attempts >= job.maxAttempts || reason instanceof Cancelled)
        await runs
          .fail(executionId, reason instanceof Cancelled ? 'cancelled' : 'failed', reason.message)
          .catch(() => undefined);
      await settleFailure(recorder, job, executionId, reason, leaseSignal, log, 'export');
    } finally {
      watch.stop();
    }
  };
}
