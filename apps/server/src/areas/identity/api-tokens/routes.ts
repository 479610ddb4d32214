import { serviceRoutes } from '../../../platform/routes.js';
import { IdParams, NoContent } from '../../../platform/schemas.js';
import { ApiToken, ApiTokenList, ApiTokenListQuery, CreateApiTokenBody, CreatedApiToken } from './schemas.js';
import type { ApiTokensService } from './service.js';

export const apiTokenRoutes = serviceRoutes<ApiTokensService>(['identity'], (route, service) => {
  route.post(
    '/api-tokens',
    'self',
    {
      operationId: 'createApiToken',
      summary: 'Create a personal API token (its value is returned this once)',
      body: CreateApiTokenBody,
      response: { 201: CreatedApiToken },
    },
    (request, principal, context) => service.create(principal, request.body, context),
  );
  route.get(
    '/api-tokens',
    'self',
    {
      operationId: 'listApiTokens',
      summary: 'Your personal API tokens (administrators: any user with ?user_id=)',
      querystring: ApiTokenListQuery,
      response: { 200: ApiTokenList },
    },
    async (request, principal) => ({ items: await service.list(principal, request.query.user_id) }),
  );
  route.get(
    '/api-tokens/:id',
    'self',
    { operationId: 'getApiToken', summary: 'One personal API token', params: IdParams, response: { 200: ApiToken } },
    (request, principal) => service.get(principal, request.params.id),
  );
  route.delete(
    '/api-tokens/:id',
    'self',
    { operationId: 'revokeApiToken', summary: 'Revoke a personal API token', params: IdParams, response: NoContent },
    (request, principal, context) => service.revoke(principal, request.params.id, context),
  );
});
