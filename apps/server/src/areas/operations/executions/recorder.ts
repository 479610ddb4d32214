/** What a worker records about the execution it runs: state, counters, log lines, incremental cursors. */
import type { Logger } from 'pino';
import type { Job, JobQueue } from '../../../platform/jobs.js';
import type { Db } from '../../../platform/db/index.js';
import type { SharedState } from '../../../platform/shared-state/index.js';
import type { LineageService } from '../../governance/lineage/service.js';
import type { ExecutionStatus, ExecutionsRepository, RunCounters } from './repository.js';
import type { SyncParams } from './service.js';

export type RunRecorder = ReturnType<typeof createRunRecorder>;

/** Ids of executions whose cancellation was requested (a JSON array), published by the API, heard by every worker. */
export const CANCEL_CHANNEL = 'operations.cancel';

/**
 * `{ execution_id, project_id, status }` of a run that has just ended, published after its outcome
 * was committed. A hint for whoever reacts to runs (alert rules): a lost message is found by their
 * next read of the database.
 */
export const RUN_FINISHED_CHANNEL = 'operations.run_finished';

export function createRunRecorder(deps: {
  db: Db;
  repository: ExecutionsRepository;
  shared: SharedState;
  logger: Logger;
  queue: JobQueue;
  cancelPollMs: number;
  lineage: LineageService;
}) {
  const { db, repository, shared, logger, queue } = deps;

  // The runs of this process waiting to hear of their cancellation; subscribed on the first run.
  const cancelListeners = new Map<string, Set<() => void>>();
  let subscribed: Promise<unknown> | undefined;
  const subscribeToCancels = () =>
    (subscribed ??= shared
      .subscribe(CANCEL_CHANNEL, (message) => {
        for (const id of JSON.parse(message) as string[])
          for (const listener of cancelListeners.get(id) ?? []) listener();
      })
      .catch((error: Error) => {
        subscribed = undefined; // the database poll still finds the request; the next run tries again
        logger.warn({ err: { message: error.message } }, 'subscribing to cancel requests failed');
      }));

  const announceFinished = async (id: string) => {
    const row = await repository.find(db, id).catch(() => undefined);
    if (!row || !['succeeded', 'failed', 'cancelled'].includes(row.status)) return;
    await shared
      .publish(
        RUN_FINISHED_CHANNEL,
        JSON.stringify({ execution_id: id, project_id: row.project_id, status: row.status }),
      )
      .catch(() => undefined);
  };

  /** The item a run runs, as lineage names its job: its pipeline, the subject its params name, else its source and destination. */
  const itemOf = (row: { pipeline_id: string | null; params: Record<string, unknown> }) =>
    row.pipeline_id ??
    (typeof row.params.subject_id === 'string' ? row.params.subject_id : null) ??
    (typeof row.params.source_connector_id === 'string'
      ? `${row.params.source_connector_id}>${String(row.params.destination_connector_id)}`
      : null);
  /** Lineage's RunEvent for a run's outcome, in the transaction that records it (retention sweeps move no data). */
  const reportFinished = async (trx: Db, id: string) => {
    const row = await repository.find(trx, id);
    if (!row || row.kind === 'retention_sweep') return;
    await deps.lineage.runFinished(trx, {
      runId: id,
      projectId: row.project_id,
      kind: row.kind,
      itemId: itemOf(row),
      status: row.status,
      error: row.error,
      at: row.finished_at ?? new Date(),
    });
  };
  /** Records a run's outcome and its RunEvent together. */
  const finishRun = async (trx: Db, id: string, status: ExecutionStatus, error: string | null) => {
    await repository.finish(trx, id, status, error);
    await reportFinished(trx, id);
  };

  /** Under the execution's row lock: finishes it when its coordinator is done and no range is pending. */
  const finishIfComplete = async (trx: Db, id: string) => {
    const execution = await trx
      .selectFrom('executions')
      .select(['status', 'coordinator_done', 'project_id', 'params'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!execution || execution.status !== 'running' || !execution.coordinator_done) return false;
    const pending = await trx
      .selectFrom('execution_ranges')
      .select('range_no')
      .where('execution_id', '=', id)
      .where('state', '=', 'pending')
      .limit(1)
      .executeTakeFirst();
    if (pending) return false;
    await repository.finish(trx, id, 'succeeded', null);
    // The lineage feed: each stream's source dataset fed its destination table.
    const params = execution.params as unknown as SyncParams;
    const totals = await repository.find(trx, id);
    await deps.lineage.record(
      trx,
      params.streams.map((stream) => ({
        execution_id: id,
        project_id: execution.project_id,
        pipeline_id: null,
        source_connector_id: params.source_connector_id,
        source_namespace: stream.namespace ?? null,
        source_name: stream.name,
        destination_connector_id: params.destination_connector_id,
        destination_namespace: params.destination_namespace ?? null,
        destination_name: stream.destination_name ?? stream.name,
        rows_written: String(Number(totals?.rows_written ?? 0) + Number(totals?.range_rows_written ?? 0)),
      })),
    );
    await deps.lineage.recordRun(trx, {
      runId: id,
      projectId: execution.project_id,
      job: { kind: 'sync', itemId: itemOf({ pipeline_id: null, params: execution.params }) },
      inputs: params.streams.map((stream) => ({
        connector_id: params.source_connector_id,
        namespace: stream.namespace ?? null,
        name: stream.name,
      })),
      outputs: params.streams.map((stream, i) => ({
        connector_id: params.destination_connector_id,
        namespace: params.destination_namespace ?? null,
        name: stream.destination_name ?? stream.name,
        // A sync copies every column as it is.
        copyOf: i,
      })),
    });
    await reportFinished(trx, id);
    return true;
  };

  return {
    find: (id: string) => repository.find(db, id),
    /**
     * Records the ranges of a stream (once: a re-run coordinator finds them) and enqueues a job for
     * every range that has none yet, in one transaction.
     */
    async planRanges(id: string, streamIndex: number, ranges: Array<{ from: unknown; to: unknown }>) {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('execution_ranges')
          .values(
            ranges.map((r, rangeNo) => ({
              execution_id: id,
              stream_index: streamIndex,
              range_no: rangeNo,
              range_from: JSON.stringify(r.from),
              range_to: JSON.stringify(r.to),
              job_id: null,
            })),
          )
          .onConflict((oc) => oc.columns(['execution_id', 'stream_index', 'range_no']).doNothing())
          .execute();
        const unqueued = await trx
          .selectFrom('execution_ranges')
          .select('range_no')
          .where('execution_id', '=', id)
          .where('stream_index', '=', streamIndex)
          .where('job_id', 'is', null)
          .execute();
        for (const { range_no } of unqueued) {
          const jobId = await queue.enqueue(
            trx,
            'sync_range',
            { execution_id: id, stream_index: streamIndex, range_no },
            { maxAttempts: 5 },
          );
          await trx
            .updateTable('execution_ranges')
            .set({ job_id: jobId })
            .where('execution_id', '=', id)
            .where('stream_index', '=', streamIndex)
            .where('range_no', '=', range_no)
            .execute();
        }
      });
    },
    range: (id: string, streamIndex: number, rangeNo: number) =>
      db
        .selectFrom('execution_ranges')
        .selectAll()
        .where('execution_id', '=', id)
        .where('stream_index', '=', streamIndex)
        .where('range_no', '=', rangeNo)
        .executeTakeFirst(),
    /**
     * A range is done: its counters join the execution's, which finishes if this was the last part.
     * Committed only while `job` (the range's) still holds its lease.
     */
    async rangeDone(job: Job, id: string, streamIndex: number, rangeNo: number, counts: RunCounters) {
      const finished = await db.transaction().execute(async (trx) => {
        await queue.holdLease(trx, job);
        await trx.selectFrom('executions').select('id').where('id', '=', id).forUpdate().execute();
        await trx
          .updateTable('execution_ranges')
          .set({
            state: 'done',
            rows_read: String(counts.rows_read),
            rows_written: String(counts.rows_written),
            bytes_read: String(counts.bytes_read),
            bytes_written: String(counts.bytes_written),
          })
          .where('execution_id', '=', id)
          .where('stream_index', '=', streamIndex)
          .where('range_no', '=', rangeNo)
          .where('state', '=', 'pending')
          .execute();
        return finishIfComplete(trx, id);
      });
      if (finished) void announceFinished(id);
      return finished;
    },
    /**
     * The coordinator has done its own streams; the execution ends now unless ranges are still
     * running. Committed only while `job` (the coordinator's) still holds its lease.
     */
    async coordinatorDone(job: Job, id: string) {
      const finished = await db.transaction().execute(async (trx) => {
        await queue.holdLease(trx, job);
        await trx.updateTable('executions').set({ coordinator_done: true }).where('id', '=', id).execute();
        return finishIfComplete(trx, id);
      });
      if (finished) void announceFinished(id);
      return finished;
    },
    /** Starts an attempt (and, on the first, the run's START RunEvent); undefined when the execution no longer wants to run. */
    async start(id: string) {
      const row = await repository.start(db, id);
      if (row && row.kind !== 'retention_sweep')
        await deps.lineage
          .runStarted(db, {
            runId: id,
            projectId: row.project_id,
            kind: row.kind,
            itemId: itemOf(row),
            at: row.started_at ?? new Date(),
          })
          .catch((error: Error) =>
            logger.warn(
              { err: { message: error.message }, execution_id: id },
              'recording the START lineage event failed',
            ),
          );
      return row;
    },
    progress: (id: string, counters: RunCounters) => repository.progress(db, id, counters),
    async finish(id: string, status: ExecutionStatus, error: string | null = null) {
      await db.transaction().execute((trx) => finishRun(trx, id, status, error));
      void announceFinished(id);
    },
    /** Announces on RUN_FINISHED_CHANNEL a run whose outcome the caller has committed in its own transaction. */
    announceFinished,
    /** In the caller's transaction (the one that commits the run's results): final counters and succeeded. */
    async succeed(trx: Db, id: string, counters: RunCounters) {
      await repository.progress(trx, id, counters);
      await finishRun(trx, id, 'succeeded', null);
    },
    /**
     * In the caller's transaction: final counters and the outcome of a run that finished, `partially_failed`
     * (with the reason) when some of its rows failed.
     */
    async complete(
      trx: Db,
      id: string,
      counters: RunCounters,
      outcome: { status: 'succeeded' | 'partially_failed'; error: string | null },
    ) {
      await repository.progress(trx, id, counters);
      await finishRun(trx, id, outcome.status, outcome.error);
    },
    /** Settles a failed attempt (queued again or failed) only while `job` still holds its lease; else throws LeaseLost. */
    settleAttempt: (job: Job, id: string, status: 'queued' | 'failed', error: string) =>
      db
        .transaction()
        .execute(async (trx) => {
          await queue.holdLease(trx, job);
          await finishRun(trx, id, status, error);
        })
        .then(() => {
          if (status === 'failed') void announceFinished(id);
        }),
    cancelRequested: (id: string) => repository.cancelRequested(db, id),
    /**
     * Calls `onCancel` once when the execution's cancellation is requested: at once by pub/sub, or
     * at the latest after the database poll (SVC_RUN_CANCEL_POLL_SECONDS). Returns the function that stops watching.
     */
    watchCancel(id: string, onCancel: () => void): () => void {
      let done = false;
      const fire = () => {
        if (done) return;
        done = true;
        stop();
        onCancel();
      };
      const listeners = cancelListeners.get(id) ?? new Set();
      listeners.add(fire);
      cancelListeners.set(id, listeners);
      // Checked once the subscription stands: a request committed before is in the database, one after is heard.
      void subscribeToCancels().then(() =>
        repository.cancelRequested(db, id).then(
          (yes) => yes && fire(),
          () => undefined,
        ),
      );
      const poll = setInterval(
        () =>
          void repository.cancelRequested(db, id).then(
            (yes) => yes && fire(),
            () => undefined,
          ),
        deps.cancelPollMs,
      );
      const stop = () => {
        clearInterval(poll);
        listeners.delete(fire);
        if (listeners.size === 0) cancelListeners.delete(id);
      };
      return () => {
        done = true;
        stop();
      };
    },
    /**
     * In the queue's transaction that fails a job whose worker stopped on its last attempt: fails
     * the execution (when still unfinished), with the reason in its log. `failExecution: false` for
     * a job that only follows up a finished execution: the reason is logged, the status kept.
     */
    async settleAbandoned(trx: Db, id: string, error: string, options: { failExecution: boolean }) {
      const failed = options.failExecution ? await repository.failUnfinished(trx, id, error) : false;
      if (failed) await reportFinished(trx, id);
      await repository.addLog(trx, { execution_id: id, level: 'error', message: error, fields: {} });
      logger.error({ execution_id: id, failed }, error);
    },
    async log(
      id: string,
      level: 'debug' | 'info' | 'warn' | 'error',
      message: string,
      fields: Record<string, unknown> = {},
    ) {
      logger[level]({ execution_id: id, ...fields }, message);
      await repository.addLog(db, { execution_id: id, level, message, fields });
      // Live tails (SSE) subscribe to this channel.
      await shared
        .publish(`executions.${id}.logs`, JSON.stringify({ ts: new Date().toISOString(), level, message, ...fields }))
        .catch(() => undefined);
    },
    cursor: (key: { source: string; destination: string; dataset: string }) => repository.cursor(db, key),
    saveCursor: (key: { source: string; destination: string; dataset: string }, column: string, value: unknown) =>
      repository.saveCursor(db, key, column, value),
  };
}
