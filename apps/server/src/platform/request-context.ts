/** What services need to know about a request without seeing Fastify: who acts, from where, in which request. */
import type { FastifyRequest } from 'fastify';

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
