/**
 * Runs pipeline executions: opens the connectors the run's definition names, runs it through the
 * engine (pushed down into a PostgreSQL source, or in process), then commits cursors, lineage, the
 * succeeded status and the job that starts the dependent pipelines, together.
 */
import {
  runPipeline,
  type ConnectorHandle,
  type Log,
  type PipelineCounters,
  type PipelineRunResult,
  type Value,
} from '@svc/engine';
import type { Counter } from 'prom-client';
import type { Job, JobHandler } from '../../../platform/jobs.js';
import type { RunRecorder } from '../../operations/executions/recorder.js';
import type { RunCounters } from '../../operations/executions/repository.js';
import { settleFailure, watchRun } from '../../operations/executions/run-control.js';
import type { PipelineRuns } from './runs.js';
import type { PipelineRunParams } from './service.js';

export interface PipelineJobDeps {
  recorder: RunRecorder;
  openConnector: (id: string, log: Log) => Promise<ConnectorHandle>;
  rowsMoved: Counter<'direction'>;
  pipelines: PipelineRuns;
}

const countersOf = (c: PipelineCounters): RunCounters => ({
  rows_read: c.rowsRead,
  rows_written: c.rowsWritten,
  bytes_read: c.bytesRead,
  bytes_written: c.bytesWritten,
});

const PATH_LABELS: Record<PipelineRunResult['path'], string> = {
  pushdown: 'steps pushed down into the source',
  staged: "steps run in the destination over the source's staged rows",
  'in-process': 'in-process',
  nothing: 'nothing',
};

export function createPipelineHandler(deps: PipelineJobDeps): JobHandler<'etl_pipeline'> {
  const { recorder } = deps;
  return async (job: Job<'etl_pipeline'>, leaseSignal: AbortSignal) => {
    const executionId = job.payload.execution_id;
    const execution = await recorder.start(executionId);
    if (!execution) return; // cancelled or finished meanwhile
    const params = execution.params as unknown as PipelineRunParams;
    const log: Log = (level, message, fields) =>
      void recorder.log(executionId, level, message, fields).catch(() => undefined);
    const watch = watchRun(recorder, executionId, leaseSignal);
    const handles: ConnectorHandle[] = [];
    let lastProgress = 0;
    try {
      log(
        'info',
        `pipeline ${params.pipeline_name} (version ${params.version}) started (attempt ${execution.attempts})`,
        { trigger: execution.trigger, streams: params.sources.length },
      );
      const saved = await deps.pipelines.savedCursors(params);
      const sources = [];
      for (const source of params.sources) {
        // Each stream its own handle: a connection reads one stream at a time.
        const handle = await deps.openConnector(source.connector_id, log);
        handles.push(handle);
        sources.push({
          name: source.name,
          handle,
          dataset: { namespace: source.namespace ?? null, name: source.dataset ?? source.name },
          query: source.query,
          cursorColumn: source.cursor_column,
          after: saved.get(source.name) as Value | undefined,
        });
      }
      const destination = await deps.openConnector(params.destination.connector_id, log);
      handles.push(destination);
      const result = await runPipeline({
        sources,
        steps: params.transforms,
        destination: {
          handle: destination,
          dataset: { namespace: params.destination.namespace ?? null, name: params.destination.table },
          mode: params.destination.mode,
          keyColumns: params.destination.key_columns,
        },
        runId: executionId,
        signal: watch.signal,
        log,
        onProgress: (counters) => {
          if (Date.now() - lastProgress < 1000) return;
          lastProgress = Date.now();
          void recorder.progress(executionId, countersOf(counters)).catch(() => undefined);
        },
      });
      // The destination has committed: the run completes (its cursor saved) even if a cancel came in
      // meanwhile, or the next run would read the same rows again.
      const counters = countersOf(result);
      await deps.pipelines.complete(
        executionId,
        execution.project_id,
        params,
        { cursors: result.cursors, counters },
        job,
      );
      deps.rowsMoved.inc({ direction: 'read' }, result.rowsRead);
      deps.rowsMoved.inc({ direction: 'written' }, result.rowsWritten);
      log(
        'info',
        `pipeline succeeded: ${result.rowsRead} rows read, ${result.rowsWritten} written (${PATH_LABELS[result.path]})`,
        { ...counters, cursors: result.cursors },
      );
    } catch (error) {
      const reason = watch.signal.aborted ? (watch.signal.reason as Error) : (error as Error);
      await settleFailure(recorder, job, executionId, reason, leaseSignal, log, 'pipeline');
    } finally {
      watch.stop();
      for (const handle of handles) await handle.close();
    }
  };
}

/** Starts the dependent pipelines of a succeeded run (idempotent: each once per DAG run). */
export function createDependentsHandler(
  deps: Pick<PipelineJobDeps, 'recorder' | 'pipelines'>,
): JobHandler<'etl_dependents'> {
  return async (job: Job<'etl_dependents'>) => {
    const executionId = job.payload.execution_id;
    const log: Log = (level, message, fields) =>
      void deps.recorder.log(executionId, level, message, fields).catch(() => undefined);
    await deps.pipelines.triggerDependents(executionId, log);
  };
}
