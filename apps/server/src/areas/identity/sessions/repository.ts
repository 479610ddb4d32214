import { sql, type Generated, type Selectable } from 'kysely';
import type { Db } from '../../../platform/db/index.js';

export interface SessionsTable {
  id: Generated<string>;
  user_id: string;
  created_at: Generated<Date>;
  expires_at: Date;
  revoked_at: Date | null;
  revoked_reason: string | null;
  client_address: string | null;
  user_agent: string | null;
}

export interface RefreshTokensTable {
  id: Generated<string>;
  session_id: string;
  token_hash: string;
  created_at: Generated<Date>;
  expires_at: Date;
  consumed_at: Date | null;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    sessions: SessionsTable;
    refresh_tokens: RefreshTokensTable;
  }
}

export type SessionRow = Selectable<SessionsTable>;

export function createSessionsRepository() {
  return {
    async createSession(
      db: Db,
      session: { user_id: string; expires_at: Date; client_address: string | null; user_agent: string | null },
    ) {
      return db.insertInto('sessions').values(session).returningAll().executeTakeFirstOrThrow();
    },
    async addRefreshToken(db: Db, token: { session_id: string; token_hash: string; expires_at: Date }) {
      await db.insertInto('refresh_tokens').values(token).execute();
    },
    /**
     * Consumes a refresh token in one conditional UPDATE: of any number of concurrent callers with
     * the same token, exactly one gets the row back, and only while its session is neither revoked
     * nor expired and its user is not disabled (a disabled user's sessions are revoked too, but the
     * refresh does not rely on every path that disables a user doing so).
     */
    async consume(db: Db, tokenHash: string) {
      return db
        .updateTable('refresh_tokens')
        .set({ consumed_at: sql`clock_timestamp()` })
        .where('token_hash', '=', tokenHash)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', sql<Date>`now()`)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('sessions')
              .innerJoin('users', 'users.id', 'sessions.user_id')
              .select('sessions.id')
              .whereRef('sessions.id', '=', 'refresh_tokens.session_id')
              .where('sessions.revoked_at', 'is', null)
              .where('sessions.expires_at', '>', sql<Date>`now()`)
              .where('users.disabled_at', 'is', null),
          ),
        )
        .returning(['session_id'])
        .executeTakeFirst();
    },
    async findToken(db: Db, tokenHash: string) {
      return db
        .selectFrom('refresh_tokens')
        .select(['session_id', 'consumed_at', 'expires_at'])
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
    },
    async findSession(db: Db, id: string) {
      return db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** Marks sessions revoked; returns those that were not revoked before (so each revocation is recorded once). */
    async revokeSessions(db: Db, ids: string[], reason: string): Promise<SessionRow[]> {
      if (ids.length === 0) return [];
      return db
        .updateTable('sessions')
        .set({ revoked_at: sql`clock_timestamp()`, revoked_reason: reason })
        .where('id', 'in', ids)
        .where('revoked_at', 'is', null)
        .returningAll()
        .execute();
    },
    async activeSessionIds(db: Db, userId: string, exceptId?: string): Promise<string[]> {
      let query = db
        .selectFrom('sessions')
        .select('id')
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', sql<Date>`now()`);
      if (exceptId) query = query.where('id', '!=', exceptId);
      return (await query.execute()).map((r) => r.id);
    },
    async pruneExpired(db: Db): Promise<number> {
      const tokens = await db
        .deleteFrom('refresh_tokens')
        .where('expires_at', '<', sql<Date>`now()`)
        .executeTakeFirst();
      await db
        .deleteFrom('sessions')
        .where('expires_at', '<', sql<Date>`now() - interval '1 day'`)
        .execute();
      return Number(tokens.numDeletedRows);
    },
  };
}

export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
