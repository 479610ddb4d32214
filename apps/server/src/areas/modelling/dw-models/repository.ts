import { sql, type Generated, type Selectable } from 'kysely';
import type { Db } from '../../../platform/db/index.js';
import { jsonb as json, projectTable } from '../../../platform/db/project-tables.js';

export type Materialization = 'view' | 'table' | 'incremental' | 'ephemeral';
export type IncrementalStrategy = 'append' | 'merge' | 'delete_insert';
export type OnSchemaChange = 'ignore' | 'fail' | 'append_new_columns' | 'sync_all_columns' | 'full_refresh';
export type Severity = 'warn' | 'error';

/** A data test of a model: failing rows make it warn or fail, by its severity. */
export type DataTest =
  | { type: 'not_null'; column: string; severity?: Severity }
  | { type: 'unique'; column: string; severity?: Severity }
  | { type: 'accepted_values'; column: string; values: string[]; severity?: Severity }
  | { type: 'relationships'; column: string; to: string; field: string; severity?: Severity }
  | { type: 'custom_sql'; name: string; sql: string; severity?: Severity };

export interface DwModelsTable {
  id: Generated<string>;
  project_id: string;
  name: string;
  description: Generated<string>;
  sql: string;
  materialization: Materialization;
  unique_key: string[];
  incremental_strategy: IncrementalStrategy;
  on_schema_change: OnSchemaChange;
  tags: string[];
  tests: DataTest[];
  refs: string[];
  sources: Array<{ schema: string; table: string }>;
  version: Generated<number>;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type ModelStatus = 'success' | 'error' | 'skipped';
export type TestStatus = 'pass' | 'warn' | 'fail' | 'error';

export interface TestResult {
  name: string;
  type: DataTest['type'];
  severity: Severity;
  status: TestStatus;
  failures: number | null;
  message: string | null;
}

export interface DwModelRunResultsTable {
  execution_id: string;
  model_name: string;
  model_id: string | null;
  materialization: Materialization;
  status: ModelStatus;
  rows: string | null;
  duration_ms: number;
  tests: TestResult[];
  error: string | null;
  finished_at: Generated<Date>;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    dw_models: DwModelsTable;
    dw_model_run_results: DwModelRunResultsTable;
  }
}

export type ModelRow = Selectable<DwModelsTable>;
export type ModelResultRow = Selectable<DwModelRunResultsTable>;

export type ModelFields = Omit<ModelRow, 'id' | 'version' | 'created_at' | 'updated_at' | 'created_by' | 'project_id'>;

export function createModelsRepository() {
  const models = projectTable('dw_models');
  return {
    find: models.find,
    list: models.list,
    inProject: (db: Db, projectId: string) =>
      db.selectFrom('dw_models').selectAll().where('project_id', '=', projectId).orderBy('name').execute(),
    /** Serialises changes to one project's graph (the cycle check sees every committed edge). */
    lockGraph: (trx: Db, projectId: string) =>
      sql`select pg_advisory_xact_lock(hashtext(${`dw_models:${projectId}`}))`.execute(trx),
    insert: (db: Db, row: ModelFields & { project_id: string; created_by: string | null }) =>
      db
        .insertInto('dw_models')
        .values({ ...row, tests: json(row.tests), sources: json(row.sources) })
        .returningAll()
        .executeTakeFirstOrThrow(),
    update: (db: Db, id: string, fields: ModelFields) =>
      db
        .updateTable('dw_models')
        .set({
          ...fields,
          tests: json(fields.tests),
          sources: json(fields.sources),
          version: sql`version + 1`,
          updated_at: sql`now()`,
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    remove: (db: Db, id: string) => db.deleteFrom('dw_models').where('id', '=', id).execute(),
    saveResult: (db: Db, row: Omit<ModelResultRow, 'finished_at'>) =>
      db
        .insertInto('dw_model_run_results')
        .values({ ...row, tests: json(row.tests) })
        .onConflict((oc) =>
          oc.columns(['execution_id', 'model_name']).doUpdateSet({
            status: row.status,
            rows: row.rows,
            duration_ms: row.duration_ms,
            tests: json(row.tests),
            error: row.error,
            finished_at: sql`now()`,
          }),
        )
        .execute(),
    results: (db: Db, executionId: string) =>
      db
        .selectFrom('dw_model_run_results')
        .selectAll()
        .where('execution_id', '=', executionId)
        .orderBy('finished_at')
        .orderBy('model_name')
        .execute(),
  };
}

export type ModelsRepository = ReturnType<typeof createModelsRepository>;
