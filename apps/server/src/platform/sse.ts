/**
 * Server-Sent Events that end with the credential that opened them. A route opens a stream for the
 * request's principal with a re-check (its own authorization of what it streams); the stream ends:
 * - at the access token's expiry;
 * - when a re-check fails. A re-check authenticates the credential again (deny-list, disabled user)
 *   and runs the route's check again (membership, capability). Re-checks run shortly after any
 *   message on an access channel (revocations, user changes, membership and role changes: pub/sub,
 *   so a change made in any process counts), and at every heartbeat in case a message was lost;
 * - when the server shuts down, or the client goes.
 * Before the server ends a stream it sends `event: end` with data `{"reason", "detail"}`, so that a
 * client stops instead of reconnecting blindly. When a stream ends, its request gets its one
 * access-log line: Fastify's onResponse runs when the server ends the response, and this module runs
 * the same steps when the client went first (no 'finish', so Fastify never would).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { Type } from 'typebox';
import { credentialOf, principalOf, type Authenticator, type Principal } from './authn.js';
import type { RouteCapability } from './authz.js';
import { AppError, unauthenticated } from './errors/index.js';
import { responseEnded } from './pipeline.js';
import type { SharedState } from './shared-state/index.js';

/** The query of every event stream route: the access token (EventSource cannot send headers), where to resume. */
export const EventStreamQuery = Type.Object(
  {
    token: Type.Optional(Type.String({ description: 'Access token (EventSource cannot send headers)' })),
    last_event_id: Type.Optional(Type.String({ pattern: '^[0-9]+$' })),
  },
  { additionalProperties: false },
);

/**
 * The route options every event stream shares: the access token accepted in `token`, the capability
 * it needs, the query above and the text/event-stream answer. `schema` gives the rest (operationId,
 * tags, summary, params).
 */
export const eventStreamRoute = <S extends object>(capability: RouteCapability, schema: S) => ({
  config: { sseQueryToken: true, capability },
  schema: {
    ...schema,
    querystring: EventStreamQuery,
    response: { 200: { description: 'text/event-stream', type: 'string' } },
  },
});

/**
 * The last event id the client saw: the Last-Event-ID header (an EventSource reconnecting), else the
 * `last_event_id` query parameter (a first connection that resumes); only digits count.
 */
export function lastEventIdOf(request: FastifyRequest): string | undefined {
  const header = request.headers['last-event-id'];
  const query = (request.query as { last_event_id?: unknown } | undefined)?.last_event_id;
  return [typeof header === 'string' ? header : undefined, typeof query === 'string' ? query : undefined].find(
    (v) => v !== undefined && /^[0-9]+$/.test(v),
  );
}

export type EndReason = 'expired' | 'unauthenticated' | 'forbidden' | 'shutdown';

const END_DETAIL: Record<EndReason, string> = {
  expired: 'The access token expired; refresh it and reconnect',
  unauthenticated: 'The credential is no longer valid (signed out, revoked or account disabled); sign in again',
  forbidden: 'Access to this stream was removed',
  shutdown: 'The server is shutting down; reconnect',
};

// Lets the caches drop their entry for the same message first, and gathers a burst of changes into one pass.
const RECHECK_DELAY_MS = 100;
// setTimeout's limit; a longer expiry is checked again when this fires.
const MAX_TIMER_MS = 2_147_483_647;

export interface EventStream {
  /** Sends one event; nothing once the stream has ended. */
  send(event: string, data: string, id?: string): void;
  readonly ended: boolean;
}

export interface OpenStreamOptions {
  /** Throws (401, 403 or 404) when the principal may no longer read what the stream sends. */
  recheck(principal: Principal): void | Promise<void>;
  /** Called once when the stream ends, whatever ended it. */
  onEnd?(): void;
}

export interface EventStreams {
  /** Hijacks the reply and starts the stream (status 200, `retry`, heartbeats) for the authenticated request. */
  open(request: FastifyRequest, reply: FastifyReply, options: OpenStreamOptions): EventStream;
  /** Ends every open stream (server shutdown). */
  endAll(reason: EndReason): void;
  close(): Promise<void>;
}

interface OpenStream {
  recheck(): void;
  end(reason: EndReason | undefined): void;
}

export async function createEventStreams(deps: {
  shared: SharedState;
  authenticator: Authenticator;
  /** Pub/sub channels whose messages mean that a credential or a right may have changed. */
  accessChannels: string[];
  heartbeatMs: number;
  logger: Logger;
}): Promise<EventStreams> {
  const { authenticator, heartbeatMs, logger } = deps;
  const open = new Set<OpenStream>();

  let pending: NodeJS.Timeout | undefined;
  const accessChanged = () => {
    if (pending || open.size === 0) return;
    pending = setTimeout(() => {
      pending = undefined;
      for (const stream of open) stream.recheck();
    }, RECHECK_DELAY_MS);
  };
  const unsubscribes = await Promise.all(
    deps.accessChannels.map((channel) => deps.shared.subscribe(channel, accessChanged)),
  );

  return {
    open(request, reply, options) {
      const principal = principalOf(request);
      const credential = credentialOf(request);
      if (credential === undefined)
        throw new Error(`${request.routeInfo.url} streams events but is not marked sseQueryToken`);
      const raw = reply.raw;
      reply.hijack();
      let ended = false;
      let checking = false;
      let checkAgain = false;
      const timers: { heartbeat?: NodeJS.Timeout; expiry?: NodeJS.Timeout } = {};

      const end = (reason: EndReason | undefined) => {
        if (ended) return;
        ended = true;
        open.delete(stream);
        clearInterval(timers.heartbeat);
        clearTimeout(timers.expiry);
        const clientGone = raw.destroyed;
        if (reason && !clientGone)
          raw.write(`event: end\ndata: ${JSON.stringify({ reason, detail: END_DETAIL[reason] })}\n\n`);
        raw.end();
        try {
          options.onEnd?.();
        } finally {
          // A response the server ends runs Fastify's onResponse on 'finish'; one whose client went never does.
          if (clientGone) responseEnded(request, reply);
        }
      };

      const recheck = async () => {
        try {
          const current = await authenticator.authenticate(credential);
          if (current.userId !== principal.userId) throw unauthenticated();
          await options.recheck(current);
        } catch (error) {
          if (error instanceof AppError && error.statusCode === 401) return end('unauthenticated');
          if (error instanceof AppError && (error.statusCode === 403 || error.statusCode === 404))
            return end('forbidden');
          // Not an answer about access (the database is away, say): the next re-check decides.
          logger.warn(
            { err: { message: (error as Error).message }, request_id: request.id },
            'event stream re-check failed',
          );
        }
      };
      const stream: OpenStream = {
        end,
        recheck() {
          if (ended) return;
          if (checking) {
            checkAgain = true;
            return;
          }
          checking = true;
          void recheck().finally(() => {
            checking = false;
            if (checkAgain) {
              checkAgain = false;
              stream.recheck();
            }
          });
        },
      };

      const handle: EventStream = {
        send(event, data, id) {
          if (ended) return;
          raw.write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${data}\n\n`);
        },
        get ended() {
          return ended;
        },
      };

      // The client may have gone while the route prepared the stream: its close event has passed.
      if (request.raw.destroyed) {
        end(undefined);
        return handle;
      }
      raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      raw.write('retry: 2000\n\n');
      open.add(stream);
      request.raw.once('close', () => end(undefined));
      timers.heartbeat = setInterval(() => {
        raw.write(': heartbeat\n\n');
        stream.recheck();
      }, heartbeatMs);
      if (principal.expiresAt) {
        const expiresAt = principal.expiresAt.getTime();
        const atExpiry = () => {
          const left = expiresAt - Date.now();
          if (left <= 0) end('expired');
          else timers.expiry = setTimeout(atExpiry, Math.min(left, MAX_TIMER_MS));
        };
        atExpiry();
      }
      return handle;
    },
    endAll(reason) {
      for (const stream of [...open]) stream.end(reason);
    },
    async close() {
      clearTimeout(pending);
      for (const stream of [...open]) stream.end('shutdown');
      await Promise.all(unsubscribes.map((unsubscribe) => unsubscribe()));
    },
  };
}
