/**
 * The durable job queue, in the framework PostgreSQL: a job is inserted in the same transaction as the
 * execution it runs, claimed with FOR UPDATE SKIP LOCKED under a lease that the worker renews while it
 * works. A worker that dies stops renewing; once its lease expires the job is claimable again.
 * (docs/decisions/0005-job-queue.md: why not pg-boss.)
 */
import { randomUUID } from 'node:crypto';
import { sql, type Generated } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from './db/index.js';

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

export interface Job {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  attempts: number;
  maxAttempts: number;
}

export interface JobOutcome {
  /** The job failed; retry it (with backoff) if attempts remain. */
  retry?: boolean;
}

export type JobHandler = (job: Job, signal: AbortSignal) => Promise<void>;

export function createJobQueue(db: Db) {
  return {
    async enqueue(trx: Db, kind: string, payload: Record<string, unknown>, options: { maxAttempts?: number } = {}): Promise<string> {
      const row = await trx
        .insertInto('jobs')
        .values({ kind, payload, max_attempts: options.maxAttempts ?? 3, locked_by: null, lease_expires_at: null, last_error: null, finished_at: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** Claims the oldest due job of these kinds, or one whose worker's lease expired. */
    async claim(workerId: string, kinds: string[], leaseMs: number): Promise<Job | undefined> {
      const result = await sql<{ id: string; kind: string; payload: Record<string, unknown>; attempts: number; max_attempts: number }>`
        update jobs set state = 'active', locked_by = ${workerId}, attempts = attempts + 1,
               lease_expires_at = now() + ${`${leaseMs} milliseconds`}::interval
         where id = (
           select id from jobs
            where kind = any(${kinds}) and ((state = 'queued' and run_at <= now()) or (state = 'active' and lease_expires_at < now()))
            order by run_at
            for update skip locked
            limit 1)
        returning id, kind, payload, attempts, max_attempts`.execute(db);
      const row = result.rows[0];
      return row && { id: row.id, kind: row.kind, payload: row.payload, attempts: row.attempts, maxAttempts: row.max_attempts };
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
      await db.updateTable('jobs').set({ state: 'done', finished_at: sql`now()`, lease_expires_at: null }).where('id', '=', jobId).where('locked_by', '=', workerId).execute();
    },

    /** Failed: back to the queue after an exponential backoff while attempts remain and retry is wanted. */
    async fail(job: Job, workerId: string, error: string, retry: boolean): Promise<'retrying' | 'failed'> {
      const again = retry && job.attempts < job.maxAttempts;
      const backoffSeconds = Math.min(300, 2 ** job.attempts);
      await db
        .updateTable('jobs')
        .set(
          again
            ? { state: 'queued', locked_by: null, lease_expires_at: null, last_error: error, run_at: sql`now() + ${`${backoffSeconds} seconds`}::interval` }
            : { state: 'failed', lease_expires_at: null, last_error: error, finished_at: sql`now()` },
        )
        .where('id', '=', job.id)
        .where('locked_by', '=', workerId)
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
        .execute();
    },

    /** Ends a job that no longer needs to run (its execution was cancelled before it started). */
    async cancel(trx: Db, jobId: string): Promise<void> {
      await trx.updateTable('jobs').set({ state: 'done', finished_at: sql`now()` }).where('id', '=', jobId).where('state', '=', 'queued').execute();
    },

    async depth(): Promise<{ queued: number; active: number }> {
      const rows = await db.selectFrom('jobs').select(['state', sql<string>`count(*)`.as('n')]).where('state', 'in', ['queued', 'active']).groupBy('state').execute();
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
 * Pulls jobs with up to `concurrency` at once. While a job runs its lease is renewed every third of
 * the lease; if renewal fails the job's signal aborts (another worker owns it now).
 */
export function startJobWorker(options: {
  queue: JobQueue;
  handlers: Record<string, JobHandler>;
  concurrency: number;
  logger: Logger;
  leaseMs?: number;
  pollMs?: number;
  onSettled?: (job: Job, outcome: 'done' | 'retrying' | 'failed' | 'released', startedAt: number) => void;
}): JobWorker {
  const { queue, handlers, concurrency, logger } = options;
  const leaseMs = options.leaseMs ?? 30_000;
  const pollMs = options.pollMs ?? 500;
  const id = `${process.pid}-${randomUUID().slice(0, 8)}`;
  const kinds = Object.keys(handlers);
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let stopping = false;
  let wake: (() => void) | undefined;

  const run = async (job: Job, controller: AbortController) => {
    const startedAt = Date.now();
    const heartbeat = setInterval(() => {
      queue.renew(job.id, id, leaseMs).then(
        (ours) => {
          if (!ours) controller.abort(new Error('lease lost'));
        },
        (error: Error) => logger.warn({ err: { message: error.message }, job_id: job.id }, 'lease renewal failed'),
      );
    }, Math.max(100, Math.floor(leaseMs / 3)));
    let outcome: 'done' | 'retrying' | 'failed' | 'released';
    try {
      await handlers[job.kind]!(job, controller.signal);
      await queue.complete(job.id, id);
      outcome = 'done';
    } catch (error) {
      if (stopping && controller.signal.aborted) {
        await queue.release(job, id).catch(() => undefined);
        outcome = 'released';
      } else {
        const retry = (error as { retryable?: boolean }).retryable !== false && !controller.signal.aborted;
        outcome = await queue.fail(job, id, (error as Error).message, retry).catch(() => 'failed' as const);
      }
    } finally {
      clearInterval(heartbeat);
    }
    options.onSettled?.(job, outcome, startedAt);
  };

  const loop = async () => {
    while (!stopping) {
      if (running.size >= concurrency) {
        await Promise.race([...running.values()].map((r) => r.done));
        continue;
      }
      let job: Job | undefined;
      try {
        job = await queue.claim(id, kinds, leaseMs);
      } catch (error) {
        logger.warn({ err: { message: (error as Error).message } }, 'job claim failed');
      }
      if (!job) {
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
      const done = run(claimed, controller).finally(() => running.delete(claimed.id));
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
      for (const { controller } of running.values()) controller.abort(new Error('worker shutting down'));
      await looping;
      await Promise.allSettled([...running.values()].map((r) => r.done));
    },
  };
}
