import { Type } from 'typebox';
import { NullableUuid, Timestamp, Uuid } from '../../../platform/schemas.js';

const Event = Type.Union([Type.Literal('alert_firing'), Type.Literal('alert_resolved')]);
const Severity = Type.Union([Type.Literal('info'), Type.Literal('warning'), Type.Literal('critical')]);
const Clock = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM' });

export const QuietHours = Type.Object(
  {
    start: Clock,
    end: Clock,
    timezone: Type.String({ minLength: 1, maxLength: 100, description: 'IANA time zone, e.g. Europe/Paris' }),
  },
  { additionalProperties: false, description: 'No notification of a non-critical alert from start to end, local time' },
);

export const NotificationSetting = Type.Object({
  id: Uuid,
  project_id: Type.Union([Uuid, Type.Null()], { description: 'null: every project where the user may read alerts' }),
  events: Type.Array(Event),
  min_severity: Severity,
  email: Type.Union([Type.String(), Type.Null()], { description: "null: the account's address" }),
  channel_ids: Type.Array(Uuid),
  quiet_hours: Type.Union([QuietHours, Type.Null()]),
  updated_at: Timestamp,
});

export const PutNotificationSettingBody = Type.Object(
  {
    project_id: NullableUuid,
    events: Type.Optional(Type.Array(Event, { uniqueItems: true, maxItems: 2 })),
    min_severity: Type.Optional(Severity),
    email: Type.Optional(
      Type.Union([Type.String({ format: 'email', maxLength: 255 }), Type.Null()], {
        description: "Where e-mails go; null: the account's address",
      }),
    ),
    channel_ids: Type.Optional(
      Type.Array(Uuid, {
        maxItems: 10,
        uniqueItems: true,
        description: "Notification configs of the project, besides e-mail (a project's setting only)",
      }),
    ),
    quiet_hours: Type.Optional(Type.Union([QuietHours, Type.Null()])),
  },
  { additionalProperties: false },
);

const Smtp = Type.Object({
  host: Type.String(),
  port: Type.Integer(),
  tls: Type.String(),
  user: Type.Optional(Type.String()),
  from: Type.String(),
});

export const InstanceNotificationSettings = Type.Object({
  defaults: Type.Object({ events: Type.Array(Event), min_severity: Severity }),
  smtp: Type.Union([Smtp, Type.Null()], { description: "The server users' own notifications are mailed through" }),
  smtp_secrets_set: Type.Array(Type.String()),
  updated_at: Type.Union([Timestamp, Type.Null()]),
});

export const PutInstanceNotificationSettingsBody = Type.Object(
  {
    defaults: Type.Optional(
      Type.Object(
        { events: Type.Array(Event, { uniqueItems: true, maxItems: 2 }), min_severity: Severity },
        { additionalProperties: false },
      ),
    ),
    smtp: Type.Optional(
      Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
        description: 'host, port, tls (starttls, tls, none), user, password (write-only), from; null: none',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
