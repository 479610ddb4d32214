import { sql, type Generated, type Selectable } from 'kysely';
import { countByProject, type Db } from '../../../platform/db/index.js';

export interface EtlSchedulesTable {
  id: Generated<string>;
  project_id: string;
  pipeline_id: string;
  cron: string | null;
  timezone: string;
  interval_seconds: number | null;
  missed_policy: 'skip' | 'run_once';
  paused: boolean;
  next_due_at: Date;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface ScheduleFiringsTable {
  schedule_id: string;
  due_at: Date;
  outcome: 'enqueued' | 'missed' | 'skipped_running';
  missed_before: number;
  execution_id: string | null;
  fired_at: Generated<Date>;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    etl_schedules: EtlSchedulesTable;
    schedule_firings: ScheduleFiringsTable;
  }
}

export type ScheduleRow = Selectable<EtlSchedulesTable>;

const NO_PROJECT = '00000000-0000-0000-0000-000000000000';

export function createSchedulesRepository() {
  return {
    countByProject: (db: Db, projectIds: string[]) => countByProject(db, 'etl_schedules', projectIds),
    insert: (db: Db, row: Omit<EtlSchedulesTable, 'id' | 'created_at' | 'updated_at'>) =>
      db.insertInto('etl_schedules').values(row).returningAll().executeTakeFirstOrThrow(),
    find: (db: Db, id: string) => db.selectFrom('etl_schedules').selectAll().where('id', '=', id).executeTakeFirst(),
    list: (db: Db, projectIds: string[] | null) => {
      let query = db.selectFrom('etl_schedules').selectAll().orderBy('created_at');
      if (projectIds) query = query.where('project_id', 'in', projectIds.length ? projectIds : [NO_PROJECT]);
      return query.execute();
    },
    update: (
      db: Db,
      id: string,
      changes: Partial<
        Omit<EtlSchedulesTable, 'id' | 'project_id' | 'pipeline_id' | 'created_by' | 'created_at' | 'updated_at'>
      >,
    ) =>
      db
        .updateTable('etl_schedules')
        .set({ ...changes, updated_at: sql`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    remove: async (db: Db, id: string) =>
      Number((await db.deleteFrom('etl_schedules').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
    /** Due schedules, locked; ones another scheduler holds are skipped (it is firing them). */
    claimDue: (db: Db, limit: number) =>
      db
        .selectFrom('etl_schedules')
        .selectAll()
        .where('paused', '=', false)
        .where('next_due_at', '<=', sql<Date>`now()`)
        .orderBy('next_due_at')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute(),
    /** Records a handled due time; false when it was already recorded (it was handled before). */
    recordFiring: async (db: Db, firing: Omit<ScheduleFiringsTable, 'fired_at'>) => {
      const result = await db
        .insertInto('schedule_firings')
        .values(firing)
        .onConflict((oc) => oc.columns(['schedule_id', 'due_at']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },
    /** The dashboard's figures per schedule, in one query. */
    dashboard: (db: Db, projectIds: string[] | null) => {
      let query = db
        .selectFrom('etl_schedules as s')
        .innerJoin('etl_pipelines as p', 'p.id', 's.pipeline_id')
        .selectAll('s')
        .select(['p.name as pipeline_name'])
        .select((eb) => [
          eb
            .selectFrom('schedule_firings as f')
            .select(
              sql<string>`coalesce(sum(case when f.outcome = 'enqueued' then f.missed_before else f.missed_before + 1 end), 0)`.as(
                'n',
              ),
            )
            .whereRef('f.schedule_id', '=', 's.id')
            .as('missed_runs'),
          eb
            .selectFrom('schedule_firings as f')
            .select(sql<Date>`max(f.fired_at)`.as('t'))
            .whereRef('f.schedule_id', '=', 's.id')
            .where('f.outcome', '!=', 'enqueued')
            .as('last_missed_at'),
        ])
        .orderBy('p.name');
      if (projectIds) query = query.where('s.project_id', 'in', projectIds.length ? projectIds : [NO_PROJECT]);
      return query.execute();
    },
  };
}

export type SchedulesRepository = ReturnType<typeof createSchedulesRepository>;
