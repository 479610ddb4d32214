/** What services need to know about a request without seeing Fastify: who acts, from where, in which request. */
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';

export interface RouteInfo {
  /** Route template (`/api/v1/users/:id`), undefined when no route matched. */
  url: string | undefined;
  config: FastifyContextConfig;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The matched route, read once per request (Fastify builds request.routeOptions anew on each access). */
    routeInfo: RouteInfo;
  }
}

/** First hook of every request: the request id header and the matched route. */
export function registerRequestContext(app: FastifyInstance) {
  app.decorateRequest('routeInfo', null as unknown as RouteInfo);
  app.addHook('onRequest', async (request, reply) => {
    const options = request.routeOptions;
    request.routeInfo = { url: options.url, config: options.config };
    reply.header('X-Request-Id', request.id);
  });
}

export interface RequestContext {
  actorUserId?: string | null;
  actorTokenId?: string | null;
  clientAddress?: string | null;
  userAgent?: string | null;
  requestId?: string | null;
}

export function requestContext(request: FastifyRequest): RequestContext {
  return {
    actorUserId: request.principal?.userId ?? null,
    actorTokenId: request.principal?.credential === 'api_token' ? request.principal.tokenId : null,
    clientAddress: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
    requestId: request.id,
  };
}
