import { sql, type Kysely } from 'kysely';

/**
 * Exports (the Delivery area): what is delivered where, the account of each run (row counts, files
 * written), the rows that failed (kept with their reason and retried by the next run), the snapshot
 * of keys and row hashes a diff compares against, and the cursor of an incremental export. An
 * execution may end `partially_failed`: some rows were delivered, some failed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table executions drop constraint if exists executions_status_check`.execute(db);
  await sql`
    alter table executions add constraint executions_status_check
      check (status in ('queued', 'running', 'succeeded', 'partially_failed', 'failed', 'cancelled'))`.execute(db);

  await sql`
    create table exports (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects (id) on delete cascade,
      name text not null,
      description text not null default '',
      source jsonb not null,
      columns text[],
      filter text,
      destination jsonb not null,
      secrets jsonb not null default '{}'::jsonb,
      format jsonb not null,
      mode text not null default 'full' check (mode in ('full', 'incremental', 'diff')),
      key_columns text[] not null default '{}',
      cursor_column text,
      resync_requested boolean not null default false,
      created_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (project_id, name)
    )`.execute(db);

  await sql`
    create table export_runs (
      execution_id uuid primary key references executions (id) on delete cascade,
      export_id uuid not null references exports (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      status text not null default 'running',
      full_resync boolean not null default false,
      extracted bigint not null default 0,
      added bigint not null default 0,
      changed bigint not null default 0,
      removed bigint not null default 0,
      delivered bigint not null default 0,
      failed bigint not null default 0,
      files jsonb not null default '[]'::jsonb,
      error text,
      started_at timestamptz not null default now(),
      finished_at timestamptz
    )`.execute(db);
  await sql`create index export_runs_by_export on export_runs (export_id, started_at desc)`.execute(db);

  await sql`
    create table export_failed_rows (
      export_id uuid not null references exports (id) on delete cascade,
      row_key text not null,
      execution_id uuid not null,
      reason text not null,
      record jsonb not null,
      attempts integer not null default 1,
      failed_at timestamptz not null default now(),
      primary key (export_id, row_key)
    )`.execute(db);

  await sql`
    create table export_snapshots (
      export_id uuid not null references exports (id) on delete cascade,
      row_key text not null,
      row_hash text not null,
      primary key (export_id, row_key)
    )`.execute(db);

  await sql`
    create table export_state (
      export_id uuid primary key references exports (id) on delete cascade,
      cursor_value jsonb,
      updated_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
