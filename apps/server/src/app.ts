/**
 * Builds the Fastify instance without listening (tests listen on port 0). Hook order on every request:
 * request id -> rate limit -> authentication (+ token scope) -> handler; errors go through one handler.
 */
import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import { TypeBoxValidatorCompiler, registerAjvFormats } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { createAreas, type Areas } from './areas/index.js';
import { registerAuthentication } from './platform/authn.js';
import { registerErrorHandling } from './platform/errors/handler.js';
import { registerHealth } from './platform/health.js';
import { registerLicenseGate } from './platform/license-gate.js';
import { createMetrics, registerHttpMetrics } from './platform/metrics.js';
import { accessLogUrl, lazyChildLogger } from './platform/logging.js';
import { registerOpenApi } from './platform/openapi.js';
import { registerRateLimits } from './platform/rate-limit.js';
import { registerSecurityHeaders } from './platform/security-headers.js';
import { registerRequestContext } from './platform/request-context.js';
import type { Platform } from './platform/runtime.js';

registerAjvFormats();

export interface AppOptions {
  /** The functional areas; created (and closed with the app) when not given. */
  areas?: Areas;
  /** Called before the app is made ready: lets a test add a route that the platform must handle. */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>;
}

export async function buildApp(platform: Platform, options: AppOptions = {}): Promise<FastifyInstance> {
  const { config, logger, accessLogger, framework, shared, version } = platform;
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    genReqId: () => randomUUID(),
    // One access-log line per request (written below), not Fastify's two.
    logController: new LogController({ requestIdLogLabel: 'request_id', disableRequestLogging: true }),
    childLoggerFactory: lazyChildLogger,
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

  registerRequestContext(app);
  app.addHook('onResponse', async (request, reply) => {
    accessLogger.info(
      {
        request_id: request.id,
        method: request.method,
        url: accessLogUrl(request.url),
        route: request.routeInfo?.url,
        status: reply.statusCode,
        duration_ms: Math.round(reply.elapsedTime * 10) / 10,
        client: request.ip,
        user_id: request.principal?.userId,
      },
      'request completed',
    );
  });
  registerErrorHandling(app);
  registerSecurityHeaders(app, config.env === 'production');
  await app.register(cookie);
  await registerOpenApi(app, version.version);

  const metrics = createMetrics(framework.pool);
  registerHttpMetrics(app, metrics);
  registerRateLimits(app, shared, config.rateLimit, metrics);

  const areas = options.areas ?? (await createAreas(platform));
  if (!options.areas) app.addHook('onClose', async () => areas.close());
  registerAuthentication(app, areas.authenticator);
  registerLicenseGate(app, areas.license);

  registerHealth(app, { framework_db: (ms) => framework.ping(ms), redis: (ms) => shared.ping(ms) }, version);
  await app.register(
    async (api) => {
      await areas.routes(api);
    },
    { prefix: '/api/v1' },
  );
  await options.beforeReady?.(app);
  await app.ready();
  await areas.start();
  return app;
}
