/**
 * File ingestions: files uploaded through the API or found in a folder of the project's files root,
 * each loaded once into a destination table (a file of the same name and checksum is skipped unless
 * forced), with a load-history row per file. Loading is a run (an execution of kind
 * `file_ingestion`) that the worker executes (file-ingestion.job.ts).
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createHash } from 'node:crypto';
import type { Principal } from '../../../platform/authn.js';
import type { ProjectAccess } from '../../../platform/authz.js';
import { auditedWrites } from '../../../platform/audited-writes.js';
import type { Db } from '../../../platform/db/index.js';
import { notFound, validationFailed } from '../../../platform/errors/index.js';
import { SYSTEM_CONTEXT, type RequestContext } from '../../../platform/request-context.js';
import type { AuditService } from '../../audit/service.js';
import type { ExecutionsService } from '../../operations/executions/service.js';
import {
  FILE_INGESTION,
  INGESTED_FILE,
  fileGone,
  fileIngestionNameTaken,
  notAFolderIngestion,
  notAnUploadIngestion,
  payloadTooLarge,
} from '../errors.js';
import { destinationProblems, ingestionGuard, runStarter } from '../runs.js';
import type {
  FileIngestionRow,
  FileIngestionsRepository,
  FileRow,
  FileStatus,
  IngestionChanges,
  SourceSpec,
} from './repository.js';
import type { SecretBox } from '../../../platform/secrets.js';
import { folderOf } from './s3-source.js';
import { checksumOf, type FileStorage } from './storage.js';
import { authorship } from '../../../platform/presenters.js';

export interface FileIngestionInput extends Omit<IngestionChanges, 'next_poll_at'> {
  project_id: string;
  name: string;
}

/** What a run of a file ingestion carries: the files to load, or a look at the folder. */
export interface FileIngestionRunParams {
  ingestion_id: string;
  /** The ingestion, as the run's subject (lineage names the run's job after it). */
  subject_id?: string;
  ingestion_name: string;
  /** Files recorded already (uploads, reloads). */
  file_ids?: string[];
  /** Look for new files in the folder source. */
  scan?: boolean;
  /** With scan: load files already loaded too. */
  force?: boolean;
}

export interface ConnectorDescription {
  project_id: string;
  kind: string;
  capabilities?: { write: boolean; writeModes: string[] };
}

/** The source as shown: an S3 secret never, only whether one is set. */
const shownSource = (source: SourceSpec) => {
  if (source.kind !== 's3') return source;
  const { secret_access_key_encrypted: secret, secret_access_key: _plain, ...rest } = source;
  return { ...rest, has_secret_access_key: !!secret };
};

export const presentFileIngestion = (row: FileIngestionRow) => ({
  id: row.id,
  project_id: row.project_id,
  name: row.name,
  source: shownSource(row.source),
  format: row.format as unknown as Record<string, unknown>,
  schema_mode: row.schema_mode,
  columns: row.columns as unknown as Array<Record<string, unknown>>,
  on_error: row.on_error,
  error_limit: row.error_limit,
  post_action: row.post_action,
  archive_path: row.archive_path,
  destination: row.destination as unknown as Record<string, unknown>,
  poll_interval_seconds: row.poll_interval_seconds,
  next_poll_at: row.next_poll_at?.toISOString() ?? null,
  ...authorship(row),
});

export const presentFile = (row: FileRow) => ({
  id: row.id,
  ingestion_id: row.ingestion_id,
  name: row.name,
  size: Number(row.size),
  checksum: row.checksum,
  status: row.status,
  forced: row.forced,
  reload_of: row.reload_of,
  rows_parsed: Number(row.rows_parsed),
  rows_loaded: Number(row.rows_loaded),
  error_count: row.error_count,
  first_error: row.first_error,
  available: row.stored_path !== null,
  archive_id: row.archive_id,
  archive_member: row.archive_member,
  execution_id: row.execution_id,
  created_at: row.created_at.toISOString(),
  finished_at: row.finished_at?.toISOString() ?? null,
});

/**
 * Where loaded files are archived: a folder of the project's folder (folder sources), a key prefix
 * (S3), or a remote directory relative to the sftp connector's directory (SFTP); by default an
 * `archive` folder of the source's own.
 */
export const archiveFolderOf = (row: Pick<FileIngestionRow, 'source' | 'archive_path'>) =>
  row.archive_path ??
  (row.source.kind === 'folder'
    ? path.posix.join(row.source.path, 'archive')
    : row.source.kind === 's3'
      ? `${folderOf(row.source)}archive/`
      : row.source.kind === 'sftp'
        ? path.posix.join(row.source.path ?? '.', 'archive')
        : 'archive');

export type FileIngestionsService = ReturnType<typeof createFileIngestionsService>;

export function createFileIngestionsService(
  deps: ProjectAccess & {
    db: Db;
    repository: FileIngestionsRepository;
    storage: FileStorage;
    audit: AuditService;
    executions: ExecutionsService;
    uploadMaxBytes: number;
    box: SecretBox;
    connectors: { describe(principal: Principal, id: string): Promise<ConnectorDescription> };
    onReceived?: (bytes: number) => void;
  },
) {
  const { db, repository, storage, executions } = deps;

  const guard = ingestionGuard(deps, FILE_INGESTION, (id) => repository.find(db, id));

  const writes = auditedWrites<FileIngestionRow>(deps, {
    kind: 'file_ingestion',
    label: FILE_INGESTION,
    nameTaken: fileIngestionNameTaken,
  });

  const problemsOf = async (principal: Principal, projectId: string, input: FileIngestionInput) => {
    const problems = await destinationProblems(deps.connectors, principal, projectId, input.destination!, {
      checkMode: true,
    });
    if (input.schema_mode === 'fixed' && !input.columns?.length)
      problems.push({ path: 'columns', message: 'is required with schema_mode fixed' });
    if (new Set((input.columns ?? []).map((c) => c.name)).size !== (input.columns ?? []).length)
      problems.push({ path: 'columns', message: 'names a column twice' });
    try {
      new TextDecoder(input.format!.encoding ?? 'utf-8');
    } catch {
      problems.push({ path: 'format.encoding', message: 'is not an encoding label this server knows' });
    }
    if (input.format!.type !== 'csv' && (input.format!.delimiter || input.format!.header !== undefined))
      problems.push({ path: 'format', message: 'delimiter and header apply to CSV only' });
    if (['json', 'xlsx', 'parquet'].includes(input.format!.type)) {
      if (input.format!.encoding)
        problems.push({
          path: 'format.encoding',
          message: `a ${input.format!.type} file is read as it is (JSON as UTF-8)`,
        });
      if (input.format!.compression === 'gzip')
        problems.push({ path: 'format.compression', message: `a ${input.format!.type} file is read as it is` });
    }
    const source = input.source!;
    if (source.kind === 'folder') {
      if (!storage.within(projectId, source.path))
        problems.push({ path: 'source.path', message: "must stay inside the project's folder of the files root" });
    } else if (source.kind === 'upload' && input.poll_interval_seconds)
      problems.push({ path: 'poll_interval_seconds', message: 'applies to folder, S3 and SFTP sources only' });
    else if (source.kind === 'sftp') {
      const login = await deps.connectors.describe(principal, source.connector_id).catch(() => undefined);
      if (!login || login.project_id !== projectId || login.kind !== 'sftp')
        problems.push({ path: 'source.connector_id', message: 'is not an sftp data connector of this project' });
    }
    if (
      input.archive_path &&
      source.kind !== 's3' &&
      source.kind !== 'sftp' &&
      !storage.within(projectId, input.archive_path)
    )
      problems.push({ path: 'archive_path', message: "must stay inside the project's folder of the files root" });
    if (input.format!.archive_members !== undefined && input.format!.compression === 'none')
      problems.push({
        path: 'format.archive_members',
        message: 'applies to zip archives, which compression none never reads',
      });
    return problems;
  };

  /** Starts a run of the ingestion in `trx` (the caller's transaction). */
  const startRun = runStarter<FileIngestionRow, Omit<FileIngestionRunParams, 'ingestion_id' | 'ingestion_name'>>(
    executions,
    'file_ingestion',
    (row) => ({ ingestion_id: row.id, ingestion_name: row.name }),
  );

  /** An S3 secret encrypted (a new one), or the one kept from before (none given). */
  const sealed = (source: SourceSpec, previous?: SourceSpec): SourceSpec => {
    if (source.kind !== 's3') return source;
    const { secret_access_key: plain, ...rest } = source;
    const kept = previous?.kind === 's3' ? previous.secret_access_key_encrypted : undefined;
    const encrypted = plain !== undefined ? deps.box.encrypt(plain) : (rest.secret_access_key_encrypted ?? kept);
    return { ...rest, ...(encrypted ? { secret_access_key_encrypted: encrypted } : {}) };
  };

  const withDefaults = (input: FileIngestionInput) => ({
    name: input.name,
    source: sealed(input.source!),
    format: input.format!,
    schema_mode: input.schema_mode ?? 'infer',
    columns: input.columns ?? [],
    on_error: input.on_error ?? 'abort',
    error_limit: input.error_limit ?? 0,
    post_action: input.post_action ?? 'none',
    archive_path: input.archive_path ?? null,
    destination: input.destination!,
    poll_interval_seconds: input.poll_interval_seconds ?? null,
  });

  return {
    async create(principal: Principal, input: FileIngestionInput, context: RequestContext) {
      await deps.authorize(principal, 'ingestion:write', input.project_id);
      const problems = await problemsOf(principal, input.project_id, input);
      if (problems.length) throw validationFailed(problems);
      const row = await writes.create(context, input.name, (trx) =>
        repository.insert(trx, {
          project_id: input.project_id,
          ...withDefaults(input),
          next_poll_at: input.poll_interval_seconds ? new Date() : null,
          created_by: principal.userId,
        }),
      );
      return presentFileIngestion(row);
    },

    ...guard.readers('ingestion:read', (projectIds) => repository.list(db, projectIds), presentFileIngestion),

    async update(principal: Principal, id: string, patch: Partial<FileIngestionInput>, context: RequestContext) {
      const current = await guard.find(principal, id, 'ingestion:write');
      const merged = {
        ...withDefaults({ ...current, ...patch } as FileIngestionInput),
        project_id: current.project_id,
      };
      const problems = await problemsOf(principal, current.project_id, merged);
      if (problems.length) throw validationFailed(problems);
      const row = await writes.update(context, id, merged.name, patch, (trx) =>
        repository.update(trx, id, {
          ...patch,
          ...(patch.source ? { source: sealed(patch.source, current.source) } : {}),
          ...(patch.poll_interval_seconds !== undefined
            ? { next_poll_at: patch.poll_interval_seconds ? new Date() : null }
            : {}),
        } as IngestionChanges),
      );
      return presentFileIngestion(row);
    },

    async remove(principal: Principal, id: string, context: RequestContext) {
      const row = await guard.find(principal, id, 'ingestion:write');
      await writes.remove(context, id, { name: row.name }, (trx) => repository.remove(trx, id));
      // Uploaded, downloaded and expanded files (the service's own copies) go with it; a folder
      // source's files are the user's and stay.
      await storage.removeFolder(path.join(storage.projectFolder(row.project_id), '.uploads', row.id));
    },

    /**
     * Streams an uploaded file to disk (sha256 and size on the way, the limit enforced while it
     * arrives), records it, and starts its load; a file already loaded (same name and checksum) is
     * recorded as skipped_duplicate unless `force`.
     */
    async upload(
      principal: Principal,
      id: string,
      receive: () => Promise<{ filename: string; stream: Readable; truncated(): boolean }>,
      force: boolean,
      context: RequestContext,
    ) {
      // Access first: nothing of the request body is read for a caller who may not upload here.
      const row = await guard.find(principal, id, 'ingestion:run');
      if (row.source.kind !== 'upload') throw notAnUploadIngestion();
      const file = await receive();
      const folder = await storage.uploadFolder(row.project_id, row.id);
      const name = path.basename(file.filename || 'upload');
      const stored = path.join(folder, `${randomUUID()}-${name.replace(/[^\w.-]/g, '_').slice(0, 100)}`);
      const hash = createHash('sha256');
      let size = 0;
      try {
        await pipeline(
          file.stream,
          new Transform({
            transform(chunk: Buffer, _encoding, done) {
              hash.update(chunk);
              size += chunk.length;
              done(null, chunk);
            },
          }),
          createWriteStream(stored),
        );
        if (file.truncated()) throw payloadTooLarge(deps.uploadMaxBytes, 'The file');
      } catch (error) {
        await storage.remove(stored);
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw payloadTooLarge(deps.uploadMaxBytes, 'The file');
        throw error;
      }
      deps.onReceived?.(size);
      const checksum = hash.digest('hex');
      const recorded = await db.transaction().execute(async (trx) => {
        await repository.lock(trx, row.id);
        const twin = force ? undefined : await repository.loadedTwin(trx, row.id, name, checksum);
        const base = {
          ingestion_id: row.id,
          project_id: row.project_id,
          name,
          size: String(size),
          checksum,
          modified_at: null,
          reload_of: null,
          forced: force,
        };
        if (twin)
          return repository.insertFile(trx, { ...base, stored_path: null, status: 'skipped_duplicate' as FileStatus });
        const inserted = await repository.insertFile(trx, { ...base, stored_path: stored });
        const execution = await startRun(trx, row, { file_ids: [inserted.id] }, principal, context);
        return (await repository.updateFile(trx, inserted.id, { execution_id: execution.id }))!;
      });
      if (recorded.status === 'skipped_duplicate') await storage.remove(stored);
      return presentFile(recorded);
    },

    async files(principal: Principal, id: string, query: { status?: FileStatus; limit?: number }) {
      await guard.find(principal, id, 'ingestion:read');
      return { items: (await repository.files(db, id, query)).map(presentFile) };
    },

    async file(principal: Principal, id: string, fileId: string) {
      await guard.find(principal, id, 'ingestion:read');
      const row = await repository.findFile(db, id, fileId);
      if (!row) throw notFound(INGESTED_FILE);
      return presentFile(row);
    },

    /** Loads one file again (forced), as a new history row, from where it is kept. */
    async reload(principal: Principal, id: string, fileId: string, context: RequestContext) {
      const row = await guard.find(principal, id, 'ingestion:run');
      const file = await repository.findFile(db, id, fileId);
      if (!file) throw notFound(INGESTED_FILE);
      if (!file.stored_path || !(await storage.exists(file.stored_path))) throw fileGone();
      const checksum = await checksumOf(file.stored_path);
      const recorded = await db.transaction().execute(async (trx) => {
        const inserted = await repository.insertFile(trx, {
          ingestion_id: row.id,
          project_id: row.project_id,
          name: file.name,
          size: file.size,
          checksum,
          modified_at: file.modified_at,
          stored_path: file.stored_path,
          reload_of: file.id,
          forced: true,
          archive_id: file.archive_id,
          archive_member: file.archive_member,
        });
        // The older row no longer holds the file: only the newest row of a kept file can be reloaded.
        await repository.updateFile(trx, file.id, { stored_path: null });
        const execution = await startRun(trx, row, { file_ids: [inserted.id] }, principal, context);
        return (await repository.updateFile(trx, inserted.id, { execution_id: execution.id }))!;
      });
      return presentFile(recorded);
    },

    /** Looks for new files in the folder source now: a run. */
    async run(principal: Principal, id: string, force: boolean, context: RequestContext) {
      const row = await guard.find(principal, id, 'ingestion:run');
      if (row.source.kind === 'upload') throw notAFolderIngestion();
      const execution = await db
        .transaction()
        .execute((trx) => startRun(trx, row, { scan: true, force }, principal, context));
      return executions.present(execution);
    },

    /** Starts the scheduled looks at folders that are due (any number of processes may call it). */
    async startDue(limit = 20) {
      return db.transaction().execute(async (trx) => {
        const due = await repository.claimDue(trx, limit);
        for (const row of due) await startRun(trx, row, { scan: true }, null, SYSTEM_CONTEXT);
        return due.length;
      });
    },
  };
}
