import { serviceRoutes } from '../../platform/routes.js';
import { Page } from '../../platform/schemas.js';
import { AuditEvent, AuditQuery } from './schemas.js';
import type { AuditService } from './service.js';

export const auditRoutes = serviceRoutes<AuditService>(['audit'], (route, service) => {
  route.get(
    '/audit-log',
    'audit:read',
    {
      operationId: 'listAuditLog',
      summary: 'Audit events, newest first (administrators); filter by kind, actor_id, since, until; page with cursor',
      querystring: AuditQuery,
      response: { 200: Page(AuditEvent) },
    },
    (request, principal) => service.list(principal, request.query),
  );
});
