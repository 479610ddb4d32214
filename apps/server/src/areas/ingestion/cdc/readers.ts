/**
 * Runs CDC tables in a worker process. Each table that should run is claimed under a lease (one
 * reader across all workers); the reader renews it every third of its length, stops when the lease
 * is lost or the table is stopped, and starts over on a resync. A worker that dies stops renewing;
 * another claims the table once the lease expires and resumes after the position the destination
 * committed last.
 */
import { randomUUID } from 'node:crypto';
import type { ContinuousLineage } from '../../governance/lineage/service.js';
import {
  CaptureThread,
  runCapture,
  type CaptureEndpoint,
  type ConnectorHandle,
  type EgressPolicy,
  type Log,
} from '@svc/engine';
import type { Logger } from 'pino';
import type { Db } from '../../../platform/db/index.js';
import { startLeasedLoop } from '../../../platform/leases.js';
import type { CdcLogs } from './logs.js';
import type { CdcChanges, CdcRepository, CdcTableRow } from './repository.js';

export interface CdcReaders {
  readonly owner: string;
  stop(): Promise<void>;
}

/** A failure that will not go away by retrying (no primary key, a dropped column...): the table stops. */
const isPermanent = (error: unknown) => (error as { retryable?: boolean }).retryable === false;
const RETRY_AFTER_MS = 5_000;
const REPORT_EVERY_MS = 1_000;
const LAG_EVERY_MS = 5_000;

export function startCdcReaders(deps: {
  db: Db;
  repository: CdcRepository;
  logs: CdcLogs;
  openConnector: (id: string, log: Log) => Promise<ConnectorHandle>;
  logger: Logger;
  leaseMs: number;
  maxTables: number;
  /** Changes read but not yet applied, per table (backpressure: the reader waits beyond it). */
  maxInFlightChanges?: number;
  sourceHeartbeatMs: number;
  /**
   * Read and apply in a thread of this process (off its event loop, with a capped heap): the thread
   * opens the connectors again from `endpoint`, and asks `egress` before each connection.
   */
  thread?: { heapMb: number; endpoint(id: string): Promise<CaptureEndpoint>; egress: EgressPolicy };
  pollMs?: number;
  lineage?: ContinuousLineage;
}): CdcReaders {
  const { db, repository, logger } = deps;
  const thread = deps.thread ? new CaptureThread({ maxHeapMb: deps.thread.heapMb }) : undefined;

  const read = async (claimed: CdcTableRow, controller: AbortController, owner: string) => {
    const id = claimed.id;
    const log: Log = (level, message, fields) =>
      void deps.logs.write(id, level, message, fields).catch(() => undefined);
    const report = (changes: CdcChanges) => repository.report(db, id, owner, changes).catch(() => undefined);
    let resyncing = claimed.resync_requested;
    // Each time a reader takes the table is a run of its own for lineage.
    const lineageRun = { runId: randomUUID(), projectId: claimed.project_id, kind: 'cdc_table', itemId: id };
    const ended = (status: 'stopped' | 'failed' | 'interrupted', error: string | null) =>
      deps.lineage
        ?.continuousEnded({ ...lineageRun, status, error })
        .catch((e: Error) =>
          logger.warn({ err: { message: e.message }, cdc_table_id: id }, 'recording the lineage of the run failed'),
        );
    await deps.lineage
      ?.continuousStarted({
        runId: lineageRun.runId,
        projectId: claimed.project_id,
        job: { kind: 'cdc_table', itemId: id },
        inputs: [
          {
            connector_id: claimed.source_connector_id,
            namespace: claimed.source_namespace,
            name: claimed.source_table,
          },
        ],
        outputs: [
          {
            connector_id: claimed.destination_connector_id,
            namespace: claimed.destination_namespace,
            name: claimed.destination_table,
            copyOf: 0,
          },
        ],
      })
      .catch((e: Error) =>
        logger.warn({ err: { message: e.message }, cdc_table_id: id }, 'recording the lineage of the run failed'),
      );
    const renew = setInterval(
      () => {
        repository.renew(db, id, owner, deps.leaseMs).then(
          (row) => {
            if (!row) controller.abort(new Error('lease lost'));
            else if (row.desired_state === 'stopped') controller.abort(new Error('stopped'));
            else if (row.resync_requested && !resyncing) controller.abort(new Error('resync'));
          },
          (error: Error) =>
            logger.warn({ err: { message: error.message }, cdc_table_id: id }, 'cdc lease renewal failed'),
        );
      },
      Math.max(200, Math.floor(deps.leaseMs / 3)),
    );
    let source: ConnectorHandle | undefined;
    let destination: ConnectorHandle | undefined;
    let changeSource: ReturnType<NonNullable<ConnectorHandle['changeSource']>> | undefined;
    let sink: ReturnType<NonNullable<ConnectorHandle['changeSink']>> | undefined;
    try {
      source = await deps.openConnector(claimed.source_connector_id, log);
      destination = await deps.openConnector(claimed.destination_connector_id, log);
      changeSource = source.changeSource?.(id);
      sink = destination.changeSink?.();
      if (!changeSource)
        throw Object.assign(new Error('the source connector cannot capture changes'), { retryable: false });
      if (!sink)
        throw Object.assign(new Error('the destination connector cannot apply captured changes'), { retryable: false });
      log('info', `reader ${owner} took over`);
      let pending = { changes: 0 };
      let lastReport = 0;
      let lastLag = 0;
      const captureSource = changeSource;
      const common = {
        captureId: id,
        table: { namespace: claimed.source_namespace, name: claimed.source_table },
        target: { namespace: claimed.destination_namespace, name: claimed.destination_table },
        mode: claimed.mode,
        resync: claimed.resync_requested,
        signal: controller.signal,
        heartbeatMs: deps.sourceHeartbeatMs,
        ...(deps.maxInFlightChanges ? { maxInFlightChanges: deps.maxInFlightChanges } : {}),
        log,
        async onPhase(phase, details) {
          await report({
            status: phase,
            last_error: null,
            ...(phase === 'snapshotting' ? { resync_requested: false, changes_applied: '0', snapshot_rows: null } : {}),
            ...(details.position ? { last_position: details.position } : {}),
            ...(details.snapshotRows !== undefined
              ? { snapshot_rows: String(details.snapshotRows), last_applied_at: new Date() }
              : {}),
          });
          resyncing = false;
        },
        onApplied(progress) {
          pending.changes += progress.changes;
          const now = Date.now();
          if (now - lastReport < REPORT_EVERY_MS) return;
          lastReport = now;
          const changes = pending.changes;
          pending = { changes: 0 };
          const lagSeconds = Math.max(0, (progress.appliedAt.getTime() - Date.parse(progress.commitTime)) / 1000);
          void (async () => {
            const lag: CdcChanges = {};
            if (now - lastLag >= LAG_EVERY_MS) {
              lastLag = now;
              // One after the other: they share the source's connection.
              const bytes = await captureSource.lagBytes?.(progress.position).catch(() => null);
              const retained = await captureSource.retainedBytes?.().catch(() => null);
              if (bytes !== undefined && bytes !== null) lag.lag_bytes = String(bytes);
              if (retained !== undefined && retained !== null) lag.retained_wal_bytes = String(retained);
            }
            await db
              .updateTable('cdc_tables')
              .set((eb) => ({
                changes_applied: eb('changes_applied', '+', String(changes)),
                last_position: progress.position,
                last_commit_time: new Date(progress.commitTime),
                last_applied_at: progress.appliedAt,
                lag_seconds: lagSeconds,
                status: 'streaming',
                ...lag,
              }))
              .where('id', '=', id)
              .where('lease_owner', '=', owner)
              .execute()
              .catch(() => undefined);
          })();
        },
      } satisfies Partial<Parameters<typeof runCapture>[0]>;
      // The connectors opened here check that they can capture and apply, and serve the lag queries;
      // in a thread, the capture opens its own.
      if (thread && deps.thread)
        await thread.run({
          ...common,
          source: await deps.thread.endpoint(claimed.source_connector_id),
          sink: await deps.thread.endpoint(claimed.destination_connector_id),
          egress: deps.thread.egress,
        });
      else await runCapture({ ...common, source: changeSource, sink });
      // The stream ended without a failure: stopped, resync, lease lost or shutdown.
    } catch (error) {
      if (!controller.signal.aborted) {
        const message = (error as Error).message || String(error);
        const permanent = isPermanent(error);
        log('error', permanent ? `failed: ${message}` : `failed, will retry in ${RETRY_AFTER_MS / 1000} s: ${message}`);
        await report({ status: 'failed', last_error: message, ...(permanent ? { desired_state: 'stopped' } : {}) });
        await ended('failed', message);
        await repository.release(db, id, owner, permanent ? 0 : RETRY_AFTER_MS).catch(() => undefined);
        return;
      }
    } finally {
      clearInterval(renew);
      await changeSource?.close().catch(() => undefined);
      await sink?.close().catch(() => undefined);
      await source?.close();
      await destination?.close();
    }
    const reason = (controller.signal.reason as Error | undefined)?.message;
    await ended(
      reason === 'lease lost' ? 'interrupted' : 'stopped',
      reason === 'lease lost' ? 'the reader lost its lease' : null,
    );
    if (reason === 'stopped') {
      await report({ status: 'paused', lag_seconds: null });
      log('info', 'stopped');
    } else if (reason === 'resync') {
      log('info', 'restarting for the resync');
    } else if (reason === 'lease lost') {
      log('warn', `reader ${owner} lost its lease; another worker takes over`);
      return;
    }
    await repository.release(db, id, owner).catch(() => undefined);
  };

  const loop = startLeasedLoop({
    name: 'cdc',
    logger,
    max: deps.maxTables,
    ...(deps.pollMs ? { pollMs: deps.pollMs } : {}),
    claim: (owner, inHand) => repository.claim(db, owner, deps.leaseMs, inHand),
    run: read,
  });
  logger.info({ owner: loop.owner, max_tables: deps.maxTables, thread: Boolean(thread) }, 'cdc readers started');
  return {
    owner: loop.owner,
    async stop() {
      await loop.stop();
      await thread?.close();
    },
  };
}
