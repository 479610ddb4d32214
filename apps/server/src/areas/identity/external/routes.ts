import cookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { apiRoutes } from '../../../platform/routes.js';
import { IdParams, Items, NoContent } from '../../../platform/schemas.js';
import { requestContext } from '../../../platform/request-context.js';
import { setRefreshCookie } from '../auth/routes.js';
import type { ProviderKind } from './repository.js';
import {
  LdapConfig,
  OidcConfig,
  Provider,
  ProviderBody,
  ProviderPatch,
  LdapTestResult,
  SsoCallbackQuery,
  SsoDiscovery,
  SsoStartQuery,
} from './schemas.js';
import type { ExternalIdentityService } from './service.js';

const STATE_COOKIE = 'svc_sso_state';

export const externalIdentityRoutes: FastifyPluginAsyncTypebox<{
  service: ExternalIdentityService;
  publicUrl: string | undefined;
  secureCookies: boolean;
  stateTtlSeconds: number;
}> = async (app, { service, publicUrl, secureCookies, stateTtlSeconds }) => {
  await app.register(cookie);
  const tags = ['identity'];
  const callbackUrl = (request: FastifyRequest) =>
    `${publicUrl ?? `${request.protocol}://${request.host}`}/api/v1/sso/callback`;

  const route = apiRoutes(app, tags);
  for (const [kind, prefix, Config, label] of [
    ['oidc', '/sso/providers', OidcConfig, 'OIDC provider'],
    ['ldap', '/ldap/providers', LdapConfig, 'LDAP provider'],
  ] as const) {
    const id = kind === 'oidc' ? 'Sso' : 'Ldap';
    const [read, write] = [`${kind}:read`, `${kind}:write`] as const;
    route.get(
      prefix,
      read,
      { operationId: `list${id}Providers`, summary: `${label}s (administrators)`, response: { 200: Items(Provider) } },
      async (_request, principal) => ({
        items: await service.list(principal, kind as ProviderKind),
      }),
    );
    route.post(
      prefix,
      write,
      {
        operationId: `create${id}Provider`,
        summary: `Add an ${label} (administrators)`,
        body: ProviderBody(Config),
        response: { 201: Provider },
      },
      (request, principal, context) => service.create(principal, kind, request.body as never, context),
    );
    route.get(
      `${prefix}/:id`,
      read,
      {
        operationId: `get${id}Provider`,
        summary: `One ${label} (administrators)`,
        params: IdParams,
        response: { 200: Provider },
      },
      (request, principal) => service.get(principal, kind, request.params.id),
    );
    route.patch(
      `${prefix}/:id`,
      write,
      {
        operationId: `update${id}Provider`,
        summary: `Change an ${label}; a config without the secret keeps it (administrators)`,
        params: IdParams,
        body: ProviderPatch(Config),
        response: { 200: Provider },
      },
      (request, principal, context) =>
        service.update(principal, kind, request.params.id, request.body as never, context),
    );
    route.delete(
      `${prefix}/:id`,
      write,
      {
        operationId: `delete${id}Provider`,
        summary: `Remove an ${label} (administrators)`,
        params: IdParams,
        response: NoContent,
      },
      (request, principal, context) => service.remove(principal, kind, request.params.id, context),
    );
  }
  route.post(
    '/ldap/providers/:id/test',
    'ldap:write',
    {
      operationId: 'testLdapProvider',
      summary: 'Check an LDAP provider: connection, TLS, service bind, user base (administrators)',
      params: IdParams,
      response: { 200: LdapTestResult },
    },
    (request, principal) => service.testLdap(principal, request.params.id),
  );

  app.get('/sso/discovery', {
    config: { public: true, licenseExempt: true },
    schema: {
      operationId: 'ssoDiscovery',
      tags,
      summary: 'Enabled single sign-on providers, for the login page',
      security: [],
      response: { 200: SsoDiscovery },
    },
    handler: async () => ({ providers: await service.discovery() }),
  });
  app.get('/sso/:id/start', {
    config: { public: true, licenseExempt: true, rateLimit: 'login' },
    schema: {
      operationId: 'ssoStart',
      tags,
      summary: 'Start a single sign-on: redirects to the provider (authorization code with PKCE and a nonce)',
      security: [],
      params: IdParams,
      querystring: SsoStartQuery,
      response: { 302: { type: 'null', description: 'To the provider' } },
    },
    handler: async (request, reply) => {
      const { url, jti } = await service.start(request.params.id, callbackUrl(request), request.query.redirect_to);
      // Binds the sign-in to this browser: the callback must come back with it. Lax: the provider's redirect is a top-level GET.
      reply.setCookie(STATE_COOKIE, jti, {
        httpOnly: true,
        sameSite: 'lax',
        path: '/api/v1/sso/callback',
        secure: secureCookies,
        maxAge: stateTtlSeconds,
      });
      return reply.redirect(url, 302);
    },
  });
  app.get('/sso/callback', {
    config: { public: true, licenseExempt: true, rateLimit: 'login' },
    schema: {
      operationId: 'ssoCallback',
      tags,
      summary:
        'The provider returns here: the state is checked (signature, lifetime, once), the code exchanged, the ID token validated; then a session starts (svc_refresh cookie) and the browser goes to the web UI',
      security: [],
      querystring: SsoCallbackQuery,
      response: { 302: { type: 'null', description: 'To the web UI, signed in' } },
    },
    handler: async (request, reply) => {
      const current = new URL(request.url, callbackUrl(request));
      const browserState = request.cookies[STATE_COOKIE];
      reply.clearCookie(STATE_COOKIE, {
        path: '/api/v1/sso/callback',
        httpOnly: true,
        sameSite: 'lax',
        secure: secureCookies,
      });
      const { issued, redirectTo } = await service.callback(
        current,
        callbackUrl(request),
        browserState,
        requestContext(request),
      );
      setRefreshCookie(reply, issued, secureCookies);
      return reply.redirect(redirectTo, 302);
    },
  });
};
