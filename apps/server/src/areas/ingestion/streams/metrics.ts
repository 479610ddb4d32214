/**
 * Per-stream metrics. Counters of what this process moved (svc_stream_messages_total by outcome,
 * svc_stream_bytes_total) count in the worker that consumes; lag, latency and the running state are
 * read from the framework database at scrape time, so every process shows them whichever worker
 * consumes the stream.
 */
import client from 'prom-client';
import type { Platform } from '../../../platform/runtime.js';
import type { StreamMetrics } from './consumers.js';
import type { StreamsRepository } from './repository.js';

export function registerStreamMetrics(platform: Platform, repository: StreamsRepository): StreamMetrics {
  const registers = [platform.metrics.registry];
  const db = platform.framework.db;
  let cached: { at: number; rows: ReturnType<typeof repository.latestRuns> } | undefined;
  const latest = () => {
    if (!cached || Date.now() - cached.at > 1000) cached = { at: Date.now(), rows: repository.latestRuns(db) };
    return cached.rows;
  };
  const gauge = (
    name: string,
    help: string,
    value: (row: Awaited<ReturnType<typeof latest>>[number]) => number | null,
  ) =>
    new client.Gauge({
      name,
      help,
      labelNames: ['stream'] as const,
      registers,
      async collect() {
        this.reset();
        for (const row of await latest()) {
          const v = value(row);
          if (v !== null) this.set({ stream: row.stream_id }, v);
        }
      },
    });
  gauge('svc_stream_lag_messages', 'Messages waiting at the broker for the stream, as its consumer saw last.', (r) =>
    r.lag_messages === null ? null : Number(r.lag_messages),
  );
  gauge(
    'svc_stream_latency_seconds',
    'From publish to committed in the destination, of the latest batch, per stream.',
    (r) => r.latency_seconds,
  );
  gauge('svc_stream_running', '1 while a worker consumes the stream, 0 otherwise.', (r) =>
    r.status === 'running' ? 1 : 0,
  );
  return {
    messages: new client.Counter({
      name: 'svc_stream_messages_total',
      help: 'Messages consumed by this process, per stream and outcome (written, dead_lettered, retried).',
      labelNames: ['stream', 'outcome'] as const,
      registers,
    }),
    bytes: new client.Counter({
      name: 'svc_stream_bytes_total',
      help: 'Message bytes consumed by this process, per stream.',
      labelNames: ['stream'] as const,
      registers,
    }),
  };
}
