/**
 * Session families: a login starts one; each refresh consumes the presented refresh token and issues
 * the next one in the same family; presenting a consumed token revokes the whole family (every
 * refresh token, and every access token through the deny-list entry of the family id).
 */
import type { Db } from '../../../platform/db/index.js';
import { unauthenticated } from '../../../platform/errors/index.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { AuditService } from '../../audit/service.js';
import type { Revocations } from '../revocation.js';
import { hashSecret, randomSecret } from '../secrets.js';
import type { AccessTokens } from '../tokens.js';
import type { SessionsRepository } from './repository.js';

export interface IssuedSession {
  accessToken: string;
  expiresIn: number;
  refreshToken: string;
  refreshMaxAgeSeconds: number;
}

export type SessionsService = ReturnType<typeof createSessionsService>;

export function createSessionsService(deps: {
  db: Db;
  repository: SessionsRepository;
  tokens: AccessTokens;
  revocations: Revocations;
  audit: AuditService;
  refreshTtlDays: number;
}) {
  const { db, repository, tokens, revocations, audit } = deps;
  const refreshTtlMs = deps.refreshTtlDays * 86_400_000;

  const issue = async (trx: Db, userId: string, sessionId: string): Promise<IssuedSession> => {
    const refreshToken = randomSecret(32);
    await repository.addRefreshToken(trx, {
      session_id: sessionId,
      token_hash: hashSecret(refreshToken),
      expires_at: new Date(Date.now() + refreshTtlMs),
    });
    const { token } = tokens.issue(userId, sessionId);
    return {
      accessToken: token,
      expiresIn: tokens.ttlSeconds,
      refreshToken,
      refreshMaxAgeSeconds: refreshTtlMs / 1000,
    };
  };

  /** Revokes families; returns the ids that were live until now. */
  const revokeFamilies = async (trx: Db, sessionIds: string[], reason: string): Promise<string[]> => {
    const revoked = await repository.revokeSessions(trx, sessionIds, reason);
    // An access token of the family lives at most its TTL past the last refresh; keep the entry that long.
    const until = new Date(Date.now() + tokens.ttlSeconds * 1000 + 60_000);
    await revocations.revoke(
      trx,
      revoked.map((s) => ({ kind: 'session' as const, id: s.id, expiresAt: until })),
    );
    return revoked.map((s) => s.id);
  };

  return {
    async start(userId: string, context: RequestContext): Promise<IssuedSession> {
      return db.transaction().execute(async (trx) => {
        // A family lives as long as its refresh tokens keep being renewed; each token lives refreshTtl.
        const session = await repository.createSession(trx, {
          user_id: userId,
          expires_at: new Date(Date.now() + 365 * 86_400_000),
          client_address: context.clientAddress ?? null,
          user_agent: context.userAgent ?? null,
        });
        return issue(trx, userId, session.id);
      });
    },

    async refresh(refreshToken: string, context: RequestContext): Promise<IssuedSession> {
      const hash = hashSecret(refreshToken);
      const consumed = await repository.consume(db, hash);
      if (consumed) {
        const session = await repository.findSession(db, consumed.session_id);
        if (!session) throw unauthenticated('Session ended; sign in again');
        return db.transaction().execute((trx) => issue(trx, session.user_id, session.id));
      }
      const known = await repository.findToken(db, hash);
      if (known?.consumed_at) {
        // Reuse of a consumed token: someone holds a copy. End the whole family, record it once.
        await db.transaction().execute(async (trx) => {
          const revoked = await revokeFamilies(trx, [known.session_id], 'refresh_token_reuse_detected');
          if (revoked.length > 0) {
            const session = await repository.findSession(trx, known.session_id);
            await audit.record(
              { ...context, actorUserId: session?.user_id ?? null },
              { kind: 'refresh_token_reuse_detected', target: { type: 'session', id: known.session_id } },
              trx,
            );
          }
        });
      }
      throw unauthenticated('Invalid or expired refresh token; sign in again');
    },

    revokeFamilies,

    async revokeUserSessions(trx: Db, userId: string, reason: string, exceptSessionId?: string): Promise<string[]> {
      return revokeFamilies(trx, await repository.activeSessionIds(trx, userId, exceptSessionId), reason);
    },

    async revokeAccessToken(trx: Db, tokenId: string, expiresAt: Date): Promise<void> {
      await revocations.revoke(trx, [{ kind: 'access_token', id: tokenId, expiresAt }]);
    },
  };
}
