/**
 * CDC tables: what to capture, where to apply it, and how (mirror or changelog); started, stopped and
 * resynced by request, run by the worker that holds the table's lease (worker/cdc.readers.ts).
 * Deleting one drops its replication slot and publication at the source, so no slot is left holding
 * WAL.
 */
import type { ConnectorHandle, Log } from '@svc/engine';
import type { Principal } from '../../../platform/authn.js';
import { resourceGuard, type Authorize } from '../../../platform/authz.js';
import { onUniqueViolation, type Db } from '../../../platform/db/index.js';
import { notFound, validationFailed, type FieldError } from '../../../platform/errors/index.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { AuditService } from '../../audit/service.js';
import { lagHistory } from '../lag-samples.js';
import type { CdcLogs } from './logs.js';
import type { CdcRepository, CdcTableRow } from './repository.js';
import { CDC_TABLE, cdcNameTaken, slotDropFailed } from '../errors.js';

/** Connector kinds that can capture changes, and kinds that can apply them. */
export const CAPTURE_KINDS = ['postgres', 'warehouse', 'mysql'];
export const APPLY_KINDS = ['postgres', 'warehouse'];

export interface CdcInput {
  project_id: string;
  name: string;
  source: { connector_id: string; namespace?: string | null; table: string };
  destination: { connector_id: string; namespace?: string | null; table: string };
  mode: 'mirror' | 'changelog';
  start?: boolean;
}

export const presentCdcTable = (row: CdcTableRow) => ({
  id: row.id,
  project_id: row.project_id,
  name: row.name,
  source: { connector_id: row.source_connector_id, namespace: row.source_namespace, table: row.source_table },
  destination: {
    connector_id: row.destination_connector_id,
    namespace: row.destination_namespace,
    table: row.destination_table,
  },
  mode: row.mode,
  desired_state: row.desired_state,
  status: row.status,
  resync_requested: row.resync_requested,
  last_position: row.last_position,
  last_commit_time: row.last_commit_time?.toISOString() ?? null,
  last_applied_at: row.last_applied_at?.toISOString() ?? null,
  changes_applied: Number(row.changes_applied),
  snapshot_rows: row.snapshot_rows === null ? null : Number(row.snapshot_rows),
  lag_seconds: row.lag_seconds,
  lag_bytes: row.lag_bytes === null ? null : Number(row.lag_bytes),
  retained_wal_bytes: row.retained_wal_bytes === null ? null : Number(row.retained_wal_bytes),
  last_error: row.last_error,
  reader: row.lease_owner && row.lease_expires_at && row.lease_expires_at > new Date() ? row.lease_owner : null,
  created_by: row.created_by,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export type CdcService = ReturnType<typeof createCdcService>;

export function createCdcService(deps: {
  db: Db;
  repository: CdcRepository;
  logs: CdcLogs;
  authorize: Authorize;
  visibleProjects: (principal: Principal) => Promise<string[] | null>;
  audit: AuditService;
  connectors: {
    describe(principal: Principal, id: string): Promise<{ project_id: string; kind: string }>;
    openForRun(id: string, log: Log): Promise<ConnectorHandle>;
  };
}) {
  const { db, repository, authorize, audit } = deps;

  // One check for a CDC table and the list of CDC tables.
  const guard = resourceGuard(deps, CDC_TABLE, (id) => repository.find(db, id), {
    capabilities: ['cdc:read', 'cdc:write'],
  });

  const change = async (
    id: string,
    changes: Parameters<CdcRepository['update']>[2],
    context: RequestContext,
    kind: string,
  ) =>
    db.transaction().execute(async (trx) => {
      const row = await repository.update(trx, id, changes);
      if (!row) throw notFound(CDC_TABLE);
      await audit.record(context, { kind, target: { type: 'cdc_table', id } }, trx);
      return presentCdcTable(row);
    });

  return {
    async create(principal: Principal, input: CdcInput, context: RequestContext) {
      await authorize(principal, 'cdc:write', input.project_id);
      const problems: FieldError[] = [];
      for (const [side, kinds] of [
        ['source', CAPTURE_KINDS],
        ['destination', APPLY_KINDS],
      ] as const) {
        const facts = await deps.connectors.describe(principal, input[side].connector_id).catch(() => undefined);
        if (!facts || facts.project_id !== input.project_id)
          problems.push({ path: `${side}.connector_id`, message: 'is not a data connector of this project' });
        else if (!kinds.includes(facts.kind))
          problems.push({
            path: `${side}.connector_id`,
            message: `a ${facts.kind} connector cannot ${side === 'source' ? 'capture changes' : 'apply captured changes'} (${kinds.join(', ')} can)`,
          });
      }
      if (problems.length) throw validationFailed(problems);
      const row = await onUniqueViolation(
        db.transaction().execute(async (trx) => {
          const created = await repository.insert(trx, {
            project_id: input.project_id,
            name: input.name,
            source_connector_id: input.source.connector_id,
            source_namespace: input.source.namespace ?? null,
            source_table: input.source.table,
            destination_connector_id: input.destination.connector_id,
            destination_namespace: input.destination.namespace ?? null,
            destination_table: input.destination.table,
            mode: input.mode,
            desired_state: input.start === false ? 'stopped' : 'running',
            created_by: principal.userId,
          });
          await audit.record(
            context,
            {
              kind: 'cdc_table_created',
              target: { type: 'cdc_table', id: created.id },
              details: { name: created.name },
            },
            trx,
          );
          return created;
        }),
        () => cdcNameTaken(input.name),
      );
      return presentCdcTable(row);
    },

    ...guard.readers('cdc:read', (projectIds) => repository.list(db, projectIds), presentCdcTable),

    async rename(principal: Principal, id: string, name: string, context: RequestContext) {
      await guard.find(principal, id, 'cdc:write');
      return onUniqueViolation(change(id, { name }, context, 'cdc_table_updated'), () => cdcNameTaken(name));
    },

    async start(principal: Principal, id: string, context: RequestContext) {
      await guard.find(principal, id, 'cdc:write');
      // A failed table's retry back-off ends now; a table with a live reader keeps it (see clearBackoff).
      const started = await change(id, { desired_state: 'running', last_error: null }, context, 'cdc_table_started');
      await repository.clearBackoff(db, id);
      await deps.logs.write(id, 'info', 'start requested');
      return started;
    },

    async stop(principal: Principal, id: string, context: RequestContext) {
      await guard.find(principal, id, 'cdc:write');
      const stopped = await change(id, { desired_state: 'stopped' }, context, 'cdc_table_stopped');
      await deps.logs.write(id, 'info', 'stop requested');
      return stopped;
    },

    /** A new snapshot, then streaming again: the reader starts over (and runs, if it was stopped). */
    async resync(principal: Principal, id: string, context: RequestContext) {
      await guard.find(principal, id, 'cdc:write');
      // A live reader sees the flag at its next lease renewal and starts over itself.
      const resync = await change(
        id,
        { resync_requested: true, desired_state: 'running', last_error: null },
        context,
        'cdc_table_resync_requested',
      );
      await repository.clearBackoff(db, id);
      await deps.logs.write(id, 'info', 'resync requested');
      return resync;
    },

    /** Stops the reader, drops the slot and publication at the source, then the CDC table. */
    async remove(principal: Principal, id: string, force: boolean, context: RequestContext) {
      const row = await guard.find(principal, id, 'cdc:write');
      await repository.update(db, id, { desired_state: 'stopped' });
      let handle: ConnectorHandle | undefined;
      try {
        handle = await deps.connectors.openForRun(row.source_connector_id, () => undefined);
        const source = handle.changeSource?.(row.id);
        await source?.drop();
        await source?.close();
      } catch (error) {
        if (!force) {
          throw slotDropFailed((error as Error).message);
        }
      } finally {
        await handle?.close();
      }
      await db.transaction().execute(async (trx) => {
        await repository.remove(trx, id);
        await audit.record(
          context,
          { kind: 'cdc_table_deleted', target: { type: 'cdc_table', id }, details: { name: row.name, forced: force } },
          trx,
        );
      });
    },

    /** The lag samples of the last hour, oldest first (the leader records them). */
    async lagHistory(principal: Principal, id: string) {
      await guard.find(principal, id, 'cdc:read');
      return lagHistory(db, 'cdc_table', id);
    },

    async logs(principal: Principal, id: string, afterId: string | undefined, limit: number) {
      await guard.find(principal, id, 'cdc:read');
      return (await repository.logs(db, id, afterId, limit)).map((line) => ({
        ...line.fields,
        id: String(line.id),
        ts: line.ts.toISOString(),
        level: line.level,
        message: line.message,
      }));
    },

    /** For the live tail: checks access, then the lines after `afterId` (or the latest ones). */
    async tailStart(principal: Principal, id: string, afterId: string | undefined) {
      const row = await guard.find(principal, id, 'cdc:read');
      const lines = afterId ? await repository.logs(db, id, afterId, 1000) : await repository.lastLogs(db, id, 100);
      return {
        projectId: row.project_id,
        lines: lines.map((line) => ({
          ...line.fields,
          id: String(line.id),
          ts: line.ts.toISOString(),
          level: line.level,
          message: line.message,
        })),
      };
    },

    /** Whether an open log tail may go on (its credential was checked again by the stream). */
    async authorizeTail(principal: Principal, projectId: string) {
      await authorize(principal, 'cdc:read', projectId);
    },
  };
}
