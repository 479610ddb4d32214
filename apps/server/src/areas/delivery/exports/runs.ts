/**
 * One run of an export: read the source, work out what to send (every row, the rows past the
 * cursor, or the rows added, changed and removed since the previous run's snapshot), send it, and
 * count every row: extracted, added, changed, removed, delivered, failed. The run's outcome, the
 * snapshot, the cursor and the failed rows are committed together with the execution's end.
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { compareCursor, type ColumnSchema, type EgressPolicy, type Log, type Value } from '@svc/engine';
import type { Db } from '../../../platform/db/index.js';
import type { Job, JobQueue } from '../../../platform/jobs.js';
import type { RunRecorder } from '../../operations/executions/recorder.js';
import type {
  DatabaseDestinationConfig,
  FilesDestinationConfig,
  FormatConfig,
  HttpDestinationConfig,
  S3DestinationConfig,
  SftpDestinationConfig,
} from './config.js';
import { s3Uploader } from './s3.js';
import { sftpUploader } from './sftp.js';
import { httpSink } from './http.js';
import { folderInside } from './config.js';
import { ExportFiles, headerLine, lineFormatter } from './files.js';
import type { ExportAccount, ExportFileRecord, ExportRow, ExportsRepository, FailedRowRecord } from './repository.js';
import { tableSink } from './table.js';
import type { MaskingService, ProjectMasker } from '../../governance/masking/service.js';
import type { RowMask } from '../../governance/masking/plan.js';
import type { LineageService } from '../../governance/lineage/service.js';
import { exportLineage } from './lineage.js';
import { copyWarehouseQuery, ExportSourceError, jsonValue, openSource, type SourceDeps } from './source.js';

/** What an export run's execution carries. */
export interface ExportRunParams {
  export_id: string;
  /** The export, as the run's subject (lineage names the run's job after it). */
  subject_id: string;
  export_name: string;
  /** Send every row, whatever the snapshot and the cursor say. */
  full_resync: boolean;
}

export type ChangeKind = 'added' | 'changed' | 'removed';

export interface Change {
  kind: ChangeKind;
  key: string;
  /** One value per column; a removed row has its key values only (the others null). */
  values: Value[];
}

export interface RowFailure {
  key: string;
  reason: string;
}

/** Where the rows go. `deliver` answers the rows that failed, with their reason; the others were delivered. */
export interface Sink {
  deliver(columns: ColumnSchema[], changes: Change[]): Promise<RowFailure[]>;
  finish(): Promise<ExportFileRecord[]>;
  abort(): Promise<void>;
}

export interface RunResult {
  account: ExportAccount;
  files: ExportFileRecord[];
  failures: FailedRowRecord[];
  /** Diff mode: the snapshot's new entries and the keys it loses (failed rows left as they were). */
  snapshot?: { upserts: Map<string, string>; removed: string[] };
  /** Incremental mode: the largest cursor value delivered. */
  cursor?: Value;
}

export const emptyAccount = (): ExportAccount => ({
  extracted: 0,
  added: 0,
  changed: 0,
  removed: 0,
  delivered: 0,
  failed: 0,
});

/** The column that says what happened to a row, in the files of a diff export. */
export const CHANGE_COLUMN = '_change';

const hashOf = (values: Value[]) =>
  createHash('sha1')
    .update(JSON.stringify(values.map(jsonValue)))
    .digest('base64url');

/** A file destination: lines into the parts of the run's files. */
function filesSink(files: ExportFiles, format: FormatConfig, withChange: boolean): Sink {
  let formatRow: ((row: Value[]) => string) | undefined;
  let shown: ColumnSchema[] | undefined;
  let header = '';
  return {
    async deliver(columns, changes) {
      if (!formatRow) {
        shown = withChange
          ? [...columns, { name: CHANGE_COLUMN, type: 'string', sourceType: 'text', nullable: false } as ColumnSchema]
          : columns;
        formatRow = lineFormatter(format, shown);
        header = headerLine(format, shown);
      }
      const rows = changes.map((c) => (withChange ? [...c.values, c.kind] : c.values));
      if (format.type === 'parquet') await files.writeRows(shown!, rows);
      else {
        const line = formatRow;
        await files.writeLines(rows.map(line), header);
      }
      return [];
    },
    finish: () => files.finish(header, shown ?? []),
    abort: () => files.abort(),
  };
}

export interface RunContext {
  row: ExportRow;
  destination: Record<string, unknown>;
  executionId: string;
  runTime: Date;
  fullResync: boolean;
  signal: AbortSignal;
  log: Log;
  onProgress(account: ExportAccount): void;
  /** Whom the rows are masked for (masking policies): the user who started the run, or the export's creator. */
  viewer: string | null;
}

export type ExportRuns = ReturnType<typeof createExportRuns>;

/** What a run reading masked views applies on top: nothing. */
const UNMASKED: ProjectMasker = { active: false, policies: [], columns: () => null, objects: (_columns, rows) => rows };

export function createExportRuns(deps: {
  db: Db;
  repository: ExportsRepository;
  queue: JobQueue;
  recorder: RunRecorder;
  sources: SourceDeps;
  /** What the run's viewer may see (governance/masking): every delivered value goes through it. */
  masking: Pick<MaskingService, 'maskerFor' | 'warehousePlan'>;
  projectFolder(projectId: string): Promise<string>;
  /** What each run read and wrote, recorded with its end. */
  lineage: Pick<LineageService, 'recordRun'>;
  /** Where destinations may connect (platform/egress.ts). */
  egress: EgressPolicy;
}) {
  const { db, repository } = deps;

  const openFiles = async (ctx: RunContext) => {
    const naming = { exportName: ctx.row.name, runTime: ctx.runTime, runId: ctx.executionId };
    const format = ctx.row.format as unknown as FormatConfig;
    if (ctx.destination['kind'] === 's3') {
      // Parts are staged on local disk, then uploaded whole.
      const destination = ctx.destination as unknown as S3DestinationConfig;
      const uploader = s3Uploader(destination, deps.egress);
      const staging = path.join(os.tmpdir(), 'svc-export-staging');
      const files = new ExportFiles(staging, destination, format, naming, staging, async (temp, name) => {
        const { size } = await stat(temp);
        return uploader.upload(temp, name, size, ctx.signal);
      });
      await files.prepare();
      return files;
    }
    if (ctx.destination['kind'] === 'sftp') {
      // Parts are staged on local disk, then uploaded whole under a temporary name and renamed.
      const destination = ctx.destination as unknown as SftpDestinationConfig;
      const uploader = await sftpUploader(destination, deps.egress, ctx.log);
      const staging = path.join(os.tmpdir(), 'svc-export-staging');
      const files = new ExportFiles(
        staging,
        destination,
        format,
        naming,
        staging,
        async (temp, name) => {
          const { size } = await stat(temp);
          return uploader.upload(temp, name, size);
        },
        uploader.close,
      );
      await files.prepare();
      return files;
    }
    const destination = ctx.destination as unknown as FilesDestinationConfig;
    const projectFolder = await deps.projectFolder(ctx.row.project_id);
    const folder = folderInside(projectFolder, destination.folder);
    if (!folder) throw new ExportSourceError("the destination folder is outside the project's folder");
    const files = new ExportFiles(folder, destination, format, naming, projectFolder);
    await files.prepare();
    return files;
  };

  const openSink = async (ctx: RunContext): Promise<Sink> => {
    const kind = String(ctx.destination['kind']);
    if (kind === 'files' || kind === 's3' || kind === 'sftp')
      return filesSink(await openFiles(ctx), ctx.row.format as unknown as FormatConfig, ctx.row.mode === 'diff');
    if (kind === 'http')
      return httpSink(ctx.destination as unknown as HttpDestinationConfig, {
        egress: deps.egress,
        signal: ctx.signal,
        log: ctx.log,
        withChange: ctx.row.mode === 'diff',
      });
    if (kind === 'database')
      return tableSink(ctx.destination as unknown as DatabaseDestinationConfig, ctx.row.key_columns, deps.egress);
    throw new ExportSourceError(`no destination of kind ${kind} on this instance`);
  };

  /** A warehouse query exported whole to one file per run: COPY straight into the file. */
  const fastPath = (ctx: RunContext) =>
    ctx.row.source.kind === 'warehouse_query' &&
    ctx.row.mode === 'full' &&
    (ctx.row.format as unknown as FormatConfig).type !== 'parquet' &&
    ['files', 's3', 'sftp'].includes(String(ctx.destination['kind'])) &&
    (ctx.destination as unknown as FilesDestinationConfig).max_rows_per_file === undefined;

  async function copyRun(ctx: RunContext, sources: SourceDeps): Promise<RunResult> {
    const files = await openFiles(ctx);
    const copy = await copyWarehouseQuery(sources, ctx.row, ctx.row.format as unknown as FormatConfig);
    const abort = () =>
      (copy.stream as unknown as { destroy(error?: Error): void }).destroy(ctx.signal.reason as Error);
    ctx.signal.addEventListener('abort', abort, { once: true });
    try {
      await files.writeStream(copy.stream, () => copy.stream.rowCount);
    } catch (error) {
      await files.abort();
      throw ctx.signal.aborted ? (ctx.signal.reason as Error) : error;
    } finally {
      ctx.signal.removeEventListener('abort', abort);
      await copy.done();
    }
    const rows = copy.stream.rowCount;
    return {
      account: { ...emptyAccount(), extracted: rows, added: rows, delivered: rows },
      files: files.files,
      failures: [],
    };
  }

  /**
   * Reads, works out the changes, delivers them and counts every row (see the module comment).
   * `maskedViews`: the source is masked views of the warehouse (nothing is masked again here).
   */
  async function executeWith(ctx: RunContext, sources: SourceDeps, maskedViews: boolean): Promise<RunResult> {
    const { row, signal } = ctx;
    // A masked run never takes the COPY path: every value goes through the masker.
    // A connector's dataset (or the table a pipeline writes) has its columns' catalog tags: policies
    // by tag apply to them.
    const source = row.source;
    const output =
      source.kind === 'pipeline' && source.pipeline_id ? await sources.pipelineOutput(source.pipeline_id) : undefined;
    const masker: ProjectMasker = maskedViews
      ? UNMASKED
      : await deps.masking.maskerFor(
          ctx.viewer ? { userId: ctx.viewer } : null,
          row.project_id,
          source.kind === 'connector' && source.connector_id && source.dataset
            ? { connectorId: source.connector_id, namespace: source.namespace ?? null, name: source.dataset }
            : output
              ? { connectorId: output.connector_id, namespace: output.namespace, name: output.table }
              : undefined,
        );
    if (!masker.active && fastPath(ctx)) return copyRun(ctx, sources);
    const account = emptyAccount();
    const failures: FailedRowRecord[] = [];
    const mode = row.mode;
    const previous = mode === 'diff' ? await repository.snapshot(db, row.id) : undefined;
    const resync = ctx.fullResync;
    const seen = new Map<string, string>();
    const upserts = new Map<string, string>();
    const after =
      mode === 'incremental' && !resync ? ((await repository.cursor(db, row.id)) as Value | undefined) : undefined;
    const retries = mode === 'incremental' && !resync ? await repository.pendingFailures(db, row.id) : [];
    let cursor: Value | undefined = after;
    const { handle, request } = await openSource(
      sources,
      row,
      ctx.log,
      mode === 'incremental' ? { cursorColumn: row.cursor_column!, after: after ?? undefined } : undefined,
    );
    const sink = await openSink(ctx);
    let columns: ColumnSchema[] | undefined;
    let rowMask: RowMask | null = null;
    let keyMasked = false;
    let keyIndexes: number[] = [];
    let cursorIndex = -1;
    const keyOf = (values: Value[]) =>
      keyIndexes.length ? JSON.stringify(keyIndexes.map((i) => jsonValue(values[i] ?? null))) : hashOf(values);
    const recordOf = (values: Value[]) =>
      Object.fromEntries((columns ?? []).map((c, i) => [c.name, jsonValue(values[i] ?? null)]));
    const send = async (clear: Change[]) => {
      if (!clear.length) return;
      // Keys, cursors and snapshots work on the source's values; what is delivered (and kept of a
      // failed row) is masked.
      const mask = rowMask;
      const changes = mask ? clear.map((c) => ({ ...c, values: mask.row(c.values) })) : clear;
      const failed = await sink.deliver(columns!, changes);
      const byKey = new Map(failed.map((f) => [f.key, f.reason]));
      for (const change of changes) {
        const reason = byKey.get(change.key);
        if (reason !== undefined) {
          account.failed += 1;
          failures.push({
            row_key: keyMasked ? keyOf(change.values) : change.key,
            reason,
            record: recordOf(change.values),
          });
          continue;
        }
        account.delivered += 1;
        if (previous && change.kind !== 'removed') upserts.set(change.key, seen.get(change.key)!);
      }
      ctx.onProgress(account);
    };
    try {
      const sentKeys = new Set<string>();
      for await (const batch of handle.read!(request, signal)) {
        if (!columns) {
          columns = batch.columns;
          const names = columns.map((c) => c.name);
          const keyColumns = row.key_columns;
          for (const key of keyColumns)
            if (!names.includes(key)) throw new ExportSourceError(`key column ${key} is not a column of the source`);
          keyIndexes = keyColumns.map((k) => names.indexOf(k));
          rowMask = masker.columns(columns);
          if (rowMask) {
            keyMasked = keyIndexes.some((i) => columns![i]!.name in rowMask!.masked);
            ctx.log('info', `masked columns: ${Object.keys(rowMask.masked).join(', ')}`, { masked: rowMask.masked });
          }
          if (mode === 'incremental') {
            cursorIndex = names.indexOf(row.cursor_column!);
            if (cursorIndex < 0)
              throw new ExportSourceError(`cursor column ${row.cursor_column} is not a column of the source`);
          }
        }
        account.extracted += batch.rows.length;
        const changes: Change[] = [];
        for (const values of batch.rows) {
          const key = keyOf(values);
          if (cursorIndex >= 0) {
            const value = values[cursorIndex] ?? null;
            if (value !== null && (cursor === undefined || cursor === null || compareCursor(value, cursor) > 0))
              cursor = value;
          }
          if (previous) {
            const hash = hashOf(values);
            if (seen.has(key))
              throw new ExportSourceError(
                `the source key (${row.key_columns.join(', ')}) is not unique: ${key} appears more than once`,
              );
            seen.set(key, hash);
            const before = previous.get(key);
            if (before === undefined) changes.push({ kind: 'added', key, values });
            else if (before !== hash || resync) changes.push({ kind: 'changed', key, values });
            continue;
          }
          if (keyIndexes.length) {
            if (sentKeys.has(key))
              throw new ExportSourceError(
                `the source key (${row.key_columns.join(', ')}) is not unique: ${key} appears more than once`,
              );
            sentKeys.add(key);
          }
          changes.push({ kind: 'added', key, values });
        }
        for (const change of changes) account[change.kind] += 1;
        await send(changes);
        if (signal.aborted) throw signal.reason as Error;
      }
      // Incremental: rows that failed before go again (unless the source sent a newer version of them).
      if (retries.length && columns) {
        const names = columns.map((c) => c.name);
        const changes: Change[] = retries
          .filter((r) => !sentKeys.has(r.row_key))
          .map((r) => ({
            kind: 'added' as const,
            key: r.row_key,
            values: names.map((n) => (r.record[n] ?? null) as Value),
          }));
        account.added += changes.length;
        await send(changes);
      }
      let removed: string[] = [];
      if (previous && columns) {
        const gone = [...previous.keys()].filter((key) => !seen.has(key));
        const changes: Change[] = gone.map((key) => {
          const keyValues = JSON.parse(key) as Value[];
          const values: Value[] = columns!.map(() => null);
          keyIndexes.forEach((index, i) => (values[index] = keyValues[i] ?? null));
          return { kind: 'removed', key, values };
        });
        account.removed += changes.length;
        await send(changes);
        const failedKeys = new Set(failures.map((f) => f.row_key));
        removed = gone.filter((key) => !failedKeys.has(key));
      }
      const files = await sink.finish();
      return {
        account,
        files,
        failures,
        snapshot: previous ? { upserts, removed } : undefined,
        cursor: mode === 'incremental' ? cursor : undefined,
      };
    } catch (error) {
      await sink.abort();
      throw error;
    } finally {
      await handle.close();
    }
  }

  return {
    load: (id: string) => repository.find(db, id),
    begin: (row: { execution_id: string; export_id: string; project_id: string; full_resync: boolean }) =>
      repository.beginRun(db, row),

    /**
     * Reads, works out the changes, delivers them and counts every row (see the module comment). A
     * warehouse query run for a viewer to whom a masking policy applies reads masked views of the
     * project's relations as the project's masked reader role (docs/masking.md): the values come out
     * masked whatever the query renames, and nothing is masked again here (a hash of a hash would
     * not join), so such a run keeps the COPY path.
     */
    async execute(ctx: RunContext): Promise<RunResult> {
      const plan =
        ctx.row.source.kind === 'warehouse_query'
          ? await deps.masking.warehousePlan(ctx.viewer ? { userId: ctx.viewer } : null, ctx.row.project_id)
          : null;
      if (!plan) return executeWith(ctx, deps.sources, false);
      const masked = await deps.sources.maskedReads(ctx.row.project_id, plan);
      if (!masked) throw new ExportSourceError('the built-in warehouse is unavailable on this instance');
      try {
        const sources: SourceDeps = {
          ...deps.sources,
          projectWarehouse: (_projectId, schema) => Promise.resolve(masked.tenant(schema ?? 'main')),
        };
        return await executeWith(ctx, sources, true);
      } finally {
        await masked.release();
      }
    },

    /**
     * Commits the run while `job` holds its lease: its account and files, the snapshot, the cursor,
     * the failed rows, and the execution's end (`partially_failed` when any row failed).
     */
    async complete(job: Job, executionId: string, row: ExportRow, params: ExportRunParams, result: RunResult) {
      const { account } = result;
      const status = account.failed > 0 ? 'partially_failed' : 'succeeded';
      const projectFolder = await deps.projectFolder(row.project_id);
      const pipelineOutput =
        row.source.kind === 'pipeline' && row.source.pipeline_id
          ? await deps.sources.pipelineOutput(row.source.pipeline_id)
          : undefined;
      const error =
        account.failed > 0 ? `${account.failed} of ${account.failed + account.delivered} rows failed` : null;
      await db.transaction().execute(async (trx) => {
        await deps.queue.holdLease(trx, job);
        await repository.finishRun(trx, executionId, { status, error, account, files: result.files });
        if (result.snapshot)
          await repository.updateSnapshot(trx, row.id, result.snapshot.upserts, result.snapshot.removed);
        if (result.cursor !== undefined && result.cursor !== null)
          await repository.saveCursor(trx, row.id, result.cursor);
        await repository.replaceFailures(trx, row.id, executionId, result.failures);
        await deps.lineage.recordRun(
          trx,
          exportLineage({
            runId: executionId,
            row,
            files: result.files,
            delivered: account.delivered,
            projectFolder,
            pipelineOutput,
          }),
        );
        if (params.full_resync) await repository.clearResync(trx, row.id);
        const bytes = result.files.reduce((sum, f) => sum + f.bytes, 0);
        await deps.recorder.complete(
          trx,
          executionId,
          { rows_read: account.extracted, rows_written: account.delivered, bytes_read: 0, bytes_written: bytes },
          { status, error },
        );
      });
      return status;
    },

    /** Records a run's end that is not a completion (failed or cancelled). */
    fail: (executionId: string, status: 'failed' | 'cancelled', error: string | null) =>
      repository.finishRun(db, executionId, { status, error }),
  };
}
