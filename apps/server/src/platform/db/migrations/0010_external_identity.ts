import { sql, type Kysely } from 'kysely';

/**
 * External identity: OIDC and LDAP providers (configuration, with secrets encrypted on their own),
 * the link from a provider's subject to a local user, and the one-time login states of OIDC sign-ins.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table identity_providers (
      id uuid primary key default gen_random_uuid(),
      kind text not null check (kind in ('oidc', 'ldap')),
      name text not null unique,
      enabled boolean not null default true,
      position integer not null default 0,
      config jsonb not null,
      secrets jsonb not null default '{}'::jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table external_identities (
      provider_id uuid not null references identity_providers (id) on delete cascade,
      subject text not null,
      user_id uuid not null references users (id) on delete cascade,
      created_at timestamptz not null default now(),
      last_login_at timestamptz not null default now(),
      primary key (provider_id, subject)
    )`.execute(db);
  // A started OIDC sign-in: consumed (deleted) by its callback, so a state works once.
  await sql`
    create table sso_login_states (
      jti text primary key,
      provider_id uuid not null references identity_providers (id) on delete cascade,
      code_verifier text not null,
      nonce text not null,
      redirect_to text not null,
      expires_at timestamptz not null
    )`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
