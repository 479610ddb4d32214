/**
 * Job leases at their limits. A job whose worker keeps dying (its lease expires on the last allowed
 * attempt) is not run again: its execution fails with a clear error, once, whatever the number of
 * workers. A worker that can no longer renew its lease (its framework database stops answering)
 * stops its run before the lease ends, marks nothing, and another worker finishes the run once.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { runCli, type CliProcess } from '../support/cli.js';
import { adminLogin, api, createProject } from '../support/http.js';
import { checksum, createPostgresConnector, query, waitForStatus, type Execution } from '../support/runs.js';
import {
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  createTestDatabase,
  uniqueName,
  type TestDatabase,
} from '../support/services.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { createJobQueue, LeaseLost, startJobWorker, type JobHandlers } from '../../src/platform/jobs.js';
import type { JobKind } from '../../src/platform/job-kinds.js';

interface JobRow {
  id: string;
  state: string;
  attempts: number;
  max_attempts: number;
  locked_by: string | null;
  last_error: string | null;
}

const once = <T>(fn: () => Promise<T>) => {
  let result: Promise<T> | undefined;
  return () => (result ??= fn());
};

describe('job leases', () => {
  const encryptionKey = randomBytes(32).toString('base64');
  const redisKeyPrefix = uniqueName('svcleases');
  const env = { ...NO_RATE_LIMITS, SVC_ENCRYPTION_KEY: encryptionKey };
  let database: TestDatabase;
  let source: TestDatabase;
  let destination: TestDatabase;
  let api1: TestApp;
  let admin: string;
  let projectId: string;
  let sourceId: string;
  let destinationId: string;
  const cleanups: Array<() => Promise<unknown>> = [];

  const jobOf = async (executionId: string) =>
    (
      await query(
        database.url,
        `select id, state, attempts, max_attempts, locked_by, last_error from jobs where payload->>'execution_id' = $1 and kind = 'sync'`,
        [executionId],
      )
    ).rows[0] as JobRow;
  const logsOf = async (executionId: string) =>
    (
      await api<{ items: Array<{ level: string; message: string }> }>(
        api1,
        'GET',
        `/api/v1/executions/${executionId}/logs`,
        { token: admin },
      )
    ).body.items;
  const startSync = async (streams: Array<Record<string, unknown>>) => {
    const started = await api<{ id: string }>(api1, 'POST', '/api/v1/executions', {
      token: admin,
      body: {
        kind: 'sync',
        project_id: projectId,
        source_connector_id: sourceId,
        destination_connector_id: destinationId,
        streams,
      },
    });
    expect(started.status).toBe(201);
    return started.body.id;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    source = await createTestDatabase();
    destination = await createTestDatabase();
    api1 = await startTestApp({ database, redisKeyPrefix, env });
    admin = (await adminLogin(api1)).accessToken;
    projectId = (await createProject(api1, admin)).id;
    sourceId = await createPostgresConnector(api1, admin, projectId, 'source', source.name);
    destinationId = await createPostgresConnector(api1, admin, projectId, 'destination', destination.name);
    await query(
      source.url,
      `create table orders as select g as id, md5(g::text) as body from generate_series(1, 500) g`,
    );
    // Slow to read (about 12 s a stream), so that a fault lands in the middle of the run.
    await query(
      source.url,
      `create view slow_orders as select g as id, md5(g::text) as body, pg_sleep(0.004)::text as pause from generate_series(1, 3000) g`,
    );
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await api1?.close();
    await database?.drop();
    await source?.drop();
    await destination?.drop();
  });

  it(
    'a job whose worker died on its last attempt is failed once, with a clear error, and never run again',
    { timeout: 90_000 },
    async () => {
      // No worker yet: the execution and its job wait in the queue.
      const executionId = await startSync([{ name: 'orders', destination_name: 'crashed_copy', mode: 'overwrite' }]);
      const queued = await jobOf(executionId);
      expect(queued.state).toBe('queued');
      // Its worker was killed (OOM, SIGKILL) on each of its attempts: the last one left the job active
      // under a lease that expired, and the execution running.
      await query(
        database.url,
        `update jobs set state = 'active', attempts = max_attempts, locked_by = 'killed-worker', lease_expires_at = now() - interval '1 second' where id = $1`,
        [queued.id],
      );
      await query(
        database.url,
        `update executions set status = 'running', attempts = $2, started_at = now() where id = $1`,
        [executionId, queued.max_attempts],
      );

      // Two workers compete for it.
      const workerEnv = { ...env, SVC_WORKER_LEASE_SECONDS: '2' };
      const [w1, w2] = await Promise.all([
        startTestApp({ database, redisKeyPrefix, worker: true, env: workerEnv }),
        startTestApp({ database, redisKeyPrefix, worker: true, env: workerEnv }),
      ]);
      const closeWorkers = once(() => Promise.all([w1.close(), w2.close()]));
      cleanups.push(closeWorkers);

      const failed = await waitForStatus(api1, admin, executionId, ['failed', 'succeeded'], 30_000);
      expect(failed.status).toBe('failed');
      const attempts = `attempt ${queued.max_attempts} of ${queued.max_attempts}`;
      expect(failed.error).toContain(attempts);
      expect(failed.error).toContain('lease expired');
      expect(failed.error).toContain('not retried');
      // Give the workers time to (wrongly) take it again.
      await new Promise((r) => setTimeout(r, 2500));
      const job = await jobOf(executionId);
      expect(job).toMatchObject({ state: 'failed', attempts: queued.max_attempts });
      expect(job.last_error).toContain(attempts);
      const after = (await api<Execution>(api1, 'GET', `/api/v1/executions/${executionId}`, { token: admin })).body;
      expect(after).toMatchObject({ status: 'failed', attempts: queued.max_attempts, error: failed.error });
      // Settled once, though two workers saw it; never run again: nothing reached the destination.
      const lines = (await logsOf(executionId)).filter((line) => line.message.includes('not retried'));
      expect(lines).toHaveLength(1);
      expect(lines[0]!.level).toBe('error');
      expect((await logsOf(executionId)).some((line) => line.message.startsWith('sync started'))).toBe(false);
      expect((await query(destination.url, `select to_regclass('public.crashed_copy') as t`)).rows[0].t).toBeNull();
      // Counted once, by whichever worker failed it.
      const abandoned = async (t: TestApp) =>
        Number(
          /svc_jobs_abandoned_total\{kind="sync"\} (\d+)/.exec(await (await fetch(`${t.url}/metrics`)).text())?.[1] ??
            0,
        );
      expect((await abandoned(w1)) + (await abandoned(w2))).toBe(1);
      await closeWorkers(); // before the next test, whose job they would otherwise take
    },
  );

  it(
    'a worker that cannot renew its lease stops its run before the lease ends; another worker finishes it once',
    { timeout: 180_000 },
    async () => {
      // This worker reaches the framework database through a proxy that can stop carrying bytes; its
      // connectors reach the source and destination directly.
      const target = new URL(TEST_DATABASE_URL);
      const proxy: TcpProxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      cleanups.push(() => proxy.close());
      const proxied = new URL(database.url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(proxy.port);
      const workerDir = await mkdtemp(path.join(os.tmpdir(), 'svc-worker-'));
      cleanups.push(() => rm(workerDir, { recursive: true, force: true }));
      const worker: CliProcess = runCli(['worker'], {
        SVC_DATABASE_URL: proxied.toString(),
        SVC_REDIS_URL: TEST_REDIS_URL,
        SVC_REDIS_KEY_PREFIX: `${redisKeyPrefix}:`,
        SVC_ENCRYPTION_KEY: encryptionKey,
        SVC_WORKER_LEASE_SECONDS: '4',
        SVC_DATA_DIR: workerDir,
      });
      cleanups.push(async () => {
        worker.child.kill('SIGKILL');
        await worker.exited;
      });

      const executionId = await startSync([
        { name: 'slow_orders', destination_name: 'fenced_copy', mode: 'overwrite' },
        { name: 'slow_orders', destination_name: 'fenced_appended', mode: 'append' },
      ]);
      await waitForStatus(api1, admin, executionId, ['running'], 60_000);
      // Sessions on the source database (the run's reader), this query's own aside.
      const sourceSessions = `(select count(*)::int from pg_stat_activity where datname = $1 and pid <> pg_backend_pid())`;
      for (
        let i = 0;
        (await query(TEST_DATABASE_URL, `select ${sourceSessions} as n`, [source.name])).rows[0].n === 0;
        i++
      ) {
        if (i > 100) throw new Error('the run never started reading');
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 1500));

      // The framework database stops answering this worker: renewals hang.
      proxy.stall();
      const lease = (
        await query(
          database.url,
          `select lease_expires_at from jobs where payload->>'execution_id' = $1 and kind = 'sync'`,
          [executionId],
        )
      ).rows[0].lease_expires_at as Date;
      // The run stops (its source connection closed) before the lease it last renewed ends.
      let stoppedInTime = false;
      for (;;) {
        const row = (
          await query(TEST_DATABASE_URL, `select ${sourceSessions} as n, now() < $2 as within`, [source.name, lease])
        ).rows[0] as { n: number; within: boolean };
        if (row.n === 0) {
          stoppedInTime = row.within;
          break;
        }
        if (!row.within) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(
        stoppedInTime,
        `the fenced run still read its source when its lease ended:\n${worker.output().slice(-3000)}`,
      ).toBe(true);
      // Its worker says why (its log reaches stdout within a second).
      for (let i = 0; !worker.output().includes('lease renewal not confirmed'); i++) {
        if (i > 30) throw new Error(`the fenced worker did not say why it stopped:\n${worker.output().slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      // It marked nothing: the execution runs still, the job is still leased to it (until the lease ends).
      expect(
        (await api<Execution>(api1, 'GET', `/api/v1/executions/${executionId}`, { token: admin })).body.status,
      ).toBe('running');
      expect((await jobOf(executionId)).state).toBe('active');

      // Another worker takes the job over once the lease has ended and finishes it.
      const recovery = await startTestApp({
        database,
        redisKeyPrefix,
        worker: true,
        env: { ...env, SVC_WORKER_LEASE_SECONDS: '4' },
      });
      cleanups.push(() => recovery.close());
      const done = await waitForStatus(api1, admin, executionId, ['succeeded', 'failed'], 120_000);
      expect(done.status).toBe('succeeded');
      expect(done.attempts).toBe(2);
      const expected = await checksum(source.url, '(select id, body, pause from slow_orders)');
      expect(await checksum(destination.url, 'fenced_copy')).toEqual(expected);
      expect(await checksum(destination.url, 'fenced_appended')).toEqual(expected);

      // The fenced worker's database comes back: whatever it still had in flight changes nothing.
      proxy.resume();
      await new Promise((r) => setTimeout(r, 3000));
      const settled = (await api<Execution>(api1, 'GET', `/api/v1/executions/${executionId}`, { token: admin })).body;
      expect(settled).toMatchObject({ status: 'succeeded', attempts: 2, rows_written: done.rows_written, error: null });
      expect(await jobOf(executionId)).toMatchObject({ state: 'done', attempts: 2 });
      expect(await checksum(destination.url, 'fenced_copy')).toEqual(expected);
      expect(await checksum(destination.url, 'fenced_appended')).toEqual(expected);
    },
  );

  it('a worker whose job was taken over commits nothing: no result, no completion, no failure', async () => {
    const db = api1.platform.framework.db;
    const queue = createJobQueue(db);
    // A kind no worker runs (not in the registry), so that nothing but this test claims it.
    const jobId = await queue.enqueue(db, 'lease_probe' as JobKind, {} as never);
    const first = (await queue.claim('worker-a', ['lease_probe' as JobKind], 60_000))!;
    // worker-a stalls past its lease; worker-b takes the job.
    await query(database.url, `update jobs set lease_expires_at = now() - interval '1 second' where id = $1`, [jobId]);
    const second = (await queue.claim('worker-b', ['lease_probe' as JobKind], 60_000))!;
    expect(second).toMatchObject({ id: jobId, attempts: 2, lockedBy: 'worker-b' });

    await expect(db.transaction().execute((trx) => queue.holdLease(trx, first))).rejects.toBeInstanceOf(LeaseLost);
    await queue.complete(first.id, 'worker-a');
    await queue.fail(first, 'worker-a', 'late failure', false);
    await queue.release(first, 'worker-a');
    const job = (
      await query(database.url, `select state, locked_by, attempts, last_error from jobs where id = $1`, [jobId])
    ).rows[0];
    expect(job).toMatchObject({ state: 'active', locked_by: 'worker-b', attempts: 2, last_error: null });

    // The holder still commits.
    await db.transaction().execute((trx) => queue.holdLease(trx, second));
    await queue.complete(second.id, 'worker-b');
    expect((await query(database.url, `select state from jobs where id = $1`, [jobId])).rows[0].state).toBe('done');
  });

  it('an idle worker claims a job when it commits, not at its next poll, also after its listening connection was dropped', async () => {
    const db = api1.platform.framework.db;
    const queue = createJobQueue(db);
    const kind = 'wakeup_probe' as JobKind;
    const listening = async () =>
      Number(
        (
          await query(
            database.url,
            `select count(*)::int as n from pg_stat_activity where application_name = 'svc-job-listener' and datname = current_database()`,
          )
        ).rows[0].n,
      );
    // The test app's own worker listens too.
    const others = await listening();
    const claimed: string[] = [];
    let onClaim: (() => void) | undefined;
    const worker = startJobWorker({
      queue,
      handlers: {
        [kind]: async (job: { id: string }) => {
          claimed.push(job.id);
          onClaim?.();
        },
      } as unknown as JobHandlers,
      concurrency: 1,
      logger: api1.platform.logger,
      // Far longer than the test waits: a claim within it comes from the notification.
      pollMs: 120_000,
      listen: { connection: api1.platform.framework.connection },
    });
    const claimOf = async (enqueue: () => Promise<string>) => {
      const claimedNow = new Promise<void>((resolve) => (onClaim = resolve));
      const id = await enqueue();
      await Promise.race([
        claimedNow,
        new Promise((_, reject) => setTimeout(() => reject(new Error('not claimed within 5 s')), 5000)),
      ]);
      expect(claimed.at(-1)).toBe(id);
    };
    try {
      await expect.poll(listening, { timeout: 5000 }).toBe(others + 1);
      // Let the worker's first (empty) claim finish, so that it sleeps on its poll.
      await new Promise((r) => setTimeout(r, 300));
      await claimOf(() => db.transaction().execute((trx) => queue.enqueue(trx, kind, {} as never)));

      await query(
        database.url,
        `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'svc-job-listener' and datname = current_database()`,
      );
      await expect.poll(listening, { timeout: 10_000 }).toBe(0);
      await expect.poll(listening, { timeout: 10_000 }).toBe(others + 1);
      await new Promise((r) => setTimeout(r, 300));
      await claimOf(() => queue.enqueue(db, kind, {} as never));
    } finally {
      await worker.stop();
    }
    expect(await listening()).toBe(others);
  });
});
