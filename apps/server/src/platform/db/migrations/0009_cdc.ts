import { sql, type Kysely } from 'kysely';

/**
 * CDC tables: one source table kept equal to one destination table. The row holds what the user
 * asked for (desired state, resync) and what the reader reports (status, position, lag, counters);
 * the reader's lease makes one worker at a time its owner. Log lines are kept for history and for
 * resuming a live tail (Last-Event-ID is a line id).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table cdc_tables (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects (id) on delete cascade,
      name text not null,
      source_connector_id uuid not null,
      source_namespace text,
      source_table text not null,
      destination_connector_id uuid not null,
      destination_namespace text,
      destination_table text not null,
      mode text not null check (mode in ('mirror', 'changelog')),
      desired_state text not null default 'running' check (desired_state in ('running', 'stopped')),
      status text not null default 'paused' check (status in ('snapshotting', 'streaming', 'paused', 'failed')),
      resync_requested boolean not null default false,
      last_position text,
      last_commit_time timestamptz,
      last_applied_at timestamptz,
      changes_applied bigint not null default 0,
      snapshot_rows bigint,
      lag_seconds double precision,
      lag_bytes bigint,
      retained_wal_bytes bigint,
      last_error text,
      lease_owner text,
      lease_expires_at timestamptz,
      created_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (project_id, name)
    )`.execute(db);
  await sql`create index cdc_tables_claimable on cdc_tables (lease_expires_at) where desired_state = 'running'`.execute(
    db,
  );

  await sql`
    create table cdc_logs (
      id bigint generated always as identity primary key,
      cdc_table_id uuid not null references cdc_tables (id) on delete cascade,
      ts timestamptz not null default clock_timestamp(),
      level text not null,
      message text not null,
      fields jsonb not null default '{}'::jsonb
    )`.execute(db);
  await sql`create index cdc_logs_table on cdc_logs (cdc_table_id, id)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
