import { sql, type Kysely } from 'kysely';

/**
 * File ingestions: files uploaded through the API or found in a source folder, each loaded once into
 * a destination table, with a load-history row per file (what was parsed and loaded, the first error).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table file_ingestions (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects (id) on delete cascade,
      name text not null,
      source jsonb not null,
      format jsonb not null,
      schema_mode text not null check (schema_mode in ('infer', 'fixed')),
      columns jsonb not null default '[]'::jsonb,
      on_error text not null check (on_error in ('abort', 'skip_file', 'continue')),
      error_limit integer not null default 0,
      post_action text not null check (post_action in ('archive', 'delete', 'none')),
      archive_path text,
      destination jsonb not null,
      poll_interval_seconds integer,
      next_poll_at timestamptz,
      created_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (project_id, name)
    )`.execute(db);
  await sql`create index file_ingestions_due on file_ingestions (next_poll_at) where poll_interval_seconds is not null`.execute(
    db,
  );

  await sql`
    create table file_ingestion_files (
      id uuid primary key default gen_random_uuid(),
      ingestion_id uuid not null references file_ingestions (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      name text not null,
      size bigint not null,
      checksum text not null,
      modified_at timestamptz,
      stored_path text,
      status text not null default 'pending'
        check (status in ('pending', 'loading', 'loaded', 'failed', 'partially_loaded', 'skipped_duplicate')),
      forced boolean not null default false,
      reload_of uuid,
      rows_parsed bigint not null default 0,
      rows_loaded bigint not null default 0,
      error_count integer not null default 0,
      first_error jsonb,
      execution_id uuid,
      created_at timestamptz not null default now(),
      finished_at timestamptz
    )`.execute(db);
  await sql`create index file_ingestion_files_history on file_ingestion_files (ingestion_id, created_at desc)`.execute(
    db,
  );
  await sql`create index file_ingestion_files_identity on file_ingestion_files (ingestion_id, name, checksum)`.execute(
    db,
  );
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
