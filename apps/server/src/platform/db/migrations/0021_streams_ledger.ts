import { sql, type Kysely } from 'kysely';

/**
 * Streams: transform steps (the declarative steps of pipelines, applied to each message's records)
 * and pausing (`paused_at`: the consumer keeps the stream and its broker connection but takes no
 * messages until it is started again). The exactly-once ledger itself lives in each destination.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table streams add column transforms jsonb not null default '[]'::jsonb`.execute(db);
  await sql`alter table streams add column paused_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table streams drop column paused_at`.execute(db);
  await sql`alter table streams drop column transforms`.execute(db);
}
