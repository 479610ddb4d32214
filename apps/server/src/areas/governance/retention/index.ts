/**
 * Retention policies: wired after the areas whose data they prune (connectivity's warehouse,
 * operations' execution history, the audit log), each of which is a registered target kind.
 */
import type { FastifyInstance } from 'fastify';
import client from 'prom-client';
import type { ProjectAccess } from '../../../platform/authz.js';
import type { JobHandlers, JobQueue } from '../../../platform/jobs.js';
import type { LeaderTask } from '../../../platform/leader.js';
import type { Platform } from '../../../platform/runtime.js';
import type { AuditService } from '../../audit/service.js';
import type { ProjectWarehouse } from '../../connectivity/warehouse.js';
import type { IngestionRetention } from '../../ingestion/retention.js';
import type { HistoryRetention } from '../../operations/executions/history.js';
import type { RunRecorder } from '../../operations/executions/recorder.js';
import type { ExecutionsService } from '../../operations/executions/service.js';
import {
  auditEventsTarget,
  executionHistoryTarget,
  executionLogsTarget,
  ingestionTargets,
  warehouseTableTarget,
} from './builtin-targets.js';
import { createRetentionRepository } from './repository.js';
import { retentionRoutes } from './routes.js';
import { createRetentionService } from './service.js';
import { createSweepHandler } from './sweep.job.js';
import { createSweepRunner } from './sweep.js';
import { createTargetRegistry } from './targets.js';

export function createRetentionArea(
  platform: Platform,
  deps: ProjectAccess & {
    audit: AuditService;
    executions: ExecutionsService;
    recorder: RunRecorder;
    queue: JobQueue;
    history: HistoryRetention;
    /** The ingestion area's prunable data: inbox bodies, file copies, dead letters. */
    ingestion: IngestionRetention;
    warehouseFor(projectId: string, schema: string): Promise<ProjectWarehouse> | undefined;
    projectFolder(projectId: string): Promise<string>;
  },
) {
  const db = platform.framework.db;
  const logger = platform.logger.child({ area: 'governance', part: 'retention' });
  const config = platform.config.retention;
  const repository = createRetentionRepository();
  const targets = createTargetRegistry();
  targets.register(warehouseTableTarget(deps));
  targets.register(executionHistoryTarget(deps.history));
  targets.register(executionLogsTarget(deps.history));
  for (const kind of ingestionTargets(deps.ingestion)) targets.register(kind);
  targets.register(auditEventsTarget(deps.audit, config.auditFloorDays));
  const sweeps = createSweepRunner({
    db,
    repository,
    targets,
    batchRows: config.batchRows,
    logger,
    rowsDeleted: new client.Counter({
      name: 'svc_retention_rows_deleted_total',
      help: 'Rows deleted by retention sweeps, by target kind.',
      labelNames: ['target'] as const,
      registers: [platform.metrics.registry],
    }),
    batchSeconds: new client.Histogram({
      name: 'svc_retention_batch_seconds',
      help: 'Duration of one retention batch (one short transaction), by target kind.',
      labelNames: ['target'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [platform.metrics.registry],
    }),
  });
  const service = createRetentionService({
    db,
    repository,
    targets,
    sweeps,
    authorize: deps.authorize,
    visibleProjects: deps.visibleProjects,
    audit: deps.audit,
    executions: deps.executions,
    logger,
  });
  return {
    service,
    /** Where later areas register the kinds of data they keep (inbox bodies, file copies, dead letters). */
    targets,
    jobHandlers: {
      retention_sweep: createSweepHandler({ db, queue: deps.queue, recorder: deps.recorder, sweeps }),
    } satisfies JobHandlers,
    leaderTasks: [
      {
        name: 'retention schedules',
        intervalMs: config.tickSeconds * 1000,
        run: async () => {
          await service.tick();
        },
      },
    ] satisfies LeaderTask[],
    async routes(app: FastifyInstance) {
      await app.register(retentionRoutes, { service });
    },
  };
}
