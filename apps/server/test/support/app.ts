/** Starts the real app (real PostgreSQL, real Redis or the in-process stand-in) on a free port. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../src/app.js';
import { createAreas } from '../../src/areas/index.js';
import { startLeadership, type Leadership } from '../../src/platform/leader.js';
import { createWorkerMetrics, startWorker } from '../../src/worker/index.js';
import { loadConfig, type Config } from '../../src/platform/config/index.js';
import { createLoggers } from '../../src/platform/logging.js';
import { startPlatform, type Platform } from '../../src/platform/runtime.js';
import { TEST_REDIS_URL, createTestDatabase, uniqueName, type TestDatabase } from './services.js';

export type SharedStateKind = 'redis' | 'memory';

export interface TestApp {
  url: string;
  app: FastifyInstance;
  platform: Platform;
  config: Config;
  /** Every JSON log line written so far. */
  logs: Array<Record<string, unknown>>;
  leadership: Leadership | undefined;
  /** Raw log text, for searching a secret that must not be there. */
  logText(): string;
  close(): Promise<void>;
}

export interface TestAppOptions extends AppOptions {
  env?: Record<string, string>;
  sharedState?: SharedStateKind;
  /** Reuse a database (and skip dropping it) instead of creating one for this app. */
  database?: TestDatabase;
  /** Share a Redis key prefix with another app, to prove they share counters. */
  redisKeyPrefix?: string;
  /** Compete for leadership and run the leader tasks, as `svc serve` does. */
  leader?: boolean;
  /** Run a job worker in the process, as `svc start` does. */
  worker?: boolean;
  /** Fire pipeline schedules from this process, as every `svc` process does by default. */
  scheduler?: boolean;
}

export const TEST_ADMIN_PASSWORD = 'initial-Admin-pass-42';

/**
 * The test servers (PostgreSQL, MariaDB, SFTP, HTTP) listen on this machine, which the egress policy
 * refuses by default: test apps allow loopback. A test of the policy itself passes
 * `env: { SVC_CONNECTOR_ALLOWED_HOSTS: '' }` (or its own list).
 */
export const LOOPBACK_ALLOWED = '127.0.0.0/8,::1';

/** Rate limits out of the way, for suites that are not about them. */
export const NO_RATE_LIMITS = { SVC_RATE_LIMIT_PER_MINUTE: '100000', SVC_LOGIN_RATE_LIMIT_PER_MINUTE: '1000' };

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const ownDatabase = options.database ? undefined : await createTestDatabase();
  const database = options.database ?? ownDatabase!;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-test-'));
  const sharedState = options.sharedState ?? 'redis';
  const config = loadConfig({
    SVC_DATA_DIR: dataDir,
    SVC_DATABASE_URL: database.url,
    SVC_REDIS_URL: sharedState === 'redis' ? TEST_REDIS_URL : undefined,
    SVC_REDIS_KEY_PREFIX: `${options.redisKeyPrefix ?? uniqueName('svctest')}:`,
    SVC_BCRYPT_ROUNDS: '4',
    SVC_LOG_LEVEL: 'info',
    SVC_INITIAL_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    SVC_INITIAL_PASSWORD_FILE: path.join(dataDir, 'initial-password.txt'),
    SVC_PORT: '0',
    SVC_CONNECTOR_ALLOWED_HOSTS: LOOPBACK_ALLOWED,
    // Tests count the projects they create; the first-boot project has a test of its own.
    SVC_CREATE_DEFAULT_PROJECT: 'false',
    ...options.env,
  });
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const platform = await startPlatform(config, createLoggers(config.log.level, sink));
  const areas = await createAreas(platform);
  const app = await buildApp(platform, { ...options, areas });
  const leadership = options.leader
    ? startLeadership(platform.framework.pool, areas.leaderTasks, platform.logger, 200)
    : undefined;
  const worker = options.worker
    ? await startWorker(platform, areas.runs, createWorkerMetrics(platform.metrics.registry, areas.runs))
    : undefined;
  const scheduler = options.scheduler ? areas.startScheduler() : undefined;
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    platform,
    config,
    leadership,
    get logs() {
      return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    logText: () => lines.join('\n'),
    async close() {
      await scheduler?.stop();
      await worker?.stop();
      await app.close();
      await leadership?.stop();
      await areas.close();
      await platform.close();
      await ownDatabase?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in as the seeded administrator and returns an access token. */
export async function loginAsAdmin(testApp: TestApp): Promise<string> {
  const response = await fetch(`${testApp.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: TEST_ADMIN_PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}
