import { sql, type Generated, type Selectable, type Updateable } from 'kysely';
import { countByProject, type Db } from '../../../platform/db/index.js';
import { leaseQueries } from '../../../platform/leases.js';

export type CdcStatus = 'snapshotting' | 'streaming' | 'paused' | 'failed';

export interface CdcTablesTable {
  id: Generated<string>;
  project_id: string;
  name: string;
  source_connector_id: string;
  source_namespace: string | null;
  source_table: string;
  destination_connector_id: string;
  destination_namespace: string | null;
  destination_table: string;
  mode: 'mirror' | 'changelog';
  desired_state: Generated<'running' | 'stopped'>;
  status: Generated<CdcStatus>;
  resync_requested: Generated<boolean>;
  last_position: string | null;
  last_commit_time: Date | null;
  last_applied_at: Date | null;
  changes_applied: Generated<string>;
  snapshot_rows: string | null;
  lag_seconds: number | null;
  lag_bytes: string | null;
  retained_wal_bytes: string | null;
  last_error: string | null;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface CdcLogsTable {
  id: Generated<string>;
  cdc_table_id: string;
  ts: Generated<Date>;
  level: string;
  message: string;
  fields: Record<string, unknown>;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    cdc_tables: CdcTablesTable;
    cdc_logs: CdcLogsTable;
  }
}

export type CdcTableRow = Selectable<CdcTablesTable>;
export type CdcChanges = Omit<Updateable<CdcTablesTable>, 'id' | 'project_id' | 'created_at' | 'created_by'>;

const NO_PROJECT = '00000000-0000-0000-0000-000000000000';

export function createCdcRepository() {
  return {
    ...leaseQueries<CdcTableRow>('cdc_tables'),
    countByProject: (db: Db, projectIds: string[]) => countByProject(db, 'cdc_tables', projectIds),
    insert: (
      db: Db,
      row: Pick<
        CdcTablesTable,
        | 'project_id'
        | 'name'
        | 'source_connector_id'
        | 'source_namespace'
        | 'source_table'
        | 'destination_connector_id'
        | 'destination_namespace'
        | 'destination_table'
        | 'mode'
        | 'created_by'
      > & { desired_state: 'running' | 'stopped' },
    ) =>
      db
        .insertInto('cdc_tables')
        .values({
          ...row,
          last_position: null,
          last_commit_time: null,
          last_applied_at: null,
          snapshot_rows: null,
          lag_seconds: null,
          lag_bytes: null,
          retained_wal_bytes: null,
          last_error: null,
          lease_owner: null,
          lease_expires_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    find: (db: Db, id: string) => db.selectFrom('cdc_tables').selectAll().where('id', '=', id).executeTakeFirst(),
    list: (db: Db, projectIds: string[] | null) => {
      let query = db.selectFrom('cdc_tables').selectAll().orderBy('name');
      if (projectIds) query = query.where('project_id', 'in', projectIds.length ? projectIds : [NO_PROJECT]);
      return query.execute();
    },
    update: (db: Db, id: string, changes: CdcChanges) =>
      db
        .updateTable('cdc_tables')
        .set({ ...changes, updated_at: sql`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    remove: async (db: Db, id: string) =>
      Number((await db.deleteFrom('cdc_tables').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,

    /** Reader reports, only while it holds the lease (a reader that lost it must not overwrite its successor). */
    report: (db: Db, id: string, owner: string, changes: CdcChanges) =>
      db
        .updateTable('cdc_tables')
        .set({ ...changes, updated_at: sql`now()` })
        .where('id', '=', id)
        .where('lease_owner', '=', owner)
        .executeTakeFirst(),

    addLog: (db: Db, line: { cdc_table_id: string; level: string; message: string; fields: Record<string, unknown> }) =>
      db.insertInto('cdc_logs').values(line).returning(['id', 'ts']).executeTakeFirstOrThrow(),
    logs: (db: Db, id: string, afterId: string | undefined, limit: number) => {
      let query = db.selectFrom('cdc_logs').selectAll().where('cdc_table_id', '=', id).orderBy('id').limit(limit);
      if (afterId) query = query.where('id', '>', afterId);
      return query.execute();
    },
    /** The latest lines, oldest first. */
    lastLogs: async (db: Db, id: string, limit: number) =>
      (
        await db
          .selectFrom('cdc_logs')
          .selectAll()
          .where('cdc_table_id', '=', id)
          .orderBy('id', 'desc')
          .limit(limit)
          .execute()
      ).reverse(),
  };
}

export type CdcRepository = ReturnType<typeof createCdcRepository>;
