/** Operations: executions and the overview (the schedules dashboard is served by the ETL area, which owns schedules). */
import type { ConnectorHandle, Log } from '@svc/engine';
import type { FastifyInstance } from 'fastify';
import client from 'prom-client';
import type { Principal } from '../../platform/authn.js';
import type { Authorize } from '../../platform/authz.js';
import { createJobQueue, type JobHandlers } from '../../platform/jobs.js';
import type { Platform } from '../../platform/runtime.js';
import type { AuditService } from '../audit/service.js';
import type { LineageService } from '../governance/lineage/service.js';
import { createHistoryRetention } from './executions/history.js';
import { createRunRecorder } from './executions/recorder.js';
import { createExecutionsRepository } from './executions/repository.js';
import { executionRoutes } from './executions/routes.js';
import { createExecutionsService } from './executions/service.js';
import { createSyncHandler, createSyncRangeHandler } from './executions/sync.job.js';
import { createOverviewRepository } from './overview/repository.js';
import { overviewRoutes } from './overview/routes.js';
import { createOverviewService, type OverviewSources } from './overview/service.js';

export function createOperationsArea(
  platform: Platform,
  deps: {
    audit: AuditService;
    authorize: Authorize;
    visibleProjects: (principal: Principal) => Promise<string[] | null>;
    connectorProject: (principal: Principal, id: string) => Promise<string>;
    /** Opens a connector for a run (no principal: the execution was authorized when it was created). */
    openConnector: (id: string, log: Log) => Promise<ConnectorHandle>;
    lineage: LineageService;
  },
) {
  const db = platform.framework.db;
  const repository = createExecutionsRepository();
  const queue = createJobQueue(db);
  const executions = createExecutionsService({ db, repository, queue, shared: platform.shared, ...deps });
  let overviewSources: OverviewSources | undefined;
  const overview = createOverviewService({
    db,
    repository: createOverviewRepository(),
    authorize: deps.authorize,
    visibleProjects: deps.visibleProjects,
    sources: () => {
      if (!overviewSources) throw new Error('the overview has no sources yet (useOverviewSources)');
      return overviewSources;
    },
  });
  const recorder = createRunRecorder({
    db,
    repository,
    queue,
    shared: platform.shared,
    logger: platform.logger.child({ area: 'operations' }),
    cancelPollMs: platform.config.worker.cancelPollSeconds * 1000,
    lineage: deps.lineage,
  });
  const rowsMoved = new client.Counter({
    name: 'svc_rows_moved_total',
    help: 'Rows read from sources and written to destinations by runs.',
    labelNames: ['direction'] as const,
    registers: [platform.metrics.registry],
  });
  const syncDeps = { recorder, openConnector: deps.openConnector, rowsMoved };
  return {
    queue,
    executions,
    repository,
    recorder,
    /** Counts the rows runs move (svc_rows_moved_total), for every area's run handlers. */
    rowsMoved,
    /** The run kinds this area executes (platform/job-kinds.ts). */
    jobHandlers: {
      sync: createSyncHandler(syncDeps),
      sync_range: createSyncRangeHandler(syncDeps),
    } satisfies JobHandlers,
    executionCounts: () => repository.countByStatus(db),
    /** The latest runs of every subject (pipeline, sync, ...) of the projects, `perSubject` of each: what alert rules evaluate. */
    runHistory: (projectIds: string[], perSubject: number) => repository.runHistory(db, projectIds, perSubject),
    /** Retention of each project's execution history (counted and deleted in bounded batches). */
    history: createHistoryRetention(db),
    /** The overview reads projects and the other areas' counts through their services, given once they exist. */
    useOverviewSources(sources: OverviewSources) {
      overviewSources = sources;
    },
    async routes(app: FastifyInstance) {
      await app.register(executionRoutes, { service: executions });
      await app.register(overviewRoutes, { service: overview });
    },
  };
}
