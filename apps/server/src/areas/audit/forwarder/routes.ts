import { apiRoutes, itemRoutes } from '../../../platform/routes.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParams, Items } from '../../../platform/schemas.js';
import { AuditForwarder, CreateAuditForwarderBody, ForwarderTestResult, UpdateAuditForwarderBody } from './schemas.js';
import type { AuditForwardersService } from './service.js';

export const auditForwarderRoutes: FastifyPluginAsyncTypebox<{ service: AuditForwardersService }> = async (
  app,
  { service },
) => {
  const route = apiRoutes(app, ['audit']);
  route.get(
    '/audit-forwarder-settings',
    'audit:read',
    {
      operationId: 'listAuditForwarders',
      summary: 'Audit forwarding destinations with their delivery status (administrators)',
      response: { 200: Items(AuditForwarder) },
    },
    async (_request, principal) => ({ items: await service.list(principal) }),
  );
  route.post(
    '/audit-forwarder-settings',
    'audit:write',
    {
      operationId: 'createAuditForwarder',
      summary: 'Forward the audit log to an HTTP endpoint or a syslog server (administrators)',
      body: CreateAuditForwarderBody,
      response: { 201: AuditForwarder },
    },
    (request, principal, context) => service.create(principal, request.body as never, context),
  );
  itemRoutes(route, service, {
    path: '/audit-forwarder-settings',
    noun: 'AuditForwarder',
    capabilities: { read: 'audit:read', write: 'audit:write' },
    schemas: { item: AuditForwarder, update: UpdateAuditForwarderBody },
    summaries: {
      get: 'One audit forwarding destination with its delivery status (administrators)',
      update: 'Change a destination; settings left out keep their value, secrets included (administrators)',
      remove: 'Stop forwarding to a destination and delete it (administrators)',
    },
  });
  route.post(
    '/audit-forwarder-settings/:id/test',
    'audit:write',
    {
      operationId: 'testAuditForwarder',
      summary: 'Send one test event to the destination now and report the answer (administrators)',
      params: IdParams,
      response: { 200: ForwarderTestResult },
    },
    (request, principal, context) => service.test(principal, request.params.id, context),
  );
};
