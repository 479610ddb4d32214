/** Prometheus metrics: one registry per app instance, so tests can run several apps in one process. */
import client from 'prom-client';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';

export interface Metrics {
  registry: client.Registry;
  rateLimitRefusals: client.Counter<'limit'>;
  rateLimitUnenforced: client.Counter;
}

export function createMetrics(pool: pg.Pool): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'svc_' });
  // prom-client names these gauges *_total, which Prometheus reserves for counters (promtool refuses them).
  for (const name of ['active_handles', 'active_requests', 'active_resources']) {
    registry.removeSingleMetric(`svc_nodejs_${name}_total`);
  }
  const rateLimitRefusals = new client.Counter({
    name: 'svc_rate_limit_refusals_total',
    help: 'Requests refused with 429, by the limit that refused them.',
    labelNames: ['limit'] as const,
    registers: [registry],
  });
  const rateLimitUnenforced = new client.Counter({
    name: 'svc_rate_limit_unenforced_total',
    help: 'Requests let through unchecked because the shared rate-limit counters were unavailable.',
    registers: [registry],
  });
  new client.Gauge({
    name: 'svc_db_pool_connections',
    help: 'Framework database pool connections by state (total, idle, waiting = callers queued for a connection).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  return { registry, rateLimitRefusals, rateLimitUnenforced };
}

/**
 * Counts and times every request by route template (never the raw URL: bounded label values).
 * The labelled children are kept per label set, so a request costs no label hashing.
 */
export function createHttpMetrics(metrics: Metrics) {
  const requests = new client.Counter({
    name: 'svc_http_requests_total',
    help: 'HTTP requests by route template, method and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [metrics.registry],
  });
  const duration = new client.Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'HTTP request duration by route template, method and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [metrics.registry],
  });
  type Labels = 'method' | 'route' | 'status_code';
  const children = new Map<string, { count: client.Counter.Internal; time: client.Histogram.Internal<Labels> }>();
  return (request: FastifyRequest, reply: FastifyReply): void => {
    const route = request.routeInfo?.url ?? 'unmatched';
    const key = `${request.method} ${route} ${reply.statusCode}`;
    let child = children.get(key);
    if (!child) {
      const labels = { method: request.method, route, status_code: String(reply.statusCode) };
      child = { count: requests.labels(labels), time: duration.labels(labels) };
      children.set(key, child);
    }
    child.count.inc();
    child.time.observe(reply.elapsedTime / 1000);
  };
}

export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics) {
  app.get('/metrics', {
    config: { public: true },
    schema: {
      operationId: 'getMetrics',
      tags: ['platform'],
      summary: 'Prometheus metrics (text exposition format)',
      response: { 200: { type: 'string' } },
    },
    handler: async (_request, reply) => {
      reply.type(metrics.registry.contentType);
      return metrics.registry.metrics();
    },
  });
}
