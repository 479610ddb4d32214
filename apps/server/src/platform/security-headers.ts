/**
 * Security headers. API responses (JSON) get the short set that the OWASP REST Security Cheat Sheet
 * recommends for APIs; HTML pages (/docs, later the web UI) get helmet's full default set. Neither
 * varies per request (no CSP nonces), so both are computed once at startup; helmet stays the source
 * of the HTML set without its per-request cost.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';

export function computeHelmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => void (headers[name] = String(value)),
    removeHeader: (name: string) => void delete headers[name],
  };
  let done = false;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => (done = true));
  if (!done) throw new Error('helmet did not complete synchronously');
  return headers;
}

export function apiSecurityHeaders(production: boolean): Record<string, string> {
  return {
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    ...(production ? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route serves HTML (documentation, web UI): send the full browser header set. */
    html?: boolean;
  }
}

/** The browser set, for HTML pages (documentation, web UI). */
export const htmlSecurityHeaders = (production: boolean) =>
  computeHelmetHeaders({ strictTransportSecurity: production });

export function createSecurityHeaders(production: boolean) {
  const api = apiSecurityHeaders(production);
  const html = htmlSecurityHeaders(production);
  return (request: FastifyRequest, reply: FastifyReply): void => {
    reply.headers(request.routeInfo.config.html ? html : api);
  };
}
