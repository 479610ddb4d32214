import { Type } from 'typebox';
import { NullableUuid, Timestamp, Uuid } from '../../platform/schemas.js';

export const AuditEvent = Type.Object({
  id: Type.String(),
  occurred_at: Timestamp,
  kind: Type.String(),
  actor_user_id: NullableUuid,
  actor_token_id: NullableUuid,
  client_address: Type.Union([Type.String(), Type.Null()]),
  user_agent: Type.Union([Type.String(), Type.Null()]),
  request_id: NullableUuid,
  target_type: Type.Union([Type.String(), Type.Null()]),
  target_id: Type.Union([Type.String(), Type.Null()]),
  details: Type.Record(Type.String(), Type.Unknown()),
});

export const AuditQuery = Type.Object(
  {
    kind: Type.Optional(Type.String({ maxLength: 100 })),
    actor_id: Type.Optional(Uuid),
    since: Type.Optional(Timestamp),
    until: Type.Optional(Timestamp),
    cursor: Type.Optional(Type.String({ maxLength: 100 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  },
  { additionalProperties: false },
);
