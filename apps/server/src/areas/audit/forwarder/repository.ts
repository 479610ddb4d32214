import { sql, type Generated, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../../platform/db/index.js';
import type { AuditRow } from '../repository.js';

export interface AuditForwardersTable {
  id: Generated<string>;
  name: string;
  type: 'http' | 'syslog';
  settings: Record<string, unknown>;
  secrets: string | null;
  actions: string[];
  enabled: Generated<boolean>;
  cursor: Generated<string>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  last_delivered_at: Date | null;
  last_error: string | null;
  last_error_at: Date | null;
  sent: Generated<string>;
  failed: Generated<string>;
  skipped: Generated<string>;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    audit_forwarders: AuditForwardersTable;
  }
}

export type AuditForwarderRow = Selectable<AuditForwardersTable>;
export type AuditForwardersRepository = ReturnType<typeof createAuditForwardersRepository>;

/** Events of transactions that have all ended: a lower id committed later is never passed over. */
const settled = sql<boolean>`txid < pg_snapshot_xmin(pg_current_snapshot())`;

export function createAuditForwardersRepository() {
  return {
    find: (db: Db, id: string) => db.selectFrom('audit_forwarders').selectAll().where('id', '=', id).executeTakeFirst(),
    list: (db: Db) => db.selectFrom('audit_forwarders').selectAll().orderBy('name').execute(),
    insert: (db: Db, row: Insertable<AuditForwardersTable>) =>
      db.insertInto('audit_forwarders').values(row).returningAll().executeTakeFirstOrThrow(),
    update: (db: Db, id: string, changes: Updateable<AuditForwardersTable>) =>
      db
        .updateTable('audit_forwarders')
        .set({ ...changes, updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    remove: (db: Db, id: string) => db.deleteFrom('audit_forwarders').where('id', '=', id).execute(),
    lastAuditId: async (db: Db) =>
      String(
        (
          await db
            .selectFrom('audit_log')
            .select(sql<string>`coalesce(max(id), 0)`.as('id'))
            .executeTakeFirst()
        )?.id ?? '0',
      ),
    /** Enabled destinations due for an attempt, locked for this transaction (another leader skips them). */
    lockDue: (trx: Db) =>
      trx
        .selectFrom('audit_forwarders')
        .selectAll()
        .where('enabled', '=', true)
        .where('next_attempt_at', '<=', sql<Date>`now()`)
        .orderBy('name')
        .forUpdate()
        .skipLocked()
        .execute(),
    /** The next settled events after the cursor, oldest first. */
    eventsAfter: (db: Db, cursor: string, limit: number): Promise<AuditRow[]> =>
      db
        .selectFrom('audit_log')
        .selectAll()
        .where('id', '>', cursor)
        .where(settled)
        .orderBy('id')
        .limit(limit)
        .execute(),
    /** Events after the cursor, counted up to `cap`. */
    backlog: async (db: Db, cursor: string, cap: number) =>
      Number(
        (
          await sql<{
            n: string;
          }>`select count(*) as n from (select 1 from audit_log where id > ${cursor} limit ${cap}) b`.execute(db)
        ).rows[0]?.n ?? 0,
      ),
    /**
     * When more than `max` settled events wait after the cursor: the id up to which the oldest must be
     * passed over so that `max` remain, and how many that is.
     */
    overflow: async (db: Db, cursor: string, max: number) => {
      const boundary = await db
        .selectFrom('audit_log')
        .select('id')
        .where('id', '>', cursor)
        .where(settled)
        .orderBy('id', 'desc')
        .offset(max)
        .limit(1)
        .executeTakeFirst();
      if (!boundary) return undefined;
      const { n } = await db
        .selectFrom('audit_log')
        .select(sql<string>`count(*)`.as('n'))
        .where('id', '>', cursor)
        .where('id', '<=', boundary.id)
        .executeTakeFirstOrThrow();
      return { upTo: String(boundary.id), count: Number(n) };
    },
  };
}
