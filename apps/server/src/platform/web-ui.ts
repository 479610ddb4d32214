/**
 * Serves the web UI (apps/web, built into its dist folder) at `/`: its files as public static routes,
 * and index.html for any other GET that looks like a page of the app (the single-page app routes in
 * the browser). The fallback never answers under /api/, nor /health, /metrics, /docs, /openapi.json,
 * and /ready, /readyz, /healthz stay 404: those keep their own answers.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { htmlSecurityHeaders } from './security-headers.js';

const NEVER_THE_APP = /^\/(api\/|api$|health$|metrics$|docs(\/|$)|openapi\.json$|ready$|readyz$|healthz$)/;

/** apps/web/dist, from apps/server/src/platform or apps/server/dist/platform. */
export const defaultWebDist = () => path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

export type PageFallback = (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined;

export async function registerWebUi(
  app: FastifyInstance,
  distDir: string,
  production: boolean,
): Promise<PageFallback | undefined> {
  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) return undefined;
  const index = readFileSync(indexFile);
  await app.register(async (ui) => {
    // The app's files need no credentials: they hold no data (the data comes from the API).
    ui.addHook('onRoute', (route) => {
      route.config = {
        ...(route.config as object),
        public: true,
        html: true,
        licenseExempt: true,
      } as typeof route.config;
      route.schema = { ...(route.schema ?? {}), hide: true } as typeof route.schema;
    });
    await ui.register(fastifyStatic, {
      root: distDir,
      prefix: '/',
      wildcard: false,
      index: false,
      cacheControl: true,
      maxAge: '1h',
      immutable: false,
    });
  });
  const headers = htmlSecurityHeaders(production);
  return (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (!['GET', 'HEAD'].includes(request.method) || NEVER_THE_APP.test(pathname)) return undefined;
    reply.headers({ ...headers, 'cache-control': 'no-cache' });
    return reply.code(200).type('text/html; charset=utf-8').send(index);
  };
}
