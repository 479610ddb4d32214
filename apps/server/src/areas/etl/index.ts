/** ETL: pipelines (sources -> transforms -> destination, in a DAG of dependencies) and their schedules. */
import type { ConnectorHandle, Log } from '@svc/engine';
import client, { type Counter } from 'prom-client';
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../../platform/authn.js';
import type { Authorize } from '../../platform/authz.js';
import type { JobHandlers, JobQueue } from '../../platform/jobs.js';
import type { Platform } from '../../platform/runtime.js';
import type { AuditService } from '../audit/service.js';
import type { LineageService } from '../governance/lineage/service.js';
import type { RunRecorder } from '../operations/executions/recorder.js';
import type { ExecutionsService } from '../operations/executions/service.js';
import { createDependentsHandler, createPipelineHandler } from './pipelines/pipeline.job.js';
import { createPipelinesRepository } from './pipelines/repository.js';
import { pipelineRoutes } from './pipelines/routes.js';
import { createPipelineRuns } from './pipelines/runs.js';
import { createPipelinesService, type ConnectorFacts } from './pipelines/service.js';
import { createSchedulesRepository } from './schedules/repository.js';
import { scheduleRoutes } from './schedules/routes.js';
import type { MaskingService } from '../governance/masking/service.js';
import { startScheduler, type Scheduler } from './schedules/scheduler.js';
import { createSchedulesService } from './schedules/service.js';

export function createEtlArea(
  platform: Platform,
  deps: {
    audit: AuditService;
    authorize: Authorize;
    visibleProjects: (principal: Principal) => Promise<string[] | null>;
    executions: ExecutionsService;
    lineage: LineageService;
    queue: JobQueue;
    /** The operations area's record of runs, and its count of rows moved. */
    recorder: RunRecorder;
    rowsMoved: Counter<'direction'>;
    connectors: {
      describe(principal: Principal, id: string): Promise<ConnectorFacts>;
      openForRun(id: string, log: Log): Promise<ConnectorHandle>;
    };
    masking: Pick<MaskingService, 'maskerFor'>;
  },
) {
  const db = platform.framework.db;
  const logger = platform.logger.child({ area: 'etl' });
  const pipelinesRepository = createPipelinesRepository();
  const schedulesRepository = createSchedulesRepository();
  const access = { authorize: deps.authorize, visibleProjects: deps.visibleProjects, audit: deps.audit };
  const pipelines = createPipelinesService({
    db,
    repository: pipelinesRepository,
    executions: deps.executions,
    connectors: deps.connectors,
    masking: deps.masking,
    ...access,
  });
  const schedules = createSchedulesService({
    db,
    repository: schedulesRepository,
    pipelines: pipelinesRepository,
    executions: deps.executions,
    ...access,
  });
  const firings = new client.Counter({
    name: 'svc_schedule_firings_total',
    help: 'Due times of schedules handled, by outcome (enqueued, missed, skipped_running).',
    labelNames: ['outcome'] as const,
    registers: [platform.metrics.registry],
  });
  const runs = createPipelineRuns({
    db,
    repository: pipelinesRepository,
    executions: deps.executions,
    recorder: deps.recorder,
    lineage: deps.lineage,
    queue: deps.queue,
    logger,
  });
  return {
    /** Where a pipeline writes (its destination connector and table): what an export of its output reads. */
    async pipelineOutput(id: string) {
      const row = await pipelinesRepository.find(db, id);
      if (!row) return undefined;
      const { connector_id, namespace, table } = row.destination;
      return { project_id: row.project_id, name: row.name, connector_id, namespace: namespace ?? null, table };
    },
    /** Pipelines and schedules per project, and the pipelines' names, for the overview. */
    overview: {
      pipelineCounts: (projectIds: string[]) => pipelinesRepository.countByProject(db, projectIds),
      scheduleCounts: (projectIds: string[]) => schedulesRepository.countByProject(db, projectIds),
      pipelines: (projectIds: string[]) => pipelinesRepository.namesIn(db, projectIds),
    },
    /** The run kinds this area executes (platform/job-kinds.ts). */
    jobHandlers: {
      etl_pipeline: createPipelineHandler({
        recorder: deps.recorder,
        openConnector: deps.connectors.openForRun,
        rowsMoved: deps.rowsMoved,
        pipelines: runs,
      }),
      etl_dependents: createDependentsHandler({ recorder: deps.recorder, pipelines: runs }),
    } satisfies JobHandlers,
    /** Fires due schedules from this process (any number of processes may). */
    startScheduler(options: { manual?: boolean } = {}): Scheduler {
      return startScheduler({
        db,
        repository: schedulesRepository,
        pipelines: pipelinesRepository,
        executions: deps.executions,
        logger,
        tickMs: platform.config.scheduler.tickMs,
        graceMs: platform.config.scheduler.graceSeconds * 1000,
        firings,
        manual: options.manual,
      });
    },
    async routes(app: FastifyInstance) {
      await app.register(pipelineRoutes, { service: pipelines });
      await app.register(scheduleRoutes, { service: schedules });
    },
  };
}
