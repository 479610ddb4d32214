/** Shared pieces of the benchmark scripts: child servers, autocannon runs, a side-by-side table. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { warehouseRolePrefix } from '../../apps/server/src/areas/connectivity/warehouse.js';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Runs plain JavaScript (the built server, the baseline) in its own process. */
/** A node child process; BENCH_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=prof`) go before `args`, to profile it. */
export function startChild(args: string[], env: Record<string, string>): ChildProcess {
  const nodeArgs = (process.env['BENCH_NODE_ARGS'] ?? '').split(' ').filter(Boolean);
  return spawn(process.execPath, [...nodeArgs, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

export async function waitForUrl(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer`);
}

export interface BenchService {
  base: string;
  child: ChildProcess;
  /** An API call as the seeded administrator; a 4xx or 5xx answer throws with its body. */
  call(method: string, route: string, body?: unknown): Promise<Record<string, unknown>>;
  /** The access token `call` sends, for clients of their own (uploads, probes, load generators). */
  token: string;
  stop(): Promise<void>;
}

/** The built `svc start` (API and one worker) on a free port against `databaseUrl`, signed in as the seeded administrator. */
export async function startBenchService(options: {
  databaseUrl: string;
  redisUrl: string;
  redisKeyPrefix: string;
  dataDir: string;
  /** More settings of the service (SVC_...). */
  env?: Record<string, string>;
}): Promise<BenchService> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = startChild(['apps/server/dist/cli.js', 'start'], {
    SVC_PORT: String(port),
    SVC_DATABASE_URL: options.databaseUrl,
    SVC_REDIS_URL: options.redisUrl,
    SVC_REDIS_KEY_PREFIX: options.redisKeyPrefix,
    SVC_RATE_LIMIT_PER_MINUTE: '100000',
    SVC_INITIAL_ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
    SVC_INITIAL_PASSWORD_FILE: path.join(options.dataDir, 'pw'),
    SVC_DATA_DIR: options.dataDir,
    SVC_LOG_LEVEL: 'warn',
    // The bench databases are on this machine.
    SVC_CONNECTOR_ALLOWED_HOSTS: '127.0.0.0/8,::1',
    ...options.env,
  });
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  };
  let token = '';
  const call = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${base}${route}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (response.status === 204 ? {} : await response.json()) as Record<string, unknown>;
    if (response.status >= 400) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  try {
    await waitForUrl(`${base}/health`);
    token = (await call('POST', '/api/v1/auth/login', { username: 'admin', password: BENCH_ADMIN_PASSWORD }))[
      'access_token'
    ] as string;
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, child, call, token, stop };
}

/** A postgres connector's configuration for a database of the server `adminUrl` points at. */
export function postgresConnectorConfig(adminUrl: string, database: string) {
  const admin = new URL(adminUrl);
  return {
    host: admin.hostname,
    port: Number(admin.port || 5432),
    database,
    user: decodeURIComponent(admin.username),
    password: decodeURIComponent(admin.password),
  };
}

/** A project named `bench` with a PostgreSQL connector on each of `source` and `destination` (databases of the admin URL's server). */
export async function benchProject(
  call: BenchService['call'],
  adminUrl: string,
  databases: { source: string; destination: string },
): Promise<{ project: string; source: unknown; destination: unknown }> {
  const project = (await call('POST', '/api/v1/admin/projects', { name: 'bench' }))['id'] as string;
  const connector = async (name: string, database: string) =>
    (
      await call('POST', '/api/v1/data-connectors', {
        project_id: project,
        name,
        kind: 'postgres',
        config: postgresConnectorConfig(adminUrl, database),
      })
    )['id'];
  return {
    project,
    source: await connector('src', databases.source),
    destination: await connector('dst', databases.destination),
  };
}

export interface Figures {
  name: string;
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
}

export interface Case {
  name: string;
  url: string;
  headers?: Record<string, string>;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Runs every case `rounds` times, interleaved (A B C A B C ...), after a warm-up of each, and reports
 * the median of the rounds: on a small shared machine one run can be off by a third either way.
 */
export async function measure(cases: Case[], seconds: number, rounds: number): Promise<Figures[]> {
  for (const c of cases) await autocannon({ url: c.url, connections: 50, duration: 3, headers: c.headers ?? {} });
  const runs = new Map<string, Array<{ rps: number; p99: number; non2xx: number }>>();
  for (let round = 0; round < rounds; round++) {
    for (const c of cases) {
      const result = await autocannon({ url: c.url, connections: 50, duration: seconds, headers: c.headers ?? {} });
      const list = runs.get(c.name) ?? [];
      list.push({ rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx });
      runs.set(c.name, list);
    }
  }
  return cases.map((c) => {
    const list = runs.get(c.name)!;
    return {
      name: c.name,
      requestsPerSecond: median(list.map((r) => r.rps)),
      p99Ms: median(list.map((r) => r.p99)),
      non2xx: list.reduce((sum, r) => sum + r.non2xx, 0),
    };
  });
}

export function table(rows: Figures[], baseline: Figures): string {
  const lines = [
    `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), node ${process.version}, 50 connections, median of rounds`,
    '| case | requests/s | p99 ms | non-2xx | vs bare Fastify |',
    '|---|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${Math.round(r.requestsPerSecond)} | ${r.p99Ms} | ${r.non2xx} | ${((r.requestsPerSecond / baseline.requestsPerSecond) * 100).toFixed(0)}% |`,
    ),
  ];
  return lines.join('\n');
}

export const BENCH_ADMIN_PASSWORD = 'bench-Admin-password-1';

export interface BenchTargets {
  /** Base URL of the bare Fastify baseline. */
  bare: string;
  /** Base URL of the built service (`svc serve`). */
  svc: string;
  /** A fresh access token of the seeded administrator. */
  accessToken: string;
  stop(): Promise<void>;
}

/**
 * Starts the baseline and the built service (against a fresh database on the machine's PostgreSQL,
 * the machine's Redis, rate limits out of the way) and signs in; stop() removes everything again.
 */
export async function startTargets(options: { logLevel?: string } = {}): Promise<BenchTargets> {
  const adminUrl = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = `svc_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${database}`;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-'));
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1000));
    await admin.query(`drop database if exists ${database} with (force)`);
    await dropWarehouse(admin, `${database}_warehouse`);
    await admin.end();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const barePort = await freePort();
    children.push(startChild(['scripts/bench/bare-fastify.mjs'], { PORT: String(barePort) }));
    const svcPort = await freePort();
    children.push(
      startChild(['apps/server/dist/cli.js', 'serve'], {
        SVC_PORT: String(svcPort),
        SVC_DATABASE_URL: databaseUrl.toString(),
        SVC_REDIS_URL: process.env['SVC_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379',
        SVC_REDIS_KEY_PREFIX: `${database}:`,
        SVC_RATE_LIMIT_PER_MINUTE: '100000000',
        SVC_LOGIN_RATE_LIMIT_PER_MINUTE: '100000000',
        SVC_INITIAL_ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
        SVC_INITIAL_PASSWORD_FILE: path.join(dataDir, 'initial-password.txt'),
        SVC_DATA_DIR: dataDir,
        SVC_LOG_LEVEL: options.logLevel ?? 'info',
      }),
    );
    const bare = `http://127.0.0.1:${barePort}`;
    const svc = `http://127.0.0.1:${svcPort}`;
    await waitForUrl(`${bare}/`);
    await waitForUrl(`${svc}/health`);
    const login = await fetch(`${svc}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: BENCH_ADMIN_PASSWORD }),
    });
    const { access_token: accessToken } = (await login.json()) as { access_token: string };
    return { bare, svc, accessToken, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Drops a service's warehouse database and its projects' roles (roles are global to the server). */
export async function dropWarehouse(admin: pg.Client, database: string): Promise<void> {
  await admin.query(`drop database if exists ${database} with (force)`);
  const { rows } = await admin.query<{ rolname: string }>(
    'select rolname from pg_roles where starts_with(rolname, $1)',
    [warehouseRolePrefix(database)],
  );
  for (const { rolname } of rows) await admin.query(`drop role if exists "${rolname}"`);
}

/** Drops a bench run's databases: the service's framework database with its warehouse, and the others. */
export async function dropBenchDatabases(adminUrl: string, framework: string, others: string[]): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    for (const name of [framework, ...others]) await admin.query(`drop database if exists ${name} with (force)`);
    await dropWarehouse(admin, `${framework}_warehouse`);
  } finally {
    await admin.end();
  }
}

/** The URL of `database` on the server `adminUrl` points at. */
export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** One statement on `database` of that server, on a connection of its own. */
export async function runSql(adminUrl: string, database: string, text: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: databaseUrl(adminUrl, database) });
  await client.connect();
  try {
    return await client.query(text, params);
  } finally {
    await client.end();
  }
}

/** Runs a shell command (psql, mariadb), its errors to our stderr; rejects on a non-zero exit. */
export function sh(command: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited ${code}`))));
  });
}

/** Runs a shell command and answers its standard output; rejects on a non-zero exit. */
export function shOut(command: string): Promise<{ stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', command], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('exit', (code) => (code === 0 ? resolve({ stdout }) : reject(new Error(`${command} exited ${code}`))));
  });
}
