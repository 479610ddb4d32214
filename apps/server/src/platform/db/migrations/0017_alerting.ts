import { sql, type Kysely } from 'kysely';

/**
 * Alerting (notification channels, alert rules with their per-item states, history and notification
 * outbox, users' notification settings) and audit forwarding (destinations with their cursors).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Channels: owned by a project, or instance-wide (project_id null, administrators only).
  await sql`
    create table notification_configs (
      id uuid primary key default gen_random_uuid(),
      project_id uuid references projects (id) on delete cascade,
      name text not null,
      type text not null check (type in ('email', 'slack', 'teams', 'webhook', 'pagerduty')),
      settings jsonb not null,
      secrets text,
      enabled boolean not null default true,
      created_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index notification_configs_project_name on notification_configs (project_id, name) where project_id is not null`.execute(
    db,
  );
  await sql`create unique index notification_configs_instance_name on notification_configs (name) where project_id is null`.execute(
    db,
  );

  await sql`
    create table alert_rules (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects (id) on delete cascade,
      name text not null,
      kind text not null,
      params jsonb not null,
      scope jsonb not null default '[]'::jsonb,
      severity text not null check (severity in ('info', 'warning', 'critical')),
      for_seconds integer not null default 0,
      keep_firing_for_seconds integer not null default 0,
      repeat_interval_seconds integer,
      channel_ids uuid[] not null default '{}',
      muted_until timestamptz,
      enabled boolean not null default true,
      created_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (project_id, name)
    )`.execute(db);

  // The state of a rule for one item it watches (a pipeline, a CDC table, ...).
  await sql`
    create table alert_states (
      rule_id uuid not null references alert_rules (id) on delete cascade,
      item_key text not null,
      item_kind text not null,
      item_id text not null,
      item_name text,
      state text not null check (state in ('ok', 'pending', 'firing', 'resolved')),
      since timestamptz not null default now(),
      pending_since timestamptz,
      cleared_since timestamptz,
      last_notified_at timestamptz,
      deadline_at timestamptz,
      value jsonb not null default '{}'::jsonb,
      updated_at timestamptz not null default now(),
      primary key (rule_id, item_key)
    )`.execute(db);

  await sql`
    create table alert_events (
      id bigint generated always as identity primary key,
      rule_id uuid not null references alert_rules (id) on delete cascade,
      item_key text not null,
      item_kind text not null,
      item_id text not null,
      item_name text,
      previous_state text not null,
      state text not null,
      repeat boolean not null default false,
      muted boolean not null default false,
      value jsonb not null default '{}'::jsonb,
      at timestamptz not null default clock_timestamp()
    )`.execute(db);
  await sql`create index alert_events_rule on alert_events (rule_id, id desc)`.execute(db);

  // The outbox: one row per notification to send (a channel, or a user's own address), written in the
  // transaction that changes the state; sent after commit, retried with backoff.
  await sql`
    create table alert_notifications (
      id bigint generated always as identity primary key,
      event_id bigint not null references alert_events (id) on delete cascade,
      channel_id uuid references notification_configs (id) on delete cascade,
      user_id uuid references users (id) on delete cascade,
      status text not null default 'pending' check (status in ('pending', 'sent', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      last_error text,
      response text,
      sent_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index alert_notifications_due on alert_notifications (next_attempt_at) where status = 'pending'`.execute(
    db,
  );

  // A user's settings per project (project_id null: the user's defaults for every project).
  await sql`
    create table notification_settings (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      project_id uuid references projects (id) on delete cascade,
      events text[] not null,
      min_severity text not null default 'warning',
      email text,
      channel_ids uuid[] not null default '{}',
      quiet_hours jsonb,
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index notification_settings_user_project on notification_settings (user_id, coalesce(project_id, '00000000-0000-0000-0000-000000000000'::uuid))`.execute(
    db,
  );
  // The instance's defaults and the SMTP server of users' own notifications: one row.
  await sql`
    create table instance_notification_settings (
      id boolean primary key default true check (id),
      defaults jsonb not null default '{}'::jsonb,
      smtp jsonb,
      smtp_secrets text,
      updated_at timestamptz not null default now()
    )`.execute(db);

  // Audit forwarding: which transaction wrote each event, so that a destination's cursor only passes
  // events whose transactions have all ended (a later commit of a lower id is never skipped).
  await sql`alter table audit_log add column txid xid8 not null default pg_current_xact_id()`.execute(db);
  await sql`
    create table audit_forwarders (
      id uuid primary key default gen_random_uuid(),
      name text not null unique,
      type text not null check (type in ('http', 'syslog')),
      settings jsonb not null,
      secrets text,
      actions text[] not null default '{}',
      enabled boolean not null default true,
      cursor bigint not null default 0,
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      last_delivered_at timestamptz,
      last_error text,
      last_error_at timestamptz,
      sent bigint not null default 0,
      failed bigint not null default 0,
      skipped bigint not null default 0,
      created_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
