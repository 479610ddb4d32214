/**
 * External identity: OIDC single sign-on and LDAP sign-in.
 *
 * Providers are managed by administrators; their secrets (client secret, bind password) are encrypted
 * at rest and never returned. A first sign-in provisions a local user (auth_source oidc or ldap, no
 * password), or links an existing account with the same verified e-mail address; the provider's
 * groups grant project roles through its group mappings. Every sign-in ends in a normal session.
 *
 * OIDC: authorization code flow with PKCE (S256) and a nonce. The state is a short-lived JWT signed
 * with the service's secret; what must stay secret (the code verifier) stays in the database under
 * the state's id and is taken once, so a replayed, expired or forged callback is refused.
 */
import { randomUUID } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';
import * as oidc from 'openid-client';
import type { Principal } from '../../../platform/authn.js';
import { requireAdmin } from '../../../platform/authz.js';
import { onUniqueViolation, type Db } from '../../../platform/db/index.js';
import { notFound, unauthenticated, validationFailed } from '../../../platform/errors/index.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { SecretBox } from '../../../platform/secrets.js';
import type { AuditService } from '../../audit/service.js';
import type { SessionsService } from '../sessions/service.js';
import type { UserRow, UsersRepository } from '../users/repository.js';
import { ldapAuthenticate, ldapCheck, type LdapConfig } from '../ldap/directory.js';
import type { ExternalIdentityRepository, ProviderKind, ProviderRow } from './repository.js';
import { SSO_PROVIDER, providerNameTaken } from '../errors.js';

export interface GroupMapping {
  group: string;
  project_id: string;
  role: string;
}

export interface OidcConfig {
  issuer: string;
  client_id: string;
  scopes?: string[];
  username_claim?: string;
  email_claim?: string;
  groups_claim?: string;
  allowed_email_domains?: string[];
  group_mappings?: GroupMapping[];
}

export type LdapProviderConfig = LdapConfig & { group_mappings?: GroupMapping[] };

const SECRET_FIELDS: Record<ProviderKind, string> = { oidc: 'client_secret', ldap: 'bind_password' };
const STATE_AUDIENCE = 'svc-sso-state';

export interface ProviderInput {
  name: string;
  enabled?: boolean;
  position?: number;
  config: Record<string, unknown>;
}

export const presentProvider = (row: ProviderRow) => ({
  id: row.id,
  kind: row.kind,
  name: row.name,
  enabled: row.enabled,
  position: row.position,
  config: row.config,
  secrets_set: Object.keys(row.secrets),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/**
 * A redirect target inside this service only: a path that resolves to this origin. Control
 * characters and whitespace are refused outright (browsers strip a tab, so "/\t/evil" would become
 * "//evil").
 */
export function safeRedirect(target: string | undefined): string {
  // Control characters, whitespace and backslashes: a browser would strip or reinterpret them.
  if (
    !target ||
    !target.startsWith('/') ||
    [...target].some((c) => c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f || c === '\\')
  )
    return '/';
  const base = 'http://svc.invalid';
  try {
    const url = new URL(target, base);
    return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : '/';
  } catch {
    return '/';
  }
}

export type ExternalIdentityService = ReturnType<typeof createExternalIdentityService>;

export function createExternalIdentityService(deps: {
  db: Db;
  repository: ExternalIdentityRepository;
  users: UsersRepository;
  sessions: SessionsService;
  audit: AuditService;
  box: SecretBox;
  jwtSecret: string;
  stateTtlSeconds: number;
  /** Plain-HTTP issuers are refused in production. */
  production: boolean;
  grantRole: (projectId: string, userId: string, role: string) => Promise<boolean>;
}) {
  const { db, repository, users, audit, box } = deps;
  const signState = createSigner({
    key: deps.jwtSecret,
    algorithm: 'HS256',
    aud: STATE_AUDIENCE,
    expiresIn: deps.stateTtlSeconds * 1000,
  });
  const verifyState = createVerifier({ key: deps.jwtSecret, algorithms: ['HS256'], allowedAud: STATE_AUDIENCE });
  const discovered = new Map<string, { at: number; config: oidc.Configuration }>();

  const secretOf = (row: ProviderRow) => {
    const sealed = row.secrets[SECRET_FIELDS[row.kind]];
    return sealed ? box.decrypt(sealed) : undefined;
  };

  const split = (kind: ProviderKind, config: Record<string, unknown>) => {
    const { [SECRET_FIELDS[kind]]: secret, ...rest } = config;
    return { config: rest, secret: typeof secret === 'string' && secret.length > 0 ? secret : undefined };
  };

  const discover = async (row: ProviderRow): Promise<oidc.Configuration> => {
    const cached = discovered.get(row.id);
    if (cached && cached.at > row.updated_at.getTime() && Date.now() - cached.at < 600_000) return cached.config;
    const config = row.config as unknown as OidcConfig;
    const issuer = new URL(config.issuer);
    const insecure = issuer.protocol === 'http:';
    if (insecure && deps.production) throw new Error('the issuer must use https');
    const secret = secretOf(row);
    const found = await oidc.discovery(
      issuer,
      config.client_id,
      undefined,
      secret ? oidc.ClientSecretBasic(secret) : oidc.None(),
      insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
    );
    discovered.set(row.id, { at: Date.now(), config: found });
    return found;
  };

  /** Finds, links or creates the local user of an external identity, and applies the group mappings. */
  const provision = async (
    row: ProviderRow,
    identity: { subject: string; username: string; email: string | null; emailVerified: boolean; groups: string[] },
    context: RequestContext,
  ): Promise<UserRow> => {
    const mappings = ((row.config['group_mappings'] as GroupMapping[] | undefined) ?? []).filter((m) =>
      identity.groups.includes(m.group),
    );
    const linked = await repository.findIdentity(db, row.id, identity.subject);
    let user = linked ? await users.findById(db, linked.user_id) : undefined;
    // Linking by e-mail trusts the provider's word that the address is the user's: only for an OIDC
    // provider's verified address, and never to an instance administrator (whose account would be
    // taken over by whoever controls such an address at the provider).
    if (!user && row.kind === 'oidc' && identity.email && identity.emailVerified) {
      const byEmail = await db
        .selectFrom('users')
        .selectAll()
        .where(db.fn('lower', ['email']), '=', identity.email.toLowerCase())
        .execute();
      if (byEmail.length === 1 && !byEmail[0]!.is_admin) user = byEmail[0];
    }
    if (!user) {
      if (await users.findByUsername(db, identity.username))
        throw unauthenticated(
          `The username "${identity.username}" belongs to another account; ask an administrator to link it`,
        );
      user = await users.insert(db, {
        username: identity.username,
        email: identity.email ?? `${identity.username}@users.invalid`,
        password_hash: null,
        auth_source: row.kind,
        password_change_required: false,
      });
      await audit.record(context, {
        kind: 'user_provisioned',
        target: { type: 'user', id: user.id },
        details: { provider: row.name, kind: row.kind },
      });
    }
    if (user.disabled_at) throw unauthenticated('This account is disabled');
    await repository.linkIdentity(db, row.id, identity.subject, user.id);
    for (const mapping of mappings) await deps.grantRole(mapping.project_id, user.id, mapping.role);
    return user;
  };

  const providerOf = async (kind: ProviderKind, id: string) => {
    const row = await repository.findProvider(db, id);
    if (!row || row.kind !== kind) throw notFound(kind === 'oidc' ? 'SSO provider' : 'LDAP provider');
    return row;
  };

  return {
    // ----- administration (both kinds)
    async list(principal: Principal, kind: ProviderKind) {
      requireAdmin(principal, `${kind}:read`);
      return (await repository.listProviders(db, kind)).map(presentProvider);
    },
    async get(principal: Principal, kind: ProviderKind, id: string) {
      requireAdmin(principal, `${kind}:read`);
      return presentProvider(await providerOf(kind, id));
    },
    async create(principal: Principal, kind: ProviderKind, input: ProviderInput, context: RequestContext) {
      requireAdmin(principal, `${kind}:write`);
      const { config, secret } = split(kind, input.config);
      const row = await onUniqueViolation(
        repository.insertProvider(db, {
          kind,
          name: input.name,
          enabled: input.enabled ?? true,
          position: input.position ?? 0,
          config,
          secrets: secret ? { [SECRET_FIELDS[kind]]: box.encrypt(secret) } : {},
        }),
        () => providerNameTaken(input.name),
      );
      await audit.record(context, {
        kind: `${kind}_provider_created`,
        target: { type: `${kind}_provider`, id: row.id },
        details: { name: row.name },
      });
      return presentProvider(row);
    },
    /** A PATCH that leaves the secret out keeps it. */
    async update(
      principal: Principal,
      kind: ProviderKind,
      id: string,
      input: Partial<ProviderInput>,
      context: RequestContext,
    ) {
      requireAdmin(principal, `${kind}:write`);
      const current = await providerOf(kind, id);
      const split_ = input.config ? split(kind, input.config) : undefined;
      const row = await repository.updateProvider(db, id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        ...(input.position !== undefined ? { position: input.position } : {}),
        ...(split_
          ? {
              config: split_.config,
              secrets: split_.secret ? { [SECRET_FIELDS[kind]]: box.encrypt(split_.secret) } : current.secrets,
            }
          : {}),
      });
      discovered.delete(id);
      await audit.record(context, {
        kind: `${kind}_provider_updated`,
        target: { type: `${kind}_provider`, id },
        details: { fields: Object.keys(input) },
      });
      return presentProvider(row!);
    },
    async remove(principal: Principal, kind: ProviderKind, id: string, context: RequestContext) {
      requireAdmin(principal, `${kind}:write`);
      await providerOf(kind, id);
      await repository.removeProvider(db, id);
      discovered.delete(id);
      await audit.record(context, { kind: `${kind}_provider_deleted`, target: { type: `${kind}_provider`, id } });
    },
    async testLdap(principal: Principal, id: string) {
      requireAdmin(principal, 'ldap:write');
      const row = await providerOf('ldap', id);
      return ldapCheck(row.config as unknown as LdapConfig, secretOf(row));
    },

    // ----- OIDC sign-in (public routes)
    async discovery() {
      return (await repository.listProviders(db, 'oidc'))
        .filter((p) => p.enabled)
        .map((p) => ({ id: p.id, name: p.name, start_path: `/api/v1/sso/${p.id}/start` }));
    },

    /** The provider's authorization URL for a new sign-in. */
    async start(id: string, callbackUrl: string, redirectTo: string | undefined) {
      const row = await repository.findProvider(db, id);
      if (!row || row.kind !== 'oidc' || !row.enabled) throw notFound(SSO_PROVIDER);
      let config: oidc.Configuration;
      try {
        config = await discover(row);
      } catch (error) {
        throw validationFailed([
          { path: 'issuer', message: `the provider's discovery failed: ${(error as Error).message}` },
        ]);
      }
      const jti = randomUUID();
      const verifier = oidc.randomPKCECodeVerifier();
      const nonce = oidc.randomNonce();
      await repository.saveLoginState(db, {
        jti,
        provider_id: row.id,
        code_verifier: box.encrypt(verifier),
        nonce,
        redirect_to: safeRedirect(redirectTo),
        expires_at: new Date(Date.now() + deps.stateTtlSeconds * 1000),
      });
      const state = signState({ jti, pid: row.id });
      const settings = row.config as unknown as OidcConfig;
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: callbackUrl,
        scope: (settings.scopes?.length ? settings.scopes : ['openid', 'email', 'profile']).join(' '),
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      }).href;
      return { url, jti };
    },

    /** Completes a sign-in: checks the state, exchanges the code, validates the ID token, provisions, starts a session. */
    async callback(currentUrl: URL, callbackUrl: string, browserState: string | undefined, context: RequestContext) {
      const refuse = async (reason: string, providerId?: string) => {
        await audit.record(context, {
          kind: 'sso_login_failed',
          target: providerId ? { type: 'oidc_provider', id: providerId } : undefined,
          details: { reason },
        });
        return unauthenticated(`Single sign-on failed: ${reason}`);
      };
      const stateToken = currentUrl.searchParams.get('state');
      if (!stateToken) throw await refuse('no state');
      let claims: { jti?: string; pid?: string };
      try {
        claims = verifyState(stateToken) as { jti?: string; pid?: string };
      } catch (error) {
        throw await refuse(
          /expired/i.test((error as Error).message)
            ? 'the sign-in took too long (state expired); start again'
            : 'the state is not one this service issued',
        );
      }
      // The state must come back to the browser that started the sign-in (its cookie): a callback URL
      // handed to someone else would sign them in as the sender.
      if (!claims.jti || browserState !== claims.jti)
        throw await refuse('this sign-in was started in another browser', claims.pid);
      const saved = await repository.consumeLoginState(db, claims.jti);
      if (!saved || saved.provider_id !== claims.pid)
        throw await refuse('this sign-in was already completed or never started', claims.pid);
      if (saved.expires_at < new Date())
        throw await refuse('the sign-in took too long (state expired); start again', saved.provider_id);
      const row = await repository.findProvider(db, saved.provider_id);
      if (!row || !row.enabled) throw await refuse('the provider is gone or disabled', saved.provider_id);
      const settings = row.config as unknown as OidcConfig;
      let idClaims: oidc.IDToken;
      try {
        const config = await discover(row);
        const callback = new URL(callbackUrl);
        callback.search = currentUrl.search;
        const tokens = await oidc.authorizationCodeGrant(config, callback, {
          pkceCodeVerifier: box.decrypt(saved.code_verifier),
          expectedNonce: saved.nonce,
          expectedState: stateToken,
          idTokenExpected: true,
        });
        idClaims = tokens.claims()!;
      } catch (error) {
        throw await refuse(`the provider's answer was refused (${(error as Error).message})`, row.id);
      }
      const claim = (name: string | undefined, fallback: string) => idClaims[name ?? fallback];
      const email =
        typeof claim(settings.email_claim, 'email') === 'string'
          ? (claim(settings.email_claim, 'email') as string)
          : null;
      const domains = settings.allowed_email_domains ?? [];
      const emailVerified = idClaims['email_verified'] === true;
      if (domains.length && (!email || !emailVerified || !domains.includes(email.split('@')[1]?.toLowerCase() ?? '')))
        throw await refuse('the e-mail domain is not allowed (or the address is not verified)', row.id);
      const username = String(claim(settings.username_claim, 'preferred_username') ?? idClaims.sub);
      const groupsClaim = claim(settings.groups_claim, 'groups');
      const user = await provision(
        row,
        {
          subject: idClaims.sub,
          username,
          email,
          emailVerified,
          groups: Array.isArray(groupsClaim) ? groupsClaim.map(String) : [],
        },
        context,
      );
      const issued = await deps.sessions.start(user.id, context);
      await audit.record(
        { ...context, actorUserId: user.id },
        { kind: 'sso_login_succeeded', target: { type: 'user', id: user.id }, details: { provider: row.name } },
      );
      return { issued, redirectTo: saved.redirect_to };
    },

    // ----- LDAP sign-in (through POST /auth/login)
    /** Tries the named LDAP provider, or every enabled one in order; the user on success. */
    async ldapLogin(
      username: string,
      password: string,
      providerName: string | undefined,
      context: RequestContext,
    ): Promise<UserRow | undefined> {
      const providers = (await repository.listProviders(db, 'ldap')).filter(
        (p) => p.enabled && (!providerName || p.name === providerName),
      );
      for (const row of providers) {
        const outcome = await ldapAuthenticate(row.config as unknown as LdapConfig, secretOf(row), username, password);
        if (!outcome.ok) {
          await audit.record(context, {
            kind: 'ldap_login_failed',
            target: { type: 'ldap_provider', id: row.id },
            details: { username, reason: outcome.reason },
          });
          continue;
        }
        // A directory's mail attribute is whatever the directory holds: never treated as verified.
        const user = await provision(
          row,
          {
            subject: outcome.dn,
            username: outcome.username,
            email: outcome.email,
            emailVerified: false,
            groups: outcome.groups,
          },
          context,
        );
        await audit.record(
          { ...context, actorUserId: user.id },
          { kind: 'ldap_login_succeeded', target: { type: 'user', id: user.id }, details: { provider: row.name } },
        );
        return user;
      }
      return undefined;
    },

    pruneLoginStates: () => repository.pruneLoginStates(db),
  };
}
