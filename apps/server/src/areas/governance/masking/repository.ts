/** SQL on the masking area's own tables: policies and each project's hash key. */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../../platform/db/index.js';
import type { MaskingMethod, MethodOptions } from './methods.js';

export interface MaskingPoliciesTable {
  id: Generated<string>;
  project_id: string;
  name: string;
  method: MaskingMethod;
  options: MethodOptions;
  columns: string[];
  tags: string[];
  exempt_capabilities: string[];
  exempt_roles: string[];
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface MaskingKeysTable {
  project_id: string;
  key_ciphertext: string;
  created_at: Generated<Date>;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    masking_policies: MaskingPoliciesTable;
    masking_keys: MaskingKeysTable;
  }
}

export type MaskingPolicyRow = Selectable<MaskingPoliciesTable>;
export type MaskingRepository = ReturnType<typeof createMaskingRepository>;

export function createMaskingRepository() {
  return {
    find: (db: Db, id: string) => db.selectFrom('masking_policies').selectAll().where('id', '=', id).executeTakeFirst(),
    list(db: Db, projectIds: string[] | null) {
      let query = db.selectFrom('masking_policies').selectAll().orderBy('created_at').orderBy('id');
      if (projectIds !== null)
        query = projectIds.length ? query.where('project_id', 'in', projectIds) : query.where((eb) => eb.val(false));
      return query.execute();
    },
    ofProject: (db: Db, projectId: string) =>
      db.selectFrom('masking_policies').selectAll().where('project_id', '=', projectId).orderBy('created_at').execute(),
    insert: (db: Db, row: Insertable<MaskingPoliciesTable>) =>
      db.insertInto('masking_policies').values(row).returningAll().executeTakeFirstOrThrow(),
    update: (db: Db, id: string, changes: Updateable<MaskingPoliciesTable>) =>
      db
        .updateTable('masking_policies')
        .set({ ...changes, updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    remove: (db: Db, id: string) => db.deleteFrom('masking_policies').where('id', '=', id).executeTakeFirst(),
    /** The project's key, made by `create` when there is none yet (the first writer wins). */
    async key(db: Db, projectId: string, create: () => string): Promise<string> {
      await db
        .insertInto('masking_keys')
        .values({ project_id: projectId, key_ciphertext: create() })
        .onConflict((oc) => oc.column('project_id').doNothing())
        .execute();
      const row = await db
        .selectFrom('masking_keys')
        .select('key_ciphertext')
        .where('project_id', '=', projectId)
        .executeTakeFirstOrThrow();
      return row.key_ciphertext;
    },
    /** What exempts a user in a project: an administrator flag, its role's name and capabilities. */
    async standing(db: Db, projectId: string, userId: string) {
      const user = await db
        .selectFrom('users')
        .select(['is_admin', 'disabled_at'])
        .where('id', '=', userId)
        .executeTakeFirst();
      const member = await db
        .selectFrom('project_members')
        .innerJoin('roles', 'roles.id', 'project_members.role_id')
        .select(['roles.name', 'roles.capabilities'])
        .where('project_members.project_id', '=', projectId)
        .where('project_members.user_id', '=', userId)
        .executeTakeFirst();
      return {
        admin: Boolean(user && user.is_admin && !user.disabled_at),
        role: member?.name ?? null,
        capabilities: new Set<string>(member?.capabilities ?? []),
      };
    },
  };
}
