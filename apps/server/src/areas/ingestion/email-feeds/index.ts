/** E-mail feeds wired: service, routes, the run handler, and the scheduled looks at mailboxes. */
import { egressPolicyFrom } from '../../../platform/egress.js';
import { repeatEvery } from '../../../platform/periodic.js';
import type { Platform } from '../../../platform/runtime.js';
import type { IngestMetrics } from '../file-ingestions/file-ingestion.job.js';
import type { IngestionRunDeps } from '../file-ingestions/index.js';
import { createEmailFeedHandler } from './email-feed.job.js';
import { createEmailFeedsRepository } from './repository.js';
import { emailFeedRoutes } from './routes.js';
import { createEmailFeedsService } from './service.js';
import { startIdleWatchers } from './watchers.js';

/** Most IMAP IDLE watches (open connections) one worker process holds; the others' are held by other workers. */
const MAX_WATCHES_PER_WORKER = 100;

export function createEmailFeeds(platform: Platform, deps: IngestionRunDeps, metrics: IngestMetrics) {
  const db = platform.framework.db;
  const egress = egressPolicyFrom(platform.config);
  const repository = createEmailFeedsRepository();
  const logger = platform.logger.child({ component: 'email-feeds' });
  const service = createEmailFeedsService({ ...deps, db, repository, egress });
  return {
    service,
    jobHandlers: {
      email_feed: createEmailFeedHandler({
        db,
        repository,
        recorder: deps.recorder,
        queue: deps.queue,
        openConnector: deps.connectors.openForRun,
        metrics,
        box: deps.box,
        egress,
        lineage: deps.lineage,
      }),
    },
    /** From a worker process: the looks at mailboxes that are due, every few seconds, and the IDLE watches. */
    startPolling(intervalMs = 5000) {
      const watchers = startIdleWatchers({
        db,
        repository,
        box: deps.box,
        egress,
        logger,
        max: MAX_WATCHES_PER_WORKER,
        startForNewMail: (feedId) => service.startForNewMail(feedId),
      });
      const polling = repeatEvery(intervalMs, () => service.startDue(), logger, 'polling mailboxes failed');
      return {
        async stop() {
          await Promise.all([polling.stop(), watchers.stop()]);
        },
      };
    },
    routes: emailFeedRoutes,
    routeOptions: { service },
  };
}
