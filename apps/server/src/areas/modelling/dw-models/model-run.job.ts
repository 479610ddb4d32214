/**
 * Runs a model run (an execution of kind `model_run`): the selected models in dependency order,
 * those whose upstream models are done in parallel (at most `concurrency` at once), each built and
 * tested on a connection logged in as the project's own warehouse role. A model that fails (its
 * build, or a data test of severity error) skips every selected model downstream of it. Each model's
 * line is stored as it finishes; the execution fails when a model did.
 */
import { randomBytes } from 'node:crypto';
import type { Log } from '@svc/engine';
import pg from 'pg';
import type { Counter, Histogram } from 'prom-client';
import type { Db } from '../../../platform/db/index.js';
import type { Job, JobHandler, JobQueue } from '../../../platform/jobs.js';
import type { Warehouse } from '../../connectivity/warehouse.js';
import type { LineageService } from '../../governance/lineage/service.js';
import type { RunRecorder } from '../../operations/executions/recorder.js';
import { settleFailure, watchRun } from '../../operations/executions/run-control.js';
import { buildModel, runTests } from './build.js';
import { modelRunLineage } from './lineage.js';
import { createCompiler, relationOf } from './compile.js';
import type { ModelStatus, ModelsRepository, TestResult } from './repository.js';
import { clientConfig, MODELS_SCHEMA, placementOf, type ModelRunParams, type ModelSnapshot } from './service.js';
import { parserReady } from './sql.js';

export interface ModelRunDeps {
  db: Db;
  recorder: RunRecorder;
  queue: JobQueue;
  repository: ModelsRepository;
  warehouse: Warehouse | undefined;
  /** What the run read and wrote, recorded with its success. */
  lineage: Pick<LineageService, 'recordRun'>;
  /** The project's warehouse connectors on the models schema, discovered again into the catalog. */
  refreshCatalog(projectId: string, schema: string): Promise<number>;
  /** Models built at once in one run. */
  concurrency: number;
  builds: Counter<'status'>;
  buildSeconds: Histogram<'materialization'>;
}

class RunFailed extends Error {
  readonly retryable = false;
}

export function createModelRunHandler(deps: ModelRunDeps): JobHandler<'model_run'> {
  const { recorder } = deps;
  return async (job: Job<'model_run'>, leaseSignal: AbortSignal) => {
    const executionId = job.payload.execution_id;
    const execution = await recorder.start(executionId);
    if (!execution) return;
    const params = execution.params as unknown as ModelRunParams;
    const log: Log = (level, message, fields) =>
      void recorder.log(executionId, level, message, fields).catch(() => undefined);
    const watch = watchRun(recorder, executionId, leaseSignal);
    let pool: pg.Pool | undefined;
    try {
      if (!deps.warehouse) throw new RunFailed('the built-in warehouse is unavailable on this instance');
      await parserReady();
      const tenant = await deps.warehouse.forProject(execution.project_id, MODELS_SCHEMA);
      pool = new pg.Pool({ ...clientConfig(tenant), max: deps.concurrency });
      pool.on('error', () => undefined);
      const placement = placementOf(execution.project_id);
      const compiler = createCompiler(params.models, placement);
      const byName = new Map(params.models.map((m) => [m.name, m]));
      const selected = new Set(params.selected);
      log('info', `model run started: ${params.selected.length} model(s) (attempt ${execution.attempts})`, {
        select: params.select,
        full_refresh: params.full_refresh,
      });

      // Slots for builds at once; every model waits for its selected upstream models first.
      let free = deps.concurrency;
      const waiting: Array<() => void> = [];
      const acquire = () =>
        free > 0 ? (free--, Promise.resolve()) : new Promise<void>((resolve) => waiting.push(resolve));
      const release = () => {
        const next = waiting.shift();
        if (next) next();
        else free++;
      };
      let rowsWritten = 0;
      const built: Array<{ name: string; rows: number | null }> = [];
      const outcomes = new Map<string, Promise<ModelStatus>>();

      const record = async (
        model: ModelSnapshot,
        status: ModelStatus,
        line: { rows?: number | null; durationMs?: number; tests?: TestResult[]; error?: string | null },
      ) => {
        await deps.repository.saveResult(deps.db, {
          execution_id: executionId,
          model_name: model.name,
          model_id: model.id,
          materialization: model.materialization,
          status,
          rows: line.rows === undefined || line.rows === null ? null : String(line.rows),
          duration_ms: Math.round(line.durationMs ?? 0),
          tests: line.tests ?? [],
          error: line.error ?? null,
        });
        deps.builds.inc({ status });
        return status;
      };

      const build = async (model: ModelSnapshot): Promise<ModelStatus> => {
        const started = performance.now();
        const client = await pool!.connect();
        try {
          const outcome = await buildModel(client, {
            schema: placement.modelSchema,
            name: model.name,
            materialization: model.materialization,
            sql: compiler.compile(model.name),
            incrementalSql:
              model.materialization === 'incremental' ? compiler.compile(model.name, { incremental: true }) : undefined,
            uniqueKey: model.unique_key,
            strategy: model.incremental_strategy,
            onSchemaChange: model.on_schema_change,
            fullRefresh: params.full_refresh,
            suffix: randomBytes(4).toString('hex'),
          });
          const tests = await runTests(client, model.tests, relationOf(placement, model.name), {
            relation: (name) => relationOf(placement, name),
            sql: (text) => compiler.compileSql(text, model.name),
          });
          const seconds = (performance.now() - started) / 1000;
          deps.buildSeconds.observe({ materialization: model.materialization }, seconds);
          if (outcome.rows !== null) rowsWritten += outcome.rows;
          if (model.materialization !== 'ephemeral') built.push({ name: model.name, rows: outcome.rows });
          const failed = tests.filter((t) => t.severity === 'error' && (t.status === 'fail' || t.status === 'error'));
          const error = failed.length
            ? `data test(s) failed: ${failed.map((t) => `${t.name}: ${t.message}`).join('; ')}`
            : null;
          for (const change of outcome.schemaChanges) log('info', `model ${model.name}: ${change}`);
          log(
            error ? 'error' : 'info',
            `model ${model.name} built as ${outcome.mode}${outcome.rows !== null ? ` (${outcome.rows} rows)` : ''} in ${seconds.toFixed(2)} s; tests ${tests.map((t) => `${t.name} ${t.status}`).join(', ') || 'none'}`,
            { model: model.name },
          );
          return record(model, error ? 'error' : 'success', {
            rows: outcome.rows,
            durationMs: seconds * 1000,
            tests,
            error,
          });
        } catch (error) {
          const message = (error as Error).message;
          log('error', `model ${model.name} failed: ${message}`, { model: model.name });
          return record(model, 'error', { durationMs: performance.now() - started, error: message });
        } finally {
          client.release();
        }
      };

      const outcomeOf = (name: string): Promise<ModelStatus> => {
        let outcome = outcomes.get(name);
        if (!outcome) {
          const model = byName.get(name)!;
          outcome = (async () => {
            const upstream = model.refs.filter((r) => selected.has(r));
            const statuses = await Promise.all(upstream.map(outcomeOf));
            const blocked = upstream.filter((_, i) => statuses[i] !== 'success');
            if (blocked.length)
              return record(model, 'skipped', { error: `upstream model(s) did not succeed: ${blocked.join(', ')}` });
            await acquire();
            try {
              if (watch.signal.aborted) return record(model, 'skipped', { error: 'the run was stopped' });
              return await build(model);
            } finally {
              release();
            }
          })();
          outcomes.set(name, outcome);
        }
        return outcome;
      };
      const statuses = await Promise.all(params.selected.map(outcomeOf));
      if (watch.signal.aborted) throw watch.signal.reason as Error;
      const failed = params.selected.filter((_, i) => statuses[i] === 'error');
      const skipped = params.selected.filter((_, i) => statuses[i] === 'skipped');
      const counters = { rows_read: 0, rows_written: rowsWritten, bytes_read: 0, bytes_written: 0 };
      if (failed.length) {
        await recorder.progress(executionId, counters).catch(() => undefined);
        throw new RunFailed(
          `${failed.length} of ${params.selected.length} model(s) failed (${failed.join(', ')})${skipped.length ? `; ${skipped.length} skipped` : ''}`,
        );
      }
      await deps.db.transaction().execute(async (trx) => {
        await deps.queue.holdLease(trx, job);
        await deps.lineage.recordRun(
          trx,
          modelRunLineage({
            runId: executionId,
            projectId: execution.project_id,
            server: {
              host: tenant.connection.host,
              port: tenant.connection.port ?? 5432,
              database: tenant.connection.database,
            },
            placement,
            compiler,
            materializationOf: (name) => byName.get(name)?.materialization,
            built,
          }),
        );
        await recorder.succeed(trx, executionId, counters);
      });
      log('info', `model run succeeded: ${params.selected.length} model(s), ${rowsWritten} rows written`);
      // The catalog follows the relations the run built, for a warehouse connector on the models
      // schema; its failure is the catalog's, not the run's.
      await deps
        .refreshCatalog(execution.project_id, MODELS_SCHEMA)
        .then((count) => {
          if (count) log('info', `catalog refreshed for ${count} warehouse connector(s) on the models schema`);
        })
        .catch((error: Error) => log('warn', `the catalog could not be refreshed: ${error.message}`));
    } catch (error) {
      const reason = watch.signal.aborted ? (watch.signal.reason as Error) : (error as Error);
      await settleFailure(recorder, job, executionId, reason, leaseSignal, log, 'model run');
    } finally {
      watch.stop();
      await pool?.end().catch(() => undefined);
    }
  };
}
