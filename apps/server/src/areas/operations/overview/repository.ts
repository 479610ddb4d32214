/**
 * The overview is a read model across areas: counts of what each project has, and figures of its
 * executions. It reads the other areas' tables directly, and only reads them.
 */
import { sql } from 'kysely';
import type { Db } from '../../../platform/db/index.js';

export function createOverviewRepository() {
  const counted = async (db: Db, table: 'data_connectors' | 'etl_pipelines' | 'etl_schedules' | 'cdc_tables', projectIds: string[]) => {
    if (projectIds.length === 0) return new Map<string, number>();
    const rows = await db.selectFrom(table).select(['project_id', sql<string>`count(*)`.as('n')]).where('project_id', 'in', projectIds).groupBy('project_id').execute();
    return new Map(rows.map((r) => [r.project_id, Number(r.n)]));
  };
  return {
    projects: (db: Db, projectIds: string[]) => db.selectFrom('projects').select(['id', 'name']).where('id', 'in', projectIds).orderBy('name').execute(),
    connectors: (db: Db, projectIds: string[]) => counted(db, 'data_connectors', projectIds),
    pipelines: (db: Db, projectIds: string[]) => counted(db, 'etl_pipelines', projectIds),
    schedules: (db: Db, projectIds: string[]) => counted(db, 'etl_schedules', projectIds),
    cdcTables: (db: Db, projectIds: string[]) => counted(db, 'cdc_tables', projectIds),
    /** Executions created in the last 24 hours, by project and status. */
    executionsByStatus: (db: Db, projectIds: string[]) =>
      db
        .selectFrom('executions')
        .select(['project_id', 'status', sql<string>`count(*)`.as('n')])
        .where('project_id', 'in', projectIds)
        .where('created_at', '>=', sql<Date>`now() - interval '24 hours'`)
        .groupBy(['project_id', 'status'])
        .execute(),
    /** Rows written by succeeded executions per UTC day since `since` (parallel key ranges included). */
    rowsPerDay: (db: Db, projectIds: string[], since: Date) =>
      sql<{ project_id: string; day: string; rows: string }>`
        select e.project_id, to_char(e.finished_at at time zone 'UTC', 'YYYY-MM-DD') as day,
               sum(e.rows_written + coalesce((select sum(r.rows_written) from execution_ranges r where r.execution_id = e.id and r.state = 'done'), 0))::text as rows
          from executions e
         where e.project_id = any(${projectIds}::uuid[]) and e.status = 'succeeded' and e.finished_at >= ${since}
         group by 1, 2`
        .execute(db)
        .then((r) => r.rows),
    /** Pipelines whose latest execution failed: what is failing now. */
    failingPipelines: (db: Db, projectIds: string[]) =>
      sql<{ project_id: string; pipeline_id: string; name: string; execution_id: string; error: string | null; finished_at: Date | null }>`
        select p.project_id, p.id as pipeline_id, p.name, latest.id as execution_id, latest.error, latest.finished_at
          from etl_pipelines p
          join lateral (select id, status, error, finished_at from executions e where e.pipeline_id = p.id order by created_at desc, id desc limit 1) latest on true
         where p.project_id = any(${projectIds}::uuid[]) and latest.status = 'failed'
         order by latest.finished_at desc`
        .execute(db)
        .then((r) => r.rows),
  };
}

export type OverviewRepository = ReturnType<typeof createOverviewRepository>;
