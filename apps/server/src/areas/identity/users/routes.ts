import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { apiRoutes } from '../../../platform/routes.js';
import { IdParams, NoContent } from '../../../platform/schemas.js';
import { CreateUserBody, Page, UpdateUserBody, User, UserList } from './schemas.js';
import type { UsersService } from './service.js';

export const userRoutes: FastifyPluginAsyncTypebox<{ service: UsersService }> = async (app, { service }) => {
  const route = apiRoutes(app, ['identity']);
  route.get('/users', 'user:read', { operationId: 'listUsers', summary: 'Users of the instance (administrators)', querystring: Page, response: { 200: UserList } }, (request, principal) =>
    service.list(principal, { limit: request.query.limit ?? 100, cursor: request.query.cursor }),
  );
  route.post(
    '/users',
    'user:write',
    { operationId: 'createUser', summary: 'Create a local user, who must change the password at first login (administrators)', body: CreateUserBody, response: { 201: User } },
    (request, principal, context) => service.create(principal, request.body, context),
  );
  // Administrators read every user; everyone else only themselves (the service decides).
  route.get('/users/:id', 'self', { operationId: 'getUser', summary: 'One user (administrators, or yourself)', params: IdParams, response: { 200: User } }, (request, principal) => service.get(principal, request.params.id));
  route.patch(
    '/users/:id',
    'user:write',
    { operationId: 'updateUser', summary: 'Change a user; disabled: true revokes its sessions and tokens (administrators)', params: IdParams, body: UpdateUserBody, response: { 200: User } },
    (request, principal, context) => service.update(principal, request.params.id, request.body, context),
  );
  route.delete('/users/:id', 'user:write', { operationId: 'deleteUser', summary: 'Delete a user, revoking its sessions and tokens (administrators)', params: IdParams, response: NoContent }, (request, principal, context) =>
    service.remove(principal, request.params.id, context),
  );
};
