/** SQL on the e-mail feeds' own tables: the definitions, their reading position, and the history of their messages. */
import { sql, type Generated, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../../platform/db/index.js';
import { historyTable } from '../../../platform/db/history-tables.js';
import { leaseQueries } from '../../../platform/leases.js';
import { claimDuePolls, jsonb as json, projectTable } from '../../../platform/db/project-tables.js';
import type { DestinationSpec } from '../file-ingestions/repository.js';

export interface FiltersSpec {
  from?: string;
  subject_pattern?: string;
  since?: string;
}

export type LoadSpecOfFeed =
  | {
      kind: 'attachments';
      glob?: string;
      mime_types?: string[];
      format?: 'csv' | 'json' | 'ndjson' | 'xlsx' | 'parquet';
      delimiter?: string;
    }
  | { kind: 'message_fields' };

export type PostAction = 'none' | 'mark_seen' | 'move' | 'delete';

export interface EmailFeedsTable {
  id: Generated<string>;
  project_id: string;
  name: string;
  host: string;
  port: number;
  tls: boolean;
  username: string;
  password_encrypted: string;
  mailbox: string;
  filters: FiltersSpec;
  load: LoadSpecOfFeed;
  post_action: PostAction;
  move_to: string | null;
  destination: DestinationSpec;
  poll_interval_seconds: number | null;
  next_poll_at: Date | null;
  /** Watch the mailbox with IMAP IDLE (a worker holds the watch under the lease). */
  idle: Generated<boolean>;
  lease_owner: Generated<string | null>;
  lease_expires_at: Generated<Date | null>;
  status: Generated<'active' | 'degraded'>;
  status_reason: string | null;
  status_changed_at: Date | null;
  uid_validity: string | null;
  last_uid: Generated<string>;
  last_polled_at: Date | null;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type MessageStatus = 'loaded' | 'partially_loaded' | 'failed' | 'skipped';

export interface AttachmentOutcome {
  filename: string;
  content_type: string;
  size: number;
  loaded: boolean;
  rows_loaded: number;
  error: string | null;
}

export interface EmailFeedMessagesTable {
  id: Generated<string>;
  feed_id: string;
  project_id: string;
  uid_validity: string;
  uid: string;
  message_id: string | null;
  sender: string | null;
  subject: string | null;
  sent_at: Date | null;
  attachments: AttachmentOutcome[];
  rows_loaded: string;
  status: MessageStatus;
  error: string | null;
  attempts: Generated<number>;
  execution_id: string | null;
  created_at: Generated<Date>;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    email_feeds: EmailFeedsTable;
    email_feed_messages: EmailFeedMessagesTable;
  }
}

export type EmailFeedRow = Selectable<EmailFeedsTable>;
export type MessageRow = Selectable<EmailFeedMessagesTable>;

export type FeedChanges = Omit<Updateable<EmailFeedsTable>, 'id' | 'project_id' | 'created_at' | 'created_by'>;

const jsonFields = <T extends FeedChanges>(changes: T): T => ({
  ...changes,
  ...(changes.filters ? { filters: json(changes.filters) } : {}),
  ...(changes.load ? { load: json(changes.load) } : {}),
  ...(changes.destination ? { destination: json(changes.destination) } : {}),
});

export function createEmailFeedsRepository() {
  const feeds = projectTable('email_feeds');
  // A feed with IDLE on is watched by one worker at a time, under a lease.
  const watches = leaseQueries<EmailFeedRow>('email_feeds', sql`idle`);
  const messages = historyTable('email_feed_messages', { parent: 'feed_id', newest: 'created_at', tieBreak: 'uid' });
  return {
    insert: (
      db: Db,
      row: Omit<
        EmailFeedsTable,
        | 'id'
        | 'created_at'
        | 'updated_at'
        | 'status'
        | 'status_reason'
        | 'status_changed_at'
        | 'uid_validity'
        | 'last_uid'
        | 'last_polled_at'
        | 'idle'
        | 'lease_owner'
        | 'lease_expires_at'
      > & { idle?: boolean },
    ) =>
      db
        .insertInto('email_feeds')
        .values(jsonFields(row) as typeof row)
        .returningAll()
        .executeTakeFirstOrThrow(),
    find: feeds.find,
    list: feeds.list,
    update: (db: Db, id: string, changes: FeedChanges) => feeds.update(db, id, jsonFields(changes)),
    remove: feeds.remove,
    /** Feeds due for a look, claimed (their next look moved on) so that one process starts each. */
    claimDue: (db: Db, limit: number) => claimDuePolls(db, 'email_feeds', limit),
    /** Takes the IDLE watch of a feed that has none alive (unowned, or its owner's lease expired). */
    claimWatch: watches.claim,
    /** Extends the watch's lease; the feed as it is now, or undefined when the watch is no longer ours. */
    renewWatch: watches.renew,
    /** Gives the watch up; `retryInMs` keeps it from being taken again before then (a failure's back-off). */
    releaseWatch: watches.release,
    /** Serialises the runs of one feed: one reads the mailbox at a time. */
    tryLock: async (db: Db, feedId: string) =>
      (
        await sql<{
          locked: boolean;
        }>`select pg_try_advisory_xact_lock(hashtext(${`email_feed:${feedId}`})) as locked`.execute(db)
      ).rows[0]!.locked,
    /** Sets the status, stamping when it changed. */
    setStatus: (db: Db, id: string, status: 'active' | 'degraded', reason: string | null) =>
      db
        .updateTable('email_feeds')
        .set({
          status,
          status_reason: reason,
          status_changed_at: sql`case when status = ${status} then status_changed_at else now() end`,
          last_polled_at: sql`now()`,
        })
        .where('id', '=', id)
        .execute(),
    findMessage: (db: Db, feedId: string, uidValidity: string, uid: string) =>
      db
        .selectFrom('email_feed_messages')
        .selectAll()
        .where('feed_id', '=', feedId)
        .where('uid_validity', '=', uidValidity)
        .where('uid', '=', uid)
        .executeTakeFirst(),
    findMessageById: messages.find,
    /** Records a message's outcome (a reload replaces it, counting the attempt). */
    recordMessage: (
      db: Db,
      row: Omit<EmailFeedMessagesTable, 'id' | 'created_at' | 'attempts'> & { attempts: number },
    ) =>
      db
        .insertInto('email_feed_messages')
        .values({ ...row, attachments: json(row.attachments) })
        .onConflict((oc) =>
          oc.columns(['feed_id', 'uid_validity', 'uid']).doUpdateSet((eb) => ({
            message_id: eb.ref('excluded.message_id'),
            sender: eb.ref('excluded.sender'),
            subject: eb.ref('excluded.subject'),
            sent_at: eb.ref('excluded.sent_at'),
            attachments: eb.ref('excluded.attachments'),
            rows_loaded: eb.ref('excluded.rows_loaded'),
            status: eb.ref('excluded.status'),
            error: eb.ref('excluded.error'),
            attempts: eb.ref('excluded.attempts'),
            execution_id: eb.ref('excluded.execution_id'),
            created_at: sql`now()`,
          })),
        )
        .returningAll()
        .executeTakeFirstOrThrow(),
    messages: (db: Db, feedId: string, query: { status?: MessageStatus; limit?: number }) =>
      messages.recent(db, feedId, query),
  };
}

export type EmailFeedsRepository = ReturnType<typeof createEmailFeedsRepository>;
