import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../../platform/authn.js';
import { requestContext } from '../../../platform/request-context.js';
import { ChangePasswordBody, UpdateMeBody, User } from '../users/schemas.js';
import type { UsersService } from '../users/service.js';

export const meRoutes: FastifyPluginAsyncTypebox<{ service: UsersService }> = async (app, { service }) => {
  const tags = ['identity'];
  app.get('/me', {
    config: { capability: 'self' },
    schema: { operationId: 'getMe', tags, summary: 'The signed-in user', response: { 200: User } },
    handler: async (request) => service.me(principalOf(request)),
  });
  app.patch('/me', {
    config: { capability: 'self' },
    schema: { operationId: 'updateMe', tags, summary: 'Change your email or display name', body: UpdateMeBody, response: { 200: User } },
    handler: async (request) => service.updateMe(principalOf(request), request.body, requestContext(request)),
  });
  app.post('/me/password', {
    config: { licenseExempt: true, capability: 'self' },
    schema: { operationId: 'changeMyPassword', tags, summary: 'Change your password; ends your other sessions', body: ChangePasswordBody, response: { 204: { type: 'null' } } },
    handler: async (request, reply) => {
      await service.changePassword(principalOf(request), request.body, requestContext(request));
      return reply.code(204).send(null);
    },
  });
};
