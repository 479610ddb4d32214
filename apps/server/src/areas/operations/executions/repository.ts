import { sql, type Expression, type ExpressionBuilder, type Generated, type Selectable, type SqlBool } from 'kysely';
import type { Database } from '../../../platform/db/schema.js';
import type { Db } from '../../../platform/db/index.js';

export interface RunCounters {
  rows_read: number;
  rows_written: number;
  bytes_read: number;
  bytes_written: number;
}

export type ExecutionTrigger = 'manual' | 'schedule' | 'dependency' | 'retry';

/** `partially_failed`: the run finished, but some of its rows failed (an export's account says which). */
export type ExecutionStatus = 'queued' | 'running' | 'succeeded' | 'partially_failed' | 'failed' | 'cancelled';

export interface ExecutionsTable {
  id: Generated<string>;
  project_id: string;
  kind: string;
  status: Generated<ExecutionStatus>;
  params: Record<string, unknown>;
  created_by: string | null;
  created_at: Generated<Date>;
  started_at: Date | null;
  finished_at: Date | null;
  attempts: Generated<number>;
  rows_read: Generated<string>;
  rows_written: Generated<string>;
  bytes_read: Generated<string>;
  bytes_written: Generated<string>;
  error: string | null;
  cancel_requested: Generated<boolean>;
  retry_of: string | null;
  coordinator_done: Generated<boolean>;
  /** Pipeline runs: the pipeline, the schedule that fired it, what started it, and the DAG run it belongs to. */
  pipeline_id: string | null;
  schedule_id: string | null;
  trigger: ExecutionTrigger | null;
  dag_run_id: string | null;
}

/** One run as alert rules see it: what it ran (its subject), how it ended, how many rows it wrote. */
export interface RunOfSubject {
  id: string;
  project_id: string;
  kind: string;
  status: ExecutionStatus;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  error: string | null;
  subject_kind: string;
  subject_id: string;
  /** A model run: the names of the models it selected. */
  models: string[] | null;
  rows_written: string;
  rank: string;
}

export interface ExecutionRangesTable {
  execution_id: string;
  stream_index: number;
  range_no: number;
  range_from: unknown;
  range_to: unknown;
  state: Generated<'pending' | 'done'>;
  rows_read: Generated<string>;
  rows_written: Generated<string>;
  bytes_read: Generated<string>;
  bytes_written: Generated<string>;
  job_id: string | null;
}

export interface ExecutionLogsTable {
  id: Generated<string>;
  execution_id: string;
  ts: Generated<Date>;
  level: string;
  message: string;
  fields: Record<string, unknown>;
}

export interface SyncCursorsTable {
  source_connector_id: string;
  destination_connector_id: string;
  dataset: string;
  cursor_column: string;
  cursor_value: unknown;
  updated_at: Generated<Date>;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    executions: ExecutionsTable;
    execution_logs: ExecutionLogsTable;
    execution_ranges: ExecutionRangesTable;
    sync_cursors: SyncCursorsTable;
  }
}

/** An execution with the counters of its parallel ranges folded in (ranges count on their own rows). */
export type ExecutionRow = Selectable<ExecutionsTable> & {
  range_rows_read: string;
  range_rows_written: string;
  range_bytes_read: string;
  range_bytes_written: string;
};

/**
 * What a run runs (its subject), of an `executions` row aliased `x`: its pipeline, else the
 * `subject_kind`/`subject_id` its params name, else the export, file ingestion or inbox it runs, else
 * its source and destination; model runs are one subject.
 */
const SUBJECT_KIND = sql<string>`case when x.pipeline_id is not null then 'pipeline'
                                      else coalesce(x.params->>'subject_kind', x.kind) end`;
const SUBJECT_ID = sql<string>`coalesce(x.pipeline_id::text, x.params->>'subject_id', x.params->>'export_id',
                                        x.params->>'ingestion_id', x.params->>'inbox_id',
                                        (x.params->>'source_connector_id') || '>' || (x.params->>'destination_connector_id'),
                                        case when x.kind = 'model_run' then 'model_run' end,
                                        x.id::text)`;

const withRanges = (eb: ExpressionBuilder<Database, 'executions'>) => {
  const sum = (column: 'rows_read' | 'rows_written' | 'bytes_read' | 'bytes_written') =>
    eb
      .selectFrom('execution_ranges')
      .select(sql<string>`coalesce(sum(${sql.ref(`execution_ranges.${column}`)}), 0)`.as('n'))
      .whereRef('execution_ranges.execution_id', '=', 'executions.id')
      .where('execution_ranges.state', '=', 'done');
  return [
    sum('rows_read').as('range_rows_read'),
    sum('rows_written').as('range_rows_written'),
    sum('bytes_read').as('range_bytes_read'),
    sum('bytes_written').as('range_bytes_written'),
  ];
};

export interface ExecutionFilter {
  projectIds: string[] | null;
  status?: ExecutionStatus;
  kind?: string;
  pipelineId?: string;
  projectId?: string;
  since?: Date;
  until?: Date;
}

const NO_PROJECT = '00000000-0000-0000-0000-000000000000';

/** The list's filters as one condition, shared by listing and bulk cancel. */
function matches(eb: ExpressionBuilder<Database, 'executions'>, filter: ExecutionFilter & { ids?: string[] }) {
  const conditions: Expression<SqlBool>[] = [];
  if (filter.ids) conditions.push(eb('id', 'in', filter.ids.length ? filter.ids : [NO_PROJECT]));
  if (filter.projectIds)
    conditions.push(eb('project_id', 'in', filter.projectIds.length ? filter.projectIds : [NO_PROJECT]));
  if (filter.projectId) conditions.push(eb('project_id', '=', filter.projectId));
  if (filter.status) conditions.push(eb('status', '=', filter.status));
  if (filter.kind) conditions.push(eb('kind', '=', filter.kind));
  if (filter.pipelineId) conditions.push(eb('pipeline_id', '=', filter.pipelineId));
  if (filter.since) conditions.push(eb('created_at', '>=', filter.since));
  if (filter.until) conditions.push(eb('created_at', '<', filter.until));
  return eb.and(conditions);
}

export function createExecutionsRepository() {
  return {
    /** Whether a queued or running execution of the pipeline exists. */
    activeRunOfPipeline: async (db: Db, pipelineId: string) =>
      Boolean(
        await db
          .selectFrom('executions')
          .select('id')
          .where('pipeline_id', '=', pipelineId)
          .where('status', 'in', ['queued', 'running'])
          .executeTakeFirst(),
      ),
    /** The latest runs of pipelines, newest first, `perPipeline` of each at most. */
    recentRunsOfPipelines: (db: Db, pipelineIds: string[], perPipeline: number) =>
      pipelineIds.length === 0
        ? Promise.resolve([])
        : sql<{
            pipeline_id: string;
            id: string;
            status: string;
            started_at: Date | null;
            finished_at: Date | null;
            created_at: Date;
            rank: string;
          }>`
            select pipeline_id, id, status, started_at, finished_at, created_at, rank from (
              select pipeline_id, id, status, started_at, finished_at, created_at,
                     row_number() over (partition by pipeline_id order by created_at desc, id desc) as rank
                from executions where pipeline_id = any(${pipelineIds}::uuid[])) ranked
             where rank <= ${perPipeline} order by pipeline_id, rank`
            .execute(db)
            .then((r) => r.rows),
    /**
     * The latest runs of each subject of the projects (what a run runs: its pipeline, else the
     * `subject_kind`/`subject_id` its params name, else the export, file ingestion or inbox it runs, else
     * its source and destination; model runs are one subject, with the names of the models each selected),
     * newest first,
     * `perSubject` of each at most, with the rows its ranges wrote folded in.
     */
    runHistory: (db: Db, projectIds: string[], perSubject: number) =>
      projectIds.length === 0
        ? Promise.resolve([])
        : sql<RunOfSubject>`
            select * from (
              select id, project_id, kind, status, created_at, started_at, finished_at, error, subject_kind, subject_id, models,
                     rows_written + coalesce((select sum(r.rows_written) from execution_ranges r
                                               where r.execution_id = e.id and r.state = 'done'), 0) as rows_written,
                     row_number() over (partition by project_id, subject_kind, subject_id order by created_at desc, id desc) as rank
                from (select x.*, ${SUBJECT_KIND} as subject_kind, ${SUBJECT_ID} as subject_id,
                             case when kind = 'model_run' then params->'selected' end as models
                        from executions x where project_id = any(${projectIds}::uuid[])) e) ranked
             where rank <= ${perSubject} order by project_id, subject_kind, subject_id, rank`
            .execute(db)
            .then((r) => r.rows),
    /** Whether the DAG run already has an execution of the pipeline. */
    startedInDagRun: async (db: Db, dagRunId: string, pipelineId: string) =>
      Boolean(
        await db
          .selectFrom('executions')
          .select('id')
          .where('dag_run_id', '=', dagRunId)
          .where('pipeline_id', '=', pipelineId)
          .executeTakeFirst(),
      ),
    /** Which of these pipelines have a succeeded execution in the DAG run. */
    succeededInDagRun: async (db: Db, dagRunId: string, pipelineIds: string[]) =>
      pipelineIds.length === 0
        ? []
        : (
            await db
              .selectFrom('executions')
              .select('pipeline_id')
              .where('dag_run_id', '=', dagRunId)
              .where('status', '=', 'succeeded')
              .where('pipeline_id', 'in', pipelineIds)
              .execute()
          ).map((r) => r.pipeline_id!),
    insert: (
      db: Db,
      row: Pick<
        ExecutionsTable,
        | 'project_id'
        | 'kind'
        | 'params'
        | 'created_by'
        | 'retry_of'
        | 'pipeline_id'
        | 'schedule_id'
        | 'trigger'
        | 'dag_run_id'
      >,
    ) =>
      db
        .insertInto('executions')
        .values({ ...row, started_at: null, finished_at: null, error: null })
        .returningAll()
        .executeTakeFirstOrThrow(),
    /**
     * Rows read by the latest succeeded run of the same subject as this execution (its ranges folded
     * in): what a running one is expected to read. Undefined when the subject never succeeded, or
     * when the run has no subject but itself.
     */
    previousSucceededRows: async (
      db: Db,
      execution: { id: string; project_id: string; pipeline_id: string | null },
    ) => {
      const rowsOf = sql<string>`x.rows_read + coalesce((select sum(r.rows_read) from execution_ranges r
                                   where r.execution_id = x.id and r.state = 'done'), 0)`;
      // A pipeline's runs: through the index on (pipeline_id, created_at).
      if (execution.pipeline_id) {
        const found = await sql<{ rows: string }>`
            select ${rowsOf} as rows from executions x
             where x.pipeline_id = ${execution.pipeline_id} and x.status = 'succeeded' and x.id <> ${execution.id}
             order by x.created_at desc limit 1`.execute(db);
        return found.rows[0] ? Number(found.rows[0].rows) : undefined;
      }
      const subject = (
        await sql<{ kind: string; id: string }>`
          select ${SUBJECT_KIND} as kind, ${SUBJECT_ID} as id from executions x where x.id = ${execution.id}`.execute(
          db,
        )
      ).rows[0];
      if (!subject || subject.id === execution.id) return undefined;
      const found = await sql<{ rows: string }>`
          select ${rowsOf} as rows from executions x
           where x.project_id = ${execution.project_id} and x.status = 'succeeded' and x.id <> ${execution.id}
             and ${SUBJECT_KIND} = ${subject.kind} and ${SUBJECT_ID} = ${subject.id}
           order by x.created_at desc limit 1`.execute(db);
      return found.rows[0] ? Number(found.rows[0].rows) : undefined;
    },
    find: (db: Db, id: string): Promise<ExecutionRow | undefined> =>
      db.selectFrom('executions').selectAll().select(withRanges).where('id', '=', id).executeTakeFirst() as Promise<
        ExecutionRow | undefined
      >,
    list: (db: Db, filter: ExecutionFilter, page: { limit: number; before?: { createdAt: Date; id: string } }) => {
      let query = db
        .selectFrom('executions')
        .selectAll()
        .select(withRanges)
        .where((eb) => matches(eb, filter))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(page.limit);
      if (page.before) {
        const { createdAt, id } = page.before;
        query = query.where((eb) =>
          eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)])]),
        );
      }
      return query.execute() as Promise<ExecutionRow[]>;
    },
    /** Requests cancellation of matching unfinished executions; queued ones end at once. */
    requestCancel: (db: Db, filter: ExecutionFilter & { ids?: string[] }) =>
      db
        .updateTable('executions')
        .set({ cancel_requested: true })
        .where('status', 'in', ['queued', 'running'])
        .where((eb) => matches(eb, filter))
        .returning(['id', 'status', 'params'])
        .execute(),
    carryRanges: async (db: Db, from: string, to: string) => {
      await sql`
        insert into execution_ranges (execution_id, stream_index, range_no, range_from, range_to, state, rows_read, rows_written, bytes_read, bytes_written, job_id)
        select ${to}, stream_index, range_no, range_from, range_to, state,
               case when state = 'done' then rows_read else 0 end, case when state = 'done' then rows_written else 0 end,
               case when state = 'done' then bytes_read else 0 end, case when state = 'done' then bytes_written else 0 end, null
          from execution_ranges where execution_id = ${from}`.execute(db);
    },
    markCancelled: (db: Db, id: string) =>
      db
        .updateTable('executions')
        .set({ status: 'cancelled', finished_at: sql`now()` })
        .where('id', '=', id)
        .where('status', 'in', ['queued', 'running'])
        .execute(),
    /** Starts an attempt; undefined when the execution no longer wants to run (finished or cancelled). */
    start: (db: Db, id: string) =>
      db
        .updateTable('executions')
        .set({
          status: 'running',
          started_at: sql`coalesce(started_at, now())`,
          attempts: sql`attempts + 1`,
          error: null,
          coordinator_done: false,
        })
        .where('id', '=', id)
        .where('status', 'in', ['queued', 'running'])
        .where('cancel_requested', '=', false)
        .returningAll()
        .executeTakeFirst(),
    /** Counters of a running execution (a late write from a stopped run leaves a finished one alone). */
    progress: (db: Db, id: string, counters: RunCounters) =>
      db
        .updateTable('executions')
        .set({
          rows_read: String(counters.rows_read),
          rows_written: String(counters.rows_written),
          bytes_read: String(counters.bytes_read),
          bytes_written: String(counters.bytes_written),
        })
        .where('id', '=', id)
        .where('status', '=', 'running')
        .execute(),
    finish: (db: Db, id: string, status: ExecutionStatus, error: string | null) =>
      db
        .updateTable('executions')
        .set({ status, error, finished_at: status === 'queued' ? null : sql`now()` })
        .where('id', '=', id)
        .execute(),
    /** Fails an execution that has not finished; false when it had (its outcome stands). */
    failUnfinished: async (db: Db, id: string, error: string) => {
      const result = await db
        .updateTable('executions')
        .set({ status: 'failed', error, finished_at: sql`now()` })
        .where('id', '=', id)
        .where('status', 'in', ['queued', 'running'])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    cancelRequested: async (db: Db, id: string) =>
      (await db.selectFrom('executions').select('cancel_requested').where('id', '=', id).executeTakeFirst())
        ?.cancel_requested ?? true,
    addLog: (db: Db, line: { execution_id: string; level: string; message: string; fields: Record<string, unknown> }) =>
      db.insertInto('execution_logs').values(line).execute(),
    logs: (db: Db, id: string, afterId?: string) => {
      let query = db.selectFrom('execution_logs').selectAll().where('execution_id', '=', id).orderBy('id').limit(1000);
      if (afterId) query = query.where('id', '>', afterId);
      return query.execute();
    },
    cursor: (db: Db, key: { source: string; destination: string; dataset: string }) =>
      db
        .selectFrom('sync_cursors')
        .selectAll()
        .where('source_connector_id', '=', key.source)
        .where('destination_connector_id', '=', key.destination)
        .where('dataset', '=', key.dataset)
        .executeTakeFirst(),
    saveCursor: (
      db: Db,
      key: { source: string; destination: string; dataset: string },
      column: string,
      value: unknown,
    ) =>
      db
        .insertInto('sync_cursors')
        .values({
          source_connector_id: key.source,
          destination_connector_id: key.destination,
          dataset: key.dataset,
          cursor_column: column,
          cursor_value: JSON.stringify(value),
        })
        .onConflict((oc) =>
          oc
            .columns(['source_connector_id', 'destination_connector_id', 'dataset'])
            .doUpdateSet({ cursor_column: column, cursor_value: JSON.stringify(value), updated_at: sql`now()` }),
        )
        .execute(),
    countByStatus: (db: Db) =>
      db
        .selectFrom('executions')
        .select(['status', sql<string>`count(*)`.as('n')])
        .groupBy('status')
        .execute(),
  };
}

export type ExecutionsRepository = ReturnType<typeof createExecutionsRepository>;
