import { sql, type Kysely } from 'kysely';

/**
 * Masking policies (a project's: a method, the columns it covers by name or catalog tag, who is exempt)
 * and each project's key for the `hash` method, encrypted like every other secret.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table masking_policies (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects (id) on delete cascade,
      name text not null,
      method text not null
        check (method in ('full', 'partial', 'hash', 'null', 'regex_replace', 'email_domain')),
      options jsonb not null default '{}'::jsonb,
      columns text[] not null default '{}',
      tags text[] not null default '{}',
      exempt_capabilities text[] not null default '{data:read_unmasked}',
      exempt_roles text[] not null default '{}',
      created_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (project_id, name)
    )`.execute(db);
  await sql`
    create table masking_keys (
      project_id uuid primary key references projects (id) on delete cascade,
      key_ciphertext text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
