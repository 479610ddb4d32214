/**
 * The durable job queue, in the framework PostgreSQL: a job is inserted in the same transaction as the
 * execution it runs, claimed with FOR UPDATE SKIP LOCKED under a lease that the worker renews while it
 * works. A worker that dies stops renewing; once its lease expires the job is claimable again, unless
 * that was its last attempt: then it is failed (a job that kills its worker must not loop forever).
 * A worker that cannot confirm its lease stops the run before the lease ends (self-fencing), so two
 * workers never run the same job at once. (docs/decisions/0005-job-queue.md: why not pg-boss.)
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Generated } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Db } from './db/index.js';
import type { JobKind, JobPayloads } from './job-kinds.js';

export interface JobsTable {
  id: Generated<string>;
  kind: string;
  payload: Record<string, unknown>;
  state: Generated<'queued' | 'active' | 'done' | 'failed'>;
  run_at: Generated<Date>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  locked_by: string | null;
  lease_expires_at: Date | null;
  last_error: string | null;
  created_at: Generated<Date>;
  finished_at: Date | null;
}

declare module './db/schema.js' {
  interface Database {
    jobs: JobsTable;
  }
}

export interface Job<K extends JobKind = JobKind> {
  id: string;
  kind: K;
  payload: JobPayloads[K];
  attempts: number;
  maxAttempts: number;
  /** The worker holding the job's lease (the one that claimed it). */
  lockedBy: string;
}

export type JobHandler<K extends JobKind = JobKind> = (job: Job<K>, signal: AbortSignal) => Promise<void>;

/** The handlers an area registers, by job kind (platform/job-kinds.ts). */
export type JobHandlers = { [K in JobKind]?: JobHandler<K> };

/** The run no longer holds its job's lease: it must stop and write nothing more (another worker may run it). */
export class LeaseLost extends Error {
  readonly retryable = false;
}

/**
 * Settles what a job was doing (its execution) when the job is failed for good without a worker to
 * do it, in the transaction that fails the job.
 */
export type AbandonedJobSettler = (trx: Db, job: Job, error: string) => Promise<void>;

type JobRow = {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
  locked_by: string | null;
};
// The database holds what enqueue() wrote for the row's kind.
const jobOf = (row: JobRow): Job => ({
  id: row.id,
  kind: row.kind as JobKind,
  payload: row.payload as JobPayloads[JobKind],
  attempts: row.attempts,
  maxAttempts: row.max_attempts,
  lockedBy: row.locked_by ?? '',
});

/** Why a job whose worker stopped on its last attempt is not run again. */
export const abandonedError = (job: Pick<Job, 'attempts' | 'maxAttempts'>) =>
  `the worker running attempt ${job.attempts} of ${job.maxAttempts} stopped without finishing it (lease expired); not retried`;

/** The PostgreSQL notification channel on which enqueue() announces a new job (its payload: the job kind). */
export const JOBS_CHANNEL = 'svc_jobs';

/**
 * Listens on JOBS_CHANNEL with a connection of its own and calls `onJob` for each notification. A
 * lost connection is opened again after a pause (1 s, doubling to 30 s); meanwhile the worker's poll
 * still finds every job, only later.
 */
export function listenForJobs(connection: pg.ClientConfig, logger: Logger, onJob: (kind: string) => void) {
  let client: pg.Client | undefined;
  let stopped = false;
  let retryMs = 1000;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    if (stopped) return;
    const created = new pg.Client({ ...connection, application_name: 'svc-job-listener' });
    const reconnect = (error?: Error) => {
      if (client !== created) return;
      client = undefined;
      created.removeAllListeners();
      created.on('error', () => undefined);
      void created.end().catch(() => undefined);
      if (stopped) return;
      logger.warn({ err: error && { message: error.message }, retry_ms: retryMs }, 'job listener lost its connection');
      retry = setTimeout(() => void connect(), retryMs);
      retryMs = Math.min(30_000, retryMs * 2);
    };
    client = created;
    created.on('notification', (message) => onJob(message.payload ?? ''));
    created.on('error', reconnect);
    created.on('end', () => reconnect());
    try {
      await created.connect();
      await created.query(`listen ${JOBS_CHANNEL}`);
      retryMs = 1000;
      // Jobs enqueued while no one listened are found by the next claim.
      onJob('');
    } catch (error) {
      reconnect(error as Error);
    }
  };
  void connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}

export function createJobQueue(db: Db) {
  return {
    async enqueue<K extends JobKind>(
      trx: Db,
      kind: K,
      payload: JobPayloads[K],
      options: { maxAttempts?: number } = {},
    ): Promise<string> {
      const row = await trx
        .insertInto('jobs')
        .values({
          kind,
          payload,
          max_attempts: options.maxAttempts ?? 3,
          locked_by: null,
          lease_expires_at: null,
          last_error: null,
          finished_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // Delivered when the transaction commits (never for one rolled back): idle workers claim at once
      // instead of at their next poll. Notifications of one transaction with the same kind fold into one.
      await sql`select pg_notify(${JOBS_CHANNEL}, ${kind})`.execute(trx);
      return row.id;
    },

    /**
     * Claims the oldest due job of these kinds, or one whose worker's lease expired with attempts
     * left (one without is for failAbandoned).
     */
    async claim(workerId: string, kinds: string[], leaseMs: number): Promise<Job | undefined> {
      const result = await sql<JobRow>`
        update jobs set state = 'active', locked_by = ${workerId}, attempts = attempts + 1,
               lease_expires_at = now() + ${`${leaseMs} milliseconds`}::interval
         where id = (
           select id from jobs
            where kind = any(${kinds})
              and ((state = 'queued' and run_at <= now()) or (state = 'active' and lease_expires_at < now() and attempts < max_attempts))
            order by run_at
            for update skip locked
            limit 1)
        returning id, kind, payload, attempts, max_attempts, locked_by`.execute(db);
      const row = result.rows[0];
      return row && jobOf(row);
    },

    /**
     * Fails the jobs whose worker stopped (lease expired) on their last attempt: a job that kills its
     * worker (out of memory, SIGKILL) is not claimed again. Each is settled by `settle` in the same
     * transaction; SKIP LOCKED lets any number of workers sweep at once, each job settled once.
     */
    async failAbandoned(
      kinds: string[],
      settle: AbandonedJobSettler,
      limit = 10,
    ): Promise<Array<{ job: Job; error: string }>> {
      return db.transaction().execute(async (trx) => {
        const rows = await sql<JobRow>`
          select id, kind, payload, attempts, max_attempts, locked_by from jobs
           where kind = any(${kinds}) and state = 'active' and lease_expires_at < now() and attempts >= max_attempts
           order by lease_expires_at
           for update skip locked
           limit ${limit}`.execute(trx);
        const failed: Array<{ job: Job; error: string }> = [];
        for (const row of rows.rows) {
          const job = jobOf(row);
          const error = abandonedError(job);
          await trx
            .updateTable('jobs')
            .set({ state: 'failed', lease_expires_at: null, last_error: error, finished_at: sql`now()` })
            .where('id', '=', job.id)
            .execute();
          await settle(trx, job, error);
          failed.push({ job, error });
        }
        return failed;
      });
    },

    /**
     * Inside the transaction that commits a run's results: throws LeaseLost unless the job's lease is
     * still this worker's and unexpired, and holds the job's row until commit so that no other worker
     * can claim it meanwhile. (The fence in the database; the worker's own timer is the other half.)
     */
    async holdLease(trx: Db, job: Job): Promise<void> {
      const held = await trx
        .selectFrom('jobs')
        .select('id')
        .where('id', '=', job.id)
        .where('locked_by', '=', job.lockedBy)
        .where('state', '=', 'active')
        .where('lease_expires_at', '>', sql<Date>`now()`)
        .forUpdate()
        .executeTakeFirst();
      if (!held)
        throw new LeaseLost('this run lost its job lease (another worker may run it); its results were not committed');
    },

    /** Extends the lease; false when the job is no longer ours (it expired and someone else took it). */
    async renew(jobId: string, workerId: string, leaseMs: number): Promise<boolean> {
      const result = await db
        .updateTable('jobs')
        .set({ lease_expires_at: sql`now() + ${`${leaseMs} milliseconds`}::interval` })
        .where('id', '=', jobId)
        .where('locked_by', '=', workerId)
        .where('state', '=', 'active')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async complete(jobId: string, workerId: string): Promise<void> {
      await db
        .updateTable('jobs')
        .set({ state: 'done', finished_at: sql`now()`, lease_expires_at: null })
        .where('id', '=', jobId)
        .where('locked_by', '=', workerId)
        .where('state', '=', 'active')
        .execute();
    },

    /** Failed: back to the queue after an exponential backoff while attempts remain and retry is wanted. */
    async fail(job: Job, workerId: string, error: string, retry: boolean): Promise<'retrying' | 'failed'> {
      const again = retry && job.attempts < job.maxAttempts;
      const backoffSeconds = Math.min(300, 2 ** job.attempts);
      await db
        .updateTable('jobs')
        .set(
          again
            ? {
                state: 'queued',
                locked_by: null,
                lease_expires_at: null,
                last_error: error,
                run_at: sql`now() + ${`${backoffSeconds} seconds`}::interval`,
              }
            : { state: 'failed', lease_expires_at: null, last_error: error, finished_at: sql`now()` },
        )
        .where('id', '=', job.id)
        .where('locked_by', '=', workerId)
        .where('state', '=', 'active')
        .execute();
      return again ? 'retrying' : 'failed';
    },

    /** Gives a job back without counting the attempt (this worker is shutting down). */
    async release(job: Job, workerId: string): Promise<void> {
      await db
        .updateTable('jobs')
        .set({ state: 'queued', locked_by: null, lease_expires_at: null, attempts: job.attempts - 1 })
        .where('id', '=', job.id)
        .where('locked_by', '=', workerId)
        .where('state', '=', 'active')
        .execute();
    },

    /** Ends a job that no longer needs to run (its execution was cancelled before it started). */
    async cancel(trx: Db, jobId: string): Promise<void> {
      await trx
        .updateTable('jobs')
        .set({ state: 'done', finished_at: sql`now()` })
        .where('id', '=', jobId)
        .where('state', '=', 'queued')
        .execute();
    },

    async depth(): Promise<{ queued: number; active: number }> {
      const rows = await db
        .selectFrom('jobs')
        .select(['state', sql<string>`count(*)`.as('n')])
        .where('state', 'in', ['queued', 'active'])
        .groupBy('state')
        .execute();
      const count = (state: string) => Number(rows.find((r) => r.state === state)?.n ?? 0);
      return { queued: count('queued'), active: count('active') };
    },
  };
}

export type JobQueue = ReturnType<typeof createJobQueue>;

export interface JobWorker {
  readonly id: string;
  stop(): Promise<void>;
}

/**
 * What the areas give a worker process: the handlers of the job kinds they run, how an abandoned
 * job's execution is settled, and the loops they run beside the queue (CDC readers). The worker
 * depends on this and on the engine, never on an area's internals.
 */
export interface RunServices {
  queue: JobQueue;
  handlers: JobHandlers;
  settleAbandoned: AbandonedJobSettler;
  /** Executions by status, for the svc_executions gauge. */
  executionCounts(): Promise<Array<{ status: string; n: string }>>;
  /** Starts the areas' long-running loops of one worker process; each is stopped before the queue. */
  startLoops(): Array<{ stop(): Promise<void> }>;
}

export type JobOutcome = 'done' | 'retrying' | 'failed' | 'released' | 'fenced';

/**
 * Pulls jobs with up to `concurrency` at once. While a job runs its lease is renewed every third of
 * the lease. The run's signal aborts (self-fencing) when a renewal finds the job taken over, or when
 * no renewal has been confirmed for three quarters of the lease (the framework database does not
 * answer): the run then stops before the lease ends, and the job is left to expire for another worker.
 * Before each claim the worker fails the jobs whose worker stopped on their last attempt.
 */
export function startJobWorker(options: {
  queue: JobQueue;
  handlers: JobHandlers;
  concurrency: number;
  logger: Logger;
  leaseMs?: number;
  pollMs?: number;
  /** Settles the execution of a job failed because its worker stopped on its last attempt. */
  settleAbandoned?: AbandonedJobSettler;
  onSettled?: (job: Job, outcome: JobOutcome, startedAt: number) => void;
  /** A run stopped because its lease could not be confirmed (`unconfirmed`) or was taken over (`taken_over`). */
  onLeaseLost?: (job: Job, reason: 'unconfirmed' | 'taken_over') => void;
  onAbandoned?: (job: Job) => void;
  /** The framework database: when given, an idle worker is woken by enqueue's notification instead of its next poll. */
  listen?: { connection: pg.ClientConfig };
}): JobWorker {
  const { queue, handlers, concurrency, logger } = options;
  const leaseMs = options.leaseMs ?? 30_000;
  const pollMs = options.pollMs ?? 500;
  const renewEveryMs = Math.max(100, Math.floor(leaseMs / 3));
  // Two renewals may go unanswered; the last quarter of the lease is left for the run to stop.
  const fenceAfterMs = Math.floor((leaseMs * 3) / 4);
  const id = `${process.pid}-${randomUUID().slice(0, 8)}`;
  const kinds = Object.keys(handlers) as JobKind[];
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let stopping = false;
  let wake: (() => void) | undefined;
  let lastSweep = -Infinity;
  // Set by a notification; a claim that started before the job committed does not see it, so the
  // loop claims again instead of sleeping.
  let notified = false;
  const listener =
    options.listen &&
    listenForJobs(options.listen.connection, logger, (kind) => {
      if (kind !== '' && !kinds.includes(kind as JobKind)) return;
      notified = true;
      wake?.();
    });

  /** `claimedAt`: when the claim was sent (performance.now()), so the lease cannot have started earlier. */
  const run = async (job: Job, controller: AbortController, claimedAt: number) => {
    const startedAt = Date.now();
    let confirmedAt = claimedAt;
    let leaseLost = false;
    let fence: NodeJS.Timeout | undefined;
    const loseLease = (reason: 'unconfirmed' | 'taken_over', message: string) => {
      if (leaseLost || controller.signal.aborted) return;
      leaseLost = true;
      clearInterval(heartbeat);
      clearTimeout(fence);
      logger.warn({ job_id: job.id, kind: job.kind, attempt: job.attempts, reason }, message);
      options.onLeaseLost?.(job, reason);
      controller.abort(new LeaseLost(message));
    };
    const armFence = () => {
      clearTimeout(fence);
      fence = setTimeout(
        () =>
          loseLease(
            'unconfirmed',
            `lease renewal not confirmed for ${Math.round(performance.now() - confirmedAt)} ms; run stopped before its ${leaseMs} ms lease ends`,
          ),
        Math.max(0, confirmedAt + fenceAfterMs - performance.now()),
      );
    };
    const heartbeat = setInterval(() => {
      const sentAt = performance.now();
      queue.renew(job.id, id, leaseMs).then(
        (ours) => {
          if (!ours) loseLease('taken_over', "lease lost: the job is no longer this worker's");
          else if (!leaseLost && sentAt > confirmedAt) {
            confirmedAt = sentAt;
            armFence();
          }
        },
        (error: Error) => logger.warn({ err: { message: error.message }, job_id: job.id }, 'lease renewal failed'),
      );
    }, renewEveryMs);
    armFence();
    let outcome: JobOutcome;
    try {
      await (handlers[job.kind] as JobHandler)(job, controller.signal);
      // A run that lost its lease marks nothing, even if its handler got to the end.
      if (leaseLost) throw controller.signal.reason;
      await queue.complete(job.id, id);
      outcome = 'done';
    } catch (error) {
      if (leaseLost || error instanceof LeaseLost) {
        // Not ours to settle: the lease ends on its own and another worker takes the job over.
        outcome = 'fenced';
      } else if (stopping && controller.signal.aborted) {
        await queue.release(job, id).catch(() => undefined);
        outcome = 'released';
      } else {
        const retry = (error as { retryable?: boolean }).retryable !== false && !controller.signal.aborted;
        outcome = await queue.fail(job, id, (error as Error).message, retry).catch(() => 'failed' as const);
      }
    } finally {
      clearInterval(heartbeat);
      clearTimeout(fence);
    }
    options.onSettled?.(job, outcome, startedAt);
  };

  /** At most once per poll interval: fails the jobs whose worker stopped on their last attempt. */
  const sweepAbandoned = async () => {
    if (performance.now() - lastSweep < pollMs) return;
    lastSweep = performance.now();
    try {
      for (const { job, error } of await queue.failAbandoned(
        kinds,
        options.settleAbandoned ?? (async () => undefined),
      )) {
        logger.error({ job_id: job.id, kind: job.kind, attempts: job.attempts, max_attempts: job.maxAttempts }, error);
        options.onAbandoned?.(job);
      }
    } catch (error) {
      logger.warn({ err: { message: (error as Error).message } }, 'failing abandoned jobs failed');
    }
  };

  const loop = async () => {
    while (!stopping) {
      // A worker with every slot busy still sweeps, once a poll interval.
      await sweepAbandoned();
      if (running.size >= concurrency) {
        await Promise.race([...running.values()].map((r) => r.done).concat(sleep(pollMs)));
        continue;
      }
      let job: Job | undefined;
      const claimedAt = performance.now();
      notified = false;
      try {
        job = await queue.claim(id, kinds, leaseMs);
      } catch (error) {
        logger.warn({ err: { message: (error as Error).message } }, 'job claim failed');
      }
      if (!job) {
        if (notified) continue;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pollMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        continue;
      }
      const controller = new AbortController();
      const claimed = job;
      const done = run(claimed, controller, claimedAt).finally(() => running.delete(claimed.id));
      running.set(claimed.id, { controller, done });
    }
  };
  const looping = loop();
  logger.info({ worker_id: id, concurrency, kinds }, 'job worker started');

  return {
    id,
    /** Stops claiming, aborts the jobs in hand and gives them back to the queue for another worker. */
    async stop() {
      stopping = true;
      wake?.();
      await listener?.stop();
      for (const { controller } of running.values()) controller.abort(new Error('worker shutting down'));
      await looping;
      await Promise.allSettled([...running.values()].map((r) => r.done));
    },
  };
}
