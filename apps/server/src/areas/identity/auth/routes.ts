import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { requestContext } from '../../../platform/request-context.js';
import { LoginBody, LoginResponse } from './schemas.js';
import type { AuthService } from './service.js';

export const authRoutes: FastifyPluginAsyncTypebox<{ service: AuthService }> = async (app, { service }) => {
  app.post('/auth/login', {
    config: { public: true, rateLimit: 'login' },
    schema: {
      operationId: 'login',
      tags: ['identity'],
      summary: 'Sign in with username and password',
      security: [],
      body: LoginBody,
      response: { 200: LoginResponse },
    },
    handler: async (request) => service.login(request.body.username, request.body.password, requestContext(request)),
  });
};
