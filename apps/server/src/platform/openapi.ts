/**
 * /openapi.json (OpenAPI 3.1) generated from the route schemas, so it is the exact route list, and
 * /docs (Swagger UI). Every route gets an operationId and the error envelope on its 4XX/5XX responses.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ErrorEnvelope } from './errors/index.js';

export const ERROR_ENVELOPE_REF = { $ref: 'ErrorEnvelope#' } as const;

function defaultOperationId(method: string, url: string): string {
  const words = url
    .replace(/^\/api\/v1/, '')
    .split('/')
    .filter(Boolean)
    .map((part) => (part.startsWith(':') ? `by_${part.slice(1)}` : part.replace(/[^A-Za-z0-9]+/g, '_')));
  return [method.toLowerCase(), ...words].join('_');
}

export async function registerOpenApi(app: FastifyInstance, version: string) {
  app.addSchema({ $id: 'ErrorEnvelope', title: 'ErrorEnvelope', ...ErrorEnvelope });

  app.addHook('onRoute', (route) => {
    if (route.schema?.hide) return;
    const method = Array.isArray(route.method) ? route.method[0] : route.method;
    route.schema ??= {};
    const schema = route.schema as { operationId?: string; response?: Record<string, unknown> };
    schema.operationId ??= defaultOperationId(String(method), route.url);
    schema.response ??= {};
    schema.response['4XX'] ??= ERROR_ENVELOPE_REF;
    schema.response['5XX'] ??= ERROR_ENVELOPE_REF;
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'svc API',
        version,
        description: 'Self-hosted data integration service. Every application endpoint is under /api/v1.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Access token (JWT) or personal API token (svc_...)' },
        },
      },
      security: [{ bearer: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });

  // Public routes say so in the document too: no security requirement. The others name the capability they need.
  app.addHook('onRoute', (route) => {
    if (!route.schema || route.schema.hide) return;
    if (route.config?.public) (route.schema as { security?: unknown[] }).security = [];
    if (route.config?.capability)
      (route.schema as { 'x-capability'?: string })['x-capability'] = route.config.capability;
  });

  app.get('/openapi.json', {
    config: { public: true },
    schema: {
      operationId: 'getOpenApiDocument',
      tags: ['platform'],
      summary: 'This OpenAPI document',
      response: { 200: { type: 'object', additionalProperties: true } },
    },
    handler: async () => app.swagger(),
  });

  // Swagger UI's own routes (page and static assets) are a public HTML UI, not API operations.
  await app.register(async (ui) => {
    ui.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), public: true, html: true };
    });
    await ui.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  });
}
