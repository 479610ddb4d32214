import { sql, type Kysely } from 'kysely';

/**
 * Export schedules: an export may carry a schedule (a cron expression in a time zone, or an interval)
 * and its next due time; the leader's tick claims due exports and starts their runs. `next_due_at` is
 * null for an export without a schedule or with a paused one. A run records what started it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table exports add column schedule jsonb, add column next_due_at timestamptz`.execute(db);
  await sql`create index exports_due on exports (next_due_at) where next_due_at is not null`.execute(db);
  await sql`alter table export_runs add column trigger text not null default 'manual' check (trigger in ('manual', 'schedule'))`.execute(
    db,
  );
}
