/**
 * Runs a project's retention sweep as an execution: the sweep's batches, progress after each (rows
 * deleted so far), and the final counts committed with the succeeded status while the lease is held.
 */
import type { Log } from '@svc/engine';
import type { Db } from '../../../platform/db/index.js';
import type { Job, JobHandler, JobQueue } from '../../../platform/jobs.js';
import type { RunRecorder } from '../../operations/executions/recorder.js';
import { settleFailure, watchRun } from '../../operations/executions/run-control.js';
import type { SweepRunner } from './sweep.js';
import { totalOf } from './targets.js';

export function createSweepHandler(deps: {
  db: Db;
  queue: JobQueue;
  recorder: RunRecorder;
  sweeps: SweepRunner;
}): JobHandler<'retention_sweep'> {
  const { recorder } = deps;
  return async (job: Job<'retention_sweep'>, leaseSignal: AbortSignal) => {
    const executionId = job.payload.execution_id;
    const execution = await recorder.start(executionId);
    if (!execution) return; // cancelled or finished meanwhile
    const params = execution.params as { sweep_id: string; policy_name: string; target_kind: string };
    const log: Log = (level, message, fields) =>
      void recorder.log(executionId, level, message, fields).catch(() => undefined);
    const watch = watchRun(recorder, executionId, leaseSignal);
    let sweepId: string | undefined;
    let lastProgress = 0;
    try {
      sweepId = await deps.sweeps.sweepOfExecution(params.sweep_id, executionId);
      log('info', `retention sweep of ${params.policy_name} (${params.target_kind}) started`, { sweep_id: sweepId });
      const result = await deps.sweeps.sweep(sweepId, {
        signal: watch.signal,
        onBatch: (counts, batches) => {
          if (Date.now() - lastProgress < 1000) return;
          lastProgress = Date.now();
          const total = totalOf(counts);
          void recorder
            .progress(executionId, { rows_read: total, rows_written: total, bytes_read: 0, bytes_written: 0 })
            .catch(() => undefined);
          log('debug', `${total} rows deleted in ${batches} batches so far`, { counts });
        },
      });
      const total = totalOf(result.counts);
      await deps.db.transaction().execute(async (trx) => {
        await deps.queue.holdLease(trx, job);
        await deps.sweeps.finish(trx, sweepId!, result);
        await recorder.succeed(trx, executionId, {
          rows_read: total,
          rows_written: total,
          bytes_read: 0,
          bytes_written: 0,
        });
      });
      log('info', `retention sweep succeeded: ${total} rows deleted in ${result.batches} batches`, {
        cutoff: result.cutoff.toISOString(),
        counts: result.counts,
        ...result.details,
      });
    } catch (error) {
      const reason = watch.signal.aborted ? (watch.signal.reason as Error) : (error as Error);
      if (sweepId) await deps.sweeps.fail(sweepId, reason).catch(() => undefined);
      await settleFailure(recorder, job, executionId, reason, leaseSignal, log, 'retention sweep');
    } finally {
      watch.stop();
    }
  };
}
