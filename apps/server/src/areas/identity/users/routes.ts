import { itemRoutes, serviceRoutes } from '../../../platform/routes.js';
import { CreateUserBody, Page, UpdateUserBody, User, UserList } from './schemas.js';
import type { UsersService } from './service.js';

export const userRoutes = serviceRoutes<UsersService>(['identity'], (route, service) => {
  route.get(
    '/users',
    'user:read',
    {
      operationId: 'listUsers',
      summary: 'Users of the instance (administrators)',
      querystring: Page,
      response: { 200: UserList },
    },
    (request, principal) =>
      service.list(principal, { limit: request.query.limit ?? 100, cursor: request.query.cursor }),
  );
  route.post(
    '/users',
    'user:write',
    {
      operationId: 'createUser',
      summary: 'Create a local user, who must change the password at first login (administrators)',
      body: CreateUserBody,
      response: { 201: User },
    },
    (request, principal, context) => service.create(principal, request.body, context),
  );
  // Administrators read every user; everyone else only themselves (the service decides).
  itemRoutes(route, service, {
    path: '/users',
    noun: 'User',
    capabilities: { read: 'self', write: 'user:write' },
    schemas: { item: User, update: UpdateUserBody },
    summaries: {
      get: 'One user (administrators, or yourself)',
      update: 'Change a user; disabled: true revokes its sessions and tokens (administrators)',
      remove: 'Delete a user, revoking its sessions and tokens (administrators)',
    },
  });
});
