import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Readable } from 'node:stream';
import { apiRoutes, resourceRoutes } from '../../../platform/routes.js';
import { IdParams, Items } from '../../../platform/schemas.js';
import { Inbox, InboxBody, InboxPatch, InboxRequest, Received, RequestParams, RequestsQuery } from './schemas.js';
import type { InboxesService } from './service.js';

export const inboxRoutes: FastifyPluginAsyncTypebox<{ service: InboxesService }> = async (app, { service }) => {
  const route = apiRoutes(app, ['ingestion']);
  resourceRoutes(route, service as never, {
    path: '/inboxes',
    noun: 'Inbox',
    capabilities: { read: 'ingestion:read', write: 'ingestion:write' },
    schemas: { item: Inbox, create: InboxBody, update: InboxPatch },
    summaries: {
      list: 'Inboxes the caller may read (ingestion:read)',
      create:
        'Create an inbox: its credential (a bearer token or an HMAC secret the service generates is in this answer only), content types, limits, dedupe key, destination (ingestion:write)',
      get: 'One inbox; secrets are never shown (ingestion:read)',
      update: 'Change an inbox; a new auth replaces its credential (ingestion:write)',
      remove: 'Delete an inbox and its request history (ingestion:write)',
    },
  });
  route.get(
    '/inboxes/:id/requests',
    'ingestion:read',
    {
      operationId: 'listInboxRequests',
      summary:
        'Every request the inbox received, newest first: accepted or rejected with the reason, size, dedupe hit, rows loaded (ingestion:read)',
      params: IdParams,
      querystring: RequestsQuery,
      response: { 200: Items(InboxRequest) },
    },
    (request, principal) => service.requests(principal, request.params.id, request.query),
  );
  route.post(
    '/inboxes/:id/requests/:request_id/replay',
    'ingestion:run',
    {
      operationId: 'replayInboxRequest',
      summary: 'Record a kept accepted request again, to be loaded again (ingestion:run)',
      params: RequestParams,
      response: { 201: InboxRequest },
    },
    (request, principal) => service.replay(principal, request.params.id, request.params.request_id),
  );

  // The public receive route, in a scope of its own: the body arrives as a stream (read by the
  // service up to the inbox's limit, the raw bytes the HMAC is computed over), whatever its type.
  await app.register(async (receiver) => {
    receiver.removeAllContentTypeParsers();
    receiver.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    receiver.post('/inboxes/:id/receive', {
      config: { public: true, rateLimit: 'own', licenseExempt: false },
      schema: {
        operationId: 'receiveInboxData',
        tags: ['ingestion'],
        summary:
          "Send data to an inbox (JSON, NDJSON or CSV as the inbox accepts), authenticated with the inbox's own credential (bearer, basic or HMAC of the body); 202 once recorded",
        params: IdParams,
        response: { 202: Received },
      },
      handler: async (request, reply) => {
        const body = (request.body as Readable | undefined) ?? request.raw;
        const { id } = request.params as { id: string };
        const answer = await service.receive(id, request.headers, body);
        return reply.code(202).send(answer);
      },
    });
  });
};
