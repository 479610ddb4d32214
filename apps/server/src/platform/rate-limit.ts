/**
 * Per-client limits counted in shared state, so that every API process enforces one limit: a global
 * limit on every request (fixed one-minute windows), and a tighter one on routes that ask for it
 * (`config: { rateLimit: 'login' }`), over a sliding window: no 60-second span ever holds more admitted
 * logins than the limit, where a fixed window lets twice the limit through around its edge. Logins
 * are few and cost a password hash, so the sliding window's one round trip per login costs nothing
 * that matters; the global limit, on every request, keeps its cheaper fixed windows. We count here rather than with @fastify/rate-limit because that
 * plugin keys its counters per route, while the interface document limits a client over all endpoints.
 *
 * Counting is exact where it matters: while a client has used less than half of a limit, its hits are
 * counted locally and added to the shared window in batches every 50 ms (no round trip per request);
 * from half of the limit on, every hit is one atomic round trip, so the request that crosses the limit
 * is refused exactly, across processes. See docs/decisions/0003-rate-limits.md.
 *
 * Headers: X-RateLimit-Remaining (requests left in the tightest window that applies) and
 * X-RateLimit-Reset (whole seconds until that window resets; for the sliding window, until its oldest
 * admitted login leaves it and a slot frees). If shared state fails or is slow,
 * requests pass (logged and counted): losing Redis must not take the API down with it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { tooManyRequests } from './errors/index.js';
import type { Metrics } from './metrics.js';
import type { SharedState, WindowCount } from './shared-state/index.js';

const WINDOW_MS = 60_000;
const FLUSH_INTERVAL_MS = 50;
/** Below this fraction of a limit, hits are batched; from it on, counted one by one. */
const BATCH_BELOW_FRACTION = 0.5;
// A slow shared state must not slow every request: past this, the request passes unchecked.
const COUNTER_TIMEOUT_MS = 300;

export interface RateLimits {
  perMinute: number;
  loginPerMinute: number;
  /** The login limit's window (default one minute). */
  loginWindowMs?: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `login`: an extra, tighter limit for this route on top of the global one. `own`: the route is
     * not counted against the per-client limits; it enforces a limit of its own (inbox endpoints).
     */
    rateLimit?: 'login' | 'own';
  }
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`rate-limit counter timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

type Outcome = { name: string; limit: number } & WindowCount;

interface LocalWindow {
  resetAt: number;
  /** Highest shared count any of our round trips has returned in this window. */
  known: number;
  /** Our hits on their way to the shared window (sent, answer not back yet). */
  inflight: number;
  /** Our hits not yet sent. */
  pending: number;
}

/** Shared fixed windows with local batching far from the limit (see the module comment). */
export class WindowCounter {
  private readonly windows = new Map<string, LocalWindow>();
  private flushTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly shared: SharedState,
    private readonly windowMs: number,
    private readonly logger: Logger,
  ) {}

  /** Synchronous while the hit is only counted locally; a promise when it goes to the shared window. */
  hit(key: string, limit: number): WindowCount | Promise<WindowCount> {
    const now = Date.now();
    let local = this.windows.get(key);
    if (local && now >= local.resetAt) {
      this.windows.delete(key); // window over: hits not yet sent belonged to it
      local = undefined;
    }
    if (local && local.known + local.inflight + local.pending + 1 <= limit * BATCH_BELOW_FRACTION) {
      local.pending += 1;
      this.scheduleFlush();
      return { count: local.known + local.inflight + local.pending, resetMs: local.resetAt - now };
    }
    const hits = (local?.pending ?? 0) + 1;
    if (local) local.pending = 0;
    return within(this.send(key, hits), COUNTER_TIMEOUT_MS);
  }

  /** Adds our hits to the shared window; the answer is the shared count with them included. */
  private async send(key: string, hits: number): Promise<WindowCount> {
    const sending = this.windows.get(key);
    if (sending) sending.inflight += hits;
    try {
      const result = await this.shared.hitWindow(key, this.windowMs, hits);
      const resetAt = Date.now() + result.resetMs;
      const local = this.windows.get(key);
      if (!local || local.resetAt < resetAt - this.windowMs / 2) {
        // first round trip for this key, or the shared window started anew
        this.windows.set(key, { known: result.count, inflight: 0, pending: local?.pending ?? 0, resetAt });
      } else {
        // answers can arrive out of order; within one window the count only grows
        local.known = Math.max(local.known, result.count);
        if (local === sending) local.inflight -= hits;
      }
      return result;
    } catch (error) {
      if (sending && this.windows.get(key) === sending) sending.inflight -= hits;
      throw error;
    }
  }

  private scheduleFlush() {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush();
    }, FLUSH_INTERVAL_MS);
    this.flushTimer.unref();
  }

  async flush(): Promise<void> {
    const now = Date.now();
    const work: Array<Promise<unknown>> = [];
    for (const [key, local] of this.windows) {
      if (now >= local.resetAt) {
        if (local.inflight === 0) this.windows.delete(key);
        continue;
      }
      if (local.pending === 0) continue;
      const hits = local.pending;
      local.pending = 0;
      work.push(
        this.send(key, hits).catch((error: Error) =>
          this.logger.warn({ err: { message: error.message } }, 'rate-limit batch not recorded'),
        ),
      );
    }
    await Promise.all(work);
  }

  close() {
    clearTimeout(this.flushTimer);
  }
}

export interface RateLimiter {
  /** The rate-limit step of the request pipeline: counts the request, sets the headers, throws 429. */
  check(request: FastifyRequest, reply: FastifyReply): void | Promise<void>;
  close(): void;
}

export function createRateLimiter(
  shared: SharedState,
  limits: RateLimits,
  metrics: Metrics,
  logger: Logger,
): RateLimiter {
  const counter = new WindowCounter(shared, WINDOW_MS, logger);
  const loginWindowMs = limits.loginWindowMs ?? WINDOW_MS;

  const conclude = (request: FastifyRequest, reply: FastifyReply, outcomes: Outcome[]) => {
    let tightest = outcomes[0]!;
    for (const outcome of outcomes)
      if (outcome.limit - outcome.count < tightest.limit - tightest.count) tightest = outcome;
    // Fastify lower-cases header names; set these on the raw response to keep the documented spelling.
    reply.raw.setHeader('X-RateLimit-Remaining', String(Math.max(0, tightest.limit - tightest.count)));
    reply.raw.setHeader('X-RateLimit-Reset', String(Math.max(1, Math.ceil(tightest.resetMs / 1000))));
    const exceeded = outcomes.find((o) => o.count > o.limit);
    if (exceeded) {
      metrics.rateLimitRefusals.inc({ limit: exceeded.name });
      throw tooManyRequests(Math.max(1, Math.ceil(exceeded.resetMs / 1000)));
    }
  };
  const unenforced = (request: FastifyRequest, error: unknown) => {
    request.log.warn(
      { err: { message: (error as Error).message } },
      'rate limit not enforced: shared state unavailable',
    );
    metrics.rateLimitUnenforced.inc();
  };

  return {
    check(request, reply) {
      if (request.routeInfo.config.rateLimit === 'own') return;
      const key = `:${request.ip}`;
      const login = request.routeInfo.config.rateLimit === 'login';
      let global: WindowCount | Promise<WindowCount>;
      let extra: WindowCount | Promise<WindowCount> | undefined;
      try {
        global = counter.hit(`rl:global${key}`, limits.perMinute);
        if (login)
          extra = within(
            shared.hitSlidingWindow(`rl:login-sliding${key}`, loginWindowMs, limits.loginPerMinute),
            COUNTER_TIMEOUT_MS,
          );
      } catch (error) {
        return unenforced(request, error);
      }
      const outcomes = (g: WindowCount, l: WindowCount | undefined): Outcome[] => {
        const list: Outcome[] = [{ name: 'global', limit: limits.perMinute, count: g.count, resetMs: g.resetMs }];
        if (l) list.push({ name: 'login', limit: limits.loginPerMinute, count: l.count, resetMs: l.resetMs });
        return list;
      };
      if (!(global instanceof Promise) && !(extra instanceof Promise))
        return conclude(request, reply, outcomes(global, extra));
      return Promise.all([global, extra]).then(
        ([g, l]) => conclude(request, reply, outcomes(g, l)),
        (error: unknown) => unenforced(request, error),
      );
    },
    close() {
      counter.close();
    },
  };
}
