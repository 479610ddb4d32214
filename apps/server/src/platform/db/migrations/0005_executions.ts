import { sql, type Kysely } from 'kysely';

/** Executions (every run), their log lines, the job queue the workers pull from, and incremental state. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table executions (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects (id) on delete cascade,
      kind text not null,
      status text not null default 'queued' check (status in ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
      params jsonb not null,
      created_by uuid,
      created_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz,
      attempts integer not null default 0,
      rows_read bigint not null default 0,
      rows_written bigint not null default 0,
      bytes_read bigint not null default 0,
      error text,
      cancel_requested boolean not null default false,
      retry_of uuid
    )`.execute(db);
  await sql`create index executions_project_time on executions (project_id, created_at desc)`.execute(db);
  await sql`create index executions_status on executions (status) where status in ('queued', 'running')`.execute(db);

  await sql`
    create table execution_logs (
      id bigint generated always as identity primary key,
      execution_id uuid not null references executions (id) on delete cascade,
      ts timestamptz not null default clock_timestamp(),
      level text not null,
      message text not null,
      fields jsonb not null default '{}'::jsonb
    )`.execute(db);
  await sql`create index execution_logs_execution on execution_logs (execution_id, id)`.execute(db);

  // The queue: a job is claimed with a lease the worker keeps renewing; an expired lease (a worker
  // that died) makes the job claimable again.
  await sql`
    create table jobs (
      id uuid primary key default gen_random_uuid(),
      kind text not null,
      payload jsonb not null,
      state text not null default 'queued' check (state in ('queued', 'active', 'done', 'failed')),
      run_at timestamptz not null default now(),
      attempts integer not null default 0,
      max_attempts integer not null default 3,
      locked_by text,
      lease_expires_at timestamptz,
      last_error text,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    )`.execute(db);
  await sql`create index jobs_claimable on jobs (run_at) where state = 'queued'`.execute(db);
  await sql`create index jobs_leased on jobs (lease_expires_at) where state = 'active'`.execute(db);

  await sql`
    create table sync_cursors (
      source_connector_id uuid not null,
      destination_connector_id uuid not null,
      dataset text not null,
      cursor_column text not null,
      cursor_value jsonb,
      updated_at timestamptz not null default now(),
      primary key (source_connector_id, destination_connector_id, dataset)
    )`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
