/**
 * Runs a file ingestion: looks for new files in its folder (a scan run) or takes the files recorded
 * for it (uploads, reloads), then loads each one into the destination (loader.ts) and records its
 * history row. A file is claimed under the ingestion's lock, where the duplicate check is made
 * again; the load's write is exactly once per history row (its id is the write's run id), so a run
 * retried after a crash does not load a file twice.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ConnectorHandle, EgressPolicy, Log } from '@svc/engine';
import type { SecretBox } from '../../../platform/secrets.js';
import { folderOf, openS3Source, type S3Source } from './s3-source.js';
import type { Counter } from 'prom-client';
import type { Db } from '../../../platform/db/index.js';
import type { Job, JobHandler, JobQueue } from '../../../platform/jobs.js';
import type { LineageService } from '../../governance/lineage/service.js';
import type { RunRecorder } from '../../operations/executions/recorder.js';
import { settleFailure, watchRun } from '../../operations/executions/run-control.js';
import { convertToNdjson, type ConvertedFormat } from './converters.js';
import { loadFile } from './loader.js';
import type { FileIngestionRow, FileIngestionsRepository, FileRow } from './repository.js';
import { archiveFolderOf, type FileIngestionRunParams } from './service.js';
import { checksumOf, type FileStorage } from './storage.js';

const CONVERTED = new Set(['json', 'xlsx', 'parquet']);

/**
 * A loaded file as lineage names it: an object of the bucket (`s3://<bucket>`, its key), or a file of
 * the project's folder or an upload (`file://<host>`, its path; an upload by its name under the
 * ingestion, as it was sent).
 */
function sourceFileOf(row: FileIngestionRow, name: string, projectFolder: string) {
  if (row.source.kind === 's3')
    return { namespace: `s3://${row.source.bucket}`, name: `${folderOf(row.source)}${name}` };
  if (row.source.kind === 'folder')
    return { namespace: `file://${os.hostname()}`, name: path.join(projectFolder, row.source.path, name) };
  return { namespace: `upload://${row.id}`, name };
}

export interface IngestMetrics {
  items: Counter<'source' | 'outcome'>;
  bytes: Counter<'source' | 'direction'>;
  rows: Counter<'source'>;
}

class RunFailed extends Error {
  readonly retryable = false;
}

export function createFileIngestionHandler(deps: {
  db: Db;
  repository: FileIngestionsRepository;
  storage: FileStorage;
  recorder: RunRecorder;
  queue: JobQueue;
  openConnector: (id: string, log: Log) => Promise<ConnectorHandle>;
  metrics: IngestMetrics;
  box: SecretBox;
  egress: EgressPolicy;
  /** What each run read and wrote, recorded with its success. */
  lineage: Pick<LineageService, 'recordRun'>;
}): JobHandler<'file_ingestion'> {
  const { db, repository, storage, recorder, metrics } = deps;

  const s3Of = (row: FileIngestionRow): S3Source | undefined => {
    if (row.source.kind !== 's3') return undefined;
    const secret = row.source.secret_access_key_encrypted;
    return openS3Source(row.source, secret ? deps.box.decrypt(secret) : undefined, deps.egress);
  };

  /** What a scan finds: files of the folder, or objects of the bucket prefix (fetched into the ingestion's folder when new). */
  const entriesOf = async (row: FileIngestionRow, s3: S3Source | undefined) => {
    if (row.source.kind === 'folder')
      return (await storage.list(row.project_id, row.source.path, row.source.glob ?? '*', archiveFolderOf(row))).map(
        (e) => ({ ...e, fetch: async () => e.path }),
      );
    if (!s3) return [];
    const folder = await storage.uploadFolder(row.project_id, row.id);
    return (await s3.list(archiveFolderOf(row))).map((object) => ({
      name: object.name,
      path: undefined as string | undefined,
      size: object.size,
      modifiedAt: object.modifiedAt,
      async fetch() {
        const target = path.join(folder, `${randomUUID()}-${path.posix.basename(object.key).replace(/[^\w.-]/g, '_')}`);
        await s3.download(object.key, target);
        return target;
      },
    }));
  };

  /** Records the files of the source not seen before, as pending rows of this run. */
  const scan = async (row: FileIngestionRow, executionId: string, force: boolean, log: Log, s3?: S3Source) => {
    if (row.source.kind === 'upload') return [];
    const entries = await entriesOf(row, s3);
    const ids: string[] = [];
    let unchanged = 0;
    for (const entry of entries) {
      if (!force && (await repository.seen(db, row.id, entry.name, entry.size, entry.modifiedAt))) {
        unchanged += 1;
        continue;
      }
      const local = await entry.fetch();
      const checksum = await checksumOf(local);
      const id = await db.transaction().execute(async (trx) => {
        await repository.lock(trx, row.id);
        if (!force && (await repository.seen(trx, row.id, entry.name, entry.size, entry.modifiedAt))) return undefined;
        const twin = force ? undefined : await repository.loadedTwin(trx, row.id, entry.name, checksum);
        const inserted = await repository.insertFile(trx, {
          ingestion_id: row.id,
          project_id: row.project_id,
          name: entry.name,
          size: String(entry.size),
          checksum,
          modified_at: entry.modifiedAt,
          stored_path: local,
          reload_of: null,
          forced: force,
          execution_id: executionId,
          ...(twin ? { status: 'skipped_duplicate' as const } : {}),
        });
        metrics.items.inc({ source: 'file', outcome: twin ? 'skipped' : 'received' });
        return twin ? undefined : inserted.id;
      });
      if (id) ids.push(id);
      else if (local !== entry.path) await storage.remove(local); // a downloaded copy not loaded
    }
    log('info', `found ${entries.length} file(s) matching; ${ids.length} to load, ${unchanged} unchanged since seen`);
    return ids;
  };

  /** Claims a pending file for this run, or marks it a duplicate when a twin was loaded meanwhile. */
  const claim = (file: FileRow, executionId: string) =>
    db.transaction().execute(async (trx) => {
      await repository.lock(trx, file.ingestion_id);
      const current = await repository.findFile(trx, file.ingestion_id, file.id);
      if (!current || !['pending', 'loading'].includes(current.status)) return undefined;
      if (!current.forced) {
        const twin = await repository.loadedTwin(trx, file.ingestion_id, file.name, file.checksum, file.id);
        if (twin) {
          await repository.updateFile(trx, file.id, { status: 'skipped_duplicate', finished_at: new Date() });
          return undefined;
        }
      }
      return repository.updateFile(trx, file.id, { status: 'loading', execution_id: executionId });
    });

  return async (job: Job<'file_ingestion'>, leaseSignal: AbortSignal) => {
    const executionId = job.payload.execution_id;
    const execution = await recorder.start(executionId);
    if (!execution) return;
    const params = execution.params as unknown as FileIngestionRunParams;
    const log: Log = (level, message, fields) =>
      void recorder.log(executionId, level, message, fields).catch(() => undefined);
    const watch = watchRun(recorder, executionId, leaseSignal);
    let handle: ConnectorHandle | undefined;
    let s3: S3Source | undefined;
    const totals = { rows_read: 0, rows_written: 0, bytes_read: 0, bytes_written: 0 };
    try {
      const row = await repository.find(db, params.ingestion_id);
      if (!row) throw new RunFailed('the file ingestion was deleted');
      const ids = [
        ...(params.file_ids ?? []),
        ...(params.scan ? await scan(row, executionId, !!params.force, log, (s3 = s3Of(row))) : []),
      ];
      // A retried run also finds the files its earlier attempt recorded.
      const earlier = await db
        .selectFrom('file_ingestion_files')
        .select('id')
        .where('execution_id', '=', executionId)
        .where('status', 'in', ['pending', 'loading'])
        .execute();
      const files = await repository.filesByIds(db, [...new Set([...ids, ...earlier.map((e) => e.id)])]);
      let failed = 0;
      const loadedFiles: string[] = [];
      for (const file of files) {
        if (watch.signal.aborted) throw watch.signal.reason as Error;
        const claimed = await claim(file, executionId);
        if (!claimed) {
          log('info', `${file.name}: skipped (already loaded, or taken by another run)`);
          continue;
        }
        if (!claimed.stored_path || !(await storage.exists(claimed.stored_path))) {
          await repository.updateFile(db, file.id, {
            status: 'failed',
            first_error: { line: 0, column: null, message: 'the file is no longer there' },
            finished_at: new Date(),
          });
          failed += 1;
          continue;
        }
        handle ??= await deps.openConnector(row.destination.connector_id, log);
        log('info', `${file.name}: loading (${Number(file.size)} bytes)`);
        let outcome;
        // JSON documents, workbooks and Parquet files are converted to NDJSON first, then loaded as such.
        const converted = CONVERTED.has(row.format.type)
          ? path.join(os.tmpdir(), `svc-convert-${randomUUID()}.ndjson`)
          : undefined;
        try {
          if (converted) await convertToNdjson(claimed.stored_path, row.format.type as ConvertedFormat, converted);
          const spec = converted ? { ...row, format: { type: 'ndjson' as const } } : row;
          outcome = await loadFile(handle, converted ?? claimed.stored_path, file.name, spec, {
            runId: `file:${file.id}`,
            signal: watch.signal,
            onProgress: (rows, bytes) =>
              void recorder
                .progress(executionId, {
                  ...totals,
                  rows_read: totals.rows_read + rows,
                  bytes_read: totals.bytes_read + bytes,
                })
                .catch(() => undefined),
          });
        } catch (error) {
          if (watch.signal.aborted) throw watch.signal.reason as Error;
          outcome = {
            status: 'failed' as const,
            rowsParsed: 0,
            rowsLoaded: 0,
            errorCount: 0,
            firstError: null,
            bytesRead: 0,
            bytesWritten: 0,
            reason: (error as Error).message,
          };
        } finally {
          if (converted) await rm(converted, { force: true });
        }
        // Post action on what was loaded; a failed file stays where it is, to be fixed and reloaded.
        let storedPath: string | null = claimed.stored_path;
        if (outcome.status !== 'failed') {
          try {
            if (row.post_action === 'delete') {
              await storage.remove(claimed.stored_path);
              storedPath = null;
              if (s3 && row.source.kind === 's3') await s3.remove(`${folderOf(row.source)}${file.name}`);
            } else if (row.post_action === 'archive' && row.source.kind === 'folder')
              storedPath = await storage.archive(row.project_id, claimed.stored_path, archiveFolderOf(row));
            else if (row.post_action === 'archive' && s3 && row.source.kind === 's3')
              await s3.archive(`${folderOf(row.source)}${file.name}`, archiveFolderOf(row));
          } catch (error) {
            log(
              'warn',
              `${file.name}: loaded, but the post action ${row.post_action} failed: ${(error as Error).message}`,
            );
          }
        }
        await repository.updateFile(db, file.id, {
          status: outcome.status,
          rows_parsed: String(outcome.rowsParsed),
          rows_loaded: String(outcome.rowsLoaded),
          error_count: outcome.errorCount,
          first_error:
            outcome.firstError ?? (outcome.reason ? { line: 0, column: null, message: outcome.reason } : null),
          stored_path: storedPath,
          finished_at: new Date(),
        });
        if (outcome.status !== 'failed') loadedFiles.push(file.name);
        totals.rows_read += outcome.rowsParsed;
        totals.rows_written += outcome.rowsLoaded;
        totals.bytes_read += outcome.bytesRead;
        totals.bytes_written += outcome.bytesWritten;
        metrics.items.inc({ source: 'file', outcome: outcome.status === 'failed' ? 'rejected' : 'loaded' });
        metrics.bytes.inc({ source: 'file', direction: 'loaded' }, outcome.status === 'failed' ? 0 : outcome.bytesRead);
        metrics.rows.inc({ source: 'file' }, outcome.rowsLoaded);
        const summary = `${outcome.rowsLoaded} of ${outcome.rowsParsed} rows loaded, ${outcome.errorCount} error(s)`;
        if (outcome.status === 'failed') {
          failed += 1;
          log('error', `${file.name}: failed: ${outcome.reason ?? outcome.firstError?.message}`);
          if (row.on_error === 'abort')
            throw new RunFailed(`${file.name} failed (on_error abort): ${outcome.reason ?? 'see the file history'}`);
        } else log(outcome.status === 'loaded' ? 'info' : 'warn', `${file.name}: ${outcome.status}: ${summary}`);
      }
      await db.transaction().execute(async (trx) => {
        await deps.queue.holdLease(trx, job);
        if (loadedFiles.length)
          await deps.lineage.recordRun(trx, {
            runId: executionId,
            projectId: row.project_id,
            job: { kind: 'file_ingestion', itemId: row.id },
            inputs: loadedFiles.map((name) => ({ ol: sourceFileOf(row, name, storage.projectFolder(row.project_id)) })),
            outputs: [
              {
                connector_id: row.destination.connector_id,
                namespace: row.destination.namespace ?? null,
                name: row.destination.table,
                rowCount: totals.rows_written,
              },
            ],
          });
        await recorder.succeed(trx, executionId, totals);
      });
      log(
        'info',
        `run finished: ${files.length} file(s), ${failed} failed, ${totals.rows_written} rows loaded`,
        totals,
      );
    } catch (error) {
      const reason = watch.signal.aborted ? (watch.signal.reason as Error) : (error as Error);
      await recorder.progress(executionId, totals).catch(() => undefined);
      await settleFailure(recorder, job, executionId, reason, leaseSignal, log, 'file ingestion');
    } finally {
      watch.stop();
      await handle?.close();
      s3?.close();
    }
  };
}
