import { sql, type Generated, type Selectable } from 'kysely';
import type { Db } from '../../../platform/db/index.js';

export interface ApiTokensTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  token_hash: string;
  suffix: string;
  scope: 'read' | 'write';
  project_ids: string[] | null;
  created_at: Generated<Date>;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    api_tokens: ApiTokensTable;
  }
}

export type ApiTokenRow = Selectable<ApiTokensTable>;

export function createApiTokensRepository() {
  return {
    async insert(
      db: Db,
      token: Omit<ApiTokensTable, 'id' | 'created_at' | 'last_used_at' | 'revoked_at'>,
    ): Promise<ApiTokenRow> {
      return db.insertInto('api_tokens').values(token).returningAll().executeTakeFirstOrThrow();
    },
    async findActiveByHash(db: Db, hash: string): Promise<ApiTokenRow | undefined> {
      return db
        .selectFrom('api_tokens')
        .selectAll()
        .where('token_hash', '=', hash)
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', sql<Date>`now()`)]))
        .executeTakeFirst();
    },
    async findById(db: Db, id: string): Promise<ApiTokenRow | undefined> {
      return db.selectFrom('api_tokens').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async listByUser(db: Db, userId: string): Promise<ApiTokenRow[]> {
      return db
        .selectFrom('api_tokens')
        .selectAll()
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .orderBy('created_at', 'desc')
        .execute();
    },
    async revoke(db: Db, id: string): Promise<ApiTokenRow | undefined> {
      return db
        .updateTable('api_tokens')
        .set({ revoked_at: sql`now()` })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
    },
    async revokeAllOfUser(db: Db, userId: string): Promise<ApiTokenRow[]> {
      return db
        .updateTable('api_tokens')
        .set({ revoked_at: sql`now()` })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .returningAll()
        .execute();
    },
    async touch(db: Db, ids: string[]): Promise<void> {
      if (ids.length > 0)
        await db
          .updateTable('api_tokens')
          .set({ last_used_at: sql`now()` })
          .where('id', 'in', ids)
          .execute();
    },
  };
}

export type ApiTokensRepository = ReturnType<typeof createApiTokensRepository>;
