/**
 * Runs a file ingestion: looks for new files in its folder (a scan run) or takes the files recorded
 * for it (uploads, reloads), then loads each one into the destination (loader.ts) and records its
 * history row. A file is claimed under the ingestion's lock, where the duplicate check is made
 * again; the load's write is exactly once per history row (its id is the write's run id), so a run
 * retried after a crash does not load a file twice. A zip archive is expanded (archives.ts) and each
 * member it has is a history row of its own, loaded in turn; the archive's row sums them up.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ConnectorHandle, EgressPolicy, Log } from '@svc/engine';
import type { SecretBox } from '../../../platform/secrets.js';
import { ArchiveRejected, expandZip, isZip, memberGlobOf, memberMatcher, type ArchiveLimits } from './archives.js';
import { folderOf, openS3Source } from './s3-source.js';
import {
  openSftpSource,
  remoteDirOf,
  sftpNamespaceOf,
  type SftpConnectorConfig,
  type SftpSourceSpec,
} from './sftp-source.js';
import type { Counter } from 'prom-client';
import type { Db } from '../../../platform/db/index.js';
import type { Job, JobHandler, JobQueue } from '../../../platform/jobs.js';
import type { LineageService } from '../../governance/lineage/service.js';
import type { RunRecorder } from '../../operations/executions/recorder.js';
import { settleFailure, watchRun } from '../../operations/executions/run-control.js';
import { convertToNdjson, type ConvertedFormat } from './converters.js';
import { loadFile, noRowsYet, type LoadOutcome } from './loader.js';
import type { FileIngestionRow, FileIngestionsRepository, FileRow } from './repository.js';
import { archiveFolderOf, type FileIngestionRunParams } from './service.js';
import { checksumOf, type FileStorage } from './storage.js';

const CONVERTED = new Set(['json', 'xlsx', 'parquet']);

/**
 * A loaded file as lineage names it: an object of the bucket (`s3://<bucket>`, its key), a file of an
 * SFTP server (`sftp://<host>:<port>`, its absolute path), a file of the project's folder or an upload
 * (`file://<host>`, its path; an upload by its name under the ingestion, as it was sent). A member of
 * a zip archive is named by its archive.
 */
function sourceFileOf(
  row: FileIngestionRow,
  name: string,
  projectFolder: string,
  sftp: SftpConnectorConfig | undefined,
) {
  if (row.source.kind === 's3')
    return { namespace: `s3://${row.source.bucket}`, name: `${folderOf(row.source)}${name}` };
  if (row.source.kind === 'sftp' && sftp)
    return { namespace: sftpNamespaceOf(sftp), name: path.posix.join(remoteDirOf(sftp, row.source.path), name) };
  if (row.source.kind === 'folder')
    return { namespace: `file://${os.hostname()}`, name: path.join(projectFolder, row.source.path, name) };
  return { namespace: `upload://${row.id}`, name };
}

/** A remote source (a bucket prefix, an SFTP directory), opened for a scan: its files by name. */
interface RemoteSource {
  list(skip: string | undefined): Promise<Array<{ name: string; size: number; modifiedAt: Date }>>;
  download(name: string, target: string): Promise<void>;
  remove(name: string): Promise<unknown>;
  archive(name: string, archiveDir: string): Promise<string>;
  close(): unknown;
}

const failedOutcome = (reason: string): LoadOutcome => ({ ...noRowsYet('failed'), reason });

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
  /** A connector's kind, project and decrypted configuration: an SFTP source logs in with it. */
  connectorConfig: (id: string) => Promise<{ kind: string; project_id: string; config: Record<string, unknown> }>;
  /** Limits of zip archives (against zip bombs). */
  archiveLimits: ArchiveLimits;
  metrics: IngestMetrics;
  box: SecretBox;
  egress: EgressPolicy;
  /** What each run read and wrote, recorded with its success. */
  lineage: Pick<LineageService, 'recordRun'>;
}): JobHandler<'file_ingestion'> {
  const { db, repository, storage, recorder, metrics } = deps;

  /** The sftp connector an SFTP source names, checked to still be one of the ingestion's project. */
  const sftpConfigOf = async (row: FileIngestionRow, source: SftpSourceSpec) => {
    const connector = await deps.connectorConfig(source.connector_id).catch((error: Error) => {
      throw new RunFailed(`the SFTP source's connector: ${error.message}`);
    });
    if (connector.kind !== 'sftp' || connector.project_id !== row.project_id)
      throw new RunFailed("the SFTP source's connector is no longer an sftp connector of the project");
    return connector.config as unknown as SftpConnectorConfig;
  };

  /** Opens a bucket prefix or an SFTP directory for a scan; undefined for the other sources. */
  const remoteOf = async (row: FileIngestionRow, log: Log): Promise<RemoteSource | undefined> => {
    const source = row.source;
    if (source.kind === 's3') {
      const secret = source.secret_access_key_encrypted;
      const s3 = await openS3Source(source, secret ? deps.box.decrypt(secret) : undefined, deps.egress);
      const keyOf = (name: string) => `${folderOf(source)}${name}`;
      return {
        list: (skip) => s3.list(skip),
        download: (name, target) => s3.download(keyOf(name), target),
        remove: (name) => s3.remove(keyOf(name)),
        archive: (name, dir) => s3.archive(keyOf(name), dir),
        close: () => s3.close(),
      };
    }
    if (source.kind === 'sftp') {
      const sftp = await openSftpSource(source, await sftpConfigOf(row, source), deps.egress, log);
      const pathOf = (name: string) => path.posix.join(sftp.folder, name);
      return {
        list: (skip) => sftp.list(skip),
        download: (name, target) => sftp.download(pathOf(name), target),
        remove: (name) => sftp.remove(pathOf(name)),
        archive: (name, dir) => sftp.archive(pathOf(name), dir),
        close: () => sftp.close(),
      };
    }
    return undefined;
  };

  /** What a scan finds: files of the folder, or of the remote source (fetched into the ingestion's folder when new). */
  const entriesOf = async (row: FileIngestionRow, remote: RemoteSource | undefined) => {
    if (row.source.kind === 'folder')
      return (await storage.list(row.project_id, row.source.path, row.source.glob ?? '*', archiveFolderOf(row))).map(
        (e) => ({ ...e, fetch: async () => e.path }),
      );
    if (!remote) return [];
    const folder = await storage.uploadFolder(row.project_id, row.id);
    return (await remote.list(archiveFolderOf(row))).map((file) => ({
      name: file.name,
      path: undefined as string | undefined,
      size: file.size,
      modifiedAt: file.modifiedAt,
      async fetch() {
        const target = path.join(folder, `${randomUUID()}-${path.posix.basename(file.name).replace(/[^\w.-]/g, '_')}`);
        await remote.download(file.name, target);
        return target;
      },
    }));
  };

  /** Records the files of the source not seen before, as pending rows of this run. */
  const scan = async (
    row: FileIngestionRow,
    executionId: string,
    force: boolean,
    log: Log,
    remote: RemoteSource | undefined,
  ) => {
    if (row.source.kind === 'upload') return [];
    const entries = await entriesOf(row, remote);
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
    let remote: RemoteSource | undefined;
    const totals = { rows_read: 0, rows_written: 0, bytes_read: 0, bytes_written: 0 };

    /** Loads one file (a file, or an archive's member) from its stored copy; a failure is an outcome, not a throw. */
    const loadOne = async (row: FileIngestionRow, file: FileRow, storedPath: string): Promise<LoadOutcome> => {
      handle ??= await deps.openConnector(row.destination.connector_id, log);
      log('info', `${file.name}: loading (${Number(file.size)} bytes)`);
      // A member is one file of its own: its own name says whether it is gzipped, never the archive's setting.
      const format = file.archive_member ? { ...row.format, compression: 'auto' as const } : row.format;
      // JSON documents, workbooks and Parquet files are converted to NDJSON first, then loaded as such.
      const converted = CONVERTED.has(row.format.type)
        ? path.join(os.tmpdir(), `svc-convert-${randomUUID()}.ndjson`)
        : undefined;
      try {
        if (converted) await convertToNdjson(storedPath, row.format.type as ConvertedFormat, converted);
        const spec = converted ? { ...row, format: { type: 'ndjson' as const } } : { ...row, format };
        return await loadFile(handle, converted ?? storedPath, file.name, spec, {
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
        return failedOutcome((error as Error).message);
      } finally {
        if (converted) await rm(converted, { force: true });
      }
    };

    /** Records a file's outcome in its history row and in the run's totals and the metrics. */
    const settle = async (file: FileRow, outcome: LoadOutcome, storedPath: string | null) => {
      await repository.updateFile(db, file.id, {
        status: outcome.status,
        rows_parsed: String(outcome.rowsParsed),
        rows_loaded: String(outcome.rowsLoaded),
        error_count: outcome.errorCount,
        first_error: outcome.firstError ?? (outcome.reason ? { line: 0, column: null, message: outcome.reason } : null),
        stored_path: storedPath,
        finished_at: new Date(),
      });
      totals.rows_read += outcome.rowsParsed;
      totals.rows_written += outcome.rowsLoaded;
      totals.bytes_read += outcome.bytesRead;
      totals.bytes_written += outcome.bytesWritten;
      metrics.items.inc({ source: 'file', outcome: outcome.status === 'failed' ? 'rejected' : 'loaded' });
      metrics.bytes.inc({ source: 'file', direction: 'loaded' }, outcome.status === 'failed' ? 0 : outcome.bytesRead);
      metrics.rows.inc({ source: 'file' }, outcome.rowsLoaded);
      const summary = `${outcome.rowsLoaded} of ${outcome.rowsParsed} rows loaded, ${outcome.errorCount} error(s)`;
      if (outcome.status === 'failed')
        log('error', `${file.name}: failed: ${outcome.reason ?? outcome.firstError?.message}`);
      else log(outcome.status === 'loaded' ? 'info' : 'warn', `${file.name}: ${outcome.status}: ${summary}`);
    };

    /**
     * A zip archive: its members expanded, each recorded as a file of its own (a member loaded before,
     * same name and checksum, is a duplicate unless the archive was forced) and loaded; answers the
     * archive's own outcome, summed over its members. A run retried after a crash finds the members
     * its earlier attempt recorded and loads those still pending.
     */
    const loadArchive = async (
      row: FileIngestionRow,
      archive: FileRow,
      storedPath: string,
    ): Promise<LoadOutcome & { membersFailed: number }> => {
      let members = await repository.members(db, archive.id);
      if (members.length === 0) {
        const folder = await storage.uploadFolder(row.project_id, row.id);
        let expanded;
        try {
          expanded = await expandZip(storedPath, folder, memberMatcher(row.format), deps.archiveLimits, watch.signal);
        } catch (error) {
          if (watch.signal.aborted) throw watch.signal.reason as Error;
          if (error instanceof ArchiveRejected) return { ...failedOutcome(error.message), membersFailed: 0 };
          throw error;
        }
        log(
          'info',
          `${archive.name}: zip archive with ${expanded.members.length} member(s) to load, ${expanded.ignored} not matching`,
        );
        if (expanded.members.length === 0)
          return {
            ...failedOutcome(`the zip archive has no member matching ${memberGlobOf(row.format)}`),
            membersFailed: 0,
          };
        for (const member of expanded.members) {
          const name = `${archive.name}/${member.member}`;
          const twin = await db.transaction().execute(async (trx) => {
            await repository.lock(trx, row.id);
            const found = archive.forced ? undefined : await repository.loadedTwin(trx, row.id, name, member.checksum);
            await repository.insertFile(trx, {
              ingestion_id: row.id,
              project_id: row.project_id,
              name,
              size: String(member.size),
              checksum: member.checksum,
              modified_at: null,
              stored_path: found ? null : member.path,
              reload_of: null,
              forced: archive.forced,
              execution_id: executionId,
              archive_id: archive.id,
              archive_member: member.member,
              ...(found ? { status: 'skipped_duplicate' as const } : {}),
            });
            return found;
          });
          if (twin) {
            await storage.remove(member.path);
            metrics.items.inc({ source: 'file', outcome: 'skipped' });
            log('info', `${name}: skipped (loaded before with the same checksum)`);
          }
        }
        members = await repository.members(db, archive.id);
      }
      for (const member of members) {
        if (watch.signal.aborted) throw watch.signal.reason as Error;
        const claimed = await claim(member, executionId);
        if (!claimed) continue;
        const outcome =
          claimed.stored_path && (await storage.exists(claimed.stored_path))
            ? await loadOne(row, claimed, claimed.stored_path)
            : failedOutcome('the file is no longer there');
        let kept = claimed.stored_path;
        if (outcome.status !== 'failed' && row.post_action === 'delete' && kept) {
          await storage.remove(kept);
          kept = null;
        }
        await settle(claimed, outcome, kept);
        if (outcome.status === 'failed' && row.on_error === 'abort') break;
      }
      // The archive's own row: the sum of its members.
      const settled = await repository.members(db, archive.id);
      const loaded = settled.filter((m) => m.status === 'loaded' || m.status === 'partially_loaded');
      const failed = settled.filter((m) => m.status === 'failed');
      const firstFailed = failed[0];
      const sum = (pick: (m: FileRow) => number) => settled.reduce((n, m) => n + pick(m), 0);
      return {
        status:
          loaded.length === 0
            ? failed.length
              ? 'failed'
              : 'loaded'
            : failed.length || loaded.some((m) => m.status === 'partially_loaded')
              ? 'partially_loaded'
              : 'loaded',
        rowsParsed: sum((m) => Number(m.rows_parsed)),
        rowsLoaded: sum((m) => Number(m.rows_loaded)),
        errorCount: sum((m) => m.error_count),
        firstError: firstFailed
          ? {
              line: firstFailed.first_error?.line ?? 0,
              column: firstFailed.first_error?.column ?? null,
              message: `${firstFailed.archive_member}: ${firstFailed.first_error?.message ?? 'failed'}`,
            }
          : (settled.find((m) => m.first_error)?.first_error ?? null),
        bytesRead: 0,
        bytesWritten: 0,
        ...(failed.length && !loaded.length ? { reason: `${failed.length} member(s) failed` } : {}),
        membersFailed: failed.length,
      };
    };

    try {
      const row = await repository.find(db, params.ingestion_id);
      if (!row) throw new RunFailed('the file ingestion was deleted');
      if (params.scan) remote = await remoteOf(row, log);
      const ids = [
        ...(params.file_ids ?? []),
        ...(params.scan ? await scan(row, executionId, !!params.force, log, remote) : []),
      ];
      // A retried run also finds the files its earlier attempt recorded.
      const earlier = await db
        .selectFrom('file_ingestion_files')
        .select('id')
        .where('execution_id', '=', executionId)
        .where('status', 'in', ['pending', 'loading'])
        .execute();
      const all = await repository.filesByIds(db, [...new Set([...ids, ...earlier.map((e) => e.id)])]);
      // Members of an archive of this run are loaded with their archive.
      const inRun = new Set(all.map((f) => f.id));
      const files = all.filter((f) => !f.archive_id || !inRun.has(f.archive_id));
      let failed = 0;
      const loadedFiles = new Set<string>();
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
        const archive = !claimed.archive_member && isZip(row.format, file.name);
        const outcome: LoadOutcome & { membersFailed?: number } = archive
          ? await loadArchive(row, claimed, claimed.stored_path)
          : await loadOne(row, claimed, claimed.stored_path);
        // Post action on what was loaded; a failed file stays where it is, to be fixed and reloaded.
        // An archive's member has none of its own: the archive is what the source holds.
        let storedPath: string | null = claimed.stored_path;
        if (outcome.status !== 'failed' && !claimed.archive_member) {
          try {
            if (row.post_action === 'delete') {
              await storage.remove(claimed.stored_path);
              storedPath = null;
              if (remote) await remote.remove(file.name);
            } else if (row.post_action === 'archive' && row.source.kind === 'folder')
              storedPath = await storage.archive(row.project_id, claimed.stored_path, archiveFolderOf(row));
            else if (row.post_action === 'archive' && remote) await remote.archive(file.name, archiveFolderOf(row));
          } catch (error) {
            log(
              'warn',
              `${file.name}: loaded, but the post action ${row.post_action} failed: ${(error as Error).message}`,
            );
          }
        }
        if (archive) {
          // The members' rows and totals are recorded already: the archive's row only.
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
          const summary = `${outcome.rowsLoaded} of ${outcome.rowsParsed} rows loaded, ${outcome.errorCount} error(s)`;
          if (outcome.status === 'failed')
            log('error', `${file.name}: failed: ${outcome.reason ?? outcome.firstError?.message}`);
          else log(outcome.status === 'loaded' ? 'info' : 'warn', `${file.name}: ${outcome.status}: ${summary}`);
        } else await settle(claimed, outcome, storedPath);
        if (outcome.status !== 'failed')
          loadedFiles.add(claimed.archive_member ? file.name.slice(0, -claimed.archive_member.length - 1) : file.name);
        if (outcome.status === 'failed' || outcome.membersFailed) {
          failed += 1;
          if (row.on_error === 'abort')
            throw new RunFailed(
              `${file.name} failed (on_error abort): ${outcome.reason ?? outcome.firstError?.message ?? 'see the file history'}`,
            );
        }
      }
      const sftp = row.source.kind === 'sftp' && loadedFiles.size ? await sftpConfigOf(row, row.source) : undefined;
      await db.transaction().execute(async (trx) => {
        await deps.queue.holdLease(trx, job);
        if (loadedFiles.size)
          await deps.lineage.recordRun(trx, {
            runId: executionId,
            projectId: row.project_id,
            job: { kind: 'file_ingestion', itemId: row.id },
            inputs: [...loadedFiles].map((name) => ({
              ol: sourceFileOf(row, name, storage.projectFolder(row.project_id), sftp),
            })),
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
      await remote?.close();
    }
  };
}
