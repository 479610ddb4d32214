import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../../platform/authn.js';
import { requestContext } from '../../../platform/request-context.js';
import { CreateUserBody, IdParams, Page, UpdateUserBody, User, UserList } from './schemas.js';
import type { UsersService } from './service.js';

export const userRoutes: FastifyPluginAsyncTypebox<{ service: UsersService }> = async (app, { service }) => {
  const tags = ['identity'];
  app.get('/users', {
    config: { capability: 'user:read' },
    schema: { operationId: 'listUsers', tags, summary: 'Users of the instance (administrators)', querystring: Page, response: { 200: UserList } },
    handler: async (request) => service.list(principalOf(request), { limit: request.query.limit ?? 100, cursor: request.query.cursor }),
  });
  app.post('/users', {
    config: { capability: 'user:write' },
    schema: { operationId: 'createUser', tags, summary: 'Create a local user, who must change the password at first login (administrators)', body: CreateUserBody, response: { 201: User } },
    handler: async (request, reply) => reply.code(201).send(await service.create(principalOf(request), request.body, requestContext(request))),
  });
  app.get('/users/:id', {
    config: { capability: 'self' },
    schema: { operationId: 'getUser', tags, summary: 'One user (administrators, or yourself)', params: IdParams, response: { 200: User } },
    handler: async (request) => service.get(principalOf(request), request.params.id),
  });
  app.patch('/users/:id', {
    config: { capability: 'user:write' },
    schema: { operationId: 'updateUser', tags, summary: 'Change a user; disabled: true revokes its sessions and tokens (administrators)', params: IdParams, body: UpdateUserBody, response: { 200: User } },
    handler: async (request) => service.update(principalOf(request), request.params.id, request.body, requestContext(request)),
  });
  app.delete('/users/:id', {
    config: { capability: 'user:write' },
    schema: { operationId: 'deleteUser', tags, summary: 'Delete a user, revoking its sessions and tokens (administrators)', params: IdParams, response: { 204: { type: 'null' } } },
    handler: async (request, reply) => {
      await service.remove(principalOf(request), request.params.id, requestContext(request));
      return reply.code(204).send(null);
    },
  });
};
