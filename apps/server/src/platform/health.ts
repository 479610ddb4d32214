/**
 * GET /health: the one health endpoint (liveness and readiness). Each dependency is really asked
 * (a query, a PING) under a short timeout, so a hung dependency gives 503 quickly instead of a hang.
 */
import type { FastifyInstance } from 'fastify';
import type { VersionInfo } from './version.js';

export const DEP_TIMEOUT_MS = 1500;

export interface HealthDeps {
  framework_db: (timeoutMs: number) => Promise<void>;
  redis: (timeoutMs: number) => Promise<void>;
}

const DepStatus = { type: 'string', description: '"ok" when healthy, otherwise a short reason' } as const;
const HealthBody = {
  type: 'object',
  required: ['status', 'version', 'commit', 'deps'],
  properties: {
    status: { type: 'string', enum: ['ok', 'degraded'] },
    version: { type: 'string' },
    commit: { type: 'string' },
    deps: {
      type: 'object',
      required: ['framework_db', 'redis'],
      properties: { framework_db: DepStatus, redis: DepStatus },
    },
  },
} as const;

async function check(probe: (timeoutMs: number) => Promise<void>): Promise<string> {
  try {
    await probe(DEP_TIMEOUT_MS);
    return 'ok';
  } catch (error) {
    return /timed out/.test((error as Error).message) ? 'timeout' : 'unavailable';
  }
}

export function registerHealth(app: FastifyInstance, deps: HealthDeps, version: VersionInfo) {
  app.get('/health', {
    config: { public: true },
    schema: {
      operationId: 'getHealth',
      tags: ['platform'],
      summary: 'Health of the instance and its dependencies (200 when all are ok, else 503)',
      response: { 200: HealthBody, 503: HealthBody },
    },
    handler: async (request, reply) => {
      const [frameworkDb, redis] = await Promise.all([check(deps.framework_db), check(deps.redis)]);
      const healthy = frameworkDb === 'ok' && redis === 'ok';
      if (!healthy) request.log.warn({ framework_db: frameworkDb, redis }, 'health check failed');
      return reply.code(healthy ? 200 : 503).send({
        status: healthy ? 'ok' : 'degraded',
        version: version.version,
        commit: version.commit,
        deps: { framework_db: frameworkDb, redis },
      });
    },
  });
}
