import type { Generated, Insertable, Kysely, Selectable } from 'kysely';
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
    async insert(db: Db | Kysely<never>, event: Insertable<AuditLogTable>) {
      await (db as Db).insertInto('audit_log').values(event).execute();
    },
  };
}
