/**
 * The two Server-Sent Events routes of the interface document. They take the access token in the
 * query parameter `token` (and only there). CDC tables and streams do not exist yet, so after
 * authentication every id is not found; the CDC and streams issues fill these in.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { notFound } from '../../platform/errors/index.js';

const Params = Type.Object({ id: Type.String({ format: 'uuid' }) });
const Query = Type.Object({ token: Type.Optional(Type.String({ description: 'Access token (SSE clients cannot send headers)' })) });
const EventStream = { 200: { description: 'text/event-stream', type: 'string' } } as const;

export const ingestionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/cdc-tables/:id/logs/stream', {
    config: { sseQueryToken: true },
    schema: { operationId: 'streamCdcTableLogs', tags: ['ingestion'], summary: 'Live log lines of a CDC table (SSE)', params: Params, querystring: Query, response: EventStream },
    handler: async () => {
      throw notFound('CDC table');
    },
  });
  app.get('/streams/:id/runs/stream', {
    config: { sseQueryToken: true },
    schema: { operationId: 'streamStreamRuns', tags: ['ingestion'], summary: 'Live run status of a stream (SSE)', params: Params, querystring: Query, response: EventStream },
    handler: async () => {
      throw notFound('Stream');
    },
  });
};
