import { sql, type Kysely } from 'kysely';

/**
 * Lineage as OpenLineage sees it (datasets and jobs per project, what each run read and wrote with
 * its column lineage, the RunEvents and their forwarding to an external endpoint) and the catalog's
 * enrichment (descriptions, owners and tags on datasets and columns, PII suggestions).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table lineage_datasets (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects (id) on delete cascade,
      namespace text not null,
      name text not null,
      connector_id uuid,
      source_namespace text,
      source_name text,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index lineage_datasets_key on lineage_datasets (project_id, namespace, name)`.execute(db);
  await sql`create index lineage_datasets_connector on lineage_datasets (connector_id, source_name)`.execute(db);

  await sql`
    create table lineage_jobs (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects (id) on delete cascade,
      namespace text not null,
      name text not null,
      kind text not null,
      item_id text,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index lineage_jobs_key on lineage_jobs (project_id, namespace, name)`.execute(db);
  await sql`create index lineage_jobs_item on lineage_jobs (item_id)`.execute(db);

  // What each run read (input) and wrote (output); column lineage and row counts on outputs.
  await sql`
    create table lineage_run_io (
      run_id uuid not null,
      project_id uuid not null references projects (id) on delete cascade,
      job_id uuid not null references lineage_jobs (id) on delete cascade,
      dataset_id uuid not null references lineage_datasets (id) on delete cascade,
      direction text not null check (direction in ('input', 'output')),
      fields jsonb,
      column_lineage jsonb,
      row_count bigint,
      recorded_at timestamptz not null default now(),
      primary key (run_id, dataset_id, direction)
    )`.execute(db);
  await sql`create index lineage_run_io_job on lineage_run_io (job_id, recorded_at desc)`.execute(db);
  await sql`create index lineage_run_io_dataset on lineage_run_io (dataset_id, direction, recorded_at desc)`.execute(
    db,
  );

  await sql`
    create table lineage_events (
      id bigserial primary key,
      project_id uuid not null references projects (id) on delete cascade,
      run_id uuid not null,
      job_id uuid not null references lineage_jobs (id) on delete cascade,
      event_type text not null,
      event_time timestamptz not null,
      event jsonb not null,
      forwarded_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index lineage_events_project on lineage_events (project_id, id)`.execute(db);
  await sql`create index lineage_events_run on lineage_events (run_id, id)`.execute(db);
  await sql`create index lineage_events_unforwarded on lineage_events (id) where forwarded_at is null`.execute(db);

  // The instance's OpenLineage endpoint (one row), set by an administrator; the key encrypted.
  await sql`
    create table lineage_forwarding (
      id boolean primary key default true check (id),
      enabled boolean not null default false,
      url text,
      api_key text,
      last_error text,
      last_error_at timestamptz,
      last_forwarded_at timestamptz,
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`alter table catalog_datasets
    add column description text,
    add column owners text[] not null default '{}',
    add column tags text[] not null default '{}'`.execute(db);
  await sql`create index catalog_datasets_tags on catalog_datasets using gin (tags)`.execute(db);
  // Kept by column name, so a new discovery (which replaces catalog_columns) keeps what users wrote.
  await sql`
    create table catalog_column_notes (
      dataset_id uuid not null references catalog_datasets (id) on delete cascade,
      column_name text not null,
      description text,
      tags text[] not null default '{}',
      suggested_tags text[] not null default '{}',
      dismissed_tags text[] not null default '{}',
      updated_at timestamptz not null default now(),
      primary key (dataset_id, column_name)
    )`.execute(db);
  await sql`create index catalog_column_notes_tags on catalog_column_notes using gin (tags)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
