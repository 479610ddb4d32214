/**
 * The streams' Server-Sent Events route of the interface document (the CDC one is in cdc/routes.ts).
 * It takes the access token in the query parameter `token` (and only there). Streams do not exist
 * yet, so after authentication every id is not found; the streams issue fills it in, opening the
 * stream through platform/sse.ts (EventStreams.open with a `stream:read` re-check) like the CDC log
 * tail, so that it ends with its credential.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { notFound } from '../../platform/errors/index.js';

const Params = Type.Object({ id: Type.String({ format: 'uuid' }) });
const Query = Type.Object({ token: Type.Optional(Type.String({ description: 'Access token (SSE clients cannot send headers)' })) });
const EventStream = { 200: { description: 'text/event-stream', type: 'string' } } as const;

export const streamRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/streams/:id/runs/stream', {
    config: { sseQueryToken: true, capability: 'stream:read' },
    schema: { operationId: 'streamStreamRuns', tags: ['ingestion'], summary: 'Live run status of a stream (SSE)', params: Params, querystring: Query, response: EventStream },
    handler: async () => {
      throw notFound('Stream');
    },
  });
};
