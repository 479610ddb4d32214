/**
 * Cost of one egress policy resolution (platform/egress.ts), as connectors pay it before each
 * connection: an address literal (classification only) and a host name (a getaddrinfo lookup, here
 * `localhost` from /etc/hosts, then classification). Run: node --import tsx scripts/bench/egress.ts
 */
import { performance } from 'node:perf_hooks';
import { createEgressPolicy } from '../../apps/server/src/platform/egress.js';

const policy = createEgressPolicy({
  allowPrivateNetworks: true,
  allowedHosts: '127.0.0.0/8,::1',
  serviceUrls: [{ url: 'postgres://svc@db.invalid:5432/svc', defaultPort: 5432, what: 'database' }],
});

async function measure(label: string, host: string, rounds: number): Promise<void> {
  for (let i = 0; i < 1000; i++) await policy.resolve(host, 5432).catch(() => undefined);
  const started = performance.now();
  for (let i = 0; i < rounds; i++) await policy.resolve(host, 5432).catch(() => undefined);
  const micros = ((performance.now() - started) * 1000) / rounds;
  process.stdout.write(`${label.padEnd(38)} ${micros.toFixed(1)} µs per resolution (${rounds} rounds)\n`);
}

await measure('address literal (10.1.2.3)', '10.1.2.3', 100_000);
await measure('address literal, refused (169.254.x)', '169.254.169.254', 100_000);
await measure('host name (localhost, getaddrinfo)', 'localhost', 20_000);
