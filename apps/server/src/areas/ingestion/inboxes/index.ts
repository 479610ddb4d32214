/** Inboxes wired: service, routes, the load handler, and the loop that starts loads of pending requests. */
import type { Platform } from '../../../platform/runtime.js';
import type { IngestMetrics } from '../file-ingestions/file-ingestion.job.js';
import type { IngestionRunDeps } from '../file-ingestions/index.js';
import { createInboxLoadHandler } from './inbox-load.job.js';
import { createInboxesRepository } from './repository.js';
import { inboxRoutes } from './routes.js';
import { createInboxesService } from './service.js';

export function createInboxes(platform: Platform, deps: IngestionRunDeps, metrics: IngestMetrics) {
  const db = platform.framework.db;
  const repository = createInboxesRepository();
  const logger = platform.logger.child({ component: 'inboxes' });
  const service = createInboxesService({
    db,
    repository,
    authorize: deps.authorize,
    visibleProjects: deps.visibleProjects,
    audit: deps.audit,
    executions: deps.executions,
    box: deps.box,
    shared: platform.shared,
    logger,
    metrics,
    connectors: deps.connectors,
  });
  return {
    service,
    jobHandlers: {
      inbox_load: createInboxLoadHandler({
        db,
        repository,
        recorder: deps.recorder,
        queue: deps.queue,
        openConnector: deps.connectors.openForRun,
        metrics,
        lineage: deps.lineage,
      }),
    },
    /** From a worker process: starts loads of inboxes with pending requests, and drops bodies past their retention. */
    startLoading(intervalMs = 250) {
      let stopped = false;
      let running: Promise<unknown> = Promise.resolve();
      let lastExpiry = 0;
      const timer = setInterval(() => {
        running = running.then(async () => {
          if (stopped) return;
          try {
            await service.startPendingLoads();
            if (Date.now() - lastExpiry > 60_000) {
              lastExpiry = Date.now();
              await service.expireBodies();
            }
          } catch (error) {
            logger.warn({ err: { message: (error as Error).message } }, 'starting inbox loads failed');
          }
        });
      }, intervalMs);
      return {
        async stop() {
          stopped = true;
          clearInterval(timer);
          await running;
        },
      };
    },
    routes: inboxRoutes,
    routeOptions: { service },
  };
}
