import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { apiRoutes } from '../../platform/routes.js';
import { Page } from '../../platform/schemas.js';
import { AuditEvent, AuditQuery } from './schemas.js';
import type { AuditService } from './service.js';

export const auditRoutes: FastifyPluginAsyncTypebox<{ service: AuditService }> = async (app, { service }) => {
  const route = apiRoutes(app, ['audit']);
  route.get(
    '/audit-log',
    'audit:read',
    { operationId: 'listAuditLog', summary: 'Audit events, newest first (administrators); filter by kind, actor_id, since, until; page with cursor', querystring: AuditQuery, response: { 200: Page(AuditEvent) } },
    (request, principal) => service.list(principal, request.query),
  );
};
