/**
 * npm run bench: requests/s and p99 of GET /health and of an authenticated JSON GET (/api/v1/me with an
 * access token) at 50 connections, side by side with a bare Fastify hello-world measured in the same run.
 * The service runs built (`npm run build`, as in production) as `svc serve` against the machine's
 * PostgreSQL and Redis (a fresh database), with the JSON access log on (BENCH_LOG_LEVEL=warn turns it
 * off) and the rate limits raised out of the way.
 */
import { measure, startTargets, table } from './support.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);

const targets = await startTargets({ logLevel: process.env['BENCH_LOG_LEVEL'] });
try {
  const figures = await measure(
    [
      { name: 'bare Fastify GET / (baseline)', url: `${targets.bare}/` },
      { name: 'svc GET /health', url: `${targets.svc}/health` },
      {
        name: 'svc GET /api/v1/me (access token)',
        url: `${targets.svc}/api/v1/me`,
        headers: { authorization: `Bearer ${targets.accessToken}` },
      },
    ],
    SECONDS,
    ROUNDS,
  );
  process.stdout.write(`${table(figures, figures[0]!)}\n`);
} finally {
  await targets.stop();
}
