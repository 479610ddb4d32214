import { sql, type Generated, type Selectable } from 'kysely';
import type { Db } from '../../../platform/db/index.js';

export interface ProjectsTable {
  id: Generated<string>;
  name: string;
  description: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
export interface EnvironmentsTable {
  id: Generated<string>;
  project_id: string;
  name: string;
  created_at: Generated<Date>;
}
export interface RolesTable {
  id: Generated<string>;
  name: string;
  description: string | null;
  capabilities: string[];
  built_in: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
export interface ProjectMembersTable {
  id: Generated<string>;
  project_id: string;
  user_id: string;
  role_id: string;
  environment_ids: string[] | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    projects: ProjectsTable;
    environments: EnvironmentsTable;
    roles: RolesTable;
    project_members: ProjectMembersTable;
  }
}

export type ProjectRow = Selectable<ProjectsTable>;
export type EnvironmentRow = Selectable<EnvironmentsTable>;
export type RoleRow = Selectable<RolesTable>;

export function createAdminRepository() {
  return {
    // projects
    insertProject: (db: Db, p: { name: string; description: string | null }) =>
      db.insertInto('projects').values(p).returningAll().executeTakeFirstOrThrow(),
    findProject: (db: Db, id: string) => db.selectFrom('projects').selectAll().where('id', '=', id).executeTakeFirst(),
    listProjects: (db: Db, filter: { ids?: string[] | null; memberId?: string }) => {
      let query = db.selectFrom('projects').selectAll().orderBy('name');
      if (filter.ids)
        query = query.where('id', 'in', filter.ids.length > 0 ? filter.ids : ['00000000-0000-0000-0000-000000000000']);
      if (filter.memberId) {
        const memberId = filter.memberId;
        query = query.where(({ exists, selectFrom }) =>
          exists(
            selectFrom('project_members')
              .select('project_members.user_id')
              .whereRef('project_members.project_id', '=', 'projects.id')
              .where('project_members.user_id', '=', memberId),
          ),
        );
      }
      return query.execute();
    },
    updateProject: (db: Db, id: string, changes: { name?: string; description?: string | null }) =>
      db
        .updateTable('projects')
        .set({ ...changes, updated_at: sql`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    deleteProject: async (db: Db, id: string) =>
      Number((await db.deleteFrom('projects').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
    // environments
    insertEnvironment: (db: Db, e: { project_id: string; name: string }) =>
      db.insertInto('environments').values(e).returningAll().executeTakeFirstOrThrow(),
    listEnvironments: (db: Db, projectId: string) =>
      db.selectFrom('environments').selectAll().where('project_id', '=', projectId).orderBy('name').execute(),
    // roles
    insertRole: (db: Db, r: { name: string; description: string | null; capabilities: string[]; built_in?: boolean }) =>
      db.insertInto('roles').values(r).returningAll().executeTakeFirstOrThrow(),
    findRole: (db: Db, id: string) => db.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirst(),
    findRoleByName: (db: Db, name: string) =>
      db
        .selectFrom('roles')
        .selectAll()
        .where(sql`lower(name)`, '=', name.toLowerCase())
        .executeTakeFirst(),
    listRoles: (db: Db) => db.selectFrom('roles').selectAll().orderBy('built_in', 'desc').orderBy('name').execute(),
    updateRole: (
      db: Db,
      id: string,
      changes: { name?: string; description?: string | null; capabilities?: string[] },
    ) =>
      db
        .updateTable('roles')
        .set({ ...changes, updated_at: sql`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    deleteRole: async (db: Db, id: string) =>
      Number((await db.deleteFrom('roles').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
    roleInUse: async (db: Db, id: string) =>
      (await db
        .selectFrom('project_members')
        .select('user_id')
        .where('role_id', '=', id)
        .limit(1)
        .executeTakeFirst()) !== undefined,
    // members
    listMembers: (db: Db, projectId: string) =>
      db
        .selectFrom('project_members')
        .innerJoin('roles', 'roles.id', 'project_members.role_id')
        .select([
          'project_members.id',
          'project_members.user_id',
          'roles.name as role',
          'project_members.environment_ids',
          'project_members.created_at',
          'project_members.updated_at',
        ])
        .where('project_members.project_id', '=', projectId)
        .execute(),
    upsertMember: (
      db: Db,
      m: { project_id: string; user_id: string; role_id: string; environment_ids: string[] | null },
    ) =>
      db
        .insertInto('project_members')
        .values(m)
        .onConflict((oc) =>
          oc
            .columns(['project_id', 'user_id'])
            .doUpdateSet({ role_id: m.role_id, environment_ids: m.environment_ids, updated_at: sql`now()` }),
        )
        .execute(),
    deleteMember: async (db: Db, projectId: string, userId: string) =>
      Number(
        (
          await db
            .deleteFrom('project_members')
            .where('project_id', '=', projectId)
            .where('user_id', '=', userId)
            .executeTakeFirst()
        ).numDeletedRows,
      ) > 0,
    memberProjectIds: async (db: Db, userId: string) =>
      (await db.selectFrom('project_members').select('project_id').where('user_id', '=', userId).execute()).map(
        (r) => r.project_id,
      ),
    findEnvironment: (db: Db, projectId: string, environmentId: string) =>
      db
        .selectFrom('environments')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('id', '=', environmentId)
        .executeTakeFirst(),
    membership: (db: Db, projectId: string, userId: string) =>
      db
        .selectFrom('project_members')
        .innerJoin('roles', 'roles.id', 'project_members.role_id')
        .select(['roles.capabilities', 'project_members.environment_ids'])
        .where('project_members.project_id', '=', projectId)
        .where('project_members.user_id', '=', userId)
        .executeTakeFirst(),
  };
}

export type AdminRepository = ReturnType<typeof createAdminRepository>;
