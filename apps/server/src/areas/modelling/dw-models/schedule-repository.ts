/** SQL on the schedules of model runs (`dw_model_schedules`). */
import type { Generated, Selectable } from 'kysely';
import type { Db } from '../../../platform/db/index.js';
import { lockDueSchedules, projectTable } from '../../../platform/db/project-tables.js';

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

export function createModelSchedulesRepository() {
  const schedules = projectTable('dw_model_schedules');
  return {
    insert: (db: Db, row: ModelScheduleFields & Pick<ModelScheduleRow, 'project_id' | 'created_by'>) =>
      db.insertInto('dw_model_schedules').values(row).returningAll().executeTakeFirstOrThrow(),
    find: schedules.find,
    list: schedules.list,
    update: (db: Db, id: string, changes: Partial<ModelScheduleFields>) => schedules.update(db, id, changes),
    remove: schedules.remove,
    /** Due schedules, locked; ones another process holds are skipped. */
    claimDue: (db: Db, limit: number) => lockDueSchedules(db, 'dw_model_schedules', limit),
    fired: (db: Db, id: string, next: Date | null, executionId: string | undefined) =>
      db
        .updateTable('dw_model_schedules')
        .set({ next_due_at: next, ...(executionId ? { last_execution_id: executionId } : {}) })
        .where('id', '=', id)
        .execute(),
  };
}

export type ModelSchedulesRepository = ReturnType<typeof createModelSchedulesRepository>;
