import { sql, type Kysely } from 'kysely';

/**
 * Lag over the last hour: the elected leader samples the lag of every CDC table and stream every
 * SVC_LAG_SAMPLE_SECONDS and drops samples older than an hour (the lag-history routes read them).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table lag_samples (
      id bigint generated always as identity primary key,
      item_kind text not null check (item_kind in ('cdc_table', 'stream')),
      item_id uuid not null,
      sampled_at timestamptz not null default now(),
      lag_seconds double precision,
      lag_bytes bigint,
      lag_messages bigint
    )`.execute(db);
  await sql`create index lag_samples_item on lag_samples (item_kind, item_id, sampled_at)`.execute(db);
  await sql`create index lag_samples_time on lag_samples (sampled_at)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
