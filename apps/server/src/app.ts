/**
 * Builds the Fastify instance without listening (tests listen on port 0). Hook order on every request:
 * request id -> rate limit -> authentication (+ token scope) -> handler; errors go through one handler.
 */
import { randomUUID } from 'node:crypto';
import helmet from '@fastify/helmet';
import cookie from '@fastify/cookie';
import { TypeBoxValidatorCompiler, registerAjvFormats } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { createIdentityArea } from './areas/identity/index.js';
import { registerAuthentication } from './platform/authn.js';
import { registerErrorHandling } from './platform/errors/handler.js';
import { registerHealth } from './platform/health.js';
import { createMetrics, registerHttpMetrics } from './platform/metrics.js';
import { registerOpenApi } from './platform/openapi.js';
import { registerRateLimits } from './platform/rate-limit.js';
import type { Platform } from './platform/runtime.js';

registerAjvFormats();

export interface AppOptions {
  /** Called before the app is made ready: lets a test add a route that the platform must handle. */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>;
}

export async function buildApp(platform: Platform, options: AppOptions = {}): Promise<FastifyInstance> {
  const { config, logger, framework, shared, version } = platform;
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    genReqId: () => randomUUID(),
    logController: new LogController({ requestIdLogLabel: 'request_id' }),
    requestIdHeader: false,
    trustProxy: config.http.trustProxy,
    bodyLimit: config.http.bodyLimitBytes,
    requestTimeout: config.http.requestTimeoutMs,
    connectionTimeout: config.http.requestTimeoutMs,
    return503OnClosing: true,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false } },
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
  });
  app.setValidatorCompiler(TypeBoxValidatorCompiler);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
  });
  registerErrorHandling(app);
  await app.register(helmet, { global: true, hsts: config.env === 'production' });
  await app.register(cookie);
  await registerOpenApi(app, version.version);

  const metrics = createMetrics(framework.pool);
  registerHttpMetrics(app, metrics);
  registerRateLimits(app, shared, config.rateLimit, metrics);

  const identity = await createIdentityArea(platform);
  registerAuthentication(app, identity.authenticator);

  registerHealth(app, { framework_db: (ms) => framework.ping(ms), redis: (ms) => shared.ping(ms) }, version);
  await app.register(
    async (api) => {
      await identity.routes(api);
    },
    { prefix: '/api/v1' },
  );
  await options.beforeReady?.(app);
  await app.ready();
  await identity.start();
  return app;
}
