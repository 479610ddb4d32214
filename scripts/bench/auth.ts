/**
 * npm run bench:auth: logins per second against the bcrypt bound (cores / time of one cost-12 hash),
 * and authenticated GET /api/v1/me per second with an access token and with a personal API token,
 * side by side with a bare Fastify hello-world, all in one run. The service runs built, as
 * `svc serve`, against the machine's PostgreSQL and Redis, with bcrypt at its default cost 12.
 */
import os from 'node:os';
import autocannon from 'autocannon';
import bcrypt from 'bcrypt';
import { BENCH_ADMIN_PASSWORD, measure, startTargets, table } from './support.js';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);

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

const targets = await startTargets();
try {
  const created = await fetch(`${targets.svc}/api/v1/api-tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${targets.accessToken}` },
    body: JSON.stringify({ name: 'bench', scope: 'read' }),
  });
  const { token: personalToken } = (await created.json()) as { token: string };

  // Logins: enough connections to keep every bcrypt thread busy.
  const logins = await autocannon({
    url: `${targets.svc}/api/v1/auth/login`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: BENCH_ADMIN_PASSWORD }),
    connections: 8,
    duration: SECONDS,
  });

  const figures = await measure(
    [
      { name: 'bare Fastify GET / (baseline)', url: `${targets.bare}/` },
      {
        name: 'svc GET /api/v1/me, access token',
        url: `${targets.svc}/api/v1/me`,
        headers: { authorization: `Bearer ${targets.accessToken}` },
      },
      {
        name: 'svc GET /api/v1/me, personal token',
        url: `${targets.svc}/api/v1/me`,
        headers: { authorization: `Bearer ${personalToken}` },
      },
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
  await targets.stop();
}
