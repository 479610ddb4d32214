import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../../platform/authn.js';
import { requestContext } from '../../../platform/request-context.js';
import { ApiToken, ApiTokenList, ApiTokenListQuery, CreateApiTokenBody, CreatedApiToken, IdParams } from './schemas.js';
import type { ApiTokensService } from './service.js';

export const apiTokenRoutes: FastifyPluginAsyncTypebox<{ service: ApiTokensService }> = async (app, { service }) => {
  const tags = ['identity'];
  app.post('/api-tokens', {
    config: { capability: 'self' },
    schema: { operationId: 'createApiToken', tags, summary: 'Create a personal API token (its value is returned this once)', body: CreateApiTokenBody, response: { 201: CreatedApiToken } },
    handler: async (request, reply) => reply.code(201).send(await service.create(principalOf(request), request.body, requestContext(request))),
  });
  app.get('/api-tokens', {
    config: { capability: 'self' },
    schema: { operationId: 'listApiTokens', tags, summary: 'Your personal API tokens (administrators: any user with ?user_id=)', querystring: ApiTokenListQuery, response: { 200: ApiTokenList } },
    handler: async (request) => ({ items: await service.list(principalOf(request), request.query.user_id) }),
  });
  app.get('/api-tokens/:id', {
    config: { capability: 'self' },
    schema: { operationId: 'getApiToken', tags, summary: 'One personal API token', params: IdParams, response: { 200: ApiToken } },
    handler: async (request) => service.get(principalOf(request), request.params.id),
  });
  app.delete('/api-tokens/:id', {
    config: { capability: 'self' },
    schema: { operationId: 'revokeApiToken', tags, summary: 'Revoke a personal API token', params: IdParams, response: { 204: { type: 'null' } } },
    handler: async (request, reply) => {
      await service.revoke(principalOf(request), request.params.id, requestContext(request));
      return reply.code(204).send(null);
    },
  });
};
