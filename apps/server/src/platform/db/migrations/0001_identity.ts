import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table users (
      id uuid primary key default gen_random_uuid(),
      username text not null,
      email text not null,
      display_name text,
      password_hash text,
      is_admin boolean not null default false,
      disabled_at timestamptz,
      password_change_required boolean not null default false,
      auth_source text not null default 'local' check (auth_source in ('local', 'oidc', 'ldap')),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index users_username_key on users (lower(username))`.execute(db);

  await sql`
    create table audit_log (
      id bigint generated always as identity primary key,
      occurred_at timestamptz not null default clock_timestamp(),
      kind text not null,
      actor_user_id uuid,
      actor_token_id uuid,
      client_address text,
      user_agent text,
      request_id uuid,
      target_type text,
      target_id text,
      details jsonb not null default '{}'::jsonb
    )`.execute(db);
  await sql`create index audit_log_kind_time on audit_log (kind, occurred_at)`.execute(db);
  await sql`create index audit_log_actor_time on audit_log (actor_user_id, occurred_at)`.execute(db);
  // Append-only: the application role may insert and read, never rewrite history.
  await sql`
    create function audit_log_append_only() returns trigger language plpgsql as $$
    begin raise exception 'audit_log is append-only'; end $$`.execute(db);
  await sql`
    create trigger audit_log_no_update before update or delete on audit_log
    for each row execute function audit_log_append_only()`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
