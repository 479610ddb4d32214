/**
 * A worker killed with SIGKILL in the middle of a run: the job's lease expires, another worker picks
 * it up, and the destination ends equal to the source, for overwrite and for append (no row twice).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { runCli, type CliProcess } from '../support/cli.js';
import { adminLogin, api, createProject } from '../support/http.js';
import {
  TEST_DATABASE_URL,
  TEST_REDIS_URL,
  createTestDatabase,
  uniqueName,
  type TestDatabase,
} from '../support/services.js';
import { checksum, query, waitForStatus } from '../support/runs.js';

describe('worker recovery', () => {
  const encryptionKey = randomBytes(32).toString('base64');
  const redisKeyPrefix = uniqueName('svcrecovery');
  let database: TestDatabase;
  let source: TestDatabase;
  let destination: TestDatabase;
  let api1: TestApp;
  let recovery: TestApp | undefined;
  let worker: CliProcess | undefined;
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    source = await createTestDatabase();
    destination = await createTestDatabase();
    api1 = await startTestApp({
      database,
      redisKeyPrefix,
      env: { ...NO_RATE_LIMITS, SVC_ENCRYPTION_KEY: encryptionKey },
    });
  });
  afterAll(async () => {
    worker?.child.kill('SIGKILL');
    await recovery?.close();
    await api1?.close();
    await database?.drop();
    await source?.drop();
    await destination?.drop();
    for (const cleanup of cleanups) await cleanup();
  });

  it('SIGKILL mid-run, then another worker finishes it with equal checksums', { timeout: 120_000 }, async () => {
    const admin = (await adminLogin(api1)).accessToken;
    const url = new URL(TEST_DATABASE_URL);
    const config = (name: string) => ({
      host: url.hostname,
      port: Number(url.port || 5432),
      database: name,
      user: decodeURIComponent(url.username),
      password: 'unused',
    });
    const project = await createProject(api1, admin);
    const connector = async (name: string, db: string) =>
      (
        await api<{ id: string }>(api1, 'POST', '/api/v1/data-connectors', {
          token: admin,
          body: { project_id: project.id, name, kind: 'postgres', config: config(db) },
        })
      ).body.id;
    const sourceId = await connector('source', source.name);
    const destinationId = await connector('destination', destination.name);
    // Slow to read (about 6 s), so that the kill lands in the middle of the run.
    await query(
      source.url,
      `create view slow_orders as select g as id, md5(g::text) as body, pg_sleep(0.002)::text as pause from generate_series(1, 3000) g`,
    );

    const workerDir = await mkdtemp(path.join(os.tmpdir(), 'svc-worker-'));
    cleanups.push(() => rm(workerDir, { recursive: true, force: true }));
    worker = runCli(['worker'], {
      SVC_DATABASE_URL: database.url,
      SVC_REDIS_URL: TEST_REDIS_URL,
      SVC_REDIS_KEY_PREFIX: `${redisKeyPrefix}:`,
      SVC_ENCRYPTION_KEY: encryptionKey,
      SVC_WORKER_LEASE_SECONDS: '2',
      SVC_DATA_DIR: workerDir,
    });
    const started = await api<{ id: string }>(api1, 'POST', '/api/v1/executions', {
      token: admin,
      body: {
        kind: 'sync',
        project_id: project.id,
        source_connector_id: sourceId,
        destination_connector_id: destinationId,
        streams: [
          { name: 'slow_orders', destination_name: 'copied', mode: 'overwrite' },
          { name: 'slow_orders', destination_name: 'appended', mode: 'append' },
        ],
      },
    });
    expect(started.status).toBe(201);
    await waitForStatus(api1, admin, started.body.id, ['running'], 60_000);
    await new Promise((r) => setTimeout(r, 1500));
    worker.child.kill('SIGKILL');
    await worker.exited;
    expect(
      (await api<{ status: string }>(api1, 'GET', `/api/v1/executions/${started.body.id}`, { token: admin })).body
        .status,
    ).toBe('running');

    // Another worker (in a process with the same key) takes the job over once the lease has expired.
    recovery = await startTestApp({
      database,
      redisKeyPrefix,
      worker: true,
      env: { ...NO_RATE_LIMITS, SVC_ENCRYPTION_KEY: encryptionKey, SVC_WORKER_LEASE_SECONDS: '2' },
    });
    const done = await waitForStatus(api1, admin, started.body.id, ['succeeded', 'failed'], 90_000);
    expect(done.status).toBe('succeeded');
    expect(done.attempts).toBeGreaterThanOrEqual(2);
    const expected = await checksum(source.url, '(select id, body, pause from slow_orders)');
    expect(await checksum(destination.url, 'copied')).toEqual(expected);
    expect(await checksum(destination.url, 'appended')).toEqual(expected);
  });
});
