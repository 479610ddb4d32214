/**
 * Every functional area, wired once: each gets the platform and the services of the areas it uses.
 * The order follows the dependencies (audit <- identity <- platform administration <- governance <-
 * connectivity <- operations <- etl, delivery).
 */
import type { FastifyInstance } from 'fastify';
import type { Authenticator } from '../platform/authn.js';
import type { LicenseStatus } from '../platform/license-gate.js';
import type { LeaderTask } from '../platform/leader.js';
import type { Platform } from '../platform/runtime.js';
import { createAlertingArea } from './alerting/index.js';
import { createAuditForwarding } from './audit/forwarder/index.js';
import { auditRoutes } from './audit/routes.js';
import { createAuditService } from './audit/service.js';
import { createConnectivityArea } from './connectivity/index.js';
import { createDeliveryArea } from './delivery/index.js';
import { createEtlArea } from './etl/index.js';
import type { Scheduler } from './etl/schedules/scheduler.js';
import { createGovernanceArea } from './governance/index.js';
import { createMaskingArea } from './governance/masking/index.js';
import { createRetentionArea } from './governance/retention/index.js';
import { createIdentityArea } from './identity/index.js';
import { createIngestionArea } from './ingestion/index.js';
import { createModellingArea } from './modelling/index.js';
import { RUN_FINISHED_CHANNEL } from './operations/executions/recorder.js';
import { createOperationsArea } from './operations/index.js';
import { createPlatformArea } from './platform/index.js';
import { isFollowUp } from '../platform/job-kinds.js';
import type { RunServices } from '../platform/jobs.js';
import { resolveSecretBox } from '../platform/secrets.js';
import { createEventStreams } from '../platform/sse.js';
import { REVOCATIONS_CHANNEL } from './identity/revocation.js';
import { USER_CHANGED_CHANNEL } from './identity/users/cache.js';
import { MEMBERSHIP_CHANNEL } from './platform/admin/service.js';

export interface Areas {
  authenticator: Authenticator;
  /** What the worker needs to run jobs. */
  runs: RunServices;
  license: LicenseStatus;
  leaderTasks: LeaderTask[];
  /** Fires due pipeline schedules from this process; `manual` only fires on `tick()`. */
  startScheduler(options?: { manual?: boolean }): Scheduler;
  /** Registers every area's routes under /api/v1. */
  routes(api: FastifyInstance): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function createAreas(platform: Platform): Promise<Areas> {
  const audit = createAuditService(platform.framework.db);
  const auditForwarding = await createAuditForwarding(platform, { audit });
  const identity = await createIdentityArea(platform, audit);
  const administration = await createPlatformArea(platform, { audit, users: identity.users });
  identity.useGrantRole(administration.grantRole);
  const access = { authorize: administration.authorize, visibleProjects: administration.visibleProjectIds };
  const governance = await createGovernanceArea(platform, { ...access, audit });
  const box = await resolveSecretBox(platform.config);
  const masking = createMaskingArea(platform, {
    ...access,
    audit,
    box,
    columnTags: (connectorId, namespace, name) => governance.catalog.columnTags(connectorId, namespace, name),
    projectColumnTags: (projectId) => governance.catalog.projectColumnTags(projectId),
  });
  const connectivity = await createConnectivityArea(platform, {
    ...access,
    audit,
    catalog: governance.catalog,
    environmentBelongs: administration.environmentBelongs,
  });
  administration.onProjectDeleted(connectivity.removeProjectData);
  governance.lineage.useLocator(connectivity.locate);
  governance.catalog.useSampler((dataset, rows) => connectivity.service.sample(dataset, rows));
  const operations = createOperationsArea(platform, {
    ...access,
    audit,
    connectorProject: (principal, id) => connectivity.service.projectOf(principal, id),
    openConnector: connectivity.service.openForRun,
    lineage: governance.lineage,
  });
  const etl = createEtlArea(platform, {
    ...access,
    audit,
    executions: operations.executions,
    lineage: governance.lineage,
    masking: masking.service,
    queue: operations.queue,
    recorder: operations.recorder,
    rowsMoved: operations.rowsMoved,
    connectors: {
      describe: (principal, id) => connectivity.service.describe(principal, id),
      openForRun: connectivity.service.openForRun,
    },
  });
  const delivery = await createDeliveryArea(platform, {
    ...access,
    audit,
    executions: operations.executions,
    queue: operations.queue,
    recorder: operations.recorder,
    rowsMoved: operations.rowsMoved,
    connectors: {
      describe: (principal, id) => connectivity.service.describe(principal, id),
      openForRun: connectivity.service.openForRun,
    },
    projectFolder: connectivity.projectFolder,
    projectWarehouse: connectivity.projectWarehouse,
    maskedReads: (projectId, plan) => connectivity.warehouse?.maskedReads(projectId, plan),
    pipelineOutput: etl.pipelineOutput,
    masking: masking.service,
    lineage: governance.lineage,
  });
  const modelling = await createModellingArea(platform, {
    ...access,
    audit,
    executions: operations.executions,
    recorder: operations.recorder,
    queue: operations.queue,
    warehouse: connectivity.warehouse,
    catalog: governance.catalog,
    masking: masking.service,
    lineage: governance.lineage,
    refreshCatalog: (projectId, schema) => connectivity.service.refreshWarehouseCatalog(projectId, schema),
  });
  // Server-Sent Events end with their credential: a revocation, a user change or a membership or role
  // change, in any process, makes every open stream check its credential and rights again.
  const streams = await createEventStreams({
    shared: platform.shared,
    authenticator: identity.authenticator,
    accessChannels: [REVOCATIONS_CHANNEL, USER_CHANGED_CHANNEL, MEMBERSHIP_CHANNEL],
    heartbeatMs: platform.config.cdc.sseHeartbeatSeconds * 1000,
    logger: platform.logger.child({ area: 'sse' }),
  });
  const ingestion = createIngestionArea(platform, {
    ...access,
    audit,
    streams,
    environmentBelongs: administration.environmentBelongs,
    executions: operations.executions,
    recorder: operations.recorder,
    queue: operations.queue,
    box,
    lineage: governance.lineage,
    connectors: {
      describe: (principal, id) => connectivity.service.describe(principal, id),
      openForRun: connectivity.service.openForRun,
      configForRun: connectivity.service.configForRun,
      captureEndpoint: connectivity.service.captureEndpoint,
    },
  });
  const retention = createRetentionArea(platform, {
    ...access,
    audit,
    executions: operations.executions,
    recorder: operations.recorder,
    queue: operations.queue,
    history: operations.history,
    ingestion: ingestion.retention,
    warehouseFor: connectivity.warehouseFor,
    projectFolder: connectivity.projectFolder,
  });
  const alerting = await createAlertingArea(platform, {
    ...access,
    audit,
    runs: { history: operations.runHistory, finishedChannel: RUN_FINISHED_CHANNEL },
    cdcTables: ingestion.cdcTables,
    streams: async (projectIds) => (await ingestion.alertItems(projectIds)).streams,
    // Every item a rule's scope may name, with whether it is enabled (a stopped stream or CDC table is not).
    items: async (projectIds) => {
      const [pipelines, tables, ingestionItems, exportNames, models] = await Promise.all([
        etl.overview.pipelines(projectIds),
        ingestion.cdcTables(projectIds),
        ingestion.alertItems(projectIds),
        delivery.exportNames(projectIds),
        modelling.modelNames(projectIds),
      ]);
      const of = (kind: string, rows: Array<{ id: string; project_id: string; name: string }>) =>
        rows.map((r) => ({ kind, id: r.id, project_id: r.project_id, name: r.name, enabled: true }));
      return [
        ...of('pipeline', pipelines),
        ...tables.map((t) => ({
          kind: 'cdc_table',
          id: t.id,
          project_id: t.project_id,
          name: t.name,
          enabled: t.desired_state === 'running',
        })),
        ...ingestionItems.streams.map((s) => ({
          kind: 'stream',
          id: s.id,
          project_id: s.project_id,
          name: s.name,
          enabled: s.enabled,
        })),
        ...of('file_ingestion', ingestionItems.fileIngestions),
        ...of('inbox', ingestionItems.inboxes),
        ...of('export', exportNames),
        ...of('dw_model', models),
      ];
    },
    contacts: identity.users.contacts,
  });
  operations.useOverviewSources({
    projects: administration.projectNames,
    connectorCounts: connectivity.countByProject,
    pipelineCounts: etl.overview.pipelineCounts,
    scheduleCounts: etl.overview.scheduleCounts,
    cdcTableCounts: ingestion.countByProject,
    pipelines: etl.overview.pipelines,
  });
  return {
    authenticator: identity.authenticator,
    runs: {
      queue: operations.queue,
      handlers: {
        ...operations.jobHandlers,
        ...etl.jobHandlers,
        ...ingestion.jobHandlers,
        ...delivery.jobHandlers,
        ...modelling.jobHandlers,
        ...retention.jobHandlers,
      },
      // A run job whose worker stopped on its last attempt fails its execution; a follow-up job of a
      // finished execution (the dependents of a pipeline run) only adds the reason to its log.
      settleAbandoned: (trx, job, error) =>
        operations.recorder.settleAbandoned(trx, job.payload.execution_id, error, {
          failExecution: !isFollowUp(job.kind),
        }),
      executionCounts: operations.executionCounts,
      startLoops: () => ingestion.startWorkerLoops(),
    },
    startScheduler: (options) => etl.startScheduler(options),
    license: administration.license,
    leaderTasks: [
      ...identity.leaderTasks,
      ...alerting.leaderTasks,
      ...auditForwarding.leaderTasks,
      ...retention.leaderTasks,
      ...governance.leaderTasks,
      ...ingestion.leaderTasks,
      ...delivery.leaderTasks,
      ...modelling.leaderTasks,
    ],
    async routes(api) {
      await identity.routes(api);
      await administration.routes(api);
      await connectivity.routes(api);
      await governance.routes(api);
      await retention.routes(api);
      await masking.routes(api);
      await operations.routes(api);
      await etl.routes(api);
      await api.register(auditRoutes, { service: audit });
      await auditForwarding.routes(api);
      await ingestion.routes(api);
      await delivery.routes(api);
      await modelling.routes(api);
      await alerting.routes(api);
    },
    async start() {
      const { seededAdminId } = await identity.start();
      await administration.start(seededAdminId ? { adminId: seededAdminId } : undefined);
    },
    async close() {
      await alerting.close();
      await auditForwarding.close();
      await streams.close();
      await identity.close();
      await administration.close();
    },
  };
}
