import { Type } from 'typebox';

export const LoginBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 200 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
    provider: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Name of an LDAP provider to sign in with. Without it: the local account, else each enabled LDAP provider in order',
      }),
    ),
  },
  { additionalProperties: false },
);

export const TokenResponse = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'Seconds until the access token expires' }),
});

export const LoginResponse = Type.Intersect([TokenResponse, Type.Object({ password_change_required: Type.Boolean() })]);
