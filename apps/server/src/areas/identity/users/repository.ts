import { sql, type Generated, type Insertable, type Selectable } from 'kysely';
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
      return db.selectFrom('users').selectAll().where(sql`lower(username)`, '=', username.toLowerCase()).executeTakeFirst();
    },
    async findById(db: Db, id: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async count(db: Db): Promise<number> {
      const row = await db.selectFrom('users').select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async insert(db: Db, user: Insertable<UsersTable>): Promise<UserRow> {
      return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
