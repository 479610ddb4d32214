/**
 * The streams' Server-Sent Events route of the interface document (the CDC one is in cdc/routes.ts).
 * It takes the access token in the query parameter `token` (and only there). Streams do not exist
 * yet, so after authentication every id is not found; the streams issue fills it in, opening the
 * stream through platform/sse.ts (EventStreams.open with a `stream:read` re-check) like the CDC log
 * tail, so that it ends with its credential.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { notFound } from '../../platform/errors/index.js';
import { IdParams } from '../../platform/schemas.js';
import { StreamRunsQuery } from './schemas.js';

const EventStream = { 200: { description: 'text/event-stream', type: 'string' } } as const;

export const streamRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/streams/:id/runs/stream', {
    config: { sseQueryToken: true, capability: 'stream:read' },
    schema: {
      operationId: 'streamStreamRuns',
      tags: ['ingestion'],
      summary: 'Live run status of a stream (SSE)',
      params: IdParams,
      querystring: StreamRunsQuery,
      response: EventStream,
    },
    handler: async () => {
      throw notFound('Stream');
    },
  });
};
