/**
 * /streams: the resource, start and stop, runs, dead letters, and the live run status over
 * Server-Sent Events (the access token in `token`; opened through platform/sse.ts with a
 * `stream:read` re-check, so it ends with its credential).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import { principalOf, type Principal } from '../../../platform/authn.js';
import type { RequestContext } from '../../../platform/request-context.js';
import { apiRoutes, resourceRoutes } from '../../../platform/routes.js';
import { IdParams, Items } from '../../../platform/schemas.js';
import { eventStreamRoute, lastEventIdOf, type EventStreams } from '../../../platform/sse.js';
import { LagPoint } from '../lag-samples.js';
import {
  CreateStreamBody,
  DeadLetter,
  DeadLetterParams,
  ListQuery,
  Stream,
  StreamRun,
  UpdateStreamBody,
} from './schemas.js';
import { presentRun, presentStream, type StreamsService } from './service.js';

/** How often an open status stream looks for a change: at most one event per this interval. */
export const STATUS_EVERY_MS = 500;

export const streamRoutes: FastifyPluginAsyncTypebox<{ service: StreamsService; streams: EventStreams }> = async (
  app,
  { service, streams },
) => {
  const tags = ['ingestion'];
  const route = apiRoutes(app, tags);
  const resource = {
    ...service,
    update: (principal: Principal, id: string, input: Static<typeof UpdateStreamBody>, context: RequestContext) =>
      service.update(principal, id, input, context),
  };
  resourceRoutes(route, resource, {
    path: '/streams',
    noun: 'Stream',
    capabilities: { read: 'stream:read', write: 'stream:write' },
    schemas: { item: Stream, create: CreateStreamBody, update: UpdateStreamBody },
    summaries: {
      list: 'Streams with their status (stream:read)',
      create: 'Consume a broker subject, queue or stream into a destination table, exactly once (stream:write)',
      get: 'One stream: configuration, status, last error (stream:read)',
      update: 'Rename a stream or change its format, batching, max deliveries or dead-letter target (stream:write)',
      remove: 'Delete a stream, its runs and its dead letters (stream:write)',
    },
  });
  for (const [action, summary] of [
    ['start', 'Start consuming (or again after a failure): resumes after what the broker has acknowledged'],
    ['stop', 'Stop consuming; unacknowledged messages stay at the broker'],
    [
      'pause',
      'Pause: the consumer keeps the stream, its broker connection and its run but takes no messages (status paused) until start',
    ],
  ] as const) {
    route.post(
      `/streams/:id/${action}`,
      'stream:write',
      {
        operationId: `${action}Stream`,
        summary: `${summary} (stream:write)`,
        params: IdParams,
        response: { 200: Stream },
      },
      (request, principal, context) => service[action](principal, request.params.id, context),
    );
  }
  route.get(
    '/streams/:id/lag-history',
    'stream:read',
    {
      operationId: 'getStreamLagHistory',
      summary: 'Lag over the last hour, oldest first: one sample every SVC_LAG_SAMPLE_SECONDS (stream:read)',
      params: IdParams,
      response: { 200: Items(LagPoint) },
    },
    async (request, principal) => ({ items: await service.lagHistory(principal, request.params.id) }),
  );
  route.get(
    '/streams/:id/runs',
    'stream:read',
    {
      operationId: 'listStreamRuns',
      summary: 'Runs of a stream, newest first: one per worker that consumed it, with its counters (stream:read)',
      params: IdParams,
      querystring: ListQuery,
      response: { 200: Items(StreamRun) },
    },
    async (request, principal) => ({
      items: await service.runs(principal, request.params.id, request.query.limit ?? 50),
    }),
  );
  route.get(
    '/streams/:id/dead-letters',
    'stream:read',
    {
      operationId: 'listStreamDeadLetters',
      summary: 'Messages that could not be written, newest first, with why (stream:read)',
      params: IdParams,
      querystring: ListQuery,
      response: { 200: Items(DeadLetter) },
    },
    async (request, principal) => ({
      items: await service.deadLetters(principal, request.params.id, request.query.limit ?? 100),
    }),
  );
  route.post(
    '/streams/:id/dead-letters/:dead_letter_id/retry',
    'stream:write',
    {
      operationId: 'retryStreamDeadLetter',
      summary:
        'Write a dead message again (the running consumer picks it up): it leaves the list once written, or stays with the new reason (stream:write)',
      params: DeadLetterParams,
      response: { 200: DeadLetter },
    },
    (request, principal, context) =>
      service.retryDeadLetter(principal, request.params.id, request.params.dead_letter_id, context),
  );

  app.get('/streams/:id/runs/stream', {
    ...eventStreamRoute('stream:read', {
      operationId: 'streamStreamRuns',
      tags,
      summary:
        'Live run status (Server-Sent Events, stream:read): events `status` with JSON {stream, run} (the stream as GET returns it, its latest run as the runs list does), one per change of status or counters and at most one every 500 ms; the event id moves with every change, and Last-Event-ID (header or last_event_id) skips the state already seen; a `: heartbeat` comment every 15 s. The access token goes in `token` (personal tokens are refused here). The stream ends with its credential (expiry, sign-out, revocation, lost membership or stream:read), after a final event `end` with JSON {reason, detail}',
      params: IdParams,
    }),
    handler: async (request, reply) => {
      const lastEventId = lastEventIdOf(request);
      const principal = principalOf(request);
      const { row } = await service.status(principal, request.params.id);
      let lastSent = BigInt(lastEventId ?? 0);
      let timer: NodeJS.Timeout | undefined;
      const stream = streams.open(request, reply, {
        recheck: (current) => service.authorizeStatus(current, row),
        onEnd: () => clearTimeout(timer),
      });
      const poll = async () => {
        if (stream.ended) return;
        try {
          const now = await service.snapshot(row.id);
          if (!now) {
            stream.send('deleted', JSON.stringify({ id: row.id }));
          } else if (BigInt(now.row.event_seq) !== lastSent) {
            lastSent = BigInt(now.row.event_seq);
            stream.send(
              'status',
              JSON.stringify({ stream: presentStream(now.row), run: now.run ? presentRun(now.run) : null }),
              String(now.row.event_seq),
            );
          }
        } catch (error) {
          request.log.warn({ err: { message: (error as Error).message } }, 'stream status poll failed');
        }
        if (!stream.ended) timer = setTimeout(() => void poll(), STATUS_EVERY_MS);
      };
      await poll();
    },
  });
};
