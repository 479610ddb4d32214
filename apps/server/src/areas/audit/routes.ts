import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../platform/authn.js';
import type { AuditService } from './service.js';

const AuditEvent = Type.Object({
  id: Type.String(),
  occurred_at: Type.String({ format: 'date-time' }),
  kind: Type.String(),
  actor_user_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  actor_token_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  client_address: Type.Union([Type.String(), Type.Null()]),
  user_agent: Type.Union([Type.String(), Type.Null()]),
  request_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  target_type: Type.Union([Type.String(), Type.Null()]),
  target_id: Type.Union([Type.String(), Type.Null()]),
  details: Type.Record(Type.String(), Type.Unknown()),
});

const AuditQuery = Type.Object(
  {
    kind: Type.Optional(Type.String({ maxLength: 100 })),
    actor_id: Type.Optional(Type.String({ format: 'uuid' })),
    since: Type.Optional(Type.String({ format: 'date-time' })),
    until: Type.Optional(Type.String({ format: 'date-time' })),
    cursor: Type.Optional(Type.String({ maxLength: 100 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  },
  { additionalProperties: false },
);

export const auditRoutes: FastifyPluginAsyncTypebox<{ service: AuditService }> = async (app, { service }) => {
  app.get('/audit-log', {
    config: { capability: 'audit:read' },
    schema: {
      operationId: 'listAuditLog',
      tags: ['audit'],
      summary: 'Audit events, newest first (administrators); filter by kind, actor_id, since, until; page with cursor',
      querystring: AuditQuery,
      response: { 200: Type.Object({ items: Type.Array(AuditEvent), next_cursor: Type.Union([Type.String(), Type.Null()]) }) },
    },
    handler: async (request) => service.list(principalOf(request), request.query),
  });
};
