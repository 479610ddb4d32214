/** SQL on the file ingestions' own tables: the definitions and the load history of their files. */
import { sql, type Generated, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../../platform/db/index.js';
import { historyTable } from '../../../platform/db/history-tables.js';
import { claimDuePolls, jsonb as json, projectTable } from '../../../platform/db/project-tables.js';

import type { S3SourceSpec } from './s3-source.js';
import type { SftpSourceSpec } from './sftp-source.js';

export type SourceSpec =
  | { kind: 'upload' }
  | { kind: 'folder'; path: string; glob?: string }
  | (S3SourceSpec & { secret_access_key?: string })
  | SftpSourceSpec;

export interface FormatSpec {
  /** json, xlsx and parquet are read whole and converted to NDJSON before the load (converters.ts). */
  type: 'csv' | 'ndjson' | 'json' | 'xlsx' | 'parquet';
  delimiter?: string;
  header?: boolean;
  encoding?: string;
  compression?: 'none' | 'gzip' | 'zip' | 'auto';
  /** Zip archives: the members to load (a glob); default by the format's extension. */
  archive_members?: string;
}

export interface ColumnSpec {
  name: string;
  type: string;
  nullable?: boolean;
}

export interface DestinationSpec {
  connector_id: string;
  namespace?: string | null;
  table: string;
  mode: 'append' | 'overwrite' | 'upsert';
  key_columns?: string[];
}

export interface FileIngestionsTable {
  id: Generated<string>;
  project_id: string;
  name: string;
  source: SourceSpec;
  format: FormatSpec;
  schema_mode: 'infer' | 'fixed';
  columns: ColumnSpec[];
  on_error: 'abort' | 'skip_file' | 'continue';
  error_limit: number;
  post_action: 'archive' | 'delete' | 'none';
  archive_path: string | null;
  destination: DestinationSpec;
  poll_interval_seconds: number | null;
  next_poll_at: Date | null;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type FileStatus = 'pending' | 'loading' | 'loaded' | 'failed' | 'partially_loaded' | 'skipped_duplicate';

export interface FirstError {
  line: number;
  column: string | null;
  message: string;
}

export interface FileIngestionFilesTable {
  id: Generated<string>;
  ingestion_id: string;
  project_id: string;
  name: string;
  size: string;
  checksum: string;
  modified_at: Date | null;
  stored_path: string | null;
  status: Generated<FileStatus>;
  forced: Generated<boolean>;
  reload_of: string | null;
  rows_parsed: Generated<string>;
  rows_loaded: Generated<string>;
  error_count: Generated<number>;
  first_error: FirstError | null;
  execution_id: string | null;
  /** A member of a zip archive: the archive's row, and the member's path in it. */
  archive_id: string | null;
  archive_member: string | null;
  created_at: Generated<Date>;
  finished_at: Date | null;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    file_ingestions: FileIngestionsTable;
    file_ingestion_files: FileIngestionFilesTable;
  }
}

export type FileIngestionRow = Selectable<FileIngestionsTable>;
export type FileRow = Selectable<FileIngestionFilesTable>;

/** Statuses of a file whose content is in the destination (a file of the same name and checksum is a duplicate). */
const LOADED: FileStatus[] = ['loaded', 'partially_loaded'];

export type IngestionChanges = Partial<
  Pick<
    FileIngestionsTable,
    | 'name'
    | 'source'
    | 'format'
    | 'schema_mode'
    | 'columns'
    | 'on_error'
    | 'error_limit'
    | 'post_action'
    | 'archive_path'
    | 'destination'
    | 'poll_interval_seconds'
    | 'next_poll_at'
  >
>;

const jsonFields = (changes: IngestionChanges) => ({
  ...changes,
  ...(changes.source ? { source: json(changes.source) } : {}),
  ...(changes.format ? { format: json(changes.format) } : {}),
  ...(changes.columns ? { columns: json(changes.columns) } : {}),
  ...(changes.destination ? { destination: json(changes.destination) } : {}),
});

export function createFileIngestionsRepository() {
  const ingestions = projectTable('file_ingestions');
  const files = historyTable('file_ingestion_files', { parent: 'ingestion_id', newest: 'created_at', tieBreak: 'id' });
  return {
    insert: (
      db: Db,
      row: Omit<FileIngestionsTable, 'id' | 'created_at' | 'updated_at' | 'next_poll_at'> & {
        next_poll_at?: Date | null;
      },
    ) =>
      db
        .insertInto('file_ingestions')
        .values(jsonFields(row) as typeof row)
        .returningAll()
        .executeTakeFirstOrThrow(),
    find: ingestions.find,
    list: ingestions.list,
    update: (db: Db, id: string, changes: IngestionChanges) => ingestions.update(db, id, jsonFields(changes)),
    remove: ingestions.remove,
    /** Folder ingestions due for a look, claimed (their next look moved on) so that one process starts each. */
    claimDue: (db: Db, limit: number) => claimDuePolls(db, 'file_ingestions', limit),

    /** Serialises the duplicate checks and claims of one ingestion's files. */
    lock: async (db: Db, ingestionId: string) => {
      await sql`select pg_advisory_xact_lock(hashtext(${`file_ingestion:${ingestionId}`}))`.execute(db);
    },
    insertFile: (
      db: Db,
      row: Pick<
        FileIngestionFilesTable,
        'ingestion_id' | 'project_id' | 'name' | 'size' | 'checksum' | 'modified_at' | 'stored_path' | 'reload_of'
      > & {
        status?: FileStatus;
        forced?: boolean;
        execution_id?: string | null;
        archive_id?: string | null;
        archive_member?: string | null;
      },
    ) => db.insertInto('file_ingestion_files').values(row).returningAll().executeTakeFirstOrThrow(),
    /** The rows of an archive's members, in the order they were expanded. */
    members: (db: Db, archiveId: string) =>
      db
        .selectFrom('file_ingestion_files')
        .selectAll()
        .where('archive_id', '=', archiveId)
        .orderBy('created_at')
        .orderBy('archive_member')
        .execute(),
    findFile: files.find,
    files: (db: Db, ingestionId: string, query: { status?: FileStatus; limit?: number }) =>
      files.recent(db, ingestionId, query),
    filesByIds: (db: Db, ids: string[]) =>
      ids.length === 0
        ? Promise.resolve([] as FileRow[])
        : db.selectFrom('file_ingestion_files').selectAll().where('id', 'in', ids).orderBy('created_at').execute(),
    /** A file of this name and checksum already in the destination (another row than `exceptId`). */
    loadedTwin: (db: Db, ingestionId: string, name: string, checksum: string, exceptId?: string) => {
      let q = db
        .selectFrom('file_ingestion_files')
        .select(['id'])
        .where('ingestion_id', '=', ingestionId)
        .where('name', '=', name)
        .where('checksum', '=', checksum)
        .where('status', 'in', LOADED);
      if (exceptId) q = q.where('id', '!=', exceptId);
      return q.limit(1).executeTakeFirst();
    },
    /** Whether a file of this name, size and modification time was seen already (a folder's unchanged file). */
    seen: async (db: Db, ingestionId: string, name: string, size: number, modifiedAt: Date) =>
      !!(await db
        .selectFrom('file_ingestion_files')
        .select('id')
        .where('ingestion_id', '=', ingestionId)
        .where('name', '=', name)
        .where('size', '=', String(size))
        .where('modified_at', '=', modifiedAt)
        .where('status', 'in', [...LOADED, 'pending', 'loading', 'skipped_duplicate', 'failed'])
        .limit(1)
        .executeTakeFirst()),
    updateFile: (db: Db, id: string, changes: Omit<Updateable<FileIngestionFilesTable>, 'id'>) =>
      db.updateTable('file_ingestion_files').set(changes).where('id', '=', id).returningAll().executeTakeFirst(),
    /** Stored paths of an ingestion's files still kept (to remove with it). */
    storedPaths: async (db: Db, ingestionId: string) =>
      (
        await db
          .selectFrom('file_ingestion_files')
          .select('stored_path')
          .where('ingestion_id', '=', ingestionId)
          .where('stored_path', 'is not', null)
          .execute()
      ).map((r) => r.stored_path!),
  };
}

export type FileIngestionsRepository = ReturnType<typeof createFileIngestionsRepository>;
