/**
 * Builds the Fastify instance without listening (tests listen on port 0). Every request goes through
 * the platform pipeline (platform/pipeline.ts) before its handler; errors go through one handler.
 */
import { randomUUID } from 'node:crypto';
import { TypeBoxValidatorCompiler, registerAjvFormats } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { createAreas, type Areas } from './areas/index.js';
import { createAuthentication, requireCapabilityDeclarations } from './platform/authn.js';
import { registerErrorHandling } from './platform/errors/handler.js';
import { registerHealth } from './platform/health.js';
import { createLicenseGate } from './platform/license-gate.js';
import { accessLog, lazyChildLogger } from './platform/logging.js';
import { createHttpMetrics, registerMetricsRoute } from './platform/metrics.js';
import { registerOpenApi } from './platform/openapi.js';
import { registerPipeline } from './platform/pipeline.js';
import { createRateLimiter } from './platform/rate-limit.js';
import { beginRequest } from './platform/request-context.js';
import { createSecurityHeaders } from './platform/security-headers.js';
import { defaultWebDist, registerWebUi, type PageFallback } from './platform/web-ui.js';
import type { Platform } from './platform/runtime.js';

registerAjvFormats();

export interface AppOptions {
  /** The functional areas; created (and closed with the app) when not given. */
  areas?: Areas;
  /** Called before the app is made ready: lets a test add a route that the platform must handle. */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>;
  /** The built web UI to serve at / (default apps/web/dist; nothing is served when it is not built). */
  webDist?: string;
  /** Length of the login limit's window (one minute; tests shorten it to cross its edge quickly). */
  loginRateLimitWindowMs?: number;
}

export async function buildApp(platform: Platform, options: AppOptions = {}): Promise<FastifyInstance> {
  const { config, logger, accessLogger, framework, shared, version } = platform;
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    genReqId: () => randomUUID(),
    // One access-log line per request (platform/logging.ts accessLog), not Fastify's two.
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

  // The web UI's page fallback answers the paths no route does; it exists once the UI is registered.
  const webUi: { fallback?: PageFallback } = {};
  registerErrorHandling(app, () => webUi.fallback);
  await registerOpenApi(app, version.version);

  const metrics = platform.metrics;
  registerMetricsRoute(app, metrics);
  const rateLimiter = createRateLimiter(
    shared,
    { ...config.rateLimit, loginWindowMs: options.loginRateLimitWindowMs },
    metrics,
    logger,
  );
  app.addHook('onClose', async () => rateLimiter.close());
  const areas = options.areas ?? (await createAreas(platform));
  if (!options.areas) app.addHook('onClose', async () => areas.close());

  registerPipeline(
    app,
    [
      beginRequest,
      createSecurityHeaders(config.env === 'production'),
      rateLimiter.check,
      createAuthentication(areas.authenticator),
      createLicenseGate(areas.license),
    ],
    [createHttpMetrics(metrics), (request, reply) => accessLog(accessLogger, request, reply)],
  );

  registerHealth(app, { framework_db: (ms) => framework.ping(ms), redis: (ms) => shared.ping(ms) }, version);
  await app.register(
    async (api) => {
      requireCapabilityDeclarations(api);
      await areas.routes(api);
    },
    { prefix: '/api/v1' },
  );
  webUi.fallback = await registerWebUi(app, options.webDist ?? defaultWebDist(), config.env === 'production');
  await options.beforeReady?.(app);
  await app.ready();
  await areas.start();
  return app;
}
