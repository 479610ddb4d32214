/** SQL on the Delivery area's own tables: exports, their runs, failed rows, snapshots and cursors. */
import { sql, type Generated, type Selectable } from 'kysely';
import { type Db } from '../../../platform/db/index.js';

export interface ExportSourceSpec {
  kind: 'warehouse_query' | 'connector';
  query?: string;
  schema?: string;
  connector_id?: string;
  namespace?: string | null;
  dataset?: string;
}

export type ExportMode = 'full' | 'incremental' | 'diff';

export interface ExportsTable {
  id: Generated<string>;
  project_id: string;
  name: string;
  description: Generated<string>;
  source: ExportSourceSpec;
  columns: string[] | null;
  filter: string | null;
  /** The destination's plain fields; its secret fields are in `secrets`, encrypted. */
  destination: Record<string, unknown>;
  secrets: Generated<Record<string, string>>;
  format: Record<string, unknown>;
  mode: Generated<ExportMode>;
  key_columns: Generated<string[]>;
  cursor_column: string | null;
  resync_requested: Generated<boolean>;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface ExportFileRecord {
  name: string;
  rows: number;
  bytes: number;
}

export interface ExportRunsTable {
  execution_id: string;
  export_id: string;
  project_id: string;
  status: Generated<string>;
  full_resync: Generated<boolean>;
  extracted: Generated<string>;
  added: Generated<string>;
  changed: Generated<string>;
  removed: Generated<string>;
  delivered: Generated<string>;
  failed: Generated<string>;
  files: Generated<ExportFileRecord[]>;
  error: string | null;
  started_at: Generated<Date>;
  finished_at: Date | null;
}

export interface ExportFailedRowsTable {
  export_id: string;
  row_key: string;
  execution_id: string;
  reason: string;
  record: Record<string, unknown>;
  attempts: Generated<number>;
  failed_at: Generated<Date>;
}

export interface ExportSnapshotsTable {
  export_id: string;
  row_key: string;
  row_hash: string;
}

export interface ExportStateTable {
  export_id: string;
  cursor_value: unknown;
  updated_at: Generated<Date>;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    exports: ExportsTable;
    export_runs: ExportRunsTable;
    export_failed_rows: ExportFailedRowsTable;
    export_snapshots: ExportSnapshotsTable;
    export_state: ExportStateTable;
  }
}

export type ExportRow = Selectable<ExportsTable>;
export type ExportRunRow = Selectable<ExportRunsTable>;

const NO_PROJECT = '00000000-0000-0000-0000-000000000000';
/** JSON text for a jsonb column: node-pg would send a JS array as a PostgreSQL array. */
const json = <T>(value: T): T => JSON.stringify(value) as unknown as T;

export interface ExportChanges {
  name?: string;
  description?: string;
  source?: ExportSourceSpec;
  columns?: string[] | null;
  filter?: string | null;
  destination?: Record<string, unknown>;
  secrets?: Record<string, string>;
  format?: Record<string, unknown>;
  mode?: ExportMode;
  key_columns?: string[];
  cursor_column?: string | null;
}

const jsonColumns = (changes: ExportChanges) => ({
  ...(changes.source ? { source: json(changes.source) } : {}),
  ...(changes.destination ? { destination: json(changes.destination) } : {}),
  ...(changes.format ? { format: json(changes.format) } : {}),
  ...(changes.secrets ? { secrets: json(changes.secrets) } : {}),
});

export function createExportsRepository() {
  return {
    insert: (db: Db, row: Required<ExportChanges> & Pick<ExportsTable, 'project_id' | 'created_by'>) =>
      db
        .insertInto('exports')
        .values({ ...row, ...jsonColumns(row) })
        .returningAll()
        .executeTakeFirstOrThrow(),
    find: (db: Db, id: string) => db.selectFrom('exports').selectAll().where('id', '=', id).executeTakeFirst(),
    list: (db: Db, projectIds: string[] | null) => {
      let query = db.selectFrom('exports').selectAll().orderBy('name');
      if (projectIds) query = query.where('project_id', 'in', projectIds.length ? projectIds : [NO_PROJECT]);
      return query.execute();
    },
    update: (db: Db, id: string, changes: ExportChanges) =>
      db
        .updateTable('exports')
        .set({ ...changes, ...jsonColumns(changes), updated_at: sql`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    remove: async (db: Db, id: string) =>
      Number((await db.deleteFrom('exports').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
    /** A change of what is exported starts the diff and the cursor again: the next run sends everything. */
    resetState: async (db: Db, id: string) => {
      await db.deleteFrom('export_snapshots').where('export_id', '=', id).execute();
      await db.deleteFrom('export_state').where('export_id', '=', id).execute();
    },
    runs: (db: Db, exportId: string, limit: number) =>
      db
        .selectFrom('export_runs')
        .selectAll()
        .where('export_id', '=', exportId)
        .orderBy('started_at', 'desc')
        .limit(limit)
        .execute(),
    run: (db: Db, exportId: string, executionId: string) =>
      db
        .selectFrom('export_runs')
        .selectAll()
        .where('export_id', '=', exportId)
        .where('execution_id', '=', executionId)
        .executeTakeFirst(),
    failedRows: (db: Db, exportId: string, limit: number) =>
      db
        .selectFrom('export_failed_rows')
        .selectAll()
        .where('export_id', '=', exportId)
        .orderBy('failed_at', 'desc')
        .orderBy('row_key')
        .limit(limit)
        .execute(),
  };
}

export type ExportsRepository = ReturnType<typeof createExportsRepository>;
