import { randomUUID } from 'node:crypto';
import type { Db } from '../../../platform/db/index.js';
import { unauthenticated } from '../../../platform/errors/index.js';
import type { AuditContext, AuditService } from '../../audit/service.js';
import { hashPassword, verifyPassword } from '../passwords.js';
import type { AccessTokens } from '../tokens.js';
import type { UsersRepository } from '../users/repository.js';

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService(deps: { db: Db; users: UsersRepository; tokens: AccessTokens; audit: AuditService; bcryptRounds: number }) {
  // Compared against when the username is unknown, so a miss costs one bcrypt like a hit does.
  const decoyHash = hashPassword(randomUUID(), deps.bcryptRounds);
  return {
    async login(username: string, password: string, context: AuditContext) {
      const user = await deps.users.findByUsername(deps.db, username);
      const hash = user?.password_hash ?? (await decoyHash);
      const matches = await verifyPassword(password, hash);
      if (!user || !user.password_hash || !matches || user.disabled_at) {
        await deps.audit.record(context, {
          kind: 'login_failed',
          target: user ? { type: 'user', id: user.id } : undefined,
          details: { username, reason: !user ? 'unknown_user' : user.disabled_at ? 'disabled' : 'wrong_password' },
        });
        throw unauthenticated('Invalid username or password');
      }
      const sessionId = randomUUID();
      const { token } = deps.tokens.issue(user.id, sessionId);
      await deps.audit.record({ ...context, actorUserId: user.id }, { kind: 'login_succeeded', target: { type: 'user', id: user.id } });
      return {
        access_token: token,
        token_type: 'Bearer' as const,
        expires_in: deps.tokens.ttlSeconds,
        password_change_required: user.password_change_required,
      };
    },
  };
}
