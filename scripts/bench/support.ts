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

/** Runs plain JavaScript (the built server, the baseline) in its own process. */
export function startChild(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
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
