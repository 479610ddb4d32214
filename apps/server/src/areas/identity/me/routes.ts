import { serviceRoutes } from '../../../platform/routes.js';
import { NoContent } from '../../../platform/schemas.js';
import { ChangePasswordBody, UpdateMeBody, User } from '../users/schemas.js';
import type { UsersService } from '../users/service.js';

export const meRoutes = serviceRoutes<UsersService>(['identity'], (route, service) => {
  route.get(
    '/me',
    'self',
    { operationId: 'getMe', summary: 'The signed-in user', response: { 200: User } },
    (_request, principal) => service.me(principal),
  );
  route.patch(
    '/me',
    'self',
    {
      operationId: 'updateMe',
      summary: 'Change your email or display name',
      body: UpdateMeBody,
      response: { 200: User },
    },
    (request, principal, context) => service.updateMe(principal, request.body, context),
  );
  route.post(
    '/me/password',
    { capability: 'self', licenseExempt: true },
    {
      operationId: 'changeMyPassword',
      summary: 'Change your password; ends your other sessions',
      body: ChangePasswordBody,
      response: NoContent,
    },
    (request, principal, context) => service.changePassword(principal, request.body, context),
  );
});
