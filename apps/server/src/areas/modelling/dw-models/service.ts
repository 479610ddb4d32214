/**
 * Warehouse models: SELECTs that build views and tables in the project's warehouse, with their
 * dependencies read from the SQL, data tests, compile and preview. A run (`POST /dw-models/run`) is
 * an execution of kind `model_run` that carries a snapshot of the project's models; the worker
 * builds the selection in dependency order (model-run.job.ts), always as the project's own role.
 */
import pg from 'pg';
import type { Principal } from '../../../platform/authn.js';
import { resourceGuard, type ProjectAccess } from '../../../platform/authz.js';
import { onUniqueViolation, type Db } from '../../../platform/db/index.js';
import { notFound, validationFailed, type FieldError } from '../../../platform/errors/index.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { AuditService } from '../../audit/service.js';
import { projectSchemaName, type ProjectWarehouse, type Warehouse } from '../../connectivity/warehouse.js';
import type { MaskingService } from '../../governance/masking/service.js';
import type { ExecutionsService } from '../../operations/executions/service.js';
import { MODEL, modelHasDependents, modelNameTaken, modelPreviewFailed, warehouseUnavailable } from '../errors.js';
import { createCompiler, relationOf, type Placement } from './compile.js';
import { cycleWith, select, SelectorError, topologicalOrder } from './graph.js';
import type { DataTest, ModelFields, ModelRow, ModelsRepository } from './repository.js';
import { columnLineage, ModelSqlError, parserReady, parseTemplate } from './sql.js';
import { authorship } from '../../../platform/presenters.js';

/** The warehouse schema (of the project's own) that models are built in. */
export const MODELS_SCHEMA = 'models';
const PREVIEW_MAX_BYTES = 5 * 1024 * 1024;
/** A model's name (and a source's schema): a plain lower-case PostgreSQL identifier. */
const MODEL_NAME = /^[a-z_][a-z0-9_]*$/;

export interface ModelInput {
  project_id: string;
  name: string;
  description?: string;
  sql: string;
  materialization: ModelRow['materialization'];
  unique_key?: string[];
  incremental_strategy?: ModelRow['incremental_strategy'];
  on_schema_change?: ModelRow['on_schema_change'];
  tags?: string[];
  tests?: DataTest[];
}
export type ModelPatchInput = Partial<Omit<ModelInput, 'project_id'>>;

/** One model as a run carries it. */
export interface ModelSnapshot {
  id: string;
  name: string;
  sql: string;
  materialization: ModelRow['materialization'];
  unique_key: string[];
  incremental_strategy: ModelRow['incremental_strategy'];
  on_schema_change: ModelRow['on_schema_change'];
  tests: DataTest[];
  refs: string[];
  tags: string[];
}

/** What a model run carries: every model of the project as it was asked for, and the selection. */
export interface ModelRunParams {
  select: string[];
  full_refresh: boolean;
  selected: string[];
  models: ModelSnapshot[];
}

export const placementOf = (projectId: string): Placement => ({
  modelSchema: projectSchemaName(projectId, MODELS_SCHEMA),
  sourceSchema: (name) => projectSchemaName(projectId, name),
});

export const snapshotOf = (row: ModelRow): ModelSnapshot => ({
  id: row.id,
  name: row.name,
  sql: row.sql,
  materialization: row.materialization,
  unique_key: row.unique_key,
  incremental_strategy: row.incremental_strategy,
  on_schema_change: row.on_schema_change,
  tests: row.tests,
  refs: row.refs,
  tags: row.tags,
});

export const presentModel = (row: ModelRow) => ({
  id: row.id,
  project_id: row.project_id,
  name: row.name,
  description: row.description,
  sql: row.sql,
  materialization: row.materialization,
  unique_key: row.unique_key,
  incremental_strategy: row.incremental_strategy,
  on_schema_change: row.on_schema_change,
  tags: row.tags,
  tests: row.tests,
  refs: row.refs,
  sources: row.sources,
  relation: row.materialization === 'ephemeral' ? null : relationOf(placementOf(row.project_id), row.name),
  version: row.version,
  ...authorship(row),
});

/** A pg client config for a project's warehouse role. */
export const clientConfig = (tenant: ProjectWarehouse): pg.ClientConfig => ({
  ...tenant.connection,
  ssl: tenant.connection.ssl ? { rejectUnauthorized: true } : false,
  application_name: 'svc models',
});

const sqlProblem = (path: string, error: unknown): FieldError => ({
  path,
  message:
    error instanceof ModelSqlError
      ? `${error.message}${error.position !== undefined ? ` (at character ${error.position + 1})` : ''}`
      : (error as Error).message,
});

/** A value as JSON carries it: binary as \x hex, everything else as node-pg gives it. */
const jsonValue = (value: unknown): unknown => (Buffer.isBuffer(value) ? `\\x${value.toString('hex')}` : value);

export type ModelsService = ReturnType<typeof createModelsService>;

export function createModelsService(
  deps: ProjectAccess & {
    db: Db;
    repository: ModelsRepository;
    audit: AuditService;
    executions: ExecutionsService;
    warehouse: Warehouse | undefined;
    /** Whether a principal reads the warehouse through masked views (governance/masking). */
    masking: Pick<MaskingService, 'warehousePlan'>;
  },
) {
  const { db, repository, authorize, audit, executions } = deps;
  const guard = resourceGuard(deps, MODEL, (id) => repository.find(db, id), {
    capabilities: ['model:read', 'model:write', 'model:run'],
  });

  const tenantOf = async (projectId: string) => {
    if (!deps.warehouse) throw warehouseUnavailable();
    return deps.warehouse.forProject(projectId, MODELS_SCHEMA);
  };

  /**
   * The definition's problems, each naming its field, and what its SQL refers to. `others` are the
   * project's other models (the cycle check is made again under the graph lock).
   */
  const check = async (fields: ModelFields, others: ModelRow[], projectId: string) => {
    await parserReady();
    const problems: FieldError[] = [];
    // Checked here rather than by the schema, so that a caller without access learns nothing from a 422.
    if (!MODEL_NAME.test(fields.name))
      problems.push({ path: 'name', message: 'must be lower-case letters, digits and _, not starting with a digit' });
    let refs: string[] = [];
    let sources: Array<{ schema: string; table: string }> = [];
    try {
      const template = parseTemplate(fields.sql);
      refs = template.refs;
      sources = template.sources;
    } catch (error) {
      problems.push(sqlProblem('sql', error));
    }
    const names = new Set(others.map((m) => m.name));
    for (const ref of refs) {
      if (ref === fields.name) problems.push({ path: 'sql', message: `a model cannot ref('${ref}') itself` });
      else if (!names.has(ref)) problems.push({ path: 'sql', message: `ref('${ref}') names no model of this project` });
    }
    for (const source of sources)
      if (!MODEL_NAME.test(source.schema))
        problems.push({ path: 'sql', message: `source('${source.schema}', ...) is not a warehouse schema name` });
    if (!problems.length) {
      const cycle = cycleWith(others, { name: fields.name, refs, tags: fields.tags });
      if (cycle) problems.push({ path: 'sql', message: `the refs would form a cycle: ${cycle.join(' -> ')}` });
    }
    if (!problems.length) {
      // Compiles against the project's models as they are (with this one as given), both ways.
      const compiler = createCompiler(
        [...others.filter((m) => m.name !== fields.name), { ...fields }],
        placementOf(projectId),
      );
      try {
        compiler.compile(fields.name);
        if (fields.materialization === 'incremental') compiler.compile(fields.name, { incremental: true });
      } catch (error) {
        problems.push(sqlProblem('sql', error));
      }
      fields.tests.forEach((test, i) => {
        if (test.type === 'custom_sql') {
          try {
            compiler.compileSql(test.sql, fields.name);
          } catch (error) {
            problems.push(sqlProblem(`tests.${i}.sql`, error));
          }
        }
        if (test.type === 'relationships') {
          const target = others.find((m) => m.name === test.to);
          if (!target && test.to !== fields.name)
            problems.push({ path: `tests.${i}.to`, message: `"${test.to}" is no model of this project` });
          else if (target?.materialization === 'ephemeral')
            problems.push({
              path: `tests.${i}.to`,
              message: `"${test.to}" is ephemeral and has no relation to test against`,
            });
        }
      });
    }
    if (fields.materialization === 'ephemeral' && fields.tests.length)
      problems.push({ path: 'tests', message: 'an ephemeral model is built nowhere, so it cannot be tested' });
    if (
      fields.materialization === 'incremental' &&
      fields.incremental_strategy !== 'append' &&
      fields.unique_key.length === 0
    )
      problems.push({ path: 'unique_key', message: `is required for the ${fields.incremental_strategy} strategy` });
    return { problems, refs, sources };
  };

  const fieldsOf = (input: Omit<ModelInput, 'project_id'>): ModelFields => ({
    name: input.name,
    description: input.description ?? '',
    sql: input.sql,
    materialization: input.materialization,
    unique_key: input.unique_key ?? [],
    incremental_strategy: input.incremental_strategy ?? 'merge',
    on_schema_change: input.on_schema_change ?? 'ignore',
    tags: input.tags ?? [],
    tests: input.tests ?? [],
    refs: [],
    sources: [],
  });

  /** Validates and stores (under the project's graph lock, so two changes never close a cycle together). */
  const save = async (
    projectId: string,
    fields: ModelFields,
    write: (trx: Db, fields: ModelFields) => Promise<ModelRow>,
  ) =>
    onUniqueViolation(
      db.transaction().execute(async (trx) => {
        await repository.lockGraph(trx, projectId);
        const others = (await repository.inProject(trx, projectId)).filter((m) => m.name !== fields.name);
        const { problems, refs, sources } = await check(fields, others, projectId);
        if (problems.length) throw validationFailed(problems);
        return write(trx, { ...fields, refs, sources });
      }),
      () => modelNameTaken(fields.name),
    );

  return {
    ...guard.readers('model:read', (projectIds) => repository.list(db, projectIds), presentModel),

    async create(principal: Principal, input: ModelInput, context: RequestContext) {
      await authorize(principal, 'model:write', input.project_id);
      const row = await save(input.project_id, fieldsOf(input), async (trx, fields) => {
        const created = await repository.insert(trx, {
          ...fields,
          project_id: input.project_id,
          created_by: principal.userId,
        });
        await audit.record(
          context,
          { kind: 'dw_model_created', target: { type: 'dw_model', id: created.id }, details: { name: created.name } },
          trx,
        );
        return created;
      });
      return presentModel(row);
    },

    async update(principal: Principal, id: string, patch: ModelPatchInput, context: RequestContext) {
      const current = await guard.find(principal, id, 'model:write');
      const merged = fieldsOf({
        name: patch.name ?? current.name,
        description: patch.description ?? current.description,
        sql: patch.sql ?? current.sql,
        materialization: patch.materialization ?? current.materialization,
        unique_key: patch.unique_key ?? current.unique_key,
        incremental_strategy: patch.incremental_strategy ?? current.incremental_strategy,
        on_schema_change: patch.on_schema_change ?? current.on_schema_change,
        tags: patch.tags ?? current.tags,
        tests: patch.tests ?? current.tests,
      });
      const row = await save(current.project_id, merged, async (trx, fields) => {
        if (fields.name !== current.name) {
          const dependents = (await repository.inProject(trx, current.project_id)).filter((m) =>
            m.refs.includes(current.name),
          );
          if (dependents.length)
            throw modelHasDependents(
              current.name,
              dependents.map((d) => d.name),
            );
        }
        const updated = await repository.update(trx, id, fields);
        if (!updated) throw notFound(MODEL);
        await audit.record(
          context,
          { kind: 'dw_model_updated', target: { type: 'dw_model', id }, details: { fields: Object.keys(patch) } },
          trx,
        );
        return updated;
      });
      return presentModel(row);
    },

    async remove(principal: Principal, id: string, context: RequestContext) {
      const row = await guard.find(principal, id, 'model:write');
      await db.transaction().execute(async (trx) => {
        await repository.lockGraph(trx, row.project_id);
        const dependents = (await repository.inProject(trx, row.project_id)).filter((m) => m.refs.includes(row.name));
        if (dependents.length)
          throw modelHasDependents(
            row.name,
            dependents.map((d) => d.name),
          );
        await repository.remove(trx, id);
        await audit.record(
          context,
          { kind: 'dw_model_deleted', target: { type: 'dw_model', id }, details: { name: row.name } },
          trx,
        );
      });
    },

    /**
     * The models as a DAG (of one project, or of every project the caller may read models of): an
     * edge from each model referred to, to the model that refers to it, by id.
     */
    async graph(principal: Principal, projectId?: string) {
      const rows = await repository.list(db, await guard.scope(principal, 'model:read', projectId));
      const byProject = new Map<string, ModelRow[]>();
      for (const r of rows) byProject.set(r.project_id, [...(byProject.get(r.project_id) ?? []), r]);
      const idOf = new Map(rows.map((r) => [`${r.project_id}/${r.name}`, r.id]));
      return {
        nodes: rows.map((r) => ({
          id: r.id,
          project_id: r.project_id,
          name: r.name,
          materialization: r.materialization,
          tags: r.tags,
          sources: r.sources,
        })),
        edges: rows.flatMap((r) =>
          r.refs.flatMap((ref) => {
            const from = idOf.get(`${r.project_id}/${ref}`);
            return from ? [{ from, to: r.id }] : [];
          }),
        ),
        order: [...byProject.values()].flatMap((models) =>
          topologicalOrder(models).map((name) => idOf.get(`${models[0]!.project_id}/${name}`)!),
        ),
      };
    },

    /** The SELECT as it will run (the stored SQL, or `sql` given instead). */
    async compile(
      principal: Principal,
      id: string,
      options: { sql?: string; incremental?: boolean },
      placement?: Placement,
    ) {
      const row = await guard.find(principal, id, 'model:read');
      await parserReady();
      const models = await repository.inProject(db, row.project_id);
      const compiler = createCompiler(
        models.map((m) => (m.id === id && options.sql !== undefined ? { ...m, sql: options.sql } : m)),
        placement ?? placementOf(row.project_id),
      );
      try {
        const template = compiler.templateOf(row.name);
        return {
          sql: compiler.compile(row.name, { incremental: options.incremental ?? false }),
          refs: template.refs,
          sources: template.sources,
          relation: row.materialization === 'ephemeral' ? null : relationOf(placementOf(row.project_id), row.name),
          column_lineage: columnLineage(template),
        };
      } catch (error) {
        throw validationFailed([sqlProblem('sql', error)]);
      }
    },

    /**
     * The model's first rows, computed as the project's role in a read-only transaction; builds
     * nothing. A principal to whom a masking policy applies reads masked views of the project's
     * relations instead, as the project's masked reader role (docs/masking.md).
     */
    async preview(principal: Principal, id: string, options: { sql?: string; limit?: number }) {
      const row = await guard.find(principal, id, 'model:run');
      if (!deps.warehouse) throw warehouseUnavailable();
      const plan = await deps.masking.warehousePlan(principal, row.project_id);
      const masked = plan ? await deps.warehouse.maskedReads(row.project_id, plan) : undefined;
      const placement: Placement | undefined = masked && {
        modelSchema: masked.schemaOf(MODELS_SCHEMA),
        sourceSchema: (name) => masked.schemaOf(name),
      };
      let compiled: Awaited<ReturnType<typeof this.compile>>;
      try {
        compiled = await this.compile(principal, id, { sql: options.sql }, placement);
      } catch (error) {
        await masked?.release();
        throw error;
      }
      // The masked reader has no search_path of its own: names as the project's role would find them.
      const client = new pg.Client(
        masked
          ? { ...clientConfig(masked.tenant(MODELS_SCHEMA)), options: `-c search_path=${masked.schemaOf('main')}` }
          : clientConfig(await tenantOf(row.project_id)),
      );
      try {
        await client.connect();
        await client.query('begin read only');
        const result = await client.query(`select * from (\n${compiled.sql}\n) as "__svc_preview" limit $1`, [
          options.limit ?? 100,
        ]);
        const oids = [...new Set(result.fields.map((f) => f.dataTypeID))];
        const types = await client.query<{ oid: number; name: string }>(
          'select oid::int as oid, format_type(oid, null) as name from pg_type where oid = any($1::oid[])',
          [oids],
        );
        await client.query('rollback');
        const typeName = new Map(types.rows.map((t) => [t.oid, t.name]));
        const rows: Array<Record<string, unknown>> = [];
        let bytes = 0;
        let truncated = false;
        for (const raw of result.rows as Array<Record<string, unknown>>) {
          const shown = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, jsonValue(v)]));
          bytes += Buffer.byteLength(JSON.stringify(shown));
          if (bytes > PREVIEW_MAX_BYTES) {
            truncated = true;
            break;
          }
          rows.push(shown);
        }
        return {
          columns: result.fields.map((f) => ({
            name: f.name,
            type: typeName.get(f.dataTypeID) ?? String(f.dataTypeID),
          })),
          rows,
          truncated,
        };
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code) throw modelPreviewFailed(code, (error as Error).message);
        throw error;
      } finally {
        await client.end().catch(() => undefined);
        await masked?.release();
      }
    },

    /** Starts a run of the selection: one execution (kind model_run) with a line per model. */
    async run(
      principal: Principal,
      input: { project_id: string; select?: string[]; full_refresh?: boolean },
      context: RequestContext,
    ) {
      await authorize(principal, 'model:run', input.project_id);
      const execution = await db.transaction().execute((trx) =>
        this.startRun(
          trx,
          {
            projectId: input.project_id,
            select: input.select ?? [],
            fullRefresh: input.full_refresh ?? false,
            createdBy: principal.userId,
            trigger: 'manual',
          },
          context,
        ),
      );
      return executions.present(execution);
    },

    /** Whether `selectors` parse and name models of the project: the problems, each under `select.<i>`. */
    async selectionProblems(projectId: string, selectors: string[]): Promise<FieldError[]> {
      try {
        select(await repository.inProject(db, projectId), selectors);
        return [];
      } catch (error) {
        if (error instanceof SelectorError) return [{ path: `select.${error.index}`, message: error.message }];
        throw error;
      }
    },

    /** Starts a model run in `trx` (the caller checked model:run); 422 when the selection selects nothing. */
    async startRun(
      trx: Db,
      run: {
        projectId: string;
        select: string[];
        fullRefresh: boolean;
        createdBy: string | null;
        trigger: 'manual' | 'schedule';
      },
      context: RequestContext,
    ) {
      if (!deps.warehouse) throw warehouseUnavailable();
      const rows = await repository.inProject(trx, run.projectId);
      let selected: Set<string>;
      try {
        selected = select(rows, run.select);
      } catch (error) {
        if (error instanceof SelectorError)
          throw validationFailed([{ path: `select.${error.index}`, message: error.message }]);
        throw error;
      }
      if (!selected.size) throw validationFailed([{ path: 'select', message: 'selects no model' }]);
      const params: ModelRunParams = {
        select: run.select,
        full_refresh: run.fullRefresh,
        selected: topologicalOrder(rows).filter((n) => selected.has(n)),
        models: rows.map(snapshotOf),
      };
      return executions.startRun(
        trx,
        {
          projectId: run.projectId,
          kind: 'model_run',
          params: params as unknown as Record<string, unknown>,
          createdBy: run.createdBy,
          trigger: run.trigger,
        },
        context,
      );
    },

    /** The line per model of a model run. */
    async results(principal: Principal, executionId: string) {
      const execution = await executions.find(executionId);
      if (!execution || execution.kind !== 'model_run') throw notFound('Model run');
      await authorize(principal, 'model:read', execution.project_id);
      const lines = await repository.results(db, executionId);
      return {
        execution_id: executionId,
        status: execution.status,
        results: lines.map((r) => ({
          model: r.model_name,
          model_id: r.model_id,
          materialization: r.materialization,
          status: r.status,
          rows: r.rows === null ? null : Number(r.rows),
          duration_ms: r.duration_ms,
          tests: r.tests,
          error: r.error,
          finished_at: r.finished_at.toISOString(),
        })),
      };
    },
  };
}
