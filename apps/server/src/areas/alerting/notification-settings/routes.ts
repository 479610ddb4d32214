import { serviceRoutes } from '../../../platform/routes.js';
import { IdParams, Items, NoContent } from '../../../platform/schemas.js';
import {
  InstanceNotificationSettings,
  NotificationSetting,
  PutInstanceNotificationSettingsBody,
  PutNotificationSettingBody,
} from './schemas.js';
import type { NotificationSettingsService } from './service.js';

export const notificationSettingRoutes = serviceRoutes<NotificationSettingsService>(['alerting'], (route, service) => {
  route.get(
    '/notification-settings',
    'self',
    {
      operationId: 'listNotificationSettings',
      summary: "The caller's notification settings: per project, and for every project (project_id null)",
      response: { 200: Items(NotificationSetting) },
    },
    async (_request, principal) => ({ items: await service.list(principal) }),
  );
  route.put(
    '/notification-settings',
    'self',
    {
      operationId: 'putNotificationSetting',
      summary:
        "Set the caller's notifications of a project (alert:read there) or of every project: events, severity, e-mail, channels, quiet hours",
      body: PutNotificationSettingBody,
      response: { 200: NotificationSetting },
    },
    (request, principal) => service.put(principal, request.body),
  );
  route.get(
    '/notification-settings/instance',
    'notification:read',
    {
      operationId: 'getInstanceNotificationSettings',
      summary: "The instance's notification defaults and the SMTP server of users' notifications (administrators)",
      response: { 200: InstanceNotificationSettings },
    },
    (_request, principal) => service.getInstance(principal),
  );
  route.put(
    '/notification-settings/instance',
    'notification:write',
    {
      operationId: 'putInstanceNotificationSettings',
      summary:
        "Change the defaults or the SMTP server of users' notifications; the password is write-only (administrators)",
      body: PutInstanceNotificationSettingsBody,
      response: { 200: InstanceNotificationSettings },
    },
    (request, principal, context) => service.putInstance(principal, request.body, context),
  );
  route.delete(
    '/notification-settings/:id',
    'self',
    {
      operationId: 'deleteNotificationSetting',
      summary: "Remove one of the caller's notification settings",
      params: IdParams,
      response: NoContent,
    },
    (request, principal) => service.remove(principal, request.params.id),
  );
});
