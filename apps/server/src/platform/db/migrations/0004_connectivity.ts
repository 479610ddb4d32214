import { sql, type Kysely } from 'kysely';

/** Data connectors (secrets encrypted, apart from the plain config) and the catalog of what discovery found. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table data_connectors (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects (id) on delete cascade,
      environment_id uuid references environments (id) on delete set null,
      name text not null,
      kind text not null,
      config jsonb not null default '{}'::jsonb,
      secrets jsonb not null default '{}'::jsonb,
      created_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index data_connectors_name_key on data_connectors (project_id, lower(name))`.execute(db);

  await sql`
    create table catalog_datasets (
      id uuid primary key default gen_random_uuid(),
      connector_id uuid not null references data_connectors (id) on delete cascade,
      project_id uuid not null,
      namespace text,
      name text not null,
      primary_key text[] not null default '{}',
      row_estimate bigint,
      discovered_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index catalog_datasets_key on catalog_datasets (connector_id, coalesce(namespace, ''), name)`.execute(
    db,
  );

  await sql`
    create table catalog_columns (
      dataset_id uuid not null references catalog_datasets (id) on delete cascade,
      position integer not null,
      name text not null,
      type text not null,
      source_type text not null,
      nullable boolean not null,
      precision integer,
      scale integer,
      primary key (dataset_id, position)
    )`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
