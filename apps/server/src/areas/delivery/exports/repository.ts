/** SQL on the Delivery area's own tables: exports, their runs, failed rows, snapshots and cursors. */
import { sql, type Generated, type Selectable } from 'kysely';
import { type Db } from '../../../platform/db/index.js';
import { jsonb as json, lockDueSchedules, projectTable } from '../../../platform/db/project-tables.js';
import type { Timing } from '../../../platform/schedule-timing.js';

export interface ExportSourceSpec {
  kind: 'warehouse_query' | 'connector' | 'pipeline';
  query?: string;
  pipeline_id?: string;
  schema?: string;
  connector_id?: string;
  namespace?: string | null;
  dataset?: string;
}

export type ExportMode = 'full' | 'incremental' | 'diff';

/** When an export runs by itself: a cron expression in a time zone, or an interval (exactly one). */
export interface ExportSchedule extends Timing {
  missed_policy: 'skip' | 'run_once';
  paused: boolean;
  /**
   * Whom scheduled runs act for (masking, the execution's creator): the user who last set the
   * schedule or changed what the scheduled export reads or where it delivers.
   */
  owner_id?: string | null;
}

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
  schedule: ExportSchedule | null;
  /** Null without a schedule or while it is paused. */
  next_due_at: Date | null;
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
  trigger: Generated<'manual' | 'schedule'>;
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

/** JSON text for a jsonb column: node-pg would send a JS array as a PostgreSQL array. */

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
  schedule?: ExportSchedule | null;
  next_due_at?: Date | null;
}

const jsonColumns = (changes: ExportChanges) => ({
  ...(changes.schedule !== undefined ? { schedule: changes.schedule && json(changes.schedule) } : {}),
  ...(changes.source ? { source: json(changes.source) } : {}),
  ...(changes.destination ? { destination: json(changes.destination) } : {}),
  ...(changes.format ? { format: json(changes.format) } : {}),
  ...(changes.secrets ? { secrets: json(changes.secrets) } : {}),
});

/** What a run counted. */
export interface ExportAccount {
  extracted: number;
  added: number;
  changed: number;
  removed: number;
  delivered: number;
  failed: number;
}

export interface FailedRowRecord {
  row_key: string;
  reason: string;
  record: Record<string, unknown>;
}

const SNAPSHOT_BATCH = 10_000;

export function createExportsRepository() {
  const definitions = projectTable('exports');
  return {
    insert: (db: Db, row: Required<ExportChanges> & Pick<ExportsTable, 'project_id' | 'created_by'>) =>
      db
        .insertInto('exports')
        .values({ ...row, ...jsonColumns(row) })
        .returningAll()
        .executeTakeFirstOrThrow(),
    find: definitions.find,
    list: definitions.list,
    update: (db: Db, id: string, changes: ExportChanges) =>
      definitions.update(db, id, { ...changes, ...jsonColumns(changes) }),
    remove: definitions.remove,
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
    /** Exports whose schedule is due, locked; ones another process holds are skipped. */
    claimDue: (db: Db, limit: number) => lockDueSchedules(db, 'exports', limit),
    setNextDue: (db: Db, id: string, next: Date | null) =>
      db.updateTable('exports').set({ next_due_at: next }).where('id', '=', id).execute(),
    /** Serialises the start of runs of one export. */
    lock: (db: Db, id: string) =>
      db.selectFrom('exports').select('id').where('id', '=', id).forUpdate().executeTakeFirst(),
    unfinishedRuns: (db: Db, exportId: string) =>
      db
        .selectFrom('export_runs')
        .select('execution_id')
        .where('export_id', '=', exportId)
        .where('finished_at', 'is', null)
        .execute(),
    insertRun: (
      db: Db,
      row: {
        execution_id: string;
        export_id: string;
        project_id: string;
        full_resync: boolean;
        trigger: 'manual' | 'schedule';
      },
    ) =>
      db
        .insertInto('export_runs')
        .values({ ...row, status: 'queued' })
        .execute(),
    runOf: (db: Db, executionId: string) =>
      db.selectFrom('export_runs').selectAll().where('execution_id', '=', executionId).executeTakeFirst(),
    /** Marks the run running; a retry of a run (a new execution from /executions) gets its record here. */
    beginRun: (db: Db, row: { execution_id: string; export_id: string; project_id: string; full_resync: boolean }) =>
      db
        .insertInto('export_runs')
        .values({ ...row, status: 'running' })
        .onConflict((oc) =>
          oc.column('execution_id').doUpdateSet({ status: 'running', started_at: sql`now()`, error: null }),
        )
        .execute(),
    finishRun: (
      db: Db,
      executionId: string,
      outcome: { status: string; error: string | null; account?: ExportAccount; files?: ExportFileRecord[] },
    ) =>
      db
        .updateTable('export_runs')
        .set({
          status: outcome.status,
          error: outcome.error,
          finished_at: sql`now()`,
          ...(outcome.files ? { files: json(outcome.files) } : {}),
          ...(outcome.account
            ? Object.fromEntries(Object.entries(outcome.account).map(([k, v]) => [k, String(v)]))
            : {}),
        })
        .where('execution_id', '=', executionId)
        .execute(),
    clearResync: (db: Db, id: string) =>
      db.updateTable('exports').set({ resync_requested: false }).where('id', '=', id).execute(),
    /** The keys and row hashes the previous runs delivered (diff mode). */
    snapshot: async (db: Db, exportId: string) => {
      const rows = await db
        .selectFrom('export_snapshots')
        .select(['row_key', 'row_hash'])
        .where('export_id', '=', exportId)
        .execute();
      return new Map(rows.map((r) => [r.row_key, r.row_hash]));
    },
    /** Records what this run delivered: new and changed rows' hashes, and the keys of rows removed. */
    updateSnapshot: async (db: Db, exportId: string, upserts: Map<string, string>, removed: string[]) => {
      const entries = [...upserts];
      for (let i = 0; i < entries.length; i += SNAPSHOT_BATCH) {
        const slice = entries.slice(i, i + SNAPSHOT_BATCH);
        await sql`
          insert into export_snapshots (export_id, row_key, row_hash)
          select ${exportId}::uuid, k, h from unnest(${slice.map((e) => e[0])}::text[], ${slice.map((e) => e[1])}::text[]) as u(k, h)
          on conflict (export_id, row_key) do update set row_hash = excluded.row_hash`.execute(db);
      }
      for (let i = 0; i < removed.length; i += SNAPSHOT_BATCH)
        await db
          .deleteFrom('export_snapshots')
          .where('export_id', '=', exportId)
          .where('row_key', 'in', removed.slice(i, i + SNAPSHOT_BATCH))
          .execute();
    },
    clearSnapshot: (db: Db, exportId: string) =>
      db.deleteFrom('export_snapshots').where('export_id', '=', exportId).execute(),
    cursor: async (db: Db, exportId: string) =>
      (await db.selectFrom('export_state').select('cursor_value').where('export_id', '=', exportId).executeTakeFirst())
        ?.cursor_value,
    saveCursor: (db: Db, exportId: string, value: unknown) =>
      db
        .insertInto('export_state')
        .values({ export_id: exportId, cursor_value: JSON.stringify(value) })
        .onConflict((oc) =>
          oc.column('export_id').doUpdateSet({ cursor_value: JSON.stringify(value), updated_at: sql`now()` }),
        )
        .execute(),
    /** The rows that failed before, to send again (incremental mode). */
    pendingFailures: (db: Db, exportId: string) =>
      db.selectFrom('export_failed_rows').select(['row_key', 'record']).where('export_id', '=', exportId).execute(),
    /**
     * The failed rows after a run: every earlier failure was tried again by it, so the set is replaced
     * by this run's failures (a row failing again keeps its count of attempts).
     */
    replaceFailures: async (db: Db, exportId: string, executionId: string, failures: FailedRowRecord[]) => {
      const before = new Map(
        (
          await db
            .selectFrom('export_failed_rows')
            .select(['row_key', 'attempts'])
            .where('export_id', '=', exportId)
            .execute()
        ).map((r) => [r.row_key, r.attempts]),
      );
      await db.deleteFrom('export_failed_rows').where('export_id', '=', exportId).execute();
      for (let i = 0; i < failures.length; i += 1000)
        await db
          .insertInto('export_failed_rows')
          .values(
            failures.slice(i, i + 1000).map((f) => ({
              export_id: exportId,
              row_key: f.row_key,
              execution_id: executionId,
              reason: f.reason,
              record: json(f.record),
              attempts: (before.get(f.row_key) ?? 0) + 1,
            })),
          )
          .onConflict((oc) => oc.columns(['export_id', 'row_key']).doNothing())
          .execute();
    },
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
