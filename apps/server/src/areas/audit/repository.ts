import type { Generated, Insertable, Kysely } from 'kysely';
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

export function createAuditRepository() {
  return {
    async insert(db: Db | Kysely<never>, event: Insertable<AuditLogTable>) {
      await (db as Db).insertInto('audit_log').values(event).execute();
    },
  };
}
