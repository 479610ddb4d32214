import { sql, type Generated, type Insertable, type Kysely, type Selectable } from 'kysely';
import type { Db } from '../../platform/db/index.js';

export interface AuditLogTable {
  id: Generated<string>;
  occurred_at: Generated<Date>;
  kind: string;
  actor_user_id: string | null;
  actor_token_id: string | null;
  client_address: string | null;
  user_agent: string | null;
  request_id: string | null;
  target_type: string | null;
  target_id: string | null;
  details: Generated<Record<string, unknown>>;
}

declare module '../../platform/db/schema.js' {
  interface Database {
    audit_log: AuditLogTable;
  }
}

export type AuditRow = Selectable<AuditLogTable>;

export interface AuditFilter {
  kind?: string;
  actorId?: string;
  since?: Date;
  until?: Date;
  beforeId?: string;
  limit: number;
}

export function createAuditRepository() {
  return {
    /** Newest first; `beforeId` continues a page. */
    async list(db: Db, filter: AuditFilter): Promise<AuditRow[]> {
      let query = db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(filter.limit);
      if (filter.kind) query = query.where('kind', '=', filter.kind);
      if (filter.actorId) query = query.where('actor_user_id', '=', filter.actorId);
      if (filter.since) query = query.where('occurred_at', '>=', filter.since);
      if (filter.until) query = query.where('occurred_at', '<', filter.until);
      if (filter.beforeId) query = query.where('id', '<', filter.beforeId);
      return query.execute();
    },
    /** The `n`-th newest event's time (retention's `max_rows`), or undefined when there are fewer. */
    async nthNewest(db: Db, n: number): Promise<Date | undefined> {
      const row = await db
        .selectFrom('audit_log')
        .select('occurred_at')
        .orderBy('occurred_at', 'desc')
        .offset(n - 1)
        .limit(1)
        .executeTakeFirst();
      return row?.occurred_at;
    },
    async countBefore(db: Db, before: Date): Promise<number> {
      const row = await db
        .selectFrom('audit_log')
        .select(sql<string>`count(*)`.as('n'))
        .where('occurred_at', '<', before)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** Deletes up to `limit` of the oldest events before `before`, in one transaction that declares the cutoff to the append-only trigger. */
    async deleteBefore(db: Db, before: Date, limit: number): Promise<number> {
      return db.transaction().execute(async (trx) => {
        await sql`select set_config('svc.audit_retention_before', ${before.toISOString()}, true)`.execute(trx);
        const result = await sql`
          delete from audit_log where id = any(array(
            select id from audit_log where occurred_at < ${before} order by id limit ${limit}))`.execute(trx);
        return Number(result.numAffectedRows ?? 0);
      });
    },
    async insert(db: Db | Kysely<never>, event: Insertable<AuditLogTable>) {
      await (db as Db).insertInto('audit_log').values(event).execute();
    },
  };
}
