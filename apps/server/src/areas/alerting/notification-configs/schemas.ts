import { Type } from 'typebox';
import { NullableUuid, Timestamp, Uuid } from '../../../platform/schemas.js';

const ChannelType = Type.Union(
  [
    Type.Literal('email'),
    Type.Literal('slack'),
    Type.Literal('teams'),
    Type.Literal('webhook'),
    Type.Literal('pagerduty'),
  ],
  {
    description:
      'email (SMTP), slack (incoming webhook), teams (Workflows webhook, Adaptive Card), webhook (JSON, optional HMAC-SHA256 signature), pagerduty (Events API v2)',
  },
);
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Config = Type.Record(Type.String(), Type.Unknown(), {
  description:
    'The settings of the type (see docs/alerting.md); secret fields (passwords, webhook URLs of Slack and Teams, headers, signing secret, routing key) are write-only',
});

export const NotificationConfig = Type.Object({
  id: Uuid,
  project_id: Type.Union([Uuid, Type.Null()], { description: 'null: instance-wide (administrators)' }),
  name: Type.String(),
  type: ChannelType,
  config: Type.Record(Type.String(), Type.Unknown(), { description: 'Plain settings; secrets are never returned' }),
  secrets_set: Type.Array(Type.String(), { description: 'Names of the secret settings that hold a value' }),
  enabled: Type.Boolean(),
  created_by: NullableUuid,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const CreateNotificationConfigBody = Type.Object(
  {
    project_id: Type.Union([Uuid, Type.Null()], {
      description: 'The owning project; null: instance-wide (administrators)',
    }),
    name: Name,
    type: ChannelType,
    config: Config,
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const UpdateNotificationConfigBody = Type.Object(
  {
    name: Type.Optional(Name),
    config: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'Fields to change; a field left out keeps its value (secrets included), null removes it',
      }),
    ),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const NotificationTestResult = Type.Object({
  ok: Type.Boolean(),
  status: Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status, or the SMTP reply code' }),
  response: Type.String({ description: 'The remote answer (truncated), or why the delivery failed' }),
});
