import { sql, type Kysely } from 'kysely';

/**
 * The version of its kind a data connector was created at: it is validated and opened with that
 * version's definition. Every connector so far was created at version 1.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table data_connectors add column version integer not null default 1`.execute(db);
  await sql`alter table data_connectors alter column version drop default`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
