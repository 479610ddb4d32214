/**
 * What the worker needs from the ETL area around a pipeline run: the saved cursors before it, the
 * commit after it (cursors, lineage and the succeeded status in one transaction, so a cursor never
 * runs ahead of a run that did not finish), and the start of the pipelines that depend on it.
 */
import type { Log } from '@svc/engine';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../../../platform/db/index.js';
import { SYSTEM_CONTEXT } from '../../../platform/request-context.js';
import type { Job, JobQueue } from '../../../platform/jobs.js';
import type { LineageService } from '../../governance/lineage/service.js';
import type { RunRecorder } from '../../operations/executions/recorder.js';
import type { RunCounters } from '../../operations/executions/repository.js';
import { PipelineBusy, type ExecutionsService } from '../../operations/executions/service.js';
import { downstreamOf } from './dag.js';
import type { PipelinesRepository } from './repository.js';
import { runParamsOf, type PipelineRunParams } from './service.js';

export type PipelineRuns = ReturnType<typeof createPipelineRuns>;

export function createPipelineRuns(deps: {
  db: Db;
  repository: PipelinesRepository;
  executions: ExecutionsService;
  recorder: RunRecorder;
  lineage: LineageService;
  queue: JobQueue;
  logger: Logger;
}) {
  const { db, repository } = deps;
  return {
    /** Saved cursor per stream, where it was saved for the stream's current cursor column. */
    async savedCursors(params: PipelineRunParams): Promise<Map<string, unknown>> {
      const saved = await repository.state(db, params.pipeline_id);
      const cursors = new Map<string, unknown>();
      for (const source of params.sources) {
        const state = saved.find((s) => s.stream === source.name);
        if (state && source.cursor_column && state.cursor_column === source.cursor_column)
          cursors.set(source.name, state.cursor_value);
      }
      return cursors;
    },

    /** Committed only while `job` (the run's) still holds its lease: a run that lost it commits nothing. */
    async complete(
      executionId: string,
      projectId: string,
      params: PipelineRunParams,
      result: { cursors: Record<string, unknown>; counters: RunCounters },
      job: Job,
    ) {
      await db.transaction().execute(async (trx) => {
        await deps.queue.holdLease(trx, job);
        for (const [stream, value] of Object.entries(result.cursors)) {
          const source = params.sources.find((s) => s.name === stream);
          if (source?.cursor_column)
            await repository.saveCursor(trx, params.pipeline_id, stream, source.cursor_column, value);
        }
        await deps.lineage.record(
          trx,
          params.sources.map((source) => ({
            execution_id: executionId,
            project_id: projectId,
            pipeline_id: params.pipeline_id,
            source_connector_id: source.connector_id,
            source_namespace: source.namespace ?? null,
            source_name: source.dataset ?? source.name,
            destination_connector_id: params.destination.connector_id,
            destination_namespace: params.destination.namespace ?? null,
            destination_name: params.destination.table,
            rows_written: String(result.counters.rows_written),
          })),
        );
        await deps.lineage.recordRun(trx, {
          runId: executionId,
          projectId,
          job: { kind: 'pipeline', itemId: params.pipeline_id },
          inputs: params.sources.map((source) => ({
            connector_id: source.connector_id,
            namespace: source.namespace ?? null,
            name: source.dataset ?? source.name,
          })),
          outputs: [
            {
              connector_id: params.destination.connector_id,
              namespace: params.destination.namespace ?? null,
              name: params.destination.table,
              rowCount: result.counters.rows_written,
              transformOf: { inputs: params.sources.map((_, i) => i), steps: params.transforms },
            },
          ],
        });
        await deps.recorder.succeed(trx, executionId, result.counters);
        // The dependents start from a job enqueued with the run's success, so a crash in between loses no cascade.
        if ((await repository.dependents(trx, params.pipeline_id)).length > 0)
          await deps.queue.enqueue(trx, 'etl_dependents', { execution_id: executionId }, { maxAttempts: 10 });
      });
    },

    /**
     * After a successful run: starts each dependent pipeline whose dependencies inside this DAG run
     * have all succeeded (dependencies outside it, not downstream of the run's first pipeline, are
     * not waited for). Under a lock per DAG run and dependent, so two upstream runs finishing at
     * once start it once.
     */
    async triggerDependents(executionId: string, log: Log) {
      const execution = await deps.executions.find(executionId);
      if (!execution?.pipeline_id || !execution.dag_run_id) return;
      const dependents = await repository.dependents(db, execution.pipeline_id);
      if (dependents.length === 0) return;
      const params = execution.params as unknown as PipelineRunParams;
      const root = params.dag_root_pipeline_id ?? execution.pipeline_id;
      const inRun = downstreamOf(await repository.graph(db, execution.project_id), root);
      for (const dependent of dependents) {
        const outcome = await db.transaction().execute(async (trx) => {
          await sql`select pg_advisory_xact_lock(hashtext(${`etl_dag:${execution.dag_run_id}:${dependent.id}`}))`.execute(
            trx,
          );
          if (await deps.executions.startedInDagRun(trx, execution.dag_run_id!, dependent.id)) return 'already started';
          const waitingFor = dependent.depends_on.filter((d) => inRun.has(d));
          const done = new Set(await deps.executions.succeededInDagRun(trx, execution.dag_run_id!, waitingFor));
          const missing = waitingFor.filter((d) => !done.has(d));
          if (missing.length) return `waiting for ${missing.length} more upstream pipeline(s)`;
          try {
            const started = await deps.executions.startRun(
              trx,
              {
                projectId: dependent.project_id,
                kind: 'pipeline',
                params: { ...runParamsOf(dependent, root) },
                createdBy: execution.created_by,
                pipelineId: dependent.id,
                trigger: 'dependency',
                dagRunId: execution.dag_run_id,
              },
              SYSTEM_CONTEXT,
            );
            return `started as execution ${started.id}`;
          } catch (error) {
            if (error instanceof PipelineBusy) return 'not started: it already has a queued or running execution';
            throw error;
          }
        });
        log('info', `dependent pipeline ${dependent.name}: ${outcome}`, { pipeline_id: dependent.id });
      }
    },
  };
}
