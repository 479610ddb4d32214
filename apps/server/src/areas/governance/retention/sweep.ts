/**
 * One sweep of one policy: its target opened with the cutoffs fixed once, then bounded batches (each
 * its own short transaction, children before parents) until a batch finds nothing left, with the
 * counts recorded on the sweep after every batch. The preview opens the target the same way and
 * only counts.
 */
import type { Logger } from 'pino';
import type { Counter, Histogram } from 'prom-client';
import type { Db } from '../../../platform/db/index.js';
import type { PolicyRow, RetentionRepository } from './repository.js';
import { addCounts, totalOf, type Counts, type RetentionTargets, type TargetSweep } from './targets.js';

export interface SweepResult {
  cutoff: Date;
  counts: Counts;
  batches: number;
  details: Record<string, unknown>;
}

export interface SweepHooks {
  signal?: AbortSignal;
  /** After each batch, with the totals so far. */
  onBatch?(counts: Counts, batches: number): void;
}

export type SweepRunner = ReturnType<typeof createSweepRunner>;

export function createSweepRunner(deps: {
  db: Db;
  repository: RetentionRepository;
  targets: RetentionTargets;
  batchRows: number;
  logger: Logger;
  rowsDeleted: Counter<'target'>;
  batchSeconds: Histogram<'target'>;
}) {
  const { db, repository, targets } = deps;

  const open = async (policy: PolicyRow, sweepId: string, now = new Date()): Promise<TargetSweep> => {
    const kind = targets.get(policy.target_kind);
    if (!kind) throw new Error(`retention target kind ${policy.target_kind} is not registered on this instance`);
    return kind.open({
      policyId: policy.id,
      projectId: policy.project_id,
      config: policy.target,
      maxAgeSeconds: Number(policy.max_age_seconds),
      maxRows: policy.max_rows === null ? null : Number(policy.max_rows),
      keepLastFailed: policy.keep_last_failed,
      now,
      sweepId,
    });
  };

  /** Runs the sweep `sweepId` to its end (the caller records how it finished). */
  const sweep = async (sweepId: string, hooks: SweepHooks = {}): Promise<SweepResult> => {
    const row = await repository.findSweep(db, sweepId);
    if (!row) throw new Error(`retention sweep ${sweepId} does not exist`);
    const policy = await repository.find(db, row.policy_id);
    if (!policy) throw new Error('the retention policy was deleted');
    await repository.updateSweep(db, sweepId, { status: 'running', started_at: new Date(), error: null });
    const target = await open(policy, sweepId);
    const counts: Counts = {};
    let batches = 0;
    try {
      await repository.updateSweep(db, sweepId, { cutoff: target.cutoff });
      for (;;) {
        hooks.signal?.throwIfAborted();
        const stop = deps.batchSeconds.startTimer({ target: policy.target_kind });
        const deleted = await target.deleteBatch(deps.batchRows);
        stop();
        const total = totalOf(deleted);
        if (total === 0) break;
        addCounts(counts, deleted);
        batches += 1;
        deps.rowsDeleted.inc({ target: policy.target_kind }, total);
        await repository.updateSweep(db, sweepId, { counts, batches });
        hooks.onBatch?.(counts, batches);
      }
    } finally {
      await target.close();
    }
    return { cutoff: target.cutoff, counts, batches, details: target.details() };
  };

  const finish = (trx: Db, sweepId: string, result: SweepResult) =>
    repository.updateSweep(trx, sweepId, {
      status: 'succeeded',
      counts: result.counts,
      batches: result.batches,
      details: result.details,
      finished_at: new Date(),
    });

  const fail = (sweepId: string, error: Error) =>
    repository.updateSweep(db, sweepId, { status: 'failed', error: error.message, finished_at: new Date() });

  return {
    sweep,
    finish,
    fail,
    async preview(policy: PolicyRow, sweepId: string) {
      const target = await open(policy, sweepId);
      try {
        return { cutoff: target.cutoff, counts: await target.count() };
      } finally {
        await target.close();
      }
    },
    /**
     * The sweep an execution runs: its own, or (a retried execution) a new one of the same policy,
     * so that each sweep keeps the counts of one execution.
     */
    async sweepOfExecution(sweepId: string, executionId: string): Promise<string> {
      const row = await repository.findSweep(db, sweepId);
      if (!row) throw new Error('the retention policy of this sweep was deleted');
      if (row.execution_id === executionId) return row.id;
      const again = await repository.insertSweep(db, {
        policy_id: row.policy_id,
        project_id: row.project_id,
        execution_id: executionId,
        trigger: row.trigger,
        cutoff: null,
        error: null,
        started_at: null,
        finished_at: null,
      });
      return again.id;
    },
    /** A sweep with no execution (instance-wide): run here, recorded on the sweep alone. */
    async runAlone(sweepId: string) {
      try {
        const result = await sweep(sweepId);
        await finish(db, sweepId, result);
        deps.logger.info({ sweep_id: sweepId, counts: result.counts, batches: result.batches }, 'retention sweep done');
      } catch (error) {
        await fail(sweepId, error as Error);
        throw error;
      }
    },
  };
}
