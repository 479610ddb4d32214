/**
 * npm run bench: requests/s and p99 of GET /health and of an authenticated JSON GET (/api/v1/me with an
 * access token) at 50 connections, side by side with a bare Fastify hello-world measured in the same run.
 * The service runs built (`npm run build`, as in production) as `svc serve` against the machine's PostgreSQL and Redis (a fresh database), with
 * JSON request logging on (to /dev/null) and the rate limits raised out of the way.
 */
import pg from 'pg';
import { freePort, measure, startChild, table, waitForUrl } from './support.js';

const ADMIN_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env['SVC_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const PASSWORD = 'bench-Admin-password-1';

const database = `svc_bench_${Date.now()}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query(`create database ${database}`);
const databaseUrl = new URL(ADMIN_URL);
databaseUrl.pathname = `/${database}`;

const children = [];
try {
  const barePort = await freePort();
  const bare = startChild(['scripts/bench/bare-fastify.mjs'], { PORT: String(barePort) });
  children.push(bare);
  await waitForUrl(`http://127.0.0.1:${barePort}/`);

  const svcPort = await freePort();
  const svc = startChild(['apps/server/dist/cli.js', 'serve'], {
    SVC_PORT: String(svcPort),
    SVC_DATABASE_URL: databaseUrl.toString(),
    SVC_REDIS_URL: REDIS_URL,
    SVC_REDIS_KEY_PREFIX: `${database}:`,
    SVC_RATE_LIMIT_PER_MINUTE: '100000000',
    SVC_LOGIN_RATE_LIMIT_PER_MINUTE: '100000000',
    SVC_INITIAL_ADMIN_PASSWORD: PASSWORD,
    SVC_INITIAL_PASSWORD_FILE: `/tmp/${database}-password.txt`,
    SVC_DATA_DIR: `/tmp/${database}`,
    SVC_LOG_LEVEL: process.env['BENCH_LOG_LEVEL'] ?? 'info',
  });
  children.push(svc);
  const base = `http://127.0.0.1:${svcPort}`;
  await waitForUrl(`${base}/health`);
  const login = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: PASSWORD }),
  });
  const { access_token: token } = (await login.json()) as { access_token: string };

  const figures = await measure(
    [
      { name: 'bare Fastify GET / (baseline)', url: `http://127.0.0.1:${barePort}/` },
      { name: 'svc GET /health', url: `${base}/health` },
      { name: 'svc GET /api/v1/me (access token)', url: `${base}/api/v1/me`, headers: { authorization: `Bearer ${token}` } },
    ],
    SECONDS,
    ROUNDS,
  );
  process.stdout.write(`${table(figures, figures[0]!)}\n`);
} finally {
  for (const child of children) child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1000));
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
}
