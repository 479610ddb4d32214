/**
 * npm run bench:auth: logins per second against the bcrypt bound (cores / time of one cost-12 hash),
 * and authenticated GET /api/v1/me per second with an access token and with a personal API token,
 * side by side with a bare Fastify hello-world, all in one run. The service runs built, as
 * `svc serve`, against the machine's PostgreSQL and Redis, with bcrypt at its default cost 12.
 */
import os from 'node:os';
import autocannon from 'autocannon';
import bcrypt from 'bcrypt';
import pg from 'pg';
import { freePort, measure, startChild, table, waitForUrl } from './support.js';

const ADMIN_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env['SVC_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const PASSWORD = 'bench-Admin-password-1';

// The bcrypt bound: one hash per core at a time is the most a machine can verify.
const hashTimes: number[] = [];
const sample = await bcrypt.hash('some-password-to-hash', 12);
for (let i = 0; i < 5; i++) {
  const started = performance.now();
  await bcrypt.compare('some-password-to-hash', sample);
  hashTimes.push(performance.now() - started);
}
const hashMs = hashTimes.sort((a, b) => a - b)[2]!;
const cores = os.cpus().length;
const bound = cores / (hashMs / 1000);

const database = `svc_bench_auth_${Date.now()}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query(`create database ${database}`);
const databaseUrl = new URL(ADMIN_URL);
databaseUrl.pathname = `/${database}`;

const children = [];
try {
  const barePort = await freePort();
  children.push(startChild(['scripts/bench/bare-fastify.mjs'], { PORT: String(barePort) }));
  await waitForUrl(`http://127.0.0.1:${barePort}/`);

  const svcPort = await freePort();
  children.push(
    startChild(['apps/server/dist/cli.js', 'serve'], {
      SVC_PORT: String(svcPort),
      SVC_DATABASE_URL: databaseUrl.toString(),
      SVC_REDIS_URL: REDIS_URL,
      SVC_REDIS_KEY_PREFIX: `${database}:`,
      SVC_RATE_LIMIT_PER_MINUTE: '100000000',
      SVC_LOGIN_RATE_LIMIT_PER_MINUTE: '100000000',
      SVC_INITIAL_ADMIN_PASSWORD: PASSWORD,
      SVC_INITIAL_PASSWORD_FILE: `/tmp/${database}-password.txt`,
      SVC_DATA_DIR: `/tmp/${database}`,
      SVC_LOG_LEVEL: 'info',
    }),
  );
  const base = `http://127.0.0.1:${svcPort}`;
  await waitForUrl(`${base}/health`);
  const loginBody = JSON.stringify({ username: 'admin', password: PASSWORD });
  const login = await fetch(`${base}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: loginBody });
  const { access_token: accessToken } = (await login.json()) as { access_token: string };
  const created = await fetch(`${base}/api/v1/api-tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ name: 'bench', scope: 'read' }),
  });
  const { token: personalToken } = (await created.json()) as { token: string };

  // Logins: enough connections to keep every bcrypt thread busy.
  const logins = await autocannon({
    url: `${base}/api/v1/auth/login`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: loginBody,
    connections: 8,
    duration: SECONDS,
  });

  const figures = await measure(
    [
      { name: 'bare Fastify GET / (baseline)', url: `http://127.0.0.1:${barePort}/` },
      { name: 'svc GET /api/v1/me, access token', url: `${base}/api/v1/me`, headers: { authorization: `Bearer ${accessToken}` } },
      { name: 'svc GET /api/v1/me, personal token', url: `${base}/api/v1/me`, headers: { authorization: `Bearer ${personalToken}` } },
    ],
    SECONDS,
    ROUNDS,
  );
  process.stdout.write(
    [
      `bcrypt cost 12: ${hashMs.toFixed(0)} ms per hash; bound = ${cores} cores / ${(hashMs / 1000).toFixed(3)} s = ${bound.toFixed(1)} logins/s`,
      `logins: ${logins.requests.average.toFixed(1)}/s (${((logins.requests.average / bound) * 100).toFixed(0)}% of the bound), p99 ${logins.latency.p99} ms, non-2xx ${logins.non2xx}`,
      table(figures, figures[0]!),
    ].join('\n') + '\n',
  );
} finally {
  for (const child of children) child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1000));
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
}
