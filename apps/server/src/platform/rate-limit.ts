/**
 * Fixed one-minute windows per client, counted in shared state so that every API process enforces
 * one limit: a global limit on every request, and a tighter one on routes that ask for it
 * (`config: { rateLimit: 'login' }`). We count here rather than with @fastify/rate-limit because that
 * plugin keys its counters per route, while the interface document limits a client over all endpoints.
 *
 * Headers: X-RateLimit-Remaining (requests left in the tightest window that applies) and
 * X-RateLimit-Reset (whole seconds until that window resets). If shared state fails, requests
 * pass (logged and counted): losing Redis must not take the API down with it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { tooManyRequests } from './errors/index.js';
import type { Metrics } from './metrics.js';
import type { SharedState } from './shared-state/index.js';

const WINDOW_MS = 60_000;
// A slow shared state must not slow every request: past this, the request passes unchecked.
const COUNTER_TIMEOUT_MS = 300;

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`rate-limit counter timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export interface RateLimits {
  perMinute: number;
  loginPerMinute: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Extra, tighter limit for this route on top of the global one. */
    rateLimit?: 'login';
  }
}

interface Outcome {
  name: string;
  limit: number;
  count: number;
  resetMs: number;
}

const RATE_HEADERS = Symbol('rateHeaders');
type WithHeaders = FastifyRequest & { [RATE_HEADERS]?: { remaining: number; resetSeconds: number } };

export function registerRateLimits(app: FastifyInstance, shared: SharedState, limits: RateLimits, metrics: Metrics) {
  app.addHook('onRequest', async (request) => {
    const checks: Array<{ name: string; limit: number }> = [{ name: 'global', limit: limits.perMinute }];
    if (request.routeOptions.config.rateLimit === 'login') checks.push({ name: 'login', limit: limits.loginPerMinute });
    let outcomes: Outcome[];
    try {
      outcomes = await within(
        Promise.all(
          checks.map(async ({ name, limit }) => ({ name, limit, ...(await shared.hitWindow(`rl:${name}:${request.ip}`, WINDOW_MS)) })),
        ),
        COUNTER_TIMEOUT_MS,
      );
    } catch (error) {
      request.log.warn({ err: { message: (error as Error).message } }, 'rate limit not enforced: shared state unavailable');
      metrics.rateLimitUnenforced.inc();
      return;
    }
    const tightest = outcomes.reduce((a, b) => (b.limit - b.count < a.limit - a.count ? b : a));
    const resetSeconds = Math.max(1, Math.ceil(tightest.resetMs / 1000));
    (request as WithHeaders)[RATE_HEADERS] = { remaining: Math.max(0, tightest.limit - tightest.count), resetSeconds };
    const exceeded = outcomes.find((o) => o.count > o.limit);
    if (exceeded) {
      metrics.rateLimitRefusals.inc({ limit: exceeded.name });
      throw tooManyRequests(Math.max(1, Math.ceil(exceeded.resetMs / 1000)));
    }
  });

  // Fastify lower-cases header names; write these on the raw response to keep the documented spelling.
  app.addHook('onSend', async (request, reply) => {
    const headers = (request as WithHeaders)[RATE_HEADERS];
    if (!headers) return;
    reply.raw.setHeader('X-RateLimit-Remaining', String(headers.remaining));
    reply.raw.setHeader('X-RateLimit-Reset', String(headers.resetSeconds));
  });
}
