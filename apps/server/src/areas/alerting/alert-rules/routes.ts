import { resourceRoutes, serviceRoutes } from '../../../platform/routes.js';
import { IdParams, Items } from '../../../platform/schemas.js';
import {
  AlertEvent,
  AlertEventsQuery,
  AlertRule,
  CreateAlertRuleBody,
  FiringSummary,
  UpdateAlertRuleBody,
} from './schemas.js';
import type { AlertRulesService } from './service.js';

export const alertRuleRoutes = serviceRoutes<AlertRulesService>(['alerting'], (route, service) => {
  route.get(
    '/alert-rules/summary',
    'alert:read',
    {
      operationId: 'getAlertSummary',
      summary: 'How many rule items are firing and pending in the projects the caller may read (alert:read)',
      response: { 200: FiringSummary },
    },
    (_request, principal) => service.summary(principal),
  );
  resourceRoutes(route, service, {
    path: '/alert-rules',
    noun: 'AlertRule',
    capabilities: { read: 'alert:read', write: 'alert:write' },
    schemas: { item: AlertRule, create: CreateAlertRuleBody, update: UpdateAlertRuleBody },
    summaries: {
      list: 'Alert rules of the projects the caller may read, with the state of each watched item (alert:read)',
      create:
        'Create a rule: run_failed, consecutive_failures, run_duration, freshness, cdc_lag or row_count, its scope, timing and channels (alert:write)',
      get: 'One alert rule with the state of each watched item (alert:read)',
      update: 'Change a rule; muted_until silences it until then (alert:write)',
      remove: 'Delete a rule with its states and history (alert:write)',
    },
  });
  route.get(
    '/alert-rules/:id/events',
    'alert:read',
    {
      operationId: 'listAlertRuleEvents',
      summary: "A rule's history: each change of state per item, newest first, with its notifications (alert:read)",
      params: IdParams,
      querystring: AlertEventsQuery,
      response: { 200: Items(AlertEvent) },
    },
    (request, principal) => service.events(principal, request.params.id, request.query),
  );
});
