import { sql, type Kysely } from 'kysely';

/** Memberships get their own id, like every other object the API returns. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table project_members add column id uuid not null default gen_random_uuid()`.execute(db);
  await sql`create unique index project_members_id_key on project_members (id)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
