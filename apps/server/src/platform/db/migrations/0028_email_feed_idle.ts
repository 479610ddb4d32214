/**
 * E-mail feeds may watch their mailbox with IMAP IDLE: one worker at a time holds a feed's watch,
 * under a lease (renewed while held, taken over by another worker when it expires).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table email_feeds
      add column idle boolean not null default false,
      add column lease_owner text,
      add column lease_expires_at timestamptz`.execute(db);
}
