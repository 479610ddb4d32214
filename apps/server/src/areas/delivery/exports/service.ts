/**
 * Exports: a dataset of a project (a SELECT over its own warehouse schema, or a dataset of one of its
 * data connectors) delivered to a destination. A run is an execution (kind `export`) carrying the
 * export's id; the worker reads the export as it is when the run starts.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import type { EgressPolicy, Log } from '@svc/engine';
import type { Counter } from 'prom-client';
import type { Principal } from '../../../platform/authn.js';
import { resourceGuard, type ProjectAccess } from '../../../platform/authz.js';
import { auditedWrites } from '../../../platform/audited-writes.js';
import { savepoint, type Db } from '../../../platform/db/index.js';
import { forbidden, notFound, validationFailed, type FieldError } from '../../../platform/errors/index.js';
import { SYSTEM_CONTEXT, type RequestContext } from '../../../platform/request-context.js';
import { fire, firstDue, mergeTiming, timingProblems, type TimingInput } from '../../../platform/schedule-timing.js';
import type { SecretBox } from '../../../platform/secrets.js';
import type { AuditService } from '../../audit/service.js';
import type { ExecutionsService } from '../../operations/executions/service.js';
import { EXPORT, exportBusy, exportNameTaken } from '../errors.js';
import type { ExportRunParams } from './runs.js';
import {
  checkDestination,
  checkFormat,
  FILE_DESTINATIONS,
  folderInside,
  secretFieldsOf,
  type DatabaseDestinationConfig,
  type S3DestinationConfig,
  type SftpDestinationConfig,
} from './config.js';
import { s3ClientOf } from './s3.js';
import type { PipelineOutput } from './source.js';
import { openSftpStore, sftpPathOf } from './sftp.js';
import type {
  ExportChanges,
  ExportMode,
  ExportRow,
  ExportRunRow,
  ExportSchedule,
  ExportsRepository,
  ExportSourceSpec,
} from './repository.js';
import { authorship } from '../../../platform/presenters.js';

export interface ExportInput {
  project_id: string;
  name: string;
  description?: string;
  source: ExportSourceSpec;
  columns?: string[] | null;
  filter?: string | null;
  destination: Record<string, unknown>;
  format?: Record<string, unknown>;
  mode?: ExportMode;
  key_columns?: string[];
  cursor_column?: string | null;
  schedule?: ScheduleInput | null;
}

/** A schedule as given: every field optional (a patch merges into the stored schedule). */
export interface ScheduleInput extends TimingInput {
  missed_policy?: 'skip' | 'run_once';
  paused?: boolean;
}

/** Exports a schedule tick handles at most; a full batch means more may be due. */
export const TICK_BATCH = 20;

export type ExportPatchInput = Partial<Omit<ExportInput, 'project_id'>>;

/** What the service needs to know of a data connector an export reads. */
export interface ConnectorFacts {
  project_id: string;
  kind: string;
  capabilities: { read: boolean };
}

export const presentExport = (row: ExportRow) => ({
  id: row.id,
  project_id: row.project_id,
  name: row.name,
  description: row.description,
  source: { ...row.source },
  columns: row.columns,
  filter: row.filter,
  destination: row.destination,
  secrets_set: Object.keys(row.secrets).sort(),
  format: row.format,
  mode: row.mode,
  key_columns: row.key_columns,
  cursor_column: row.cursor_column,
  schedule: row.schedule && {
    cron: row.schedule.cron,
    timezone: row.schedule.timezone,
    interval_seconds: row.schedule.interval_seconds,
    missed_policy: row.schedule.missed_policy,
    paused: row.schedule.paused,
    next_due_at: row.next_due_at?.toISOString() ?? null,
    owner_id: row.schedule.owner_id ?? row.created_by,
  },
  ...authorship(row),
});

export const presentRun = (row: ExportRunRow, status: string = row.status) => ({
  execution_id: row.execution_id,
  export_id: row.export_id,
  status,
  trigger: row.trigger,
  full_resync: row.full_resync,
  extracted: Number(row.extracted),
  added: Number(row.added),
  changed: Number(row.changed),
  removed: Number(row.removed),
  delivered: Number(row.delivered),
  failed: Number(row.failed),
  files: row.files,
  error: row.error,
  started_at: row.started_at.toISOString(),
  finished_at: row.finished_at?.toISOString() ?? null,
});

/**
 * The schedule to store, merged over the stored one (a cron given replaces an interval and the other
 * way round), with its problems named under `schedule.`; null removes the schedule.
 */
export function scheduleOf(
  given: ScheduleInput | null,
  stored: ExportSchedule | null,
  ownerId: string | null,
): { schedule: ExportSchedule | null; problems: FieldError[] } {
  if (given === null) return { schedule: null, problems: [] };
  const schedule: ExportSchedule = {
    ...mergeTiming(given, stored),
    missed_policy: given.missed_policy ?? stored?.missed_policy ?? 'skip',
    paused: given.paused ?? stored?.paused ?? false,
    owner_id: ownerId,
  };
  return { schedule, problems: timingProblems(schedule, 'schedule.') };
}

/** When a schedule is next due from now: never without one or while it is paused. */
const firstDueOf = (schedule: ExportSchedule | null, now = new Date()) =>
  schedule && !schedule.paused ? firstDue(schedule, now) : null;

export type ExportsService = ReturnType<typeof createExportsService>;

export function createExportsService(
  deps: ProjectAccess & {
    db: Db;
    repository: ExportsRepository;
    audit: AuditService;
    box: SecretBox;
    describeConnector(principal: Principal, id: string): Promise<ConnectorFacts>;
    executions: ExecutionsService;
    projectFolder(projectId: string): Promise<string>;
    pipelineOutput(id: string): Promise<PipelineOutput | undefined>;
    /** Where a download from a remote destination (S3, SFTP) may connect. */
    egress: EgressPolicy;
    log: Log;
    /** How late a scheduled run may start; due times older than this are missed (SVC_SCHEDULER_GRACE_SECONDS). */
    graceMs: number;
    /** Due times handled by the schedule tick, by outcome. */
    firings?: Counter<'outcome'>;
  },
) {
  const { db, repository, authorize, box, executions } = deps;
  const writes = auditedWrites<ExportRow>(deps, { kind: 'export', label: EXPORT, nameTaken: exportNameTaken });
  const executionStatus = async (id: string) => (await executions.find(id))?.status;

  // One check for an export and the list of exports.
  const guard = resourceGuard(deps, EXPORT, (id) => repository.find(db, id), {
    capabilities: ['export:read', 'export:write', 'export:run'],
  });

  /** Every problem of a definition, each naming its field; fills in the defaults of destination and format. */
  const problemsOf = async (principal: Principal, projectId: string, input: Omit<ExportInput, 'project_id'>) => {
    const problems: FieldError[] = [];
    const { source } = input;
    if (source.kind !== 'pipeline' && source.pipeline_id !== undefined)
      problems.push({ path: 'source.pipeline_id', message: 'belongs to a pipeline source' });
    if (source.kind === 'warehouse_query') {
      if (!source.query) problems.push({ path: 'source.query', message: 'is required for a warehouse_query source' });
      for (const field of ['connector_id', 'dataset', 'namespace'] as const)
        if (source[field] !== undefined)
          problems.push({ path: `source.${field}`, message: 'belongs to a connector source' });
    } else if (source.kind === 'pipeline') {
      for (const field of ['query', 'schema', 'connector_id', 'dataset', 'namespace'] as const)
        if (source[field] !== undefined)
          problems.push({ path: `source.${field}`, message: 'a pipeline source names only pipeline_id' });
      if (input.filter) problems.push({ path: 'filter', message: 'applies to warehouse_query sources only' });
      const output = source.pipeline_id ? await deps.pipelineOutput(source.pipeline_id) : undefined;
      if (!source.pipeline_id) problems.push({ path: 'source.pipeline_id', message: 'is required' });
      else if (!output || output.project_id !== projectId)
        problems.push({ path: 'source.pipeline_id', message: 'is not a pipeline of this project' });
      else {
        const facts = await deps.describeConnector(principal, output.connector_id).catch(() => undefined);
        if (!facts?.capabilities.read)
          problems.push({
            path: 'source.pipeline_id',
            message: `the pipeline's destination (${facts?.kind ?? 'connector'}) cannot be read`,
          });
      }
    } else {
      if (source.query !== undefined || source.schema !== undefined)
        problems.push({ path: 'source.query', message: 'a connector source names a dataset, not a query' });
      if (!source.dataset) problems.push({ path: 'source.dataset', message: 'is required for a connector source' });
      if (!source.connector_id) problems.push({ path: 'source.connector_id', message: 'is required' });
      else {
        const facts = await deps.describeConnector(principal, source.connector_id).catch(() => undefined);
        if (!facts || facts.project_id !== projectId)
          problems.push({ path: 'source.connector_id', message: 'is not a data connector of this project' });
        else if (!facts.capabilities.read)
          problems.push({ path: 'source.connector_id', message: `a ${facts.kind} connector cannot be read` });
      }
      if (input.filter) problems.push({ path: 'filter', message: 'applies to warehouse_query sources only' });
    }
    const mode = input.mode ?? 'full';
    if (mode === 'incremental' && !input.cursor_column)
      problems.push({ path: 'cursor_column', message: 'is required in incremental mode' });
    if (mode === 'diff' && !input.key_columns?.length)
      problems.push({ path: 'key_columns', message: 'is required in diff mode' });
    const destinationProblems = checkDestination(input.destination);
    problems.push(...destinationProblems);
    if (!destinationProblems.length && input.destination['kind'] === 'database') {
      const database = input.destination as unknown as DatabaseDestinationConfig;
      const keys = input.key_columns ?? [];
      if (database.write_mode !== 'insert' && !keys.length)
        problems.push({ path: 'key_columns', message: `is required: ${database.write_mode} matches rows on them` });
      if (database.write_mode === 'mirror' && mode !== 'diff')
        problems.push({
          path: 'mode',
          message: 'must be diff for write_mode mirror (rows gone from the source are found by the diff)',
        });
      if (database.field_map)
        for (const key of keys)
          if (!(key in database.field_map))
            problems.push({ path: 'destination.field_map', message: `must map the key column ${key}` });
    }
    const kind = String(input.destination['kind']);
    if (FILE_DESTINATIONS.has(kind)) problems.push(...checkFormat((input.format ??= { type: 'csv' })));
    else if (input.format) problems.push({ path: 'format', message: `a ${kind} destination takes no file format` });
    return problems;
  };

  const linkKey = box.derive('export download links');
  const sign = (exportId: string, runId: string, file: number, expires: number) =>
    createHmac('sha256', linkKey).update(`${exportId}:${runId}:${file}:${expires}`).digest('base64url');
  /** A file of a finished run of this export. */
  const fileOf = async (exportId: string, runId: string, index: number) => {
    const run = await repository.run(db, exportId, runId);
    const file = run?.files[index];
    if (!run || !file) throw notFound('Export file');
    return file;
  };

  /** Splits a checked destination into plain fields and encrypted secrets (kept from `stored` when not given). */
  const seal = (destination: Record<string, unknown>, stored: Record<string, string> = {}) => {
    const secretFields = new Set(secretFieldsOf(String(destination['kind'])));
    const plain: Record<string, unknown> = {};
    const secrets: Record<string, string> = {};
    for (const [field, value] of Object.entries(destination)) {
      if (!secretFields.has(field)) plain[field] = value;
      else if (value !== undefined && value !== null && value !== '')
        secrets[field] = box.encrypt(JSON.stringify(value));
    }
    for (const field of secretFields) if (!(field in secrets) && stored[field]) secrets[field] = stored[field];
    return { plain, secrets };
  };

  /** The stored destination with its secrets decrypted (for runs and downloads only; never answered). */
  const destinationOf = (row: ExportRow): Record<string, unknown> => {
    const destination = { ...row.destination };
    for (const [field, ciphertext] of Object.entries(row.secrets))
      destination[field] = JSON.parse(box.decrypt(ciphertext));
    return destination;
  };

  /** An object a run wrote to S3 (named s3://bucket/key), read from the bucket; undefined when gone. */
  const s3Download = async (config: S3DestinationConfig, name: string): Promise<Readable | undefined> => {
    const prefix = `s3://${config.bucket}/`;
    if (!name.startsWith(prefix)) return undefined;
    const client = await s3ClientOf(config, deps.egress);
    try {
      const { GetObjectCommand } = await import('@aws-sdk/client-s3');
      const object = await client.send(new GetObjectCommand({ Bucket: config.bucket, Key: name.slice(prefix.length) }));
      const body = object.Body as Readable;
      body.once('close', () => client.destroy());
      return body;
    } catch (error) {
      client.destroy();
      if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
      throw error;
    }
  };

  /** A file a run wrote over SFTP, read from the server (host key checked); undefined when gone. */
  const sftpDownload = async (config: SftpDestinationConfig, name: string): Promise<Readable | undefined> => {
    const remote = sftpPathOf(config, name);
    if (!remote) return undefined;
    const store = await openSftpStore(config, deps.egress, deps.log);
    const info = await store.stat(remote).catch(() => undefined);
    if (!info?.isFile) {
      await store.close().catch(() => undefined);
      return undefined;
    }
    const out = new PassThrough();
    const input = store.readStream(remote);
    input.on('error', (error) => out.destroy(error));
    input.pipe(out);
    out.once('close', () => void store.close().catch(() => undefined));
    return out;
  };

  /** Starts a run in `trx`; undefined while a run of the export is queued or running. */
  const startRun = async (
    trx: Db,
    row: ExportRow,
    options: { fullResync: boolean; trigger: 'manual' | 'schedule'; createdBy: string | null },
    context: RequestContext,
  ) => {
    await repository.lock(trx, row.id);
    for (const unfinished of await repository.unfinishedRuns(trx, row.id)) {
      const status = await executionStatus(unfinished.execution_id);
      if (status === 'queued' || status === 'running') return undefined;
    }
    const fullResync = options.fullResync || row.resync_requested;
    const params: ExportRunParams = {
      export_id: row.id,
      subject_id: row.id,
      export_name: row.name,
      full_resync: fullResync,
    };
    const started = await executions.startRun(
      trx,
      {
        projectId: row.project_id,
        kind: 'export',
        params: { ...params },
        createdBy: options.createdBy,
        trigger: options.trigger,
      },
      context,
    );
    await repository.insertRun(trx, {
      execution_id: started.id,
      export_id: row.id,
      project_id: row.project_id,
      full_resync: fullResync,
      trigger: options.trigger,
    });
    return started;
  };

  return {
    destinationOf,

    async create(principal: Principal, input: ExportInput, context: RequestContext) {
      await authorize(principal, 'export:write', input.project_id);
      // A schedule runs the export: whoever sets one up must be allowed to run it.
      if (input.schedule) await authorize(principal, 'export:run', input.project_id);
      const { schedule, problems: scheduleProblems } = scheduleOf(input.schedule ?? null, null, principal.userId);
      const problems = [...(await problemsOf(principal, input.project_id, input)), ...scheduleProblems];
      if (problems.length) throw validationFailed(problems);
      const { plain, secrets } = seal(input.destination);
      const row = await writes.create(context, input.name, (trx) =>
        repository.insert(trx, {
          project_id: input.project_id,
          name: input.name,
          description: input.description ?? '',
          source: input.source,
          columns: input.columns ?? null,
          filter: input.filter ?? null,
          destination: plain,
          secrets,
          format: input.format ?? {},
          mode: input.mode ?? 'full',
          key_columns: input.key_columns ?? [],
          cursor_column: input.cursor_column ?? null,
          schedule,
          next_due_at: firstDueOf(schedule),
          created_by: principal.userId,
        }),
      );
      return presentExport(row);
    },

    ...guard.readers('export:read', (projectIds) => repository.list(db, projectIds), presentExport),

    async update(principal: Principal, id: string, patch: ExportPatchInput, context: RequestContext) {
      const current = await guard.find(principal, id, 'export:write');
      const merged: Omit<ExportInput, 'project_id'> = {
        name: patch.name ?? current.name,
        source: patch.source ?? current.source,
        columns: patch.columns === undefined ? current.columns : patch.columns,
        filter: patch.filter === undefined ? current.filter : patch.filter,
        destination: patch.destination ?? { ...current.destination },
        format: patch.format ?? (Object.keys(current.format).length ? { ...current.format } : undefined),
        mode: patch.mode ?? current.mode,
        key_columns: patch.key_columns ?? current.key_columns,
        cursor_column: patch.cursor_column === undefined ? current.cursor_column : patch.cursor_column,
      };
      // A scheduled export runs for its schedule's owner: whoever sets the schedule, or changes what a
      // scheduled export reads or where it delivers, must be allowed to run it and becomes the owner.
      const redirected = ['source', 'columns', 'filter', 'destination', 'format'].some((field) => field in patch);
      const owned = !!patch.schedule || (!!current.schedule && redirected);
      if (owned) await authorize(principal, 'export:run', current.project_id);
      const { schedule, problems: scheduleProblems } =
        patch.schedule === undefined
          ? {
              schedule: current.schedule && {
                ...current.schedule,
                owner_id: owned ? principal.userId : current.schedule.owner_id,
              },
              problems: [],
            }
          : scheduleOf(patch.schedule, current.schedule, principal.userId);
      const problems = [...(await problemsOf(principal, current.project_id, merged)), ...scheduleProblems];
      if (problems.length) throw validationFailed(problems);
      const kindKept = String(merged.destination['kind']) === String(current.destination['kind']);
      const { plain, secrets } = seal(merged.destination, kindKept ? current.secrets : {});
      const changes: ExportChanges = {
        name: merged.name,
        description: patch.description ?? current.description,
        source: merged.source,
        columns: merged.columns ?? null,
        filter: merged.filter ?? null,
        destination: plain,
        secrets,
        format: merged.format ?? {},
        mode: merged.mode,
        key_columns: merged.key_columns,
        cursor_column: merged.cursor_column ?? null,
        // A schedule given is due afresh from now; one not given keeps its next due time.
        ...(patch.schedule !== undefined ? { schedule, next_due_at: firstDueOf(schedule) } : owned ? { schedule } : {}),
      };
      // What is read, or how rows are told apart, changed: the next run starts again from nothing.
      const restart = ['source', 'columns', 'filter', 'mode', 'key_columns', 'cursor_column'].some(
        (field) => field in patch,
      );
      const row = await writes.update(context, id, merged.name, patch, async (trx) => {
        const updated = await repository.update(trx, id, changes);
        if (updated && restart) await repository.resetState(trx, id);
        return updated;
      });
      return presentExport(row);
    },

    async remove(principal: Principal, id: string, context: RequestContext) {
      const row = await guard.find(principal, id, 'export:write');
      await writes.remove(context, id, { name: row.name }, (trx) => repository.remove(trx, id));
    },

    /** Starts a run now: an execution of kind export; 409 while one is queued or running. */
    async run(principal: Principal, id: string, options: { full_resync?: boolean }, context: RequestContext) {
      const row = await guard.find(principal, id, 'export:run');
      const execution = await db
        .transaction()
        .execute((trx) =>
          startRun(
            trx,
            row,
            { fullResync: options.full_resync === true, trigger: 'manual', createdBy: principal.userId },
            context,
          ),
        );
      if (!execution) throw exportBusy();
      return executions.present(execution);
    },

    /**
     * One pass over the exports whose schedule is due (called by the leader). Due exports are locked
     * (SKIP LOCKED), and each one's run is started and its next due time stored in the same
     * transaction: a due time is handled once. A run still going when the next one is due skips it.
     */
    async tick(now = new Date()): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const due = await repository.claimDue(trx, TICK_BATCH);
        for (const row of due) {
          const schedule = row.schedule;
          if (!schedule || schedule.paused || !row.next_due_at) {
            await repository.setNextDue(trx, row.id, null);
            continue;
          }
          const firing = fire(schedule, schedule.missed_policy, row.next_due_at, now, deps.graceMs);
          await repository.setNextDue(trx, row.id, firing.next);
          let outcome: 'enqueued' | 'missed' | 'skipped_running' = 'missed';
          let executionId: string | null = null;
          if (firing.run)
            try {
              // In a savepoint: an export whose run cannot start must not hold up the others.
              const started = await savepoint(trx, (tx) =>
                startRun(
                  tx,
                  row,
                  { fullResync: false, trigger: 'schedule', createdBy: schedule.owner_id ?? row.created_by },
                  SYSTEM_CONTEXT,
                ),
              );
              outcome = started ? 'enqueued' : 'skipped_running';
              executionId = started?.id ?? null;
            } catch (error) {
              deps.log('error', 'a scheduled export could not start its run; due time missed', {
                export_id: row.id,
                err: { message: (error as Error).message },
              });
            }
          deps.firings?.inc({ outcome }, 1);
          if (firing.missedBefore > 0) deps.firings?.inc({ outcome: 'missed' }, firing.missedBefore);
          const fields = {
            export_id: row.id,
            due_at: firing.dueAt.toISOString(),
            missed_before: firing.missedBefore,
            execution_id: executionId,
          };
          if (outcome === 'enqueued') deps.log('info', 'export schedule fired', fields);
          else
            deps.log(
              'warn',
              outcome === 'missed'
                ? 'export schedule due time missed'
                : 'export schedule due while its previous run was still going; skipped',
              fields,
            );
        }
        return due.length;
      });
    },

    /** The export's latest runs with their row counts, newest first. */
    async runs(principal: Principal, id: string) {
      await guard.find(principal, id, 'export:read');
      const rows = await repository.runs(db, id, 100);
      return Promise.all(
        rows.map(async (run) =>
          presentRun(run, run.finished_at ? run.status : ((await executionStatus(run.execution_id)) ?? run.status)),
        ),
      );
    },

    /** A signed link to a file of a finished run, valid for `expires_in_seconds`. */
    async downloadLink(
      principal: Principal,
      id: string,
      runId: string,
      options: { file?: number; expires_in_seconds?: number },
    ) {
      const row = await guard.find(principal, id, 'export:read');
      const file = await fileOf(row.id, runId, options.file ?? 0);
      const expires = Math.floor(Date.now() / 1000) + (options.expires_in_seconds ?? 900);
      const index = options.file ?? 0;
      const signature = sign(row.id, runId, index, expires);
      return {
        url: `/api/v1/exports/${row.id}/runs/${runId}/download?file=${index}&expires=${expires}&signature=${signature}`,
        file: file.name,
        expires_at: new Date(expires * 1000).toISOString(),
      };
    },

    /** The file a signed link names, when the signature holds, it has not expired, and the caller may read the export. */
    async download(
      principal: Principal,
      id: string,
      runId: string,
      query: { file?: number; expires?: number; signature?: string },
    ) {
      const row = await guard.find(principal, id, 'export:read');
      // Checked after access, so that who may not read the export learns nothing of its links.
      if (query.file === undefined || query.expires === undefined || !query.signature)
        throw forbidden('The download link is not valid');
      const link = { file: query.file, expires: query.expires, signature: query.signature };
      const expected = Buffer.from(sign(row.id, runId, link.file, link.expires));
      const given = Buffer.from(link.signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        throw forbidden('The download link is not valid');
      if (link.expires < Date.now() / 1000) throw forbidden('The download link has expired');
      const file = await fileOf(row.id, runId, link.file);
      const name = path.posix.basename(file.name);
      const contentType = name.endsWith('.gz')
        ? 'application/gzip'
        : name.endsWith('.csv')
          ? 'text/csv; charset=utf-8'
          : name.endsWith('.parquet')
            ? 'application/vnd.apache.parquet'
            : 'application/x-ndjson';
      const kind = String(row.destination['kind']);
      if (kind === 's3' || kind === 'sftp') {
        // Streamed through this server from the destination, as it is configured now.
        const destination = destinationOf(row);
        const stream =
          kind === 's3'
            ? await s3Download(destination as unknown as S3DestinationConfig, file.name)
            : await sftpDownload(destination as unknown as SftpDestinationConfig, file.name);
        if (!stream) throw notFound('Export file');
        return { name, size: file.bytes, contentType, stream };
      }
      const folder = await deps.projectFolder(row.project_id);
      const target = folderInside(folder, file.name);
      if (!target) throw notFound('Export file');
      const stats = await stat(target).catch(() => undefined);
      if (!stats?.isFile()) throw notFound('Export file');
      return { name, size: stats.size, contentType, stream: createReadStream(target) as Readable };
    },

    /** Rows that failed and wait for the next run, with their reason. */
    async failedRows(principal: Principal, id: string) {
      await guard.find(principal, id, 'export:read');
      return (await repository.failedRows(db, id, 1000)).map((row) => ({
        row_key: row.row_key,
        execution_id: row.execution_id,
        reason: row.reason,
        record: row.record,
        attempts: row.attempts,
        failed_at: row.failed_at.toISOString(),
      }));
    },
  };
}
