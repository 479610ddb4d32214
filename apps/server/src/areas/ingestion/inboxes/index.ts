/** Inboxes wired: service, routes, the load handler, and the loop that starts loads of pending requests. */
import { repeatEvery } from '../../../platform/periodic.js';
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
  const service = createInboxesService({ ...deps, db, repository, shared: platform.shared, logger, metrics });
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
      let lastExpiry = 0;
      return repeatEvery(
        intervalMs,
        async () => {
          await service.startPendingLoads();
          if (Date.now() - lastExpiry > 60_000) {
            lastExpiry = Date.now();
            await service.expireBodies();
          }
        },
        logger,
        'starting inbox loads failed',
      );
    },
    routes: inboxRoutes,
    routeOptions: { service },
  };
}
