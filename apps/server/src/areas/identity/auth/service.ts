import { randomUUID } from 'node:crypto';
import type { Principal } from '../../../platform/authn.js';
import type { Db } from '../../../platform/db/index.js';
import { unauthenticated } from '../../../platform/errors/index.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { AuditService } from '../../audit/service.js';
import { hashPassword, verifyPassword } from '../passwords.js';
import type { SessionsService } from '../sessions/service.js';
import type { UserCache } from '../users/cache.js';
import type { UsersRepository } from '../users/repository.js';

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService(deps: {
  db: Db;
  users: UsersRepository;
  userCache: UserCache;
  sessions: SessionsService;
  audit: AuditService;
  bcryptRounds: number;
  /** LDAP sign-in: the user when a provider accepted the credentials (wired once the providers exist). */
  ldapLogin?: (
    username: string,
    password: string,
    provider: string | undefined,
    context: RequestContext,
  ) => Promise<{ id: string } | undefined>;
}) {
  const { db, users, sessions, audit } = deps;
  // Compared against when the username is unknown, so a miss costs one bcrypt like a hit does.
  const decoyHash = hashPassword(randomUUID(), deps.bcryptRounds);
  return {
    async login(username: string, password: string, context: RequestContext, provider?: string) {
      // A local account with a password signs in here; everyone else (and whoever names a provider) through LDAP.
      let user = provider ? undefined : await users.findByUsername(db, username);
      if ((provider || !user?.password_hash) && deps.ldapLogin) {
        const external = await deps.ldapLogin(username, password, provider, context);
        if (external) {
          const issued = await sessions.start(external.id, context);
          return { issued, passwordChangeRequired: false };
        }
        if (provider) throw unauthenticated('Invalid username or password');
        user = undefined;
      }
      const hash = user?.password_hash ?? (await decoyHash);
      const matches = await verifyPassword(password, hash);
      if (!user || !user.password_hash || !matches || user.disabled_at) {
        await audit.record(context, {
          kind: 'login_failed',
          target: user ? { type: 'user', id: user.id } : undefined,
          details: {
            username,
            reason: !user ? 'unknown_user' : !matches || !user.password_hash ? 'wrong_password' : 'disabled',
          },
        });
        throw unauthenticated('Invalid username or password');
      }
      const issued = await sessions.start(user.id, context);
      await audit.record(
        { ...context, actorUserId: user.id },
        { kind: 'login_succeeded', target: { type: 'user', id: user.id } },
      );
      return { issued, passwordChangeRequired: user.password_change_required };
    },

    async refresh(refreshToken: string | undefined, context: RequestContext) {
      if (!refreshToken) throw unauthenticated('No refresh cookie; sign in');
      const issued = await sessions.refresh(refreshToken, context);
      return issued;
    },

    async logout(principal: Principal, accessTokenExpiresAt: Date | undefined, context: RequestContext) {
      await db.transaction().execute(async (trx) => {
        if (principal.sessionId) await sessions.revokeFamilies(trx, [principal.sessionId], 'logout');
        if (principal.credential === 'access_token' && accessTokenExpiresAt) {
          await sessions.revokeAccessToken(trx, principal.tokenId, accessTokenExpiresAt);
        }
        await audit.record(context, { kind: 'logout', target: { type: 'user', id: principal.userId } }, trx);
      });
    },
  };
}
