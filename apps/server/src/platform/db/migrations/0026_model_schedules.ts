import { sql, type Kysely } from 'kysely';

/**
 * Schedules of model runs: a selection of a project's warehouse models (the selectors of
 * `POST /dw-models/run`) run on a cron expression in a time zone or an interval. The leader claims due
 * schedules; `last_execution_id` is the run the schedule started last (a due time that finds it still
 * going is skipped).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table dw_model_schedules (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects (id) on delete cascade,
      name text not null,
      selectors text[] not null default '{}',
      full_refresh boolean not null default false,
      cron text,
      timezone text not null default 'UTC',
      interval_seconds integer check (interval_seconds >= 1),
      missed_policy text not null default 'skip' check (missed_policy in ('skip', 'run_once')),
      paused boolean not null default false,
      next_due_at timestamptz,
      last_execution_id uuid references executions (id) on delete set null,
      created_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (project_id, name),
      check ((cron is null) <> (interval_seconds is null))
    )`.execute(db);
  await sql`create index dw_model_schedules_due on dw_model_schedules (next_due_at) where next_due_at is not null`.execute(
    db,
  );
}
