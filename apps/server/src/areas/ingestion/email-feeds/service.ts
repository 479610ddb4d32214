/**
 * E-mail feeds: a mailbox read over IMAP whose new messages' attachments (or fields) are loaded
 * into a destination table, each message once, with a history row per message. Reading is a run
 * (an execution of kind `email_feed`) that the worker executes (email-feed.job.ts); scheduled looks
 * first ask the server for the mailbox's state and start a run only when there is something new,
 * and mark the feed degraded (with the reason) when the mailbox cannot be reached.
 */
import type { EgressPolicy } from '@svc/engine';
import type { Principal } from '../../../platform/authn.js';
import type { ProjectAccess } from '../../../platform/authz.js';
import { auditedWrites } from '../../../platform/audited-writes.js';
import type { Db } from '../../../platform/db/index.js';
import { notFound, validationFailed } from '../../../platform/errors/index.js';
import { SYSTEM_CONTEXT, type RequestContext } from '../../../platform/request-context.js';
import type { SecretBox } from '../../../platform/secrets.js';
import type { AuditService } from '../../audit/service.js';
import type { ExecutionsService } from '../../operations/executions/service.js';
import { EMAIL_FEED, EMAIL_MESSAGE, emailFeedNameTaken } from '../errors.js';
import type { DestinationSpec } from '../file-ingestions/repository.js';
import type { ConnectorDescription } from '../file-ingestions/service.js';
import { destinationProblems, ingestionGuard, runStarter } from '../runs.js';
import type { EmailFeedRunParams } from './email-feed.job.js';
import { openSession, reasonOf } from './imap.js';
import type {
  EmailFeedRow,
  EmailFeedsRepository,
  FeedChanges,
  FiltersSpec,
  LoadSpecOfFeed,
  MessageRow,
  MessageStatus,
  PostAction,
} from './repository.js';
import { authorship } from '../../../platform/presenters.js';

export interface EmailFeedInput {
  project_id: string;
  name: string;
  host: string;
  port: number;
  tls: boolean;
  username: string;
  password: string;
  mailbox?: string;
  filters?: FiltersSpec;
  load: LoadSpecOfFeed;
  post_action?: PostAction;
  move_to?: string | null;
  destination: DestinationSpec;
  poll_interval_seconds?: number | null;
  idle?: boolean;
}

export const presentEmailFeed = (row: EmailFeedRow) => ({
  id: row.id,
  project_id: row.project_id,
  name: row.name,
  host: row.host,
  port: row.port,
  tls: row.tls,
  username: row.username,
  has_password: !!row.password_encrypted,
  mailbox: row.mailbox,
  filters: row.filters as Record<string, unknown>,
  load: row.load as { kind: string },
  post_action: row.post_action,
  move_to: row.move_to,
  destination: row.destination as unknown as Record<string, unknown>,
  poll_interval_seconds: row.poll_interval_seconds,
  next_poll_at: row.next_poll_at?.toISOString() ?? null,
  idle: row.idle,
  status: row.status,
  status_reason: row.status_reason,
  status_changed_at: row.status_changed_at?.toISOString() ?? null,
  uid_validity: row.uid_validity,
  last_uid: String(row.last_uid),
  last_polled_at: row.last_polled_at?.toISOString() ?? null,
  ...authorship(row),
});

export const presentMessage = (row: MessageRow) => ({
  id: row.id,
  feed_id: row.feed_id,
  uid_validity: String(row.uid_validity),
  uid: String(row.uid),
  message_id: row.message_id,
  from: row.sender,
  subject: row.subject,
  sent_at: row.sent_at?.toISOString() ?? null,
  attachments: row.attachments,
  rows_loaded: Number(row.rows_loaded),
  status: row.status,
  error: row.error,
  execution_id: row.execution_id,
  created_at: row.created_at.toISOString(),
});

export type EmailFeedsService = ReturnType<typeof createEmailFeedsService>;

export function createEmailFeedsService(
  deps: ProjectAccess & {
    db: Db;
    repository: EmailFeedsRepository;
    audit: AuditService;
    executions: ExecutionsService;
    box: SecretBox;
    egress: EgressPolicy;
    connectors: { describe(principal: Principal, id: string): Promise<ConnectorDescription> };
  },
) {
  const { db, repository, executions } = deps;

  const guard = ingestionGuard(deps, EMAIL_FEED, (id) => repository.find(db, id));

  const writes = auditedWrites<EmailFeedRow>(deps, {
    kind: 'email_feed',
    label: EMAIL_FEED,
    nameTaken: emailFeedNameTaken,
  });

  const problemsOf = async (principal: Principal, projectId: string, input: Omit<EmailFeedInput, 'password'>) => {
    const destination = input.destination;
    const problems = await destinationProblems(deps.connectors, principal, projectId, destination, { checkMode: true });
    if (destination.mode === 'overwrite')
      problems.push({ path: 'destination.mode', message: 'each message would replace the last: use append or upsert' });
    if (input.post_action === 'move' && !input.move_to)
      problems.push({ path: 'move_to', message: 'is required with post_action move' });
    if (input.filters?.subject_pattern) {
      try {
        new RegExp(input.filters.subject_pattern, 'i');
      } catch {
        problems.push({ path: 'filters.subject_pattern', message: 'is not a valid regular expression' });
      }
    }
    if (input.filters?.since && Number.isNaN(Date.parse(input.filters.since)))
      problems.push({ path: 'filters.since', message: 'is not a date' });
    return problems;
  };

  const startRun = runStarter<EmailFeedRow, Omit<EmailFeedRunParams, 'feed_id' | 'feed_name'>>(
    executions,
    'email_feed',
    (row) => ({ feed_id: row.id, feed_name: row.name }),
  );

  /** Whether a run of the feed is queued or running. */
  const runOpen = async (trx: Db, feedId: string) =>
    !!(await trx
      .selectFrom('executions')
      .select('id')
      .where('kind', '=', 'email_feed')
      .where('status', 'in', ['queued', 'running'])
      .where(({ ref }) => ref('params', '->>').key('feed_id'), '=', feedId)
      .executeTakeFirst());

  return {
    async create(principal: Principal, input: EmailFeedInput, context: RequestContext) {
      await deps.authorize(principal, 'ingestion:write', input.project_id);
      const problems = await problemsOf(principal, input.project_id, input);
      if (problems.length) throw validationFailed(problems);
      const row = await writes.create(context, input.name, (trx) =>
        repository.insert(trx, {
          project_id: input.project_id,
          name: input.name,
          host: input.host,
          port: input.port,
          tls: input.tls,
          username: input.username,
          password_encrypted: deps.box.encrypt(input.password),
          mailbox: input.mailbox ?? 'INBOX',
          filters: input.filters ?? {},
          load: input.load,
          post_action: input.post_action ?? 'none',
          move_to: input.move_to ?? null,
          destination: input.destination,
          poll_interval_seconds: input.poll_interval_seconds ?? null,
          next_poll_at: input.poll_interval_seconds ? new Date() : null,
          idle: input.idle ?? false,
          created_by: principal.userId,
        }),
      );
      return presentEmailFeed(row);
    },

    ...guard.readers('ingestion:read', (projectIds) => repository.list(db, projectIds), presentEmailFeed),

    async update(principal: Principal, id: string, patch: Partial<EmailFeedInput>, context: RequestContext) {
      const current = await guard.find(principal, id, 'ingestion:write');
      const { password, ...rest } = patch;
      const merged = {
        ...current,
        ...rest,
        move_to: rest.move_to !== undefined ? rest.move_to : current.move_to,
      } as unknown as EmailFeedInput;
      const problems = await problemsOf(principal, current.project_id, merged);
      if (problems.length) throw validationFailed(problems);
      // Another server or mailbox: its position means nothing there.
      const moved =
        (rest.host !== undefined && rest.host !== current.host) ||
        (rest.port !== undefined && rest.port !== current.port) ||
        (rest.username !== undefined && rest.username !== current.username) ||
        (rest.mailbox !== undefined && rest.mailbox !== current.mailbox);
      const changes: FeedChanges = {
        ...rest,
        ...(password !== undefined ? { password_encrypted: deps.box.encrypt(password) } : {}),
        ...(moved ? { uid_validity: null, last_uid: '0' } : {}),
        ...(rest.poll_interval_seconds !== undefined
          ? { next_poll_at: rest.poll_interval_seconds ? new Date() : null }
          : {}),
      };
      const row = await writes.update(context, id, merged.name, patch, (trx) => repository.update(trx, id, changes));
      return presentEmailFeed(row);
    },

    async remove(principal: Principal, id: string, context: RequestContext) {
      const row = await guard.find(principal, id, 'ingestion:write');
      await writes.remove(context, id, { name: row.name }, (trx) => repository.remove(trx, id));
    },

    async messages(principal: Principal, id: string, query: { status?: MessageStatus; limit?: number }) {
      await guard.find(principal, id, 'ingestion:read');
      return { items: (await repository.messages(db, id, query)).map(presentMessage) };
    },

    /** Reads the mailbox now: a run. */
    async run(principal: Principal, id: string, fromStart: boolean, context: RequestContext) {
      const row = await guard.find(principal, id, 'ingestion:run');
      const execution = await db
        .transaction()
        .execute((trx) => startRun(trx, row, fromStart ? { from_start: true } : {}, principal, context));
      return executions.present(execution);
    },

    /** Loads one message again (its UID, under the current UIDVALIDITY): a run. */
    async reload(principal: Principal, id: string, messageId: string, context: RequestContext) {
      const row = await guard.find(principal, id, 'ingestion:run');
      const message = await repository.findMessageById(db, id, messageId);
      if (!message) throw notFound(EMAIL_MESSAGE);
      if (String(message.uid_validity) !== row.uid_validity)
        throw validationFailed([
          {
            path: 'message_id',
            message: 'was read under an earlier UIDVALIDITY of the mailbox; it cannot be found again by its UID',
          },
        ]);
      const execution = await db
        .transaction()
        .execute((trx) => startRun(trx, row, { reload_uids: [String(message.uid)] }, principal, context));
      return executions.present(execution);
    },

    /**
     * The scheduled looks that are due: the mailbox's state is asked (STATUS), a run started only
     * when there are new messages or its UIDVALIDITY changed; a mailbox that cannot be reached
     * marks the feed degraded with the reason.
     */
    /**
     * A watch saw new mail: starts a run unless one of the feed is queued or running (false then:
     * the caller looks again once it is over, as that run may have read the mailbox before the mail came).
     */
    async startForNewMail(feedId: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const row = await repository.find(trx, feedId);
        if (!row) return true;
        if (await runOpen(trx, feedId)) return false;
        await startRun(trx, row, {}, null, SYSTEM_CONTEXT);
        return true;
      });
    },

    async startDue(limit = 20) {
      const due = await db.transaction().execute((trx) => repository.claimDue(trx, limit));
      let started = 0;
      for (const row of due) {
        let changed: boolean;
        try {
          const session = await openSession(row, deps.box.decrypt(row.password_encrypted), deps.egress);
          try {
            const state = await session.state();
            changed = state.uidValidity !== row.uid_validity || state.uidNext - 1 > Number(row.last_uid);
          } finally {
            await session.close();
          }
        } catch (error) {
          await repository.setStatus(db, row.id, 'degraded', reasonOf(error));
          continue;
        }
        if (!changed) {
          await repository.setStatus(db, row.id, 'active', null);
          continue;
        }
        await db.transaction().execute(async (trx) => {
          // One run of a feed at a time: a run still queued or running will see these messages.
          if (!(await runOpen(trx, row.id))) {
            await startRun(trx, row, {}, null, SYSTEM_CONTEXT);
            started += 1;
          }
        });
      }
      return started;
    },
  };
}
