/** What services need to know about a request without seeing Fastify: who acts, from where, in which request. */
import type { FastifyContextConfig, FastifyReply, FastifyRequest } from 'fastify';

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

/** First step of every request: the matched route, read once, and the request id header. */
export function beginRequest(request: FastifyRequest, reply: FastifyReply): void {
  const options = request.routeOptions;
  request.routeInfo = { url: options.url, config: options.config };
  reply.header('X-Request-Id', request.id);
}

export interface RequestContext {
  actorUserId?: string | null;
  actorTokenId?: string | null;
  clientAddress?: string | null;
  userAgent?: string | null;
  requestId?: string | null;
}

/** Schedulers, dependency triggers and other background work act for no request. */
export const SYSTEM_CONTEXT: RequestContext = {
  actorUserId: null,
  actorTokenId: null,
  clientAddress: null,
  userAgent: null,
  requestId: null,
};

export function requestContext(request: FastifyRequest): RequestContext {
  return {
    actorUserId: request.principal?.userId ?? null,
    actorTokenId: request.principal?.credential === 'api_token' ? request.principal.tokenId : null,
    clientAddress: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
    requestId: request.id,
  };
}
