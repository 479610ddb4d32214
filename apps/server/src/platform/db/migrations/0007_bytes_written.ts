import { sql, type Kysely } from 'kysely';

/** Bytes written by runs, beside bytes read. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table executions add column bytes_written bigint not null default 0`.execute(db);
  await sql`alter table execution_ranges add column bytes_written bigint not null default 0`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
