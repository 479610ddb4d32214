/** Ingestion: CDC tables, streams, file ingestions, inboxes and e-mail feeds. */
import type { CaptureEndpoint, ConnectorHandle, Log } from '@svc/engine';
import type { FastifyInstance } from 'fastify';
import client from 'prom-client';
import type { Principal } from '../../platform/authn.js';
import type { Authorize } from '../../platform/authz.js';
import { egressPolicyFrom } from '../../platform/egress.js';
import { createIngestionRetention } from './retention.js';
import type { Platform } from '../../platform/runtime.js';
import type { EventStreams } from '../../platform/sse.js';
import type { AuditService } from '../audit/service.js';
import type { ContinuousLineage, LineageService } from '../governance/lineage/service.js';
import { createCdcLogs } from './cdc/logs.js';
import { startCdcReaders } from './cdc/readers.js';
import { createCdcRepository } from './cdc/repository.js';
import { cdcRoutes } from './cdc/routes.js';
import { createCdcService } from './cdc/service.js';
import { startStreamConsumers } from './streams/consumers.js';
import { registerStreamMetrics } from './streams/metrics.js';
import { createStreamsRepository } from './streams/repository.js';
import { streamRoutes } from './streams/routes.js';
import { createStreamsService } from './streams/service.js';
import { createFileIngestions, createIngestMetrics, type IngestionRunDeps } from './file-ingestions/index.js';
import { createInboxes } from './inboxes/index.js';
import { createEmailFeeds } from './email-feeds/index.js';
import { lagSamplingTask } from './lag-samples.js';

export function createIngestionArea(
  platform: Platform,
  deps: {
    audit: AuditService;
    authorize: Authorize;
    streams: EventStreams;
    visibleProjects: (principal: Principal) => Promise<string[] | null>;
    environmentBelongs: (projectId: string, environmentId: string) => Promise<boolean>;
    /** Where stream consumers, CDC readers and ingestion runs report their runs' lineage. */
    lineage: ContinuousLineage & Pick<LineageService, 'recordRun'>;
    connectors: {
      describe(principal: Principal, id: string): Promise<{ project_id: string; kind: string }>;
      openForRun(id: string, log: Log): Promise<ConnectorHandle>;
      configForRun: IngestionRunDeps['connectors']['configForRun'];
      /** A connector as a CDC reader's capture thread opens it again. */
      captureEndpoint(id: string): Promise<CaptureEndpoint>;
    };
  } & Omit<IngestionRunDeps, 'connectors'>,
) {
  const db = platform.framework.db;
  const repository = createCdcRepository();
  const logs = createCdcLogs({
    db,
    repository,
    shared: platform.shared,
    logger: platform.logger.child({ area: 'ingestion' }),
  });
  const service = createCdcService({ db, repository, logs, ...deps });
  registerCdcMetrics(platform, repository);
  const streamsRepository = createStreamsRepository();
  const streamsService = createStreamsService({ db, repository: streamsRepository, ...deps });
  const streamMetrics = registerStreamMetrics(platform, streamsRepository);
  const { config } = platform;
  const ingestMetrics = createIngestMetrics(platform);
  const files = createFileIngestions(platform, deps, ingestMetrics);
  const inboxes = createInboxes(platform, deps, ingestMetrics);
  const emailFeeds = createEmailFeeds(platform, deps, ingestMetrics);
  return {
    /** What retention policies may prune here: inbox bodies, file copies, dead letters. */
    retention: createIngestionRetention(db, files.storage),
    /** CDC tables per project, for the overview. */
    countByProject: (projectIds: string[]) => repository.countByProject(db, projectIds),
    /** The CDC tables of the projects with their lag figures (seconds, bytes, retained WAL), for alert rules. */
    cdcTables: (projectIds: string[]) => repository.list(db, projectIds),
    /**
     * Streams, file ingestions and inboxes of the projects, for the scopes of alert rules: streams with
     * their lag figures (of their latest run) and whether they are meant to run.
     */
    alertItems: async (projectIds: string[]) => {
      if (projectIds.length === 0) return { streams: [], fileIngestions: [], inboxes: [] };
      const [streams, fileIngestions, inboxes] = await Promise.all([
        db
          .selectFrom('streams as s')
          .leftJoin(
            (eb) =>
              eb
                .selectFrom('stream_runs')
                .select(['stream_id', 'lag_messages', 'latency_seconds'])
                .distinctOn('stream_id')
                .orderBy('stream_id')
                .orderBy('started_at', 'desc')
                .as('r'),
            (join) => join.onRef('r.stream_id', '=', 's.id'),
          )
          .select(['s.id', 's.project_id', 's.name', 's.desired_state', 'r.lag_messages', 'r.latency_seconds'])
          .where('s.project_id', 'in', projectIds)
          .execute(),
        db
          .selectFrom('file_ingestions')
          .select(['id', 'project_id', 'name'])
          .where('project_id', 'in', projectIds)
          .execute(),
        db.selectFrom('inboxes').select(['id', 'project_id', 'name']).where('project_id', 'in', projectIds).execute(),
      ]);
      return {
        streams: streams.map((s) => ({
          id: s.id,
          project_id: s.project_id,
          name: s.name,
          enabled: s.desired_state === 'running',
          lag_messages: s.lag_messages === null ? null : Number(s.lag_messages),
          lag_seconds: s.latency_seconds,
        })),
        fileIngestions,
        inboxes,
      };
    },
    /** Leader-only: the lag of every CDC table and stream sampled for the charts of the last hour. */
    leaderTasks: [lagSamplingTask(db, config.cdc.lagSampleSeconds)],
    /** The run kinds this area executes (platform/job-kinds.ts). */
    jobHandlers: { ...files.jobHandlers, ...inboxes.jobHandlers, ...emailFeeds.jobHandlers },
    /**
     * The loops a worker process runs beside its job queue: stream consumers (unless
     * SVC_STREAMS_MAX_PER_WORKER is 0), the looks at folders and inbox loading, and CDC readers
     * (unless SVC_CDC_MAX_TABLES_PER_WORKER is 0).
     */
    startWorkerLoops() {
      const loops = [files.startPolling(), inboxes.startLoading(), emailFeeds.startPolling()];
      if (config.streams.maxPerWorker > 0)
        loops.push(
          startStreamConsumers({
            db,
            repository: streamsRepository,
            openConnector: deps.connectors.openForRun,
            logger: platform.logger.child({ component: 'streams' }),
            leaseMs: config.streams.leaseSeconds * 1000,
            ackWaitMs: config.streams.ackWaitSeconds * 1000,
            maxStreams: config.streams.maxPerWorker,
            metrics: streamMetrics,
            lineage: deps.lineage,
          }),
        );
      if (config.cdc.maxTablesPerWorker === 0) return loops;
      return [
        ...loops,
        startCdcReaders({
          db,
          repository,
          logs,
          openConnector: deps.connectors.openForRun,
          logger: platform.logger.child({ component: 'cdc' }),
          leaseMs: config.cdc.leaseSeconds * 1000,
          maxTables: config.cdc.maxTablesPerWorker,
          maxInFlightChanges: config.cdc.maxInFlightChanges,
          ...(config.cdc.threadHeapMb > 0
            ? {
                thread: {
                  heapMb: config.cdc.threadHeapMb,
                  endpoint: deps.connectors.captureEndpoint,
                  egress: egressPolicyFrom(config),
                },
              }
            : {}),
          sourceHeartbeatMs: config.cdc.sourceHeartbeatSeconds * 1000,
          lineage: deps.lineage,
        }),
      ];
    },
    async routes(app: FastifyInstance) {
      // Open event streams end when the server closes (a graceful shutdown must not wait for them).
      app.addHook('preClose', async () => deps.streams.endAll('shutdown'));
      await app.register(cdcRoutes, { service, shared: platform.shared, streams: deps.streams });
      await app.register(streamRoutes, { service: streamsService, streams: deps.streams });
      await app.register(files.routes, files.routeOptions);
      await app.register(inboxes.routes, inboxes.routeOptions);
      await app.register(emailFeeds.routes, emailFeeds.routeOptions);
    },
  };
}

/** Lag and progress of every CDC table, read from the framework database: the same on every API process, whichever worker reads the table. */
function registerCdcMetrics(platform: Platform, repository: ReturnType<typeof createCdcRepository>) {
  const registers = [platform.metrics.registry];
  // One query per scrape, shared by the five metrics below (each collects on its own).
  let cached: { at: number; rows: ReturnType<typeof repository.list> } | undefined;
  const rows = () => {
    if (!cached || Date.now() - cached.at > 1000)
      cached = { at: Date.now(), rows: repository.list(platform.framework.db, null) };
    return cached.rows;
  };
  const gauge = (name: string, help: string, value: (row: Awaited<ReturnType<typeof rows>>[number]) => number | null) =>
    new client.Gauge({
      name,
      help,
      labelNames: ['cdc_table'] as const,
      registers,
      async collect() {
        this.reset();
        for (const row of await rows()) {
          const v = value(row);
          if (v !== null) this.set({ cdc_table: row.id }, v);
        }
      },
    });
  gauge(
    'svc_cdc_lag_seconds',
    'From source commit to applied in the destination, of the latest transaction applied, per CDC table.',
    (r) => r.lag_seconds,
  );
  gauge('svc_cdc_lag_bytes', 'Change data at the source past the applied position, per CDC table.', (r) =>
    r.lag_bytes === null ? null : Number(r.lag_bytes),
  );
  gauge('svc_cdc_retained_wal_bytes', 'WAL the replication slot of a CDC table retains (PostgreSQL sources).', (r) =>
    r.retained_wal_bytes === null ? null : Number(r.retained_wal_bytes),
  );
  gauge('svc_cdc_streaming', '1 when a CDC table is streaming, 0 otherwise.', (r) =>
    r.status === 'streaming' ? 1 : 0,
  );
  new client.Counter({
    name: 'svc_cdc_changes_applied_total',
    help: 'Changes applied to the destination since the last snapshot, per CDC table.',
    labelNames: ['cdc_table'] as const,
    registers,
    async collect() {
      this.reset();
      for (const row of await rows()) this.inc({ cdc_table: row.id }, Number(row.changes_applied));
    },
  });
}
