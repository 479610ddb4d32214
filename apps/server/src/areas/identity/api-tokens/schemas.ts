import { Type } from 'typebox';
import { Uuid } from '../../../platform/schemas.js';

export const CreateApiTokenBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    scope: Type.Union([Type.Literal('read'), Type.Literal('write')]),
    project_ids: Type.Optional(Type.Array(Uuid, { maxItems: 100, uniqueItems: true })),
    expires_at: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);

export const ApiToken = Type.Object({
  id: Uuid,
  user_id: Uuid,
  name: Type.String(),
  scope: Type.Union([Type.Literal('read'), Type.Literal('write')]),
  project_ids: Type.Union([Type.Array(Uuid), Type.Null()]),
  suffix: Type.String({ description: 'Last characters of the value, to recognise it' }),
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  last_used_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const CreatedApiToken = Type.Intersect([
  ApiToken,
  Type.Object({ token: Type.String({ description: 'The value: shown this once, never again' }) }),
]);

export const ApiTokenList = Type.Object({ items: Type.Array(ApiToken) });
export const ApiTokenListQuery = Type.Object({ user_id: Type.Optional(Uuid) }, { additionalProperties: false });
