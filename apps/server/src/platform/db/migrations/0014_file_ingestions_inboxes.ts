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
  await inboxes(db);
}

/**
 * Inboxes: HTTP endpoints that receive data. Every request is recorded (accepted with its body, or
 * rejected with the reason) before it is answered; the worker loads accepted ones in batches.
 */
async function inboxes(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table inboxes (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects (id) on delete cascade,
      name text not null,
      auth_kind text not null check (auth_kind in ('bearer', 'basic', 'hmac')),
      auth jsonb not null default '{}'::jsonb,
      secret text not null,
      content_types text[] not null,
      max_body_bytes integer not null,
      dedupe jsonb,
      destination jsonb not null,
      rate_limit_per_minute integer not null,
      retention_days integer not null,
      load_execution_id uuid,
      created_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (project_id, name)
    )`.execute(db);
  await sql`
    create table inbox_requests (
      id uuid primary key default gen_random_uuid(),
      inbox_id uuid not null references inboxes (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      received_at timestamptz not null default now(),
      status text not null check (status in ('accepted', 'rejected')),
      reason text,
      content_type text,
      size integer not null default 0,
      dedupe_key text,
      dedupe_hit boolean not null default false,
      body bytea,
      load_status text check (load_status in ('pending', 'loading', 'loaded', 'failed', 'skipped')),
      rows_loaded integer not null default 0,
      error text,
      batch_id uuid,
      replay_of uuid,
      loaded_at timestamptz
    )`.execute(db);
  await sql`create index inbox_requests_history on inbox_requests (inbox_id, received_at desc)`.execute(db);
  await sql`create index inbox_requests_pending on inbox_requests (inbox_id, received_at) where load_status in ('pending', 'loading')`.execute(
    db,
  );
  await sql`create index inbox_requests_dedupe on inbox_requests (inbox_id, dedupe_key, received_at) where dedupe_key is not null and status = 'accepted'`.execute(
    db,
  );
  await sql`create index inbox_requests_retention on inbox_requests (received_at) where body is not null`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
