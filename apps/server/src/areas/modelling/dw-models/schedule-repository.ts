/** SQL on the schedules of model runs (`dw_model_schedules`). */
import { sql, type Generated, type Selectable } from 'kysely';
import type { Db } from '../../../platform/db/index.js';

export interface DwModelSchedulesTable {
  id: Generated<string>;
  project_id: string;
  name: string;
  selectors: string[];
  full_refresh: boolean;
  cron: string | null;
  timezone: string;
  interval_seconds: number | null;
  missed_policy: 'skip' | 'run_once';
  paused: boolean;
  /** Null while paused. */
  next_due_at: Date | null;
  last_execution_id: string | null;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    dw_model_schedules: DwModelSchedulesTable;
  }
}

export type ModelScheduleRow = Selectable<DwModelSchedulesTable>;
export type ModelScheduleFields = Omit<
  ModelScheduleRow,
  'id' | 'project_id' | 'created_by' | 'created_at' | 'updated_at' | 'last_execution_id'
>;

const NO_PROJECT = '00000000-0000-0000-0000-000000000000';

export function createModelSchedulesRepository() {
  return {
    insert: (db: Db, row: ModelScheduleFields & Pick<ModelScheduleRow, 'project_id' | 'created_by'>) =>
      db.insertInto('dw_model_schedules').values(row).returningAll().executeTakeFirstOrThrow(),
    find: (db: Db, id: string) =>
      db.selectFrom('dw_model_schedules').selectAll().where('id', '=', id).executeTakeFirst(),
    list: (db: Db, projectIds: string[] | null) => {
      let query = db.selectFrom('dw_model_schedules').selectAll().orderBy('name');
      if (projectIds) query = query.where('project_id', 'in', projectIds.length ? projectIds : [NO_PROJECT]);
      return query.execute();
    },
    update: (db: Db, id: string, changes: Partial<ModelScheduleFields>) =>
      db
        .updateTable('dw_model_schedules')
        .set({ ...changes, updated_at: sql`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    remove: async (db: Db, id: string) =>
      Number((await db.deleteFrom('dw_model_schedules').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
    /** Due schedules, locked; ones another process holds are skipped. */
    claimDue: (db: Db, limit: number) =>
      db
        .selectFrom('dw_model_schedules')
        .selectAll()
        .where('next_due_at', '<=', sql<Date>`now()`)
        .orderBy('next_due_at')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute(),
    fired: (db: Db, id: string, next: Date | null, executionId: string | undefined) =>
      db
        .updateTable('dw_model_schedules')
        .set({ next_due_at: next, ...(executionId ? { last_execution_id: executionId } : {}) })
        .where('id', '=', id)
        .execute(),
  };
}

export type ModelSchedulesRepository = ReturnType<typeof createModelSchedulesRepository>;
