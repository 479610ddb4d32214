import cookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { principalOf } from '../../../platform/authn.js';
import { requestContext } from '../../../platform/request-context.js';
import type { IssuedSession } from '../sessions/service.js';
import { LoginBody, LoginResponse, TokenResponse } from './schemas.js';
import type { AuthService } from './service.js';

export const REFRESH_COOKIE = 'svc_refresh';
const COOKIE_PATH = '/api/v1/auth';

/** Sets the refresh cookie of a new session (also used by the SSO callback). */
export const setRefreshCookie = (reply: FastifyReply, issued: IssuedSession, secure: boolean) =>
  reply.setCookie(REFRESH_COOKIE, issued.refreshToken, {
    httpOnly: true,
    sameSite: 'strict',
    path: COOKIE_PATH,
    secure,
    maxAge: issued.refreshMaxAgeSeconds,
  });

export const authRoutes: FastifyPluginAsyncTypebox<{ service: AuthService; secureCookies: boolean }> = async (
  app,
  { service, secureCookies },
) => {
  // Cookies are parsed only here, on the auth routes: the only ones the refresh cookie is sent to.
  await app.register(cookie);
  const tags = ['identity'];

  app.post('/auth/login', {
    config: { public: true, rateLimit: 'login', licenseExempt: true },
    schema: {
      operationId: 'login',
      tags,
      summary: 'Sign in with username and password, a local account or through LDAP (sets the svc_refresh cookie)',
      security: [],
      body: LoginBody,
      response: { 200: LoginResponse },
    },
    handler: async (request, reply) => {
      const { issued, passwordChangeRequired } = await service.login(
        request.body.username,
        request.body.password,
        requestContext(request),
        request.body.provider,
      );
      setRefreshCookie(reply, issued, secureCookies);
      return {
        access_token: issued.accessToken,
        token_type: 'Bearer' as const,
        expires_in: issued.expiresIn,
        password_change_required: passwordChangeRequired,
      };
    },
  });

  app.post('/auth/refresh', {
    config: { public: true, licenseExempt: true },
    schema: {
      operationId: 'refreshSession',
      tags,
      summary: 'New access token from the svc_refresh cookie (rotates the cookie)',
      security: [],
      response: { 200: TokenResponse },
    },
    handler: async (request, reply) => {
      try {
        const issued = await service.refresh(request.cookies[REFRESH_COOKIE], requestContext(request));
        setRefreshCookie(reply, issued, secureCookies);
        return { access_token: issued.accessToken, token_type: 'Bearer' as const, expires_in: issued.expiresIn };
      } catch (error) {
        reply.clearCookie(REFRESH_COOKIE, {
          path: COOKIE_PATH,
          httpOnly: true,
          sameSite: 'strict',
          secure: secureCookies,
        });
        throw error;
      }
    },
  });

  app.post('/auth/logout', {
    config: { licenseExempt: true, capability: 'self' },
    schema: {
      operationId: 'logout',
      tags,
      summary: 'Sign out: revokes the session family and this access token, clears the cookie',
      response: { 204: { type: 'null' } },
    },
    handler: async (request, reply) => {
      const principal = principalOf(request);
      await service.logout(principal, principal.expiresAt ?? undefined, requestContext(request));
      reply.clearCookie(REFRESH_COOKIE, {
        path: COOKIE_PATH,
        httpOnly: true,
        sameSite: 'strict',
        secure: secureCookies,
      });
      return reply.code(204).send(null);
    },
  });
};
