import cookie from '@fastify/cookie';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { principalOf } from '../../../platform/authn.js';
import { requestContext } from '../../../platform/request-context.js';
import { setRefreshCookie } from '../auth/routes.js';
import type { ProviderKind } from './repository.js';
import type { ExternalIdentityService } from './service.js';

const Uuid = Type.String({ format: 'uuid' });
const Params = Type.Object({ id: Uuid });
const Mappings = Type.Optional(
  Type.Array(Type.Object({ group: Type.String({ minLength: 1 }), project_id: Uuid, role: Type.String({ minLength: 1 }) }, { additionalProperties: false }), {
    description: 'A member of `group` gets `role` in `project_id` at each sign-in',
  }),
);
const OidcConfig = Type.Object(
  {
    issuer: Type.String({ format: 'uri', description: 'Issuer URL; its /.well-known/openid-configuration is read' }),
    client_id: Type.String({ minLength: 1 }),
    client_secret: Type.Optional(Type.String({ minLength: 1, description: 'Write-only: encrypted at rest, never returned; omitted in a PATCH keeps it', writeOnly: true })),
    scopes: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'Default openid, email, profile' })),
    username_claim: Type.Optional(Type.String({ minLength: 1, description: 'Default preferred_username' })),
    email_claim: Type.Optional(Type.String({ minLength: 1, description: 'Default email' })),
    groups_claim: Type.Optional(Type.String({ minLength: 1, description: 'Default groups' })),
    allowed_email_domains: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'When set, only these e-mail domains may sign in' })),
    group_mappings: Mappings,
  },
  { additionalProperties: false },
);
const LdapConfig = Type.Object(
  {
    url: Type.String({ pattern: '^ldaps?://', description: 'ldap://host:port or ldaps://host:port' }),
    start_tls: Type.Boolean({ description: 'Upgrade an ldap:// connection with StartTLS' }),
    ca_pem: Type.Optional(Type.String({ description: 'PEM of the CA to trust (else the system CAs); certificates are always verified' })),
    bind_dn: Type.Optional(Type.String({ minLength: 1, description: 'Service account that searches for users' })),
    bind_password: Type.Optional(Type.String({ minLength: 1, description: 'Write-only: encrypted at rest, never returned', writeOnly: true })),
    user_base_dn: Type.String({ minLength: 1 }),
    user_filter: Type.String({ minLength: 1, description: 'e.g. (uid={username}); the login name is escaped' }),
    username_attribute: Type.String({ minLength: 1 }),
    email_attribute: Type.String({ minLength: 1 }),
    group_base_dn: Type.Optional(Type.String({ minLength: 1, description: "Groups are searched here by member; else the user's memberOf" })),
    timeout_ms: Type.Optional(Type.Integer({ minimum: 100, maximum: 60_000 })),
    group_mappings: Mappings,
  },
  { additionalProperties: false },
);
const Provider = Type.Object({
  id: Uuid,
  kind: Type.Union([Type.Literal('oidc'), Type.Literal('ldap')]),
  name: Type.String(),
  enabled: Type.Boolean(),
  position: Type.Integer(),
  config: Type.Record(Type.String(), Type.Unknown()),
  secrets_set: Type.Array(Type.String(), { description: 'Secret fields that hold a value (never the value)' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

const STATE_COOKIE = 'svc_sso_state';

export const externalIdentityRoutes: FastifyPluginAsyncTypebox<{ service: ExternalIdentityService; publicUrl: string | undefined; secureCookies: boolean; stateTtlSeconds: number }> = async (
  app,
  { service, publicUrl, secureCookies, stateTtlSeconds },
) => {
  await app.register(cookie);
  const tags = ['identity'];
  const callbackUrl = (request: FastifyRequest) => `${publicUrl ?? `${request.protocol}://${request.host}`}/api/v1/sso/callback`;

  for (const [kind, prefix, Config, label] of [
    ['oidc', '/sso/providers', OidcConfig, 'OIDC provider'],
    ['ldap', '/ldap/providers', LdapConfig, 'LDAP provider'],
  ] as const) {
    const id = kind === 'oidc' ? 'Sso' : 'Ldap';
    const Body = Type.Object(
      { name: Type.String({ minLength: 1, maxLength: 100 }), enabled: Type.Optional(Type.Boolean()), position: Type.Optional(Type.Integer({ minimum: 0, description: 'LDAP: the order providers are tried in' })), config: Config },
      { additionalProperties: false },
    );
    const Patch = Type.Object(
      { name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), enabled: Type.Optional(Type.Boolean()), position: Type.Optional(Type.Integer({ minimum: 0 })), config: Type.Optional(Config) },
      { additionalProperties: false, minProperties: 1 },
    );
    app.get(prefix, {
      config: { capability: `${kind}:read` as const },
      schema: { operationId: `list${id}Providers`, tags, summary: `${label}s (administrators)`, response: { 200: Type.Object({ items: Type.Array(Provider) }) } },
      handler: async (request) => ({ items: await service.list(principalOf(request), kind as ProviderKind) }),
    });
    app.post(prefix, {
      config: { capability: `${kind}:write` as const },
      schema: { operationId: `create${id}Provider`, tags, summary: `Add an ${label} (administrators)`, body: Body, response: { 201: Provider } },
      handler: async (request, reply) => reply.code(201).send(await service.create(principalOf(request), kind, request.body as never, requestContext(request))),
    });
    app.get(`${prefix}/:id`, {
      config: { capability: `${kind}:read` as const },
      schema: { operationId: `get${id}Provider`, tags, summary: `One ${label} (administrators)`, params: Params, response: { 200: Provider } },
      handler: async (request) => service.get(principalOf(request), kind, request.params.id),
    });
    app.patch(`${prefix}/:id`, {
      config: { capability: `${kind}:write` as const },
      schema: { operationId: `update${id}Provider`, tags, summary: `Change an ${label}; a config without the secret keeps it (administrators)`, params: Params, body: Patch, response: { 200: Provider } },
      handler: async (request) => service.update(principalOf(request), kind, request.params.id, request.body as never, requestContext(request)),
    });
    app.delete(`${prefix}/:id`, {
      config: { capability: `${kind}:write` as const },
      schema: { operationId: `delete${id}Provider`, tags, summary: `Remove an ${label} (administrators)`, params: Params, response: { 204: { type: 'null' } } },
      handler: async (request, reply) => {
        await service.remove(principalOf(request), kind, request.params.id, requestContext(request));
        return reply.code(204).send(null);
      },
    });
  }
  app.post('/ldap/providers/:id/test', {
    config: { capability: 'ldap:write' },
    schema: {
      operationId: 'testLdapProvider',
      tags,
      summary: 'Check an LDAP provider: connection, TLS, service bind, user base (administrators)',
      params: Params,
      response: { 200: Type.Object({ ok: Type.Boolean(), reason: Type.Optional(Type.String()), message: Type.Optional(Type.String()) }) },
    },
    handler: async (request) => service.testLdap(principalOf(request), request.params.id),
  });

  app.get('/sso/discovery', {
    config: { public: true, licenseExempt: true },
    schema: {
      operationId: 'ssoDiscovery',
      tags,
      summary: 'Enabled single sign-on providers, for the login page',
      security: [],
      response: { 200: Type.Object({ providers: Type.Array(Type.Object({ id: Uuid, name: Type.String(), start_path: Type.String() })) }) },
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
      params: Params,
      querystring: Type.Object({ redirect_to: Type.Optional(Type.String({ maxLength: 2000, description: 'A path of this service to land on afterwards (default /)' })) }, { additionalProperties: false }),
      response: { 302: { type: 'null', description: 'To the provider' } },
    },
    handler: async (request, reply) => {
      const { url, jti } = await service.start(request.params.id, callbackUrl(request), request.query.redirect_to);
      // Binds the sign-in to this browser: the callback must come back with it. Lax: the provider's redirect is a top-level GET.
      reply.setCookie(STATE_COOKIE, jti, { httpOnly: true, sameSite: 'lax', path: '/api/v1/sso/callback', secure: secureCookies, maxAge: stateTtlSeconds });
      return reply.redirect(url, 302);
    },
  });
  app.get('/sso/callback', {
    config: { public: true, licenseExempt: true, rateLimit: 'login' },
    schema: {
      operationId: 'ssoCallback',
      tags,
      summary: 'The provider returns here: the state is checked (signature, lifetime, once), the code exchanged, the ID token validated; then a session starts (svc_refresh cookie) and the browser goes to the web UI',
      security: [],
      querystring: Type.Object({ code: Type.Optional(Type.String()), state: Type.Optional(Type.String()), error: Type.Optional(Type.String()), error_description: Type.Optional(Type.String()), iss: Type.Optional(Type.String()) }, { additionalProperties: true }),
      response: { 302: { type: 'null', description: 'To the web UI, signed in' } },
    },
    handler: async (request, reply) => {
      const current = new URL(request.url, callbackUrl(request));
      const browserState = request.cookies[STATE_COOKIE];
      reply.clearCookie(STATE_COOKIE, { path: '/api/v1/sso/callback', httpOnly: true, sameSite: 'lax', secure: secureCookies });
      const { issued, redirectTo } = await service.callback(current, callbackUrl(request), browserState, requestContext(request));
      setRefreshCookie(reply, issued, secureCookies);
      return reply.redirect(redirectTo, 302);
    },
  });
};
