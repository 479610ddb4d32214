/**
 * A worker killed with SIGKILL in the middle of two export runs (a file, and batches to an idempotent
 * HTTP receiver): while it is dead no half-written file is visible, and once another worker has
 * taken the runs over, the file holds every row once and the receiver has taken every row once.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { runCli, type CliProcess } from '../support/cli.js';
import { adminLogin, api, createProject } from '../support/http.js';
import { createPostgresConnector, query, waitForStatus } from '../support/runs.js';
import { TEST_REDIS_URL, createTestDatabase, uniqueName, type TestDatabase } from '../support/services.js';
import { startReceiver, type Receiver } from './receiver.js';

const ROWS = 3000;

describe('export runs after a worker is killed', () => {
  const encryptionKey = randomBytes(32).toString('base64');
  const redisKeyPrefix = uniqueName('svcexportkill');
  let database: TestDatabase;
  let source: TestDatabase;
  let filesRoot: string;
  let api1: TestApp;
  let recovery: TestApp | undefined;
  let worker: CliProcess | undefined;
  let receiver: Receiver;

  beforeAll(async () => {
    database = await createTestDatabase();
    source = await createTestDatabase();
    filesRoot = await mkdtemp(path.join(os.tmpdir(), 'svc-export-files-'));
    receiver = await startReceiver({ delayMs: 150 });
    api1 = await startTestApp({
      database,
      redisKeyPrefix,
      env: { ...NO_RATE_LIMITS, SVC_ENCRYPTION_KEY: encryptionKey, SVC_FILES_ROOT: filesRoot },
    });
  });
  afterAll(async () => {
    worker?.child.kill('SIGKILL');
    await recovery?.close();
    await api1?.close();
    await receiver?.close();
    await database?.drop();
    await source?.drop();
    await rm(filesRoot, { recursive: true, force: true });
  });

  it('leaves no half file visible and delivers no row twice', { timeout: 150_000 }, async () => {
    const admin = (await adminLogin(api1)).accessToken;
    const project = await createProject(api1, admin);
    const sourceId = await createPostgresConnector(api1, admin, project.id, 'source', source.name);
    // About 9 s to read, so that the kill lands in the middle of the file's run.
    await query(
      source.url,
      `create view slow_rows as select g as id, md5(g::text) as body, pg_sleep(0.003)::text as pause from generate_series(1, ${ROWS}) g`,
    );
    await query(
      source.url,
      `create table quick_rows as select g as id, md5(g::text) as body from generate_series(1, ${ROWS}) g`,
    );
    const create = async (body: Record<string, unknown>) => {
      const created = await api<{ id: string }>(api1, 'POST', '/api/v1/exports', {
        token: admin,
        body: { project_id: project.id, name: uniqueName('export'), ...body },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.id;
    };
    const toFile = await create({
      source: { kind: 'connector', connector_id: sourceId, dataset: 'slow_rows' },
      destination: { kind: 'files', folder: 'kill' },
      format: { type: 'ndjson' },
    });
    // 30 batches of 100 rows, 150 ms each at the receiver.
    const toHttp = await create({
      source: { kind: 'connector', connector_id: sourceId, dataset: 'quick_rows' },
      destination: { kind: 'http', url: receiver.url, batch_size: 100 },
    });

    const workerDir = await mkdtemp(path.join(os.tmpdir(), 'svc-worker-'));
    worker = runCli(['worker'], {
      SVC_DATABASE_URL: database.url,
      SVC_REDIS_URL: TEST_REDIS_URL,
      SVC_REDIS_KEY_PREFIX: `${redisKeyPrefix}:`,
      SVC_ENCRYPTION_KEY: encryptionKey,
      SVC_WORKER_LEASE_SECONDS: '2',
      SVC_DATA_DIR: workerDir,
      SVC_FILES_ROOT: filesRoot,
    });
    const start = async (id: string) =>
      (await api<{ id: string }>(api1, 'POST', `/api/v1/exports/${id}/run`, { token: admin })).body.id;
    const fileRun = await start(toFile);
    const httpRun = await start(toHttp);
    // Killed once the receiver has taken a few batches, with more to come.
    const deadline = Date.now() + 60_000;
    while (receiver.taken.length < 500 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(receiver.taken.length).toBeGreaterThanOrEqual(500);
    expect(receiver.taken.length).toBeLessThan(ROWS);
    worker.child.kill('SIGKILL');
    await worker.exited;
    await rm(workerDir, { recursive: true, force: true });

    const folder = path.join(filesRoot, project.id, 'kill');
    const visible = async () => (await readdir(folder).catch(() => [])).filter((f) => !f.startsWith('.'));
    expect(await visible()).toEqual([]);
    for (const id of [fileRun, httpRun])
      expect(
        (await api<{ status: string }>(api1, 'GET', `/api/v1/executions/${id}`, { token: admin })).body.status,
      ).toBe('running');

    // Another worker takes both runs over once their leases have expired.
    recovery = await startTestApp({
      database,
      redisKeyPrefix,
      worker: true,
      env: {
        ...NO_RATE_LIMITS,
        SVC_ENCRYPTION_KEY: encryptionKey,
        SVC_WORKER_LEASE_SECONDS: '2',
        SVC_FILES_ROOT: filesRoot,
      },
    });
    for (const id of [fileRun, httpRun]) {
      const done = await waitForStatus(api1, admin, id, ['succeeded', 'partially_failed', 'failed'], 120_000);
      expect(done.status, done.error ?? '').toBe('succeeded');
      expect(done.attempts).toBeGreaterThanOrEqual(2);
    }

    const files = await readdir(folder);
    expect(files.filter((f) => f.startsWith('.'))).toEqual([]);
    expect(files).toHaveLength(1);
    const ids = (await readFile(path.join(folder, files[0]!), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { id: number }).id);
    expect(ids).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));

    // The batches the dead worker had sent came again with the same keys: taken once.
    expect(receiver.duplicates).toBeGreaterThan(0);
    const taken = receiver.taken.map((r) => r['id'] as number).sort((a, b) => a - b);
    expect(taken).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
  });
});
