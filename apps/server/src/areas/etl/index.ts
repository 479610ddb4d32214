/** ETL: pipelines (sources -> transforms -> destination, in a DAG of dependencies) and their schedules. */
import type { ConnectorHandle, Log } from '@svc/engine';
import client from 'prom-client';
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../../platform/authn.js';
import type { Authorize } from '../../platform/authz.js';
import type { JobQueue } from '../../platform/jobs.js';
import type { Platform } from '../../platform/runtime.js';
import type { AuditService } from '../audit/service.js';
import type { ExecutionsRepository } from '../operations/executions/repository.js';
import type { ExecutionsService } from '../operations/executions/service.js';
import { createPipelinesRepository } from './pipelines/repository.js';
import { pipelineRoutes } from './pipelines/routes.js';
import { createPipelineRuns } from './pipelines/runs.js';
import { createPipelinesService, type ConnectorFacts } from './pipelines/service.js';
import { createSchedulesRepository } from './schedules/repository.js';
import { scheduleRoutes } from './schedules/routes.js';
import { startScheduler, type Scheduler } from './schedules/scheduler.js';
import { createSchedulesService } from './schedules/service.js';

export function createEtlArea(
  platform: Platform,
  deps: {
    audit: AuditService;
    authorize: Authorize;
    visibleProjects: (principal: Principal) => Promise<string[] | null>;
    executions: ExecutionsService;
    executionsRepository: ExecutionsRepository;
    queue: JobQueue;
    connectors: {
      describe(principal: Principal, id: string): Promise<ConnectorFacts>;
      openForRun(id: string, log: Log): Promise<ConnectorHandle>;
    };
  },
) {
  const db = platform.framework.db;
  const logger = platform.logger.child({ area: 'etl' });
  const pipelinesRepository = createPipelinesRepository();
  const schedulesRepository = createSchedulesRepository();
  const access = { authorize: deps.authorize, visibleProjects: deps.visibleProjects, audit: deps.audit };
  const pipelines = createPipelinesService({ db, repository: pipelinesRepository, executions: deps.executions, connectors: deps.connectors, ...access });
  const schedules = createSchedulesService({ db, repository: schedulesRepository, pipelines: pipelinesRepository, ...access });
  const firings = new client.Counter({
    name: 'svc_schedule_firings_total',
    help: 'Due times of schedules handled, by outcome (enqueued, missed, skipped_running).',
    labelNames: ['outcome'] as const,
    registers: [platform.metrics.registry],
  });
  return {
    runs: createPipelineRuns({ db, repository: pipelinesRepository, executionsRepository: deps.executionsRepository, executions: deps.executions, queue: deps.queue, logger }),
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
