import { sql, type Generated, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../../platform/db/index.js';

export interface UsersTable {
  id: Generated<string>;
  username: string;
  email: string;
  display_name: string | null;
  password_hash: string | null;
  is_admin: Generated<boolean>;
  disabled_at: Date | null;
  password_change_required: Generated<boolean>;
  auth_source: Generated<'local' | 'oidc' | 'ldap'>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    users: UsersTable;
  }
}

export type UserRow = Selectable<UsersTable>;

export function createUsersRepository() {
  return {
    async findByUsername(db: Db, username: string): Promise<UserRow | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where(sql`lower(username)`, '=', username.toLowerCase())
        .executeTakeFirst();
    },
    async usernames(db: Db, ids: string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db.selectFrom('users').select(['id', 'username']).where('id', 'in', ids).execute();
      return new Map(rows.map((r) => [r.id, r.username]));
    },
    /** Enabled users among `ids`, with what reaches them. */
    contacts: (db: Db, ids: string[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('users')
            .select(['id', 'username', 'email', 'is_admin'])
            .where('id', 'in', ids)
            .where('disabled_at', 'is', null)
            .execute(),
    async findById(db: Db, id: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async count(db: Db): Promise<number> {
      const row = await db
        .selectFrom('users')
        .select(sql<string>`count(*)`.as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async insert(db: Db, user: Insertable<UsersTable>): Promise<UserRow> {
      return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
    },
    async update(db: Db, id: string, changes: Updateable<UsersTable>): Promise<UserRow | undefined> {
      return db
        .updateTable('users')
        .set({ ...changes, updated_at: sql`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },
    async delete(db: Db, id: string): Promise<boolean> {
      const result = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async list(db: Db, options: { limit: number; after?: string }): Promise<UserRow[]> {
      let query = db.selectFrom('users').selectAll().orderBy('id').limit(options.limit);
      if (options.after) query = query.where('id', '>', options.after);
      return query.execute();
    },
    async countActiveAdmins(db: Db, exceptId: string): Promise<number> {
      const row = await db
        .selectFrom('users')
        .select(sql<string>`count(*)`.as('n'))
        .where('is_admin', '=', true)
        .where('disabled_at', 'is', null)
        .where('id', '!=', exceptId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
