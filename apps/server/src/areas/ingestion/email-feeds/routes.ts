import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { apiRoutes, resourceRoutes } from '../../../platform/routes.js';
import { IdParams, Items, Uuid } from '../../../platform/schemas.js';
import { Execution } from '../../operations/executions/schemas.js';
import { EmailFeed, EmailFeedBody, EmailFeedPatch, MessageRecord, MessagesQuery, RunQuery } from './schemas.js';
import type { EmailFeedsService } from './service.js';

const MessageParams = Type.Object({ id: Uuid, message_id: Uuid });

export const emailFeedRoutes: FastifyPluginAsyncTypebox<{ service: EmailFeedsService }> = async (app, { service }) => {
  const route = apiRoutes(app, ['ingestion']);
  resourceRoutes(route, service, {
    path: '/email-feeds',
    noun: 'EmailFeed',
    capabilities: { read: 'ingestion:read', write: 'ingestion:write' },
    schemas: { item: EmailFeed, create: EmailFeedBody, update: EmailFeedPatch },
    summaries: {
      list: 'E-mail feeds the caller may read (ingestion:read)',
      create:
        'Create an e-mail feed: an IMAP mailbox, filters, what to load (attachments or message fields), a post action, a destination table (ingestion:write)',
      get: 'One e-mail feed, with its status (degraded: why the mailbox could not be read) and position (ingestion:read)',
      update:
        'Change an e-mail feed; another host, user or mailbox starts reading from its first message (ingestion:write)',
      remove: 'Delete an e-mail feed and its message history (ingestion:write)',
    },
  });
  route.get(
    '/email-feeds/:id/messages',
    'ingestion:read',
    {
      operationId: 'listEmailFeedMessages',
      summary:
        'Message history: UID, Message-ID, sender, subject, attachments found, rows loaded, status and error, newest first (ingestion:read)',
      params: IdParams,
      querystring: MessagesQuery,
      response: { 200: Items(MessageRecord) },
    },
    (request, principal) => service.messages(principal, request.params.id, request.query),
  );
  route.post(
    '/email-feeds/:id/messages/:message_id/reload',
    'ingestion:run',
    {
      operationId: 'reloadEmailFeedMessage',
      summary: 'Load one message again, even though it was loaded: a run of kind email_feed (ingestion:run)',
      params: MessageParams,
      response: { 201: Execution },
    },
    (request, principal, context) => service.reload(principal, request.params.id, request.params.message_id, context),
  );
  route.post(
    '/email-feeds/:id/run',
    'ingestion:run',
    {
      operationId: 'runEmailFeed',
      summary: 'Read the mailbox now and load its new messages: an execution of kind email_feed (ingestion:run)',
      params: IdParams,
      querystring: RunQuery,
      response: { 201: Execution },
    },
    (request, principal, context) =>
      service.run(principal, request.params.id, request.query.from_start ?? false, context),
  );
};
