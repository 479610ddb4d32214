/** SQL on the inboxes' own tables: their definitions and every request they received. */
import { sql, type Generated, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../../platform/db/index.js';
import { historyTable } from '../../../platform/db/history-tables.js';
import { projectTable } from '../../../platform/db/project-tables.js';

export interface InboxAuthConfig {
  header?: string;
  algorithm?: 'sha256' | 'sha512';
  timestamp_header?: string;
  tolerance_seconds?: number;
  username?: string;
}

export interface DedupeSpec {
  header?: string;
  json_path?: string;
  window_seconds?: number;
}

export interface InboxDestinationSpec {
  connector_id: string;
  namespace?: string | null;
  table: string;
  mode: 'append' | 'upsert';
  key_columns?: string[];
}

export interface InboxesTable {
  id: Generated<string>;
  project_id: string;
  name: string;
  auth_kind: 'bearer' | 'basic' | 'hmac';
  auth: InboxAuthConfig;
  /** bearer: sha256 of the token, hex; basic and hmac: the password or secret, encrypted. */
  secret: string;
  content_types: string[];
  max_body_bytes: number;
  dedupe: DedupeSpec | null;
  destination: InboxDestinationSpec;
  rate_limit_per_minute: number;
  retention_days: number;
  load_execution_id: string | null;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type LoadStatus = 'pending' | 'loading' | 'loaded' | 'failed' | 'skipped';

export interface InboxRequestsTable {
  id: Generated<string>;
  inbox_id: string;
  project_id: string;
  received_at: Generated<Date>;
  status: 'accepted' | 'rejected';
  reason: string | null;
  content_type: string | null;
  size: number;
  dedupe_key: string | null;
  dedupe_hit: Generated<boolean>;
  body: Buffer | null;
  load_status: LoadStatus | null;
  rows_loaded: Generated<number>;
  error: string | null;
  batch_id: string | null;
  replay_of: string | null;
  loaded_at: Date | null;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    inboxes: InboxesTable;
    inbox_requests: InboxRequestsTable;
  }
}

export type InboxRow = Selectable<InboxesTable>;
export type InboxRequestRow = Selectable<InboxRequestsTable>;

const json = <T>(value: T): T => (value === null ? value : (JSON.stringify(value) as unknown as T));

type Changes = Omit<Updateable<InboxesTable>, 'id' | 'project_id' | 'created_at' | 'created_by'>;
const jsonFields = <T extends Changes>(changes: T): T => ({
  ...changes,
  ...(changes.auth ? { auth: json(changes.auth) } : {}),
  ...(changes.dedupe !== undefined ? { dedupe: json(changes.dedupe) } : {}),
  ...(changes.destination ? { destination: json(changes.destination) } : {}),
});

export type NewRequest = Omit<
  InboxRequestsTable,
  'id' | 'received_at' | 'dedupe_hit' | 'rows_loaded' | 'batch_id' | 'loaded_at'
> & { dedupe_hit?: boolean };

/** A request as listed: every column but the body, and whether the body is still kept. */
export type ShownRequest = Omit<InboxRequestRow, 'project_id' | 'body' | 'batch_id'> & { body_kept: boolean };
const REQUEST_COLUMNS = [
  'id',
  'inbox_id',
  'received_at',
  'status',
  'reason',
  'content_type',
  'size',
  'dedupe_key',
  'dedupe_hit',
  sql<boolean>`body is not null`.as('body_kept'),
  'load_status',
  'rows_loaded',
  'error',
  'replay_of',
  'loaded_at',
] as const;

export function createInboxesRepository() {
  const inboxes = projectTable('inboxes');
  const requests = historyTable('inbox_requests', { parent: 'inbox_id', newest: 'received_at', tieBreak: 'id' });
  return {
    insert: (db: Db, row: Omit<InboxesTable, 'id' | 'created_at' | 'updated_at' | 'load_execution_id'>) =>
      db
        .insertInto('inboxes')
        .values(jsonFields(row as Changes) as typeof row)
        .returningAll()
        .executeTakeFirstOrThrow(),
    find: inboxes.find,
    list: inboxes.list,
    update: (db: Db, id: string, changes: Changes) => inboxes.update(db, id, jsonFields(changes)),
    remove: inboxes.remove,

    insertRequest: (db: Db, row: NewRequest) =>
      db.insertInto('inbox_requests').values(row).returning(['id', 'received_at']).executeTakeFirstOrThrow(),
    /** Several requests in one statement (one commit): how concurrent requests share the cost of durability. */
    insertRequests: (db: Db, rows: NewRequest[]) =>
      db.insertInto('inbox_requests').values(rows).returning(['id']).execute(),
    /** Whether an accepted request of this inbox carried this dedupe key within the window. */
    seenKey: async (db: Db, inboxId: string, key: string, windowSeconds: number) => {
      await sql`select pg_advisory_xact_lock(hashtext(${`inbox_dedupe:${inboxId}:${key}`}))`.execute(db);
      return !!(await db
        .selectFrom('inbox_requests')
        .select('id')
        .where('inbox_id', '=', inboxId)
        .where('dedupe_key', '=', key)
        .where('status', '=', 'accepted')
        .where('dedupe_hit', '=', false)
        .where('received_at', '>', sql<Date>`now() - make_interval(secs => ${windowSeconds})`)
        .limit(1)
        .executeTakeFirst());
    },
    /** The inbox's requests newest first, without their bodies (only whether one is kept). */
    requests: (db: Db, inboxId: string, query: { status?: 'accepted' | 'rejected'; limit?: number }) =>
      requests.recent<ShownRequest>(db, inboxId, query, REQUEST_COLUMNS),
    findRequest: requests.find,

    /** Inboxes with requests waiting to be loaded. */
    inboxesWithPending: async (db: Db, limit: number) =>
      (
        await db
          .selectFrom('inbox_requests')
          .select('inbox_id')
          .distinct()
          .where('load_status', '=', 'pending')
          .limit(limit)
          .execute()
      ).map((r) => r.inbox_id),
    /** The inbox row locked, to start at most one load of it at a time. */
    // FOR NO KEY UPDATE: the receive route's inserts (their foreign key takes KEY SHARE) go on meanwhile.
    lockInbox: (db: Db, id: string) =>
      db.selectFrom('inboxes').selectAll().where('id', '=', id).forNoKeyUpdate().executeTakeFirst(),
    setLoadExecution: (db: Db, id: string, executionId: string | null) =>
      db.updateTable('inboxes').set({ load_execution_id: executionId }).where('id', '=', id).execute(),
    /** The batch of a load: the requests it claimed before (a retried load), or up to `limit` pending ones. */
    async claimBatch(db: Db, inboxId: string, batchId: string, limit: number) {
      const claimed = await db
        .selectFrom('inbox_requests')
        .select(['id', 'content_type', 'body'])
        .where('batch_id', '=', batchId)
        .where('load_status', '=', 'loading')
        .orderBy('received_at')
        .execute();
      if (claimed.length) return claimed;
      return db
        .updateTable('inbox_requests')
        .set({ load_status: 'loading', batch_id: batchId })
        .where(
          'id',
          'in',
          db
            .selectFrom('inbox_requests')
            .select('id')
            .where('inbox_id', '=', inboxId)
            .where('load_status', '=', 'pending')
            .orderBy('received_at')
            .limit(limit)
            .forUpdate()
            .skipLocked(),
        )
        .returning(['id', 'content_type', 'body'])
        .execute();
    },
    finishBatch: async (
      db: Db,
      rows: Array<{ id: string; rows: number }>,
      status: LoadStatus,
      error: string | null,
    ) => {
      if (rows.length === 0) return;
      await sql`update inbox_requests r
                   set load_status = ${status}, rows_loaded = v.n, error = ${error}, loaded_at = now()
                  from unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.rows)}::int[]) as v(id, n)
                 where r.id = v.id`.execute(db);
    },
    /** Drops the bodies of requests older than their inbox's retention. */
    expireBodies: (db: Db) =>
      sql`update inbox_requests r set body = null from inboxes i
           where r.inbox_id = i.id and r.body is not null and r.load_status in ('loaded', 'failed', 'skipped')
             and r.received_at < now() - make_interval(days => i.retention_days)`.execute(db),
  };
}

export type InboxesRepository = ReturnType<typeof createInboxesRepository>;
