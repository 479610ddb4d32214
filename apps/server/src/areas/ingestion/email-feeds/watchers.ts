/**
 * IMAP IDLE watches of the e-mail feeds that ask for one (`idle: true`), in a worker process. Each
 * watch is held by one worker at a time under a lease (renewed every third of its length; a worker
 * that dies stops renewing and another takes the watch over when it expires). A watch that cannot
 * connect marks the feed degraded with the reason and is taken again after a back-off; a watch whose
 * feed was changed (or no longer asks for IDLE) ends and is taken again with the new settings.
 */
import type { EgressPolicy } from '@svc/engine';
import type { Logger } from 'pino';
import type { Db } from '../../../platform/db/index.js';
import { startLeasedLoop } from '../../../platform/leases.js';
import type { SecretBox } from '../../../platform/secrets.js';
import { reasonOf, watchMailbox } from './imap.js';
import type { EmailFeedRow, EmailFeedsRepository } from './repository.js';

const LEASE_MS = 30_000;
/** After a failed watch: how long before it is taken again. */
const RETRY_MS = 5_000;

export function startIdleWatchers(deps: {
  db: Db;
  repository: EmailFeedsRepository;
  box: SecretBox;
  egress: EgressPolicy;
  logger: Logger;
  /** Most watches (IMAP connections) one worker process holds. */
  max: number;
  startForNewMail(feedId: string): Promise<boolean>;
}) {
  const { db, repository, logger } = deps;
  return startLeasedLoop<EmailFeedRow>({
    name: 'email feed watch',
    logger,
    max: deps.max,
    claim: (owner, inHand) => repository.claimWatch(db, owner, LEASE_MS, inHand),
    async run(feed, controller, owner) {
      const renew = setInterval(() => {
        repository.renewWatch(db, feed.id, owner, LEASE_MS).then(
          (row) => {
            if (!row) controller.abort(new Error('lease lost'));
            else if (!row.idle || row.updated_at.getTime() !== feed.updated_at.getTime())
              controller.abort(new Error('feed changed'));
          },
          (error: Error) => logger.warn({ err: { message: error.message }, feed_id: feed.id }, 'watch renewal failed'),
        );
      }, LEASE_MS / 3);
      let retryInMs = 0;
      try {
        await watchMailbox(feed, deps.box.decrypt(feed.password_encrypted), deps.egress, {
          signal: controller.signal,
          position: async () => {
            const row = await repository.find(db, feed.id);
            return row ? { uidValidity: row.uid_validity, lastUid: Number(row.last_uid) } : undefined;
          },
          onNew: () => deps.startForNewMail(feed.id),
          onConnected: () => void repository.setStatus(db, feed.id, 'active', null).catch(() => undefined),
        });
      } catch (error) {
        if (!controller.signal.aborted) {
          retryInMs = RETRY_MS;
          logger.warn({ err: { message: (error as Error).message }, feed_id: feed.id }, 'mailbox watch failed');
          await repository.setStatus(db, feed.id, 'degraded', reasonOf(error)).catch(() => undefined);
        }
      } finally {
        clearInterval(renew);
        await repository.releaseWatch(db, feed.id, owner, retryInMs).catch(() => undefined);
      }
    },
  });
}
