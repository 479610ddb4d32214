/**
 * Executions: every run is one. Created with its job in one transaction; cancelled by request (a
 * queued one at once, a running one by its worker within seconds); retried as a new execution.
 * Log lines are stored and published for live tails.
 */
import type { Principal } from '../../../platform/authn.js';
import { resourceGuard, type Authorize, type VisibleProjects } from '../../../platform/authz.js';
import { isUniqueViolation, savepoint, type Db } from '../../../platform/db/index.js';
import { validationFailed } from '../../../platform/errors/index.js';
import { jobKindOfRun, retryCapability, type RunKind } from '../../../platform/job-kinds.js';
import type { JobQueue } from '../../../platform/jobs.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { SharedState } from '../../../platform/shared-state/index.js';
import type { AuditService } from '../../audit/service.js';
import { CANCEL_CHANNEL } from './recorder.js';
import type {
  ExecutionFilter,
  ExecutionRow,
  ExecutionStatus,
  ExecutionsRepository,
  ExecutionTrigger,
} from './repository.js';
import { EXECUTION, executionFinished, notRetryable, pipelineBusy } from '../errors.js';

/** What a new execution is: its kind and parameters, and for pipeline runs where it comes from. */
export interface RunSpec {
  projectId: string;
  kind: RunKind;
  params: Record<string, unknown>;
  createdBy: string | null;
  retryOf?: string | null;
  pipelineId?: string | null;
  scheduleId?: string | null;
  trigger?: ExecutionTrigger | null;
  /** The DAG run: the execution that started a cascade of dependent pipelines (itself for the first). */
  dagRunId?: string | null;
}

/** Thrown when a pipeline already has a queued or running execution (the partial unique index). */
export class PipelineBusy extends Error {}

const isPipelineBusy = (error: unknown) => isUniqueViolation(error, 'executions_one_active_per_pipeline');

export interface SyncStream {
  namespace?: string | null;
  name: string;
  destination_name?: string;
  mode: 'append' | 'overwrite' | 'upsert';
  key_columns?: string[];
  cursor_column?: string;
  ranges?: number;
  range_column?: string;
}

export interface SyncParams {
  source_connector_id: string;
  destination_connector_id: string;
  destination_namespace?: string | null;
  streams: SyncStream[];
}

export interface ListQuery {
  status?: ExecutionStatus;
  pipeline_id?: string;
  kind?: string;
  project_id?: string;
  since?: string;
  until?: string;
  cursor?: string;
  limit?: number;
}

export const presentExecution = (row: ExecutionRow) => ({
  id: row.id,
  project_id: row.project_id,
  kind: row.kind,
  status: row.status,
  params: row.params,
  created_by: row.created_by,
  created_at: row.created_at.toISOString(),
  started_at: row.started_at?.toISOString() ?? null,
  finished_at: row.finished_at?.toISOString() ?? null,
  duration_ms: row.started_at ? (row.finished_at ?? new Date()).getTime() - row.started_at.getTime() : null,
  attempts: row.attempts,
  rows_read: Number(row.rows_read) + Number(row.range_rows_read),
  rows_written: Number(row.rows_written) + Number(row.range_rows_written),
  bytes_read: Number(row.bytes_read) + Number(row.range_bytes_read),
  bytes_written: Number(row.bytes_written) + Number(row.range_bytes_written),
  error: row.error,
  cancel_requested: row.cancel_requested,
  retry_of: row.retry_of,
  pipeline_id: row.pipeline_id,
  schedule_id: row.schedule_id,
  trigger: row.trigger,
  dag_run_id: row.dag_run_id,
});

/**
 * A running execution's rate and time left. The expected total is what the latest succeeded run of
 * the same item read (the best guess without counting the source first, which can cost as much as
 * the run); past it, or without it, there is a rate but no estimate.
 */
export function estimateProgress(
  run: { started_at: string | null; rows_read: number },
  rowsExpected: number | undefined,
  now = Date.now(),
) {
  const seconds = run.started_at ? (now - Date.parse(run.started_at)) / 1000 : 0;
  const rate = seconds > 0 ? run.rows_read / seconds : null;
  const left = rowsExpected === undefined ? 0 : rowsExpected - run.rows_read;
  return {
    rows_per_second: rate === null ? null : Math.round(rate),
    rows_expected: rowsExpected ?? null,
    seconds_left: rate && left > 0 ? Math.round(left / rate) : null,
  };
}

export type ExecutionsService = ReturnType<typeof createExecutionsService>;

export function createExecutionsService(deps: {
  db: Db;
  repository: ExecutionsRepository;
  queue: JobQueue;
  authorize: Authorize;
  visibleProjects: VisibleProjects;
  /** The project of a data connector, when the principal may read it. */
  connectorProject: (principal: Principal, connectorId: string) => Promise<string>;
  shared: SharedState;
  audit: AuditService;
}) {
  const { db, repository, queue, authorize, audit, shared } = deps;

  // One check for the detail routes and the list: the list reads only the projects where the detail would answer.
  const guard = resourceGuard(deps, EXECUTION, (id) => repository.find(db, id), {
    capabilities: ['execution:read', 'execution:run'],
  });

  const filterOf = async (
    principal: Principal,
    query: ListQuery,
    capability: 'execution:read' | 'execution:run' = 'execution:read',
  ): Promise<ExecutionFilter> => {
    return {
      projectIds: await guard.scope(principal, capability, query.project_id),
      status: query.status,
      kind: query.kind,
      pipelineId: query.pipeline_id,
      since: query.since ? new Date(query.since) : undefined,
      until: query.until ? new Date(query.until) : undefined,
    };
  };

  /**
   * Inserts an execution and its job in the caller's transaction (a savepoint, so that a pipeline
   * already running refuses this run without aborting the caller's transaction).
   */
  const startRun = async (trx: Db, spec: RunSpec, context: RequestContext) => {
    const insert = async (tx: Db) => {
      const row = await repository.insert(tx, {
        project_id: spec.projectId,
        kind: spec.kind,
        params: spec.params,
        created_by: spec.createdBy,
        retry_of: spec.retryOf ?? null,
        pipeline_id: spec.pipelineId ?? null,
        schedule_id: spec.scheduleId ?? null,
        trigger: spec.trigger ?? null,
        dag_run_id: spec.dagRunId ?? null,
      });
      if (spec.kind === 'pipeline' && !spec.dagRunId) {
        await tx.updateTable('executions').set({ dag_run_id: row.id }).where('id', '=', row.id).execute();
        row.dag_run_id = row.id;
      }
      return row;
    };
    let row;
    try {
      row = spec.pipelineId ? await savepoint(trx, insert) : await insert(trx);
    } catch (error) {
      if (isPipelineBusy(error)) throw new PipelineBusy('the pipeline already has a queued or running execution');
      throw error;
    }
    // A retry starts from the key ranges its predecessor had not finished: the finished ones come along as done.
    if (spec.retryOf) await repository.carryRanges(trx, spec.retryOf, row.id);
    const jobKind = jobKindOfRun(spec.kind);
    if (!jobKind) throw new Error(`no job kind runs executions of kind ${spec.kind} (platform/job-kinds.ts)`);
    await queue.enqueue(trx, jobKind, { execution_id: row.id });
    await audit.record(
      context,
      {
        kind: 'execution_started',
        target: { type: 'execution', id: row.id },
        details: { kind: spec.kind, retry_of: spec.retryOf ?? null, trigger: spec.trigger ?? null },
      },
      trx,
    );
    return row;
  };

  const present = (row: Awaited<ReturnType<typeof startRun>>) =>
    presentExecution({
      ...row,
      range_rows_read: '0',
      range_rows_written: '0',
      range_bytes_read: '0',
      range_bytes_written: '0',
    });

  const enqueue = async (spec: RunSpec, context: RequestContext) => {
    try {
      return present(await db.transaction().execute((trx) => startRun(trx, spec, context)));
    } catch (error) {
      if (error instanceof PipelineBusy) throw pipelineBusy();
      throw error;
    }
  };

  // What a running execution is expected to read cannot change while it runs, and its detail is
  // polled every second by each viewer: looked up once per execution (the oldest forgotten first).
  const expected = new Map<string, number | undefined>();
  const expectedRows = async (row: ExecutionRow) => {
    if (expected.has(row.id)) return expected.get(row.id);
    const rows = await repository.previousSucceededRows(db, row);
    if (expected.size >= 1000) expected.delete(expected.keys().next().value!);
    expected.set(row.id, rows);
    return rows;
  };

  return {
    startRun,
    present,
    // What other areas read of executions (they never query the table themselves); `trx` joins the caller's transaction.
    find: (id: string) => repository.find(db, id),
    activeRunOfPipeline: (trx: Db, pipelineId: string) => repository.activeRunOfPipeline(trx, pipelineId),
    recentRunsOfPipelines: (pipelineIds: string[], perPipeline: number) =>
      repository.recentRunsOfPipelines(db, pipelineIds, perPipeline),
    startedInDagRun: (trx: Db, dagRunId: string, pipelineId: string) =>
      repository.startedInDagRun(trx, dagRunId, pipelineId),
    succeededInDagRun: (trx: Db, dagRunId: string, pipelineIds: string[]) =>
      repository.succeededInDagRun(trx, dagRunId, pipelineIds),
    async startSync(principal: Principal, projectId: string, params: SyncParams, context: RequestContext) {
      await authorize(principal, 'execution:run', projectId);
      const problems = [];
      for (const field of ['source_connector_id', 'destination_connector_id'] as const) {
        const connectorProject = await deps.connectorProject(principal, params[field]).catch(() => undefined);
        if (connectorProject !== projectId)
          problems.push({ path: field, message: 'is not a data connector of this project' });
      }
      params.streams.forEach((stream, i) => {
        if (stream.mode === 'upsert' && !stream.key_columns?.length)
          problems.push({ path: `streams.${i}.key_columns`, message: 'is required for upsert' });
        if (stream.ranges !== undefined) {
          if (!stream.range_column)
            problems.push({ path: `streams.${i}.range_column`, message: 'is required with ranges' });
          if (stream.mode === 'overwrite')
            problems.push({
              path: `streams.${i}.ranges`,
              message: 'parallel ranges write append or upsert (an overwrite must replace the table at once)',
            });
          if (stream.cursor_column)
            problems.push({ path: `streams.${i}.ranges`, message: 'cannot be combined with cursor_column' });
        }
      });
      if (problems.length > 0) throw validationFailed(problems);
      return enqueue(
        { projectId, kind: 'sync', params: params as unknown as Record<string, unknown>, createdBy: principal.userId },
        context,
      );
    },

    async list(principal: Principal, query: ListQuery) {
      const limit = query.limit ?? 50;
      let before: { createdAt: Date; id: string } | undefined;
      if (query.cursor) {
        const [time, id] = Buffer.from(query.cursor, 'base64url').toString().split('|');
        if (!time || !id || Number.isNaN(Date.parse(time)))
          throw validationFailed([{ path: 'cursor', message: 'is not a cursor from this list' }]);
        before = { createdAt: new Date(time), id };
      }
      const rows = await repository.list(db, await filterOf(principal, query), { limit: limit + 1, before });
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        items: page.map(presentExecution),
        next_cursor:
          rows.length > limit && last
            ? Buffer.from(`${last.created_at.toISOString()}|${last.id}`).toString('base64url')
            : null,
      };
    },

    async get(principal: Principal, id: string) {
      const row = await guard.find(principal, id, 'execution:read');
      const execution = presentExecution(row);
      if (row.status !== 'queued' && row.status !== 'running') return execution;
      return { ...execution, progress: estimateProgress(execution, await expectedRows(row)) };
    },

    async logs(principal: Principal, id: string, afterId?: string) {
      await guard.find(principal, id, 'execution:read');
      const rows = await repository.logs(db, id, afterId);
      return rows.map((r) => ({
        id: String(r.id),
        ts: r.ts.toISOString(),
        level: r.level,
        message: r.message,
        fields: r.fields,
      }));
    },

    async cancel(principal: Principal, id: string, context: RequestContext) {
      const row = await guard.find(principal, id, 'execution:run');
      if (!['queued', 'running'].includes(row.status)) throw executionFinished(row.status);
      await this.cancelMatching(principal, { ids: [id], projectIds: null }, context);
      return presentExecution((await repository.find(db, id))!);
    },

    /** Bulk cancel with the list's filters: stops a runaway schedule in one call. */
    async cancelByFilter(principal: Principal, query: ListQuery, context: RequestContext) {
      // Only the projects where the caller may run (and so stop) executions.
      const cancelled = await this.cancelMatching(
        principal,
        await filterOf(principal, query, 'execution:run'),
        context,
      );
      return { cancelled };
    },

    async cancelMatching(
      principal: Principal,
      filter: ExecutionFilter & { ids?: string[] },
      context: RequestContext,
    ): Promise<number> {
      const ids = await db.transaction().execute(async (trx) => {
        const rows = await repository.requestCancel(trx, filter);
        for (const row of rows) {
          // A queued execution ends here; a running one is stopped by its worker, which watches for the request.
          if (row.status === 'queued') await repository.markCancelled(trx, row.id);
          await audit.record(
            context,
            { kind: 'execution_cancel_requested', target: { type: 'execution', id: row.id } },
            trx,
          );
        }
        return rows.map((r) => r.id);
      });
      // After the commit: a run that starts watching meanwhile finds the flag in the database instead.
      if (ids.length > 0) await shared.publish(CANCEL_CHANNEL, JSON.stringify(ids)).catch(() => undefined);
      return ids.length;
    },

    async retry(principal: Principal, id: string, context: RequestContext) {
      const row = await guard.find(principal, id, 'execution:run');
      // A pipeline run is retried by whoever may run the pipeline, an export run by whoever may run exports...
      const needs = retryCapability(row.kind);
      if (needs) await authorize(principal, needs, row.project_id);
      if (!['failed', 'partially_failed', 'cancelled'].includes(row.status)) throw notRetryable(row.status);
      return enqueue(
        {
          projectId: row.project_id,
          kind: row.kind as RunSpec['kind'],
          params: row.params,
          createdBy: principal.userId,
          retryOf: row.id,
          pipelineId: row.pipeline_id,
          trigger: row.pipeline_id ? 'retry' : null,
          dagRunId: row.dag_run_id,
        },
        context,
      );
    },
  };
}
