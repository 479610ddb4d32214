/**
 * Authentication, deny by default: every route requires a credential unless it is marked
 * `config: { public: true }` on the route itself. The identity area supplies the Authenticator that
 * checks tokens; this hook only finds the credential and enforces where each kind may be used:
 * the query parameter `token` only on routes marked `sseQueryToken`, and there only an access token.
 * A `read`-scoped personal token is refused on every unsafe method here, in one place.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireDeclaredCapability, type RouteCapability } from './authz.js';
import { forbidden, unauthenticated } from './errors/index.js';

export const API_TOKEN_PREFIX = 'svc_';

export interface Principal {
  userId: string;
  username: string;
  isAdmin: boolean;
  credential: 'access_token' | 'api_token';
  /** Access token id (jti) or personal token id. */
  tokenId: string;
  /** Session family of an access token. */
  sessionId?: string;
  /** Personal tokens: read or write. Access tokens act with the user's full rights: write. */
  scope: 'read' | 'write';
  /** Personal tokens scoped to projects: those ids; otherwise null (no token-level restriction). */
  projectIds: string[] | null;
  /** When the credential expires (null: a personal token without expiry). */
  expiresAt: Date | null;
}

export interface Authenticator {
  /** The principal, or a 401 thrown (unknown, expired, revoked, disabled user). Synchronous when all it needs is cached. */
  authenticate(token: string): Principal | Promise<Principal>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No credential needed (the interface document's unauthenticated list, nothing else). */
    public?: boolean;
    /** Server-Sent Events route: the access token may come as query parameter `token`. */
    sseQueryToken?: boolean;
    /** What the caller needs (platform/authz.ts RouteCapability); every non-public API route declares one. */
    capability?: RouteCapability;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthenticated('Authorization header must be "Bearer <token>"');
  return match[1];
}

// The credential of each event-stream request, so the stream can authenticate it again while open
// (platform/sse.ts). Kept only for routes marked sseQueryToken, and only as long as the request lives.
const streamCredentials = new WeakMap<FastifyRequest, string>();

/** The credential an event-stream request was authenticated with. */
export function credentialOf(request: FastifyRequest): string | undefined {
  return streamCredentials.get(request);
}

export function createAuthentication(authenticator: Authenticator) {
  const admit = (request: FastifyRequest, principal: Principal) => {
    request.principal = principal;
    if (principal.scope === 'read' && UNSAFE_METHODS.has(request.method)) {
      throw forbidden('This personal API token has read scope and cannot make changes; use a write-scoped token');
    }
  };
  return (request: FastifyRequest): void | Promise<void> => {
    const { config, url } = request.routeInfo;
    if (config.public || url === undefined) return;
    let token = bearerToken(request);
    let fromQuery = false;
    if (!token && config.sseQueryToken) {
      const value = (request.query as Record<string, unknown> | undefined)?.['token'];
      if (typeof value === 'string' && value.length > 0) {
        token = value;
        fromQuery = true;
      }
    }
    if (!token) throw unauthenticated();
    if (fromQuery && token.startsWith(API_TOKEN_PREFIX)) {
      throw unauthenticated('Only a short-lived access token is accepted in the token query parameter');
    }
    if (config.sseQueryToken) streamCredentials.set(request, token);
    const principal = authenticator.authenticate(token);
    if (principal instanceof Promise) return principal.then((p) => admit(request, p));
    admit(request, principal);
  };
}

/** The authenticated caller of a non-public route (the hook guarantees it is set). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthenticated();
  return request.principal;
}

/**
 * Every route registered in `scope` (the API) declares its capability unless it is public: a route
 * without one does not start. Instance capabilities are enforced here, before the handler; the
 * others need the resource the service loads and are checked there.
 */
export function requireCapabilityDeclarations(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    if (!route.config?.public && !route.config?.capability) {
      throw new Error(
        `${String(route.method)} ${route.url} declares no capability: set config.capability (or config.public)`,
      );
    }
  });
  scope.addHook('preHandler', async (request) => {
    if (request.principal) requireDeclaredCapability(request.principal, request.routeInfo.config.capability);
  });
}
