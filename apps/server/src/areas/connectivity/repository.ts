import { sql, type Generated, type Selectable } from 'kysely';
import { countByProject, type Db } from '../../platform/db/index.js';

export interface DataConnectorsTable {
  id: Generated<string>;
  project_id: string;
  environment_id: string | null;
  name: string;
  kind: string;
  /** The version of the kind the connector was created at (its configuration follows that version's spec). */
  version: number;
  /** The configuration without its secret fields. */
  config: Record<string, unknown>;
  /** Secret fields, each encrypted on its own (platform/secrets.ts). */
  secrets: Record<string, string>;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

declare module '../../platform/db/schema.js' {
  interface Database {
    data_connectors: DataConnectorsTable;
  }
}

export type ConnectorRow = Selectable<DataConnectorsTable>;

export function createConnectorsRepository() {
  return {
    countByProject: (db: Db, projectIds: string[]) => countByProject(db, 'data_connectors', projectIds),
    insert: (db: Db, row: Omit<DataConnectorsTable, 'id' | 'created_at' | 'updated_at'>) =>
      db.insertInto('data_connectors').values(row).returningAll().executeTakeFirstOrThrow(),
    find: (db: Db, id: string) => db.selectFrom('data_connectors').selectAll().where('id', '=', id).executeTakeFirst(),
    list: (db: Db, projectIds: string[] | null) => {
      let query = db.selectFrom('data_connectors').selectAll().orderBy('name');
      if (projectIds)
        query = query.where(
          'project_id',
          'in',
          projectIds.length ? projectIds : ['00000000-0000-0000-0000-000000000000'],
        );
      return query.execute();
    },
    update: (
      db: Db,
      id: string,
      changes: Partial<Pick<DataConnectorsTable, 'name' | 'environment_id' | 'config' | 'secrets'>>,
    ) =>
      db
        .updateTable('data_connectors')
        .set({ ...changes, updated_at: sql`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    remove: async (db: Db, id: string) =>
      Number((await db.deleteFrom('data_connectors').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
  };
}

export type ConnectorsRepository = ReturnType<typeof createConnectorsRepository>;
