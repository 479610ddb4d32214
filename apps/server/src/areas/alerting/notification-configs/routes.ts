import { resourceRoutes, serviceRoutes } from '../../../platform/routes.js';
import { IdParams } from '../../../platform/schemas.js';
import {
  CreateNotificationConfigBody,
  NotificationConfig,
  NotificationTestResult,
  UpdateNotificationConfigBody,
} from './schemas.js';
import type { NotificationConfigsService } from './service.js';

export const notificationConfigRoutes = serviceRoutes<NotificationConfigsService>(['alerting'], (route, service) => {
  resourceRoutes(route, service, {
    path: '/notification-configs',
    noun: 'NotificationConfig',
    capabilities: { read: 'alert:read', write: 'alert:write' },
    schemas: { item: NotificationConfig, create: CreateNotificationConfigBody, update: UpdateNotificationConfigBody },
    summaries: {
      list: "Notification channels of the projects the caller may read (alert:read); administrators also see the instance's",
      create:
        'Create a channel: email, slack, teams, webhook or pagerduty; project_id null makes it instance-wide (administrators) (alert:write)',
      get: 'One notification channel; secrets are never returned (alert:read)',
      update: 'Change a channel; settings left out keep their value, secrets included (alert:write)',
      remove: 'Delete a channel (alert:write)',
    },
  });
  route.post(
    '/notification-configs/:id/test',
    'alert:write',
    {
      operationId: 'testNotificationConfig',
      summary: 'Send a test message on the channel and report the remote answer (alert:write)',
      params: IdParams,
      response: { 200: NotificationTestResult },
    },
    (request, principal, context) => service.test(principal, request.params.id, context),
  );
});
