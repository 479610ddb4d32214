import { sql, type Kysely } from 'kysely';

/**
 * Retention policies (a project's, or instance-wide for audit events: project_id null) and their
 * sweeps: each sweep's counts per table, kept beside the execution that ran it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table retention_policies (
      id uuid primary key default gen_random_uuid(),
      project_id uuid references projects (id) on delete cascade,
      name text not null,
      target_kind text not null,
      target jsonb not null default '{}'::jsonb,
      max_age_seconds bigint not null check (max_age_seconds > 0),
      max_rows bigint check (max_rows >= 0),
      keep_last_failed integer not null default 0 check (keep_last_failed >= 0),
      cron text,
      timezone text not null default 'UTC',
      interval_seconds integer,
      next_run_at timestamptz,
      created_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index retention_policies_name on retention_policies
    (coalesce(project_id, '00000000-0000-0000-0000-000000000000'::uuid), name)`.execute(db);
  await sql`create index retention_policies_due on retention_policies (next_run_at) where next_run_at is not null`.execute(
    db,
  );

  await sql`
    create table retention_sweeps (
      id uuid primary key default gen_random_uuid(),
      policy_id uuid not null references retention_policies (id) on delete cascade,
      project_id uuid references projects (id) on delete cascade,
      execution_id uuid,
      trigger text not null check (trigger in ('manual', 'schedule')),
      status text not null default 'queued' check (status in ('queued', 'running', 'succeeded', 'failed')),
      cutoff timestamptz,
      counts jsonb not null default '{}'::jsonb,
      batches integer not null default 0,
      details jsonb not null default '{}'::jsonb,
      error text,
      created_at timestamptz not null default now(),
      started_at timestamptz,
      finished_at timestamptz
    )`.execute(db);
  // The audit log stays append-only, except that a retention sweep may delete events older than the
  // cutoff it declares for its own transaction (never newer ones, never an update).
  await sql`
    create or replace function audit_log_append_only() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE'
        and old.occurred_at < nullif(current_setting('svc.audit_retention_before', true), '')::timestamptz then
        return old;
      end if;
      raise exception 'audit_log is append-only';
    end $$`.execute(db);
  await sql`create index audit_log_time on audit_log (occurred_at)`.execute(db);
  // One sweep of a policy under way at a time, whoever starts it.
  await sql`create unique index retention_sweeps_one_active on retention_sweeps (policy_id)
    where status in ('queued', 'running')`.execute(db);
  await sql`create index retention_sweeps_policy on retention_sweeps (policy_id, created_at desc)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
