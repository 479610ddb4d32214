import { sql, type Kysely } from 'kysely';

/**
 * ETL pipelines (sources -> transforms -> destination, with dependencies between pipelines), their
 * incremental state per stream, schedules and every due time a schedule handled, the lineage feed,
 * and the link from an execution to the pipeline (and schedule, and DAG run) it belongs to.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table etl_pipelines (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects (id) on delete cascade,
      name text not null,
      description text not null default '',
      sources jsonb not null,
      transforms jsonb not null default '[]'::jsonb,
      destination jsonb not null,
      depends_on uuid[] not null default '{}',
      version integer not null default 1,
      created_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (project_id, name)
    )`.execute(db);
  await sql`create index etl_pipelines_depends_on on etl_pipelines using gin (depends_on)`.execute(db);

  await sql`
    create table etl_stream_state (
      pipeline_id uuid not null references etl_pipelines (id) on delete cascade,
      stream text not null,
      cursor_column text not null,
      cursor_value jsonb,
      updated_at timestamptz not null default now(),
      primary key (pipeline_id, stream)
    )`.execute(db);

  await sql`
    create table etl_schedules (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects (id) on delete cascade,
      pipeline_id uuid not null unique references etl_pipelines (id) on delete cascade,
      cron text,
      timezone text not null default 'UTC',
      interval_seconds integer check (interval_seconds >= 1),
      missed_policy text not null default 'skip' check (missed_policy in ('skip', 'run_once')),
      paused boolean not null default false,
      next_due_at timestamptz not null,
      created_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      check ((cron is null) <> (interval_seconds is null))
    )`.execute(db);
  await sql`create index etl_schedules_due on etl_schedules (next_due_at) where not paused`.execute(db);

  // One row per due time a scheduler handled: the primary key makes a second enqueue of the same due
  // time impossible, whatever number of scheduler processes raced for it.
  await sql`
    create table schedule_firings (
      schedule_id uuid not null references etl_schedules (id) on delete cascade,
      due_at timestamptz not null,
      outcome text not null check (outcome in ('enqueued', 'missed', 'skipped_running')),
      missed_before integer not null default 0,
      execution_id uuid,
      fired_at timestamptz not null default now(),
      primary key (schedule_id, due_at)
    )`.execute(db);

  await sql`
    alter table executions
      add column pipeline_id uuid references etl_pipelines (id) on delete set null,
      add column schedule_id uuid references etl_schedules (id) on delete set null,
      add column trigger text,
      add column dag_run_id uuid`.execute(db);
  // Never two runs of one pipeline at once: a second queued or running execution cannot be inserted.
  await sql`create unique index executions_one_active_per_pipeline on executions (pipeline_id) where pipeline_id is not null and status in ('queued', 'running')`.execute(
    db,
  );
  await sql`create index executions_pipeline_time on executions (pipeline_id, created_at desc) where pipeline_id is not null`.execute(
    db,
  );
  await sql`create index executions_dag_run on executions (dag_run_id) where dag_run_id is not null`.execute(db);
  await sql`create index executions_finished on executions (finished_at) where finished_at is not null`.execute(db);

  // The lineage feed: which source datasets fed which destination dataset in which run.
  await sql`
    create table lineage_edges (
      id bigint generated always as identity primary key,
      execution_id uuid not null references executions (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      pipeline_id uuid references etl_pipelines (id) on delete set null,
      source_connector_id uuid not null,
      source_namespace text,
      source_name text not null,
      destination_connector_id uuid not null,
      destination_namespace text,
      destination_name text not null,
      rows_written bigint not null default 0,
      recorded_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index lineage_edges_project on lineage_edges (project_id, recorded_at desc)`.execute(db);
  await sql`create index lineage_edges_destination on lineage_edges (destination_connector_id, destination_name)`.execute(
    db,
  );
  await sql`create index lineage_edges_source on lineage_edges (source_connector_id, source_name)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
