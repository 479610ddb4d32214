/** Delivery: exports (data delivered out of a project to files, object stores, HTTP endpoints and databases). */
import type { ConnectorHandle, Log } from '@svc/engine';
import type { FastifyInstance } from 'fastify';
import client, { type Counter } from 'prom-client';
import type { Principal } from '../../platform/authn.js';
import type { ProjectAccess } from '../../platform/authz.js';
import type { JobHandlers, JobQueue } from '../../platform/jobs.js';
import type { LeaderTask } from '../../platform/leader.js';
import type { Platform } from '../../platform/runtime.js';
import { egressPolicyFrom } from '../../platform/egress.js';
import { resolveSecretBox } from '../../platform/secrets.js';
import type { AuditService } from '../audit/service.js';
import type { MaskedReads, MaskedViewPlan, ProjectWarehouse } from '../connectivity/warehouse.js';
import type { RunRecorder } from '../operations/executions/recorder.js';
import type { ExecutionsService } from '../operations/executions/service.js';
import type { LineageService } from '../governance/lineage/service.js';
import type { MaskingService } from '../governance/masking/service.js';
import { createExportHandler } from './exports/export.job.js';
import { createExportRuns } from './exports/runs.js';
import { createExportsRepository } from './exports/repository.js';
import { exportRoutes } from './exports/routes.js';
import { createExportsService, TICK_BATCH, type ConnectorFacts } from './exports/service.js';
import type { PipelineOutput } from './exports/source.js';

export async function createDeliveryArea(
  platform: Platform,
  deps: ProjectAccess & {
    audit: AuditService;
    executions: ExecutionsService;
    queue: JobQueue;
    /** What a viewer may see of a project's data (governance/masking). */
    masking: Pick<MaskingService, 'maskerFor' | 'warehousePlan'>;
    /** What export runs read and wrote (governance/lineage). */
    lineage: Pick<LineageService, 'recordRun'>;
    /** The operations area's record of runs, and its count of rows moved. */
    recorder: RunRecorder;
    rowsMoved: Counter<'direction'>;
    connectors: {
      describe(principal: Principal, id: string): Promise<ConnectorFacts>;
      openForRun(id: string, log: Log): Promise<ConnectorHandle>;
    };
    /** The project's folder of the files root: where file exports are written. */
    projectFolder(projectId: string): Promise<string>;
    /** How to reach the project's warehouse schema as the project's own role (undefined: no warehouse here). */
    projectWarehouse(projectId: string, schema?: string): Promise<ProjectWarehouse> | undefined;
    /** Masked views of the project's warehouse for one read (undefined: no warehouse here). */
    maskedReads(projectId: string, plan: MaskedViewPlan): Promise<MaskedReads> | undefined;
    /** Where a pipeline writes: the source of an export of the pipeline's output. */
    pipelineOutput(id: string): Promise<PipelineOutput | undefined>;
  },
) {
  const db = platform.framework.db;
  const repository = createExportsRepository();
  const egress = egressPolicyFrom(platform.config);
  const firings = new client.Counter({
    name: 'svc_export_schedule_firings_total',
    help: 'Due times of export schedules by outcome (enqueued, missed, skipped_running).',
    labelNames: ['outcome'] as const,
    registers: [platform.metrics.registry],
  });
  const exports = createExportsService({
    egress,
    graceMs: platform.config.scheduler.graceSeconds * 1000,
    firings,
    log: (level, message, fields) => platform.logger[level]({ ...fields }, message),
    db,
    repository,
    authorize: deps.authorize,
    visibleProjects: deps.visibleProjects,
    audit: deps.audit,
    box: await resolveSecretBox(platform.config),
    describeConnector: deps.connectors.describe,
    executions: deps.executions,
    projectFolder: deps.projectFolder,
    pipelineOutput: deps.pipelineOutput,
  });
  const runs = createExportRuns({
    db,
    repository,
    queue: deps.queue,
    recorder: deps.recorder,
    sources: {
      openConnector: deps.connectors.openForRun,
      projectWarehouse: deps.projectWarehouse,
      maskedReads: deps.maskedReads,
      pipelineOutput: deps.pipelineOutput,
    },
    masking: deps.masking,
    projectFolder: deps.projectFolder,
    lineage: deps.lineage,
    egress,
  });
  const exportRows = new client.Counter({
    name: 'svc_export_rows_total',
    help: 'Rows of export runs by outcome (delivered, failed).',
    labelNames: ['outcome'] as const,
    registers: [platform.metrics.registry],
  });
  return {
    /** The exports of the projects (id, project, name), for the scopes of alert rules. */
    exportNames: (projectIds: string[]) =>
      projectIds.length === 0
        ? Promise.resolve([])
        : db.selectFrom('exports').select(['id', 'project_id', 'name']).where('project_id', 'in', projectIds).execute(),
    /** The run kinds this area executes (platform/job-kinds.ts). */
    jobHandlers: {
      export: createExportHandler({
        recorder: deps.recorder,
        runs,
        destinationOf: (row) => exports.destinationOf(row),
        rowsMoved: deps.rowsMoved,
        exportRows,
      }),
    } satisfies JobHandlers,
    /** Export schedules fire from the leader, at the scheduler's tick. */
    leaderTasks: [
      {
        name: 'export schedules',
        intervalMs: platform.config.scheduler.tickMs,
        run: async () => {
          // A full batch: more may be due; go again at once.
          while ((await exports.tick()) >= TICK_BATCH);
        },
      },
    ] satisfies LeaderTask[],
    async routes(app: FastifyInstance) {
      await app.register(exportRoutes, { service: exports });
    },
  };
}
