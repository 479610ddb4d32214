import { sql, type Kysely } from 'kysely';

/**
 * Warehouse models (SELECTs that build views and tables in the project's warehouse schema, with
 * their dependencies and data tests), the line per model of each model run (an execution of kind
 * `model_run`), AI providers (a project's, or instance-wide with no project) and the record of
 * every call made to one (who, what for, tokens; never the content).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table dw_models (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects (id) on delete cascade,
      name text not null,
      description text not null default '',
      sql text not null,
      materialization text not null check (materialization in ('view', 'table', 'incremental', 'ephemeral')),
      unique_key text[] not null default '{}',
      incremental_strategy text not null default 'merge' check (incremental_strategy in ('append', 'merge', 'delete_insert')),
      on_schema_change text not null default 'ignore'
        check (on_schema_change in ('ignore', 'fail', 'append_new_columns', 'sync_all_columns', 'full_refresh')),
      tags text[] not null default '{}',
      tests jsonb not null default '[]'::jsonb,
      refs text[] not null default '{}',
      sources jsonb not null default '[]'::jsonb,
      version integer not null default 1,
      created_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (project_id, name)
    )`.execute(db);
  await sql`create index dw_models_refs on dw_models using gin (refs)`.execute(db);

  await sql`
    create table dw_model_run_results (
      execution_id uuid not null references executions (id) on delete cascade,
      model_name text not null,
      model_id uuid references dw_models (id) on delete set null,
      materialization text not null,
      status text not null check (status in ('success', 'error', 'skipped')),
      rows bigint,
      duration_ms integer not null default 0,
      tests jsonb not null default '[]'::jsonb,
      error text,
      finished_at timestamptz not null default now(),
      primary key (execution_id, model_name)
    )`.execute(db);

  await sql`
    create table ai_providers (
      id uuid primary key default gen_random_uuid(),
      project_id uuid references projects (id) on delete cascade,
      name text not null,
      type text not null check (type in ('openai', 'anthropic', 'openai_compatible')),
      base_url text not null,
      model text not null,
      api_key text,
      temperature double precision,
      max_tokens integer,
      requests_per_minute integer,
      tokens_per_month bigint,
      enabled boolean not null default true,
      created_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique nulls not distinct (project_id, name)
    )`.execute(db);

  await sql`
    create table ai_usage (
      id bigint generated always as identity primary key,
      provider_id uuid not null references ai_providers (id) on delete cascade,
      project_id uuid references projects (id) on delete cascade,
      user_id uuid,
      purpose text not null,
      status text not null check (status in ('ok', 'invalid_output', 'error', 'refused')),
      input_tokens integer not null default 0,
      output_tokens integer not null default 0,
      at timestamptz not null default now()
    )`.execute(db);
  await sql`create index ai_usage_provider_time on ai_usage (provider_id, at desc)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
