/**
 * The one place that writes error responses. Domain errors keep their status and extras; framework
 * errors (unparseable body 400, too large 413, schema validation 422, unknown route 404, wrong method 405)
 * are mapped to the same envelope; anything else is a 500 whose cause is logged with the request_id only.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { AppError, type FieldError } from './index.js';

interface SchemaIssue {
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

function fieldErrors(issues: SchemaIssue[], context: string | undefined): FieldError[] {
  const prefix = context && context !== 'body' ? context : '';
  return issues.map((issue) => {
    let path = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
    const missing = issue.params?.['requiredProperties'] ?? issue.params?.['missingProperty'];
    if (missing !== undefined) {
      const name = Array.isArray(missing) ? missing.join(', ') : String(missing);
      path = path ? `${path}.${name}` : name;
    }
    return { path: [prefix, path].filter(Boolean).join('.'), message: issue.message ?? 'is invalid' };
  });
}

export interface KnownRoute {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered on the app, by method (also what the 405 answer is built from). */
    knownRoutes(): KnownRoute[];
  }
}

export function send(
  reply: FastifyReply,
  statusCode: number,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  return reply
    .code(statusCode)
    .type('application/json; charset=utf-8')
    .send({ ...body, request_id: reply.request.id });
}

export function registerErrorHandling(
  app: FastifyInstance,
  pageFallback?: () => ((request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined) | undefined,
) {
  // A second router that knows every route under every method: an unknown path is 404,
  // a known path with the wrong method is 405 with Allow.
  const allRoutes = FindMyWay({ ignoreTrailingSlash: false });
  const known: KnownRoute[] = [];
  app.decorate('knownRoutes', () => [...known]);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      known.push({ method: String(method), url: route.url });
      try {
        allRoutes.on(method as HTTPMethod, route.url, () => undefined);
      } catch {
        // the same pattern twice (HEAD added by Fastify): already known
      }
    }
  });

  app.setNotFoundHandler((request, reply) => {
    const page = pageFallback?.()?.(request, reply);
    if (page) return page;
    const path = request.url.split('?')[0] ?? request.url;
    const allowed = (['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const).filter(
      (method) => method !== request.method && allRoutes.find(method, path) !== null,
    );
    if (allowed.length > 0) {
      return send(
        reply,
        405,
        { detail: `Method ${request.method} not allowed on ${path}` },
        { Allow: allowed.join(', ') },
      );
    }
    return send(reply, 404, { detail: `No route ${request.method} ${path}` });
  });

  app.setErrorHandler((error: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      return send(reply, error.statusCode, { detail: error.message, ...error.extras }, error.headers);
    }
    const fastifyError = error as FastifyError;
    if (fastifyError.validation) {
      const errors = fieldErrors(fastifyError.validation as SchemaIssue[], fastifyError.validationContext);
      return send(reply, 422, {
        detail: `Validation failed: ${errors.map((e) => `${e.path || '(body)'} ${e.message}`).join('; ')}`,
        errors,
      });
    }
    const status = fastifyError.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return send(reply, status, { detail: clientMessage(fastifyError) });
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, 500, { detail: 'Internal server error; quote the request_id when reporting it' });
  });
}

function clientMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'Request body is not valid JSON';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'Request body is too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported Content-Type; send application/json';
    default:
      return error.message;
  }
}
