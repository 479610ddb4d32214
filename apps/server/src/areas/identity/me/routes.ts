import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../platform/authn.js';
import { notFound } from '../../../platform/errors/index.js';
import type { UserCache } from '../users/cache.js';

export const MeResponse = Type.Object({
  id: Type.String({ format: 'uuid' }),
  username: Type.String(),
  email: Type.String(),
  display_name: Type.Union([Type.String(), Type.Null()]),
  is_admin: Type.Boolean(),
  password_change_required: Type.Boolean(),
  auth_source: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
});

export const meRoutes: FastifyPluginAsyncTypebox<{ users: UserCache }> = async (app, { users }) => {
  app.get('/me', {
    schema: { operationId: 'getMe', tags: ['identity'], summary: 'The signed-in user', response: { 200: MeResponse } },
    handler: async (request) => {
      const user = await users.get(principalOf(request).userId);
      if (!user) throw notFound('User');
      return { ...user, created_at: user.created_at.toISOString() };
    },
  });
};
