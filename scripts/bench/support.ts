/** Shared pieces of the benchmark scripts: child servers, autocannon runs, a side-by-side table. */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import autocannon from 'autocannon';

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

export function startChild(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
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

export interface Figures {
  name: string;
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
}

export async function load(name: string, url: string, headers: Record<string, string> = {}, seconds = 10): Promise<Figures> {
  // A short warm-up lets the JIT settle before the measured run.
  await autocannon({ url, connections: 50, duration: 2, headers });
  const result = await autocannon({ url, connections: 50, duration: seconds, headers });
  return { name, requestsPerSecond: result.requests.average, p99Ms: result.latency.p99, non2xx: result.non2xx };
}

export function table(rows: Figures[], baseline: Figures): string {
  const lines = [
    `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), node ${process.version}, 50 connections`,
    '| case | requests/s | p99 ms | non-2xx | vs bare Fastify |',
    '|---|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${Math.round(r.requestsPerSecond)} | ${r.p99Ms} | ${r.non2xx} | ${((r.requestsPerSecond / baseline.requestsPerSecond) * 100).toFixed(0)}% |`,
    ),
  ];
  return lines.join('\n');
}
