/**
 * The overview's figures of executions (this area's own tables). What other areas hold (projects,
 * connectors, pipelines, schedules, CDC tables) comes from their services (OverviewSources).
 */
import { sql } from 'kysely';
import type { Db } from '../../../platform/db/index.js';

export function createOverviewRepository() {
  return {
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
    /** Of these pipelines, those whose latest execution failed, with it: what is failing now. */
    latestFailed: (db: Db, pipelineIds: string[]) =>
      pipelineIds.length === 0
        ? Promise.resolve([])
        : sql<{ pipeline_id: string; execution_id: string; error: string | null; finished_at: Date | null }>`
            select latest.pipeline_id, latest.id as execution_id, latest.error, latest.finished_at
              from unnest(${pipelineIds}::uuid[]) as p(id)
              join lateral (select id, pipeline_id, status, error, finished_at from executions e where e.pipeline_id = p.id order by created_at desc, id desc limit 1) latest on true
             where latest.status = 'failed'
             order by latest.finished_at desc`
            .execute(db)
            .then((r) => r.rows),
  };
}

export type OverviewRepository = ReturnType<typeof createOverviewRepository>;
