/**
 * The target kinds that exist today: a warehouse table of the project by a timestamp column (run as
 * the project's own warehouse role; delete, or archive to the project's files folder then delete),
 * the project's execution history (through the operations area), the ingestion area's kept inbox
 * bodies, stored file copies and stream dead letters, and the audit log (instance-wide, through the
 * audit area, never younger than the floor).
 */
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { Type, type Static } from 'typebox';
import type { FieldError } from '../../../platform/errors/index.js';
import type { AuditService } from '../../audit/service.js';
import type { ProjectWarehouse } from '../../connectivity/warehouse.js';
import type { IngestionRetention, PrunableData } from '../../ingestion/retention.js';
import type { HistoryRetention } from '../../operations/executions/history.js';
import { cutoffOf, formatDuration, type RetentionTargetKind } from './targets.js';

const Identifier = (description: string) =>
  Type.String({ minLength: 1, maxLength: 63, pattern: '^[A-Za-z_][A-Za-z0-9_$]*$', description });

export const WarehouseTableConfig = Type.Object(
  {
    schema: Type.Optional(Identifier("The project's warehouse schema (default main)")),
    table: Identifier('Table in that schema'),
    timestamp_column: Identifier('Column compared with the cutoff (timestamp, timestamptz or date); index it'),
    action: Type.Optional(
      Type.Union([Type.Literal('delete'), Type.Literal('archive')], {
        description:
          "archive: each batch's rows are appended (JSON lines) to a file in the project's files folder, then deleted",
      }),
    ),
  },
  { additionalProperties: false },
);
type WarehouseTableConfig = Static<typeof WarehouseTableConfig>;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export function warehouseTableTarget(deps: {
  warehouseFor(projectId: string, schema: string): Promise<ProjectWarehouse> | undefined;
  /** The project's own folder of the files root (created when missing). */
  projectFolder(projectId: string): Promise<string>;
}): RetentionTargetKind<WarehouseTableConfig> {
  const connect = async (projectId: string, config: WarehouseTableConfig) => {
    const tenant = await deps.warehouseFor(projectId, config.schema ?? 'main');
    if (!tenant) throw new Error('the built-in warehouse is unavailable on this instance (see the startup log)');
    const { connection } = tenant;
    const client = new pg.Client({
      host: connection.host,
      port: connection.port,
      database: connection.database,
      user: connection.user,
      password: connection.password,
      ssl: connection.ssl ? { rejectUnauthorized: true } : false,
      application_name: 'svc retention',
    });
    await client.connect();
    return { client, table: `${quote(tenant.schema)}.${quote(config.table)}` };
  };
  return {
    kind: 'warehouse_table',
    scope: 'project',
    description: "Rows of a table in the project's warehouse whose timestamp column is older than the cutoff",
    config: WarehouseTableConfig,
    async check(rules) {
      const problems: FieldError[] = [];
      const { client, table } = await connect(rules.projectId!, rules.config);
      try {
        const { rows } = await client.query<{ type: string | null; exists: boolean }>(
          `select to_regclass($1) is not null as exists,
                  (select format_type(a.atttypid, a.atttypmod) from pg_attribute a
                    where a.attrelid = to_regclass($1) and a.attname = $2 and not a.attisdropped) as type`,
          [table, rules.config.timestamp_column],
        );
        const row = rows[0]!;
        if (!row.exists)
          problems.push({ path: 'target.table', message: "is not a table of the project's warehouse schema" });
        else if (!row.type) problems.push({ path: 'target.timestamp_column', message: 'is not a column of the table' });
        else if (!/^(timestamp|date)/.test(row.type))
          problems.push({ path: 'target.timestamp_column', message: `is ${row.type}, not a timestamp or date` });
      } finally {
        await client.end().catch(() => undefined);
      }
      return problems;
    },
    async open(rules) {
      const { config } = rules;
      const { client, table } = await connect(rules.projectId!, config);
      const column = quote(config.timestamp_column);
      let cutoff = cutoffOf(rules);
      let archive: { stream: WriteStream; file: string; root: string; rows: number } | undefined;
      try {
        if (rules.maxRows !== null) {
          const { rows } = await client.query<{ ts: Date }>(
            `select ${column} as ts from ${table} where ${column} is not null order by ${column} desc offset $1 limit 1`,
            [rules.maxRows - 1],
          );
          cutoff = cutoffOf(rules, rows[0]?.ts);
        }
      } catch (error) {
        await client.end().catch(() => undefined);
        throw error;
      }
      const selectDoomed = `select ctid from ${table} where ${column} < $1 limit $2`;
      return {
        cutoff,
        async count() {
          const { rows } = await client.query<{ n: string }>(
            `select count(*) as n from ${table} where ${column} < $1`,
            [cutoff],
          );
          return { [config.table]: Number(rows[0]!.n) };
        },
        async deleteBatch(limit) {
          if (config.action !== 'archive') {
            const result = await client.query(`delete from ${table} where ctid = any(array(${selectDoomed}))`, [
              cutoff,
              limit,
            ]);
            return { [config.table]: result.rowCount ?? 0 };
          }
          // Archive: the batch's rows reach the file (flushed) before its delete commits; a crash in
          // between leaves them in the table and in the file, archived again by the next sweep.
          await client.query('begin');
          try {
            const result = await client.query<{ row: string }>(
              `delete from ${table} as t where ctid = any(array(${selectDoomed})) returning row_to_json(t)::text as row`,
              [cutoff, limit],
            );
            if (result.rows.length > 0) {
              if (!archive) {
                const root = await deps.projectFolder(rules.projectId!);
                const folder = path.join(root, 'retention', rules.policyId);
                await mkdir(folder, { recursive: true });
                const file = path.join(folder, `${config.table}-${rules.sweepId}.jsonl`);
                archive = { stream: createWriteStream(file, { flags: 'a' }), file, root, rows: 0 };
              }
              const text = result.rows.map((r) => r.row).join('\n') + '\n';
              if (!archive.stream.write(text)) await once(archive.stream, 'drain');
              archive.rows += result.rows.length;
            }
            await client.query('commit');
            return { [config.table]: result.rowCount ?? 0 };
          } catch (error) {
            await client.query('rollback').catch(() => undefined);
            throw error;
          }
        },
        details: () => ({
          table: `${config.schema ?? 'main'}.${config.table}`,
          ...(archive
            ? {
                archive_file: path.relative(archive.root, archive.file),
                archived_rows: archive.rows,
              }
            : {}),
        }),
        async close() {
          if (archive) {
            const stream = archive.stream;
            await new Promise<void>((resolve, reject) =>
              stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
            );
          }
          await client.end().catch(() => undefined);
        },
      };
    },
  };
}

export function executionHistoryTarget(history: HistoryRetention): RetentionTargetKind {
  return {
    kind: 'execution_history',
    scope: 'project',
    description: "The project's finished executions with their log lines and key ranges",
    config: Type.Object({}, { additionalProperties: false }),
    histories: true,
    async open(rules) {
      const historyRules = {
        projectId: rules.projectId!,
        before: cutoffOf(rules),
        maxRows: rules.maxRows,
        keepLastFailed: rules.keepLastFailed,
      };
      return {
        cutoff: historyRules.before,
        count: () => history.count(historyRules),
        deleteBatch: (limit) => history.deleteBatch(historyRules, limit),
        details: () => ({}),
        close: async () => undefined,
      };
    },
  };
}

export function executionLogsTarget(history: HistoryRetention): RetentionTargetKind {
  return {
    kind: 'execution_logs',
    scope: 'project',
    description: "Log lines of the project's finished executions (the executions themselves stay)",
    config: Type.Object({}, { additionalProperties: false }),
    histories: true,
    async check(rules) {
      return rules.maxRows === null
        ? []
        : [{ path: 'max_rows', message: 'does not apply to execution_logs (lines are pruned by age)' }];
    },
    async open(rules) {
      const lineRules = { projectId: rules.projectId!, before: cutoffOf(rules), keepLastFailed: rules.keepLastFailed };
      return {
        cutoff: lineRules.before,
        count: () => history.countLines(lineRules),
        deleteBatch: (limit) => history.deleteLines(lineRules, limit),
        details: () => ({}),
        close: async () => undefined,
      };
    },
  };
}

export function auditEventsTarget(audit: AuditService, floorDays: number): RetentionTargetKind {
  const floorSeconds = floorDays * 86_400;
  return {
    kind: 'audit_events',
    scope: 'instance',
    description: `Audit events of the whole instance (administrators only; never younger than ${floorDays} days)`,
    config: Type.Object({}, { additionalProperties: false }),
    async check(rules) {
      return rules.maxAgeSeconds < floorSeconds
        ? [
            {
              path: 'max_age',
              message: `is below the floor for audit events (${formatDuration(floorSeconds)}, SVC_RETENTION_AUDIT_FLOOR_DAYS)`,
            },
          ]
        : [];
    },
    async open(rules) {
      // The floor holds at sweep time too (it may have been raised since the policy was saved), max_rows included.
      const floor = new Date(rules.now.getTime() - floorSeconds * 1000);
      let cutoff = cutoffOf(rules, rules.maxRows !== null ? await audit.retention.nthNewest(rules.maxRows) : null);
      if (cutoff > floor) cutoff = floor;
      return {
        cutoff,
        count: async () => ({ audit_log: await audit.retention.countBefore(cutoff) }),
        deleteBatch: async (limit) => ({ audit_log: await audit.retention.deleteBefore(cutoff, limit) }),
        details: () => ({}),
        close: async () => undefined,
      };
    },
  };
}

/** A kind over data of the ingestion area pruned by age only: one table's count per sweep. */
function ingestionTarget(kind: string, table: string, description: string, data: PrunableData): RetentionTargetKind {
  return {
    kind,
    scope: 'project',
    description,
    config: Type.Object({}, { additionalProperties: false }),
    async check(rules) {
      return rules.maxRows === null ? [] : [{ path: 'max_rows', message: `does not apply to ${kind} (pruned by age)` }];
    },
    async open(rules) {
      const ageRules = { projectId: rules.projectId!, before: cutoffOf(rules) };
      return {
        cutoff: ageRules.before,
        count: async () => ({ [table]: await data.count(ageRules) }),
        deleteBatch: async (limit) => ({ [table]: await data.prune(ageRules, limit) }),
        details: () => ({}),
        close: async () => undefined,
      };
    },
  };
}

export function ingestionTargets(ingestion: IngestionRetention): RetentionTargetKind[] {
  return [
    ingestionTarget(
      'inbox_request_bodies',
      'inbox_requests',
      "Bodies kept of the project's inbox requests (the request records stay; a request without its body cannot be replayed)",
      ingestion.inboxBodies,
    ),
    ingestionTarget(
      'ingested_file_copies',
      'file_ingestion_files',
      "Stored copies of the project's ingested files whose load is over (the records stay; a file without its copy cannot be reloaded)",
      ingestion.fileCopies,
    ),
    ingestionTarget(
      'stream_dead_letters',
      'stream_dead_letters',
      "Dead letters of the project's streams (messages that could not be written)",
      ingestion.deadLetters,
    ),
  ];
}
