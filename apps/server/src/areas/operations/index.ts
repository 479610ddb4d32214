/** Operations: executions and the overview (the schedules dashboard is served by the ETL area, which owns schedules). */
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../../platform/authn.js';
import type { Authorize } from '../../platform/authz.js';
import { createJobQueue } from '../../platform/jobs.js';
import type { Platform } from '../../platform/runtime.js';
import type { AuditService } from '../audit/service.js';
import { createRunRecorder } from './executions/recorder.js';
import { createExecutionsRepository } from './executions/repository.js';
import { executionRoutes } from './executions/routes.js';
import { createExecutionsService } from './executions/service.js';
import { createOverviewRepository } from './overview/repository.js';
import { overviewRoutes } from './overview/routes.js';
import { createOverviewService } from './overview/service.js';

export function createOperationsArea(
  platform: Platform,
  deps: { audit: AuditService; authorize: Authorize; visibleProjects: (principal: Principal) => Promise<string[] | null>; connectorProject: (principal: Principal, id: string) => Promise<string> },
) {
  const db = platform.framework.db;
  const repository = createExecutionsRepository();
  const queue = createJobQueue(db);
  const executions = createExecutionsService({ db, repository, queue, shared: platform.shared, ...deps });
  const overview = createOverviewService({ db, repository: createOverviewRepository(), authorize: deps.authorize, visibleProjects: deps.visibleProjects });
  return {
    queue,
    executions,
    repository,
    recorder: createRunRecorder({ db, repository, queue, shared: platform.shared, logger: platform.logger.child({ area: 'operations' }) }),
    executionCounts: () => repository.countByStatus(db),
    async routes(app: FastifyInstance) {
      await app.register(executionRoutes, { service: executions });
      await app.register(overviewRoutes, { service: overview });
    },
  };
}
