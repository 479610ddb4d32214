import { Type } from 'typebox';
import { Uuid } from '../../../platform/schemas.js';
const Email = Type.String({ format: 'email', maxLength: 320 });

export const User = Type.Object({
  id: Uuid,
  username: Type.String(),
  email: Type.String(),
  display_name: Type.Union([Type.String(), Type.Null()]),
  is_admin: Type.Boolean(),
  disabled: Type.Boolean(),
  password_change_required: Type.Boolean(),
  auth_source: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const CreateUserBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9._@-]+$' }),
    email: Email,
    password: Type.String({ minLength: 1, maxLength: 1024 }),
    display_name: Type.Optional(Type.String({ maxLength: 200 })),
    is_admin: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const UpdateUserBody = Type.Object(
  {
    email: Type.Optional(Email),
    display_name: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    is_admin: Type.Optional(Type.Boolean()),
    disabled: Type.Optional(Type.Boolean()),
    password: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description: 'Sets a new password the user must change at next login',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const UpdateMeBody = Type.Object(
  {
    email: Type.Optional(Email),
    display_name: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const ChangePasswordBody = Type.Object(
  {
    current_password: Type.String({ minLength: 1, maxLength: 1024 }),
    new_password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

export const Page = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const UserList = Type.Object({ items: Type.Array(User), next_cursor: Type.Union([Type.String(), Type.Null()]) });
