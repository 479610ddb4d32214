import { sql, type Kysely } from 'kysely';

/** Sessions and refresh tokens, the deny-list, personal API tokens, projects and RBAC, the license. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sessions (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      revoked_at timestamptz,
      revoked_reason text,
      client_address text,
      user_agent text
    )`.execute(db);
  await sql`create index sessions_user on sessions (user_id) where revoked_at is null`.execute(db);

  await sql`
    create table refresh_tokens (
      id uuid primary key default gen_random_uuid(),
      session_id uuid not null references sessions (id) on delete cascade,
      token_hash text not null unique,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      consumed_at timestamptz
    )`.execute(db);
  await sql`create index refresh_tokens_session on refresh_tokens (session_id)`.execute(db);
  await sql`create index refresh_tokens_expiry on refresh_tokens (expires_at)`.execute(db);

  // Revoked credentials, kept until they would have expired anyway: access token ids (jti),
  // session families (sid) and personal API token ids.
  await sql`
    create table revoked_credentials (
      id uuid not null,
      kind text not null check (kind in ('access_token', 'session', 'api_token')),
      revoked_at timestamptz not null default clock_timestamp(),
      expires_at timestamptz not null,
      primary key (kind, id)
    )`.execute(db);
  await sql`create index revoked_credentials_revoked_at on revoked_credentials (revoked_at)`.execute(db);
  await sql`create index revoked_credentials_expiry on revoked_credentials (expires_at)`.execute(db);

  await sql`
    create table api_tokens (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      name text not null,
      token_hash text not null unique,
      suffix text not null,
      scope text not null check (scope in ('read', 'write')),
      project_ids uuid[],
      created_at timestamptz not null default now(),
      expires_at timestamptz,
      last_used_at timestamptz,
      revoked_at timestamptz
    )`.execute(db);
  await sql`create index api_tokens_user on api_tokens (user_id)`.execute(db);

  await sql`
    create table projects (
      id uuid primary key default gen_random_uuid(),
      name text not null,
      description text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index projects_name_key on projects (lower(name))`.execute(db);

  await sql`
    create table environments (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects (id) on delete cascade,
      name text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index environments_name_key on environments (project_id, lower(name))`.execute(db);

  await sql`
    create table roles (
      id uuid primary key default gen_random_uuid(),
      name text not null,
      description text,
      capabilities text[] not null,
      built_in boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index roles_name_key on roles (lower(name))`.execute(db);

  await sql`
    create table project_members (
      project_id uuid not null references projects (id) on delete cascade,
      user_id uuid not null references users (id) on delete cascade,
      role_id uuid not null references roles (id),
      environment_ids uuid[],
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (project_id, user_id)
    )`.execute(db);
  await sql`create index project_members_user on project_members (user_id)`.execute(db);

  await sql`
    create table licenses (
      id uuid primary key default gen_random_uuid(),
      token text not null,
      installed_at timestamptz not null default now(),
      installed_by uuid
    )`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
