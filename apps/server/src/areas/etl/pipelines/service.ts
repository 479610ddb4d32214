/**
 * ETL pipelines: source streams -> transform steps -> one destination, in a project, with
 * dependencies on other pipelines of the project forming a DAG. A run is an execution (kind
 * `pipeline`) that carries a snapshot of the definition, so editing a pipeline never changes a run
 * in flight; the worker runs it through the engine.
 */
import {
  ConnectorError,
  TransformError,
  previewPipeline,
  validateSteps,
  type ConnectorHandle,
  type Log,
  type TransformStep,
  type Value,
} from '@svc/engine';
import { maskedHandle } from '../../governance/masking/handles.js';
import type { MaskingService } from '../../governance/masking/service.js';
import type { Principal } from '../../../platform/authn.js';
import { resourceGuard, type Authorize } from '../../../platform/authz.js';
import { onUniqueViolation, type Db } from '../../../platform/db/index.js';
import { notFound, validationFailed, type FieldError } from '../../../platform/errors/index.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { AuditService } from '../../audit/service.js';
import { PipelineBusy, type ExecutionsService } from '../../operations/executions/service.js';
import { findCycle } from './dag.js';
import type { PipelineDestinationSpec, PipelineRow, PipelinesRepository, SourceStream } from './repository.js';
import {
  PIPELINE,
  pipelineBusy,
  pipelineHasDependents,
  pipelineNameTaken,
  pipelineRunning,
  previewFailed,
} from '../errors.js';

const PREVIEW_TIMEOUT_MS = 60_000;
/** Bytes of rows a preview answers with at most (as JSON); further rows are left out and `truncated` says so. */
const PREVIEW_MAX_BYTES = 5 * 1024 * 1024;

/** The rows as JSON objects, up to PREVIEW_MAX_BYTES of them. */
function cappedRows(
  columns: Array<{ name: string }>,
  rows: Value[][],
): { rows: Array<Record<string, unknown>>; truncated: boolean } {
  const kept: Array<Record<string, unknown>> = [];
  let bytes = 0;
  for (const values of rows) {
    const row = Object.fromEntries(columns.map((c, i) => [c.name, jsonValue(values[i] ?? null)]));
    bytes += Buffer.byteLength(JSON.stringify(row));
    if (bytes > PREVIEW_MAX_BYTES) return { rows: kept, truncated: true };
    kept.push(row);
  }
  return { rows: kept, truncated: false };
}

export interface ConnectorFacts {
  project_id: string;
  kind: string;
  capabilities: { read: boolean; write: boolean; writeModes: string[] };
  sql: boolean;
}

export interface PipelineInput {
  project_id: string;
  name: string;
  description?: string;
  sources: SourceStream[];
  transforms?: Array<Record<string, unknown>>;
  destination: PipelineDestinationSpec;
  depends_on?: string[];
}

export type PipelinePatchInput = Partial<Omit<PipelineInput, 'project_id'>>;

/** What a run carries: the definition as it was when the run was asked for. */
export interface PipelineRunParams {
  pipeline_id: string;
  pipeline_name: string;
  version: number;
  sources: Array<SourceStream & { name: string }>;
  transforms: TransformStep[];
  destination: PipelineDestinationSpec;
  /** The pipeline whose run started the cascade this run belongs to. */
  dag_root_pipeline_id: string;
}

export const streamName = (source: SourceStream) => source.name ?? source.dataset ?? 'query';

export const presentPipeline = (row: PipelineRow) => ({
  id: row.id,
  project_id: row.project_id,
  name: row.name,
  description: row.description,
  sources: row.sources.map((s) => ({
    name: streamName(s),
    connector_id: s.connector_id,
    namespace: s.namespace ?? null,
    dataset: s.dataset ?? null,
    query: s.query ?? null,
    cursor_column: s.cursor_column ?? null,
  })),
  transforms: row.transforms,
  destination: {
    connector_id: row.destination.connector_id,
    namespace: row.destination.namespace ?? null,
    table: row.destination.table,
    mode: row.destination.mode,
    key_columns: row.destination.key_columns ?? [],
  },
  depends_on: row.depends_on,
  version: row.version,
  created_by: row.created_by,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export const runParamsOf = (row: PipelineRow, rootPipelineId: string = row.id): PipelineRunParams => ({
  pipeline_id: row.id,
  pipeline_name: row.name,
  version: row.version,
  sources: row.sources.map((s) => ({ ...s, name: streamName(s) })),
  transforms: row.transforms as unknown as TransformStep[],
  destination: row.destination,
  dag_root_pipeline_id: rootPipelineId,
});

/** A value as JSON can carry it: binary as \x hex (PostgreSQL's text form), everything else as is. */
const jsonValue = (value: Value): unknown => (Buffer.isBuffer(value) ? `\\x${value.toString('hex')}` : value);

export type PipelinesService = ReturnType<typeof createPipelinesService>;

export function createPipelinesService(deps: {
  db: Db;
  repository: PipelinesRepository;
  authorize: Authorize;
  visibleProjects: (principal: Principal) => Promise<string[] | null>;
  audit: AuditService;
  executions: ExecutionsService;
  connectors: {
    describe(principal: Principal, id: string): Promise<ConnectorFacts>;
    openForRun(id: string, log: Log): Promise<ConnectorHandle>;
  };
  /** What a viewer may see (governance/masking): a preview's source rows are masked as they are read. */
  masking: Pick<MaskingService, 'maskerFor'>;
}) {
  const { db, repository, authorize, audit, executions } = deps;

  // One check for a pipeline and the list of pipelines.
  const guard = resourceGuard(deps, PIPELINE, (id) => repository.find(db, id), {
    capabilities: ['pipeline:read', 'pipeline:write', 'pipeline:run'],
  });

  /** Every problem of a definition, each naming its field; the dependency cycle check comes later, under the graph lock. */
  const problemsOf = async (
    principal: Principal,
    projectId: string,
    input: Omit<PipelineInput, 'project_id'>,
    selfId?: string,
  ): Promise<FieldError[]> => {
    const problems: FieldError[] = [];
    const facts = new Map<string, ConnectorFacts | undefined>();
    const connector = async (id: string) => {
      if (!facts.has(id)) facts.set(id, await deps.connectors.describe(principal, id).catch(() => undefined));
      const found = facts.get(id);
      return found && found.project_id === projectId ? found : undefined;
    };
    const names = new Set<string>();
    for (const [i, source] of input.sources.entries()) {
      const path = `sources.${i}`;
      if (!source.dataset === !source.query) problems.push({ path, message: 'needs exactly one of dataset and query' });
      if (source.query && !source.name) problems.push({ path: `${path}.name`, message: 'is required with a query' });
      const name = streamName(source);
      if (names.has(name))
        problems.push({ path: `${path}.name`, message: `"${name}" is the name of another stream of this pipeline` });
      names.add(name);
      const found = await connector(source.connector_id);
      if (!found) problems.push({ path: `${path}.connector_id`, message: 'is not a data connector of this project' });
      else if (!found.capabilities.read)
        problems.push({ path: `${path}.connector_id`, message: `a ${found.kind} connector cannot be read` });
      else if (source.query && !found.sql)
        problems.push({ path: `${path}.query`, message: `a ${found.kind} connector takes no query; name a dataset` });
    }
    const destination = await connector(input.destination.connector_id);
    if (!destination)
      problems.push({ path: 'destination.connector_id', message: 'is not a data connector of this project' });
    else if (!destination.capabilities.write)
      problems.push({ path: 'destination.connector_id', message: `a ${destination.kind} connector cannot be written` });
    else if (!destination.capabilities.writeModes.includes(input.destination.mode))
      problems.push({
        path: 'destination.mode',
        message: `a ${destination.kind} connector does not write in ${input.destination.mode} mode`,
      });
    if (input.destination.mode === 'upsert' && !input.destination.key_columns?.length)
      problems.push({ path: 'destination.key_columns', message: 'is required for upsert' });
    for (const problem of validateSteps(input.transforms ?? []))
      problems.push({ path: `transforms.${problem.path}`, message: problem.message });
    for (const [i, dependency] of (input.depends_on ?? []).entries()) {
      if (dependency === selfId) {
        problems.push({ path: `depends_on.${i}`, message: 'a pipeline cannot depend on itself' });
        continue;
      }
      const row = await repository.find(db, dependency);
      if (!row || row.project_id !== projectId)
        problems.push({ path: `depends_on.${i}`, message: 'is not a pipeline of this project' });
    }
    if (new Set(input.depends_on ?? []).size !== (input.depends_on ?? []).length)
      problems.push({ path: 'depends_on', message: 'names a pipeline twice' });
    return problems;
  };

  /** Refuses a change that would close a cycle; call under the project's graph lock. */
  const checkAcyclic = async (trx: Db, projectId: string, node: { id: string; name: string; depends_on: string[] }) => {
    const cycle = findCycle(await repository.graph(trx, projectId), node);
    if (cycle) throw validationFailed([{ path: 'depends_on', message: `would form a cycle: ${cycle.join(' -> ')}` }]);
  };

  return {
    async create(principal: Principal, input: PipelineInput, context: RequestContext) {
      await authorize(principal, 'pipeline:write', input.project_id);
      const problems = await problemsOf(principal, input.project_id, input);
      if (problems.length) throw validationFailed(problems);
      const row = await onUniqueViolation(
        db.transaction().execute(async (trx) => {
          await repository.lockGraph(trx, input.project_id);
          const created = await repository.insert(trx, {
            project_id: input.project_id,
            name: input.name,
            description: input.description ?? '',
            sources: input.sources,
            transforms: input.transforms ?? [],
            destination: input.destination,
            depends_on: input.depends_on ?? [],
            created_by: principal.userId,
          });
          await audit.record(
            context,
            { kind: 'pipeline_created', target: { type: 'pipeline', id: created.id }, details: { name: created.name } },
            trx,
          );
          return created;
        }),
        () => pipelineNameTaken(input.name),
      );
      return presentPipeline(row);
    },

    ...guard.readers('pipeline:read', (projectIds) => repository.list(db, projectIds), presentPipeline),

    async update(principal: Principal, id: string, patch: PipelinePatchInput, context: RequestContext) {
      const current = await guard.find(principal, id, 'pipeline:write');
      const merged = {
        name: patch.name ?? current.name,
        description: patch.description ?? current.description,
        sources: patch.sources ?? current.sources,
        transforms: patch.transforms ?? current.transforms,
        destination: patch.destination ?? current.destination,
        depends_on: patch.depends_on ?? current.depends_on,
      };
      const problems = await problemsOf(principal, current.project_id, merged, id);
      if (problems.length) throw validationFailed(problems);
      const row = await onUniqueViolation(
        db.transaction().execute(async (trx) => {
          await repository.lockGraph(trx, current.project_id);
          if (patch.depends_on)
            await checkAcyclic(trx, current.project_id, { id, name: merged.name, depends_on: merged.depends_on });
          const updated = await repository.update(trx, id, patch);
          if (!updated) throw notFound(PIPELINE);
          await audit.record(
            context,
            { kind: 'pipeline_updated', target: { type: 'pipeline', id }, details: { fields: Object.keys(patch) } },
            trx,
          );
          return updated;
        }),
        () => pipelineNameTaken(merged.name),
      );
      return presentPipeline(row);
    },

    async remove(principal: Principal, id: string, context: RequestContext) {
      const row = await guard.find(principal, id, 'pipeline:write');
      await db.transaction().execute(async (trx) => {
        await repository.lockGraph(trx, row.project_id);
        const dependents = await repository.dependents(trx, id);
        if (dependents.length) throw pipelineHasDependents(dependents.map((d) => d.name));
        if (await executions.activeRunOfPipeline(trx, id)) throw pipelineRunning();
        await repository.remove(trx, id);
        await audit.record(
          context,
          { kind: 'pipeline_deleted', target: { type: 'pipeline', id }, details: { name: row.name } },
          trx,
        );
      });
    },

    async run(principal: Principal, id: string, context: RequestContext) {
      const row = await guard.find(principal, id, 'pipeline:run');
      try {
        const execution = await db.transaction().execute((trx) =>
          executions.startRun(
            trx,
            {
              projectId: row.project_id,
              kind: 'pipeline',
              params: { ...runParamsOf(row) },
              createdBy: principal.userId,
              pipelineId: row.id,
              trigger: 'manual',
            },
            context,
          ),
        );
        return executions.present(execution);
      } catch (error) {
        if (error instanceof PipelineBusy) throw pipelineBusy();
        throw error;
      }
    },

    /** The steps over the first rows of each stream, from the start (incremental state ignored); writes nothing. */
    async preview(
      principal: Principal,
      id: string,
      options: { limit?: number; transforms?: Array<Record<string, unknown>> },
    ) {
      const row = await guard.find(principal, id, 'pipeline:run');
      const steps = (options.transforms ?? row.transforms) as unknown as TransformStep[];
      if (options.transforms) {
        const problems = validateSteps(options.transforms).map((p) => ({
          path: `transforms.${p.path}`,
          message: p.message,
        }));
        if (problems.length) throw validationFailed(problems);
      }
      const handles = new Map<string, ConnectorHandle>();
      const masker = await deps.masking.maskerFor(principal, row.project_id);
      const controller = new AbortController();
      const timer = setTimeout(
        () => controller.abort(new Error(`preview timed out after ${PREVIEW_TIMEOUT_MS / 1000} s`)),
        PREVIEW_TIMEOUT_MS,
      );
      try {
        const sources = [];
        for (const source of row.sources) {
          if (!handles.has(source.connector_id))
            handles.set(source.connector_id, await deps.connectors.openForRun(source.connector_id, () => undefined));
          sources.push({
            name: streamName(source),
            // Masked before the steps, so that a step deriving a column from a masked one derives it from the mask.
            // Each source's own masker: policies by tag match the tags the catalog has for its columns.
            handle: maskedHandle(
              handles.get(source.connector_id)!,
              await deps.masking.maskerFor(principal, row.project_id, {
                connectorId: source.connector_id,
                namespace: source.namespace ?? null,
                name: source.dataset ?? streamName(source),
              }),
            ),
            dataset: { namespace: source.namespace ?? null, name: source.dataset ?? streamName(source) },
            query: source.query,
            cursorColumn: source.cursor_column,
          });
        }
        const preview = await previewPipeline({
          sources,
          steps,
          limit: options.limit ?? 100,
          signal: controller.signal,
        });
        // And the output once more, by its own column names (a renamed column keeps its source's mask).
        const outputMask = masker.columns(preview.output);
        if (outputMask) preview.rows = preview.rows.map((r) => outputMask.row(r));
        const destination = await deps.connectors
          .describe(principal, row.destination.connector_id)
          .catch(() => undefined);
        const [only] = row.sources;
        const sourceFacts = only
          ? await deps.connectors.describe(principal, only.connector_id).catch(() => undefined)
          : undefined;
        const column = (c: { name: string; type: string; nullable: boolean }) => ({
          name: c.name,
          type: c.type,
          nullable: c.nullable,
        });
        return {
          columns: preview.output.map(column),
          input_columns: preview.input.map(column),
          ...cappedRows(preview.output, preview.rows),
          streams: preview.streams,
          pushdown: row.sources.length === 1 && !!sourceFacts?.sql && !!destination?.sql,
        };
      } catch (error) {
        if (error instanceof TransformError)
          throw validationFailed([{ path: `transforms.${error.path}`, message: error.message }]);
        if (error instanceof ConnectorError || controller.signal.aborted) {
          const code = error instanceof ConnectorError ? error.code : 'timeout';
          throw previewFailed(code, (error as Error).message);
        }
        throw error;
      } finally {
        clearTimeout(timer);
        for (const handle of handles.values()) await handle.close();
      }
    },

    async state(principal: Principal, id: string) {
      const row = await guard.find(principal, id, 'pipeline:read');
      const saved = await repository.state(db, id);
      return {
        streams: row.sources.map((source) => {
          const name = streamName(source);
          const state = saved.find((s) => s.stream === name);
          // A cursor saved under another column does not apply any more: the next run starts over.
          const applies = state && state.cursor_column === source.cursor_column;
          return {
            stream: name,
            cursor_column: source.cursor_column ?? null,
            cursor_value: applies ? state.cursor_value : null,
            updated_at: applies ? state.updated_at.toISOString() : null,
          };
        }),
      };
    },

    async resetState(principal: Principal, id: string, stream: string | undefined, context: RequestContext) {
      const row = await guard.find(principal, id, 'pipeline:write');
      if (stream && !row.sources.some((s) => streamName(s) === stream))
        throw validationFailed([{ path: 'stream', message: `is not a stream of this pipeline` }]);
      await db.transaction().execute(async (trx) => {
        await repository.resetState(trx, id, stream);
        await audit.record(
          context,
          { kind: 'pipeline_state_reset', target: { type: 'pipeline', id }, details: { stream: stream ?? null } },
          trx,
        );
      });
      return this.state(principal, id);
    },
  };
}
