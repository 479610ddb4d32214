import { sql, type Kysely } from 'kysely';

/**
 * E-mail feeds: a mailbox read over IMAP, by UID above the last one loaded (per UIDVALIDITY), each
 * message's attachments (or its own fields) loaded into a destination table, with a history row per
 * message.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table email_feeds (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects (id) on delete cascade,
      name text not null,
      host text not null,
      port integer not null,
      tls boolean not null,
      username text not null,
      password_encrypted text not null,
      mailbox text not null,
      filters jsonb not null default '{}'::jsonb,
      load jsonb not null,
      post_action text not null check (post_action in ('none', 'mark_seen', 'move', 'delete')),
      move_to text,
      destination jsonb not null,
      poll_interval_seconds integer,
      next_poll_at timestamptz,
      status text not null default 'active' check (status in ('active', 'degraded')),
      status_reason text,
      status_changed_at timestamptz,
      uid_validity bigint,
      last_uid bigint not null default 0,
      last_polled_at timestamptz,
      created_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (project_id, name)
    )`.execute(db);
  await sql`create index email_feeds_due on email_feeds (next_poll_at) where poll_interval_seconds is not null`.execute(
    db,
  );
  await sql`
    create table email_feed_messages (
      id uuid primary key default gen_random_uuid(),
      feed_id uuid not null references email_feeds (id) on delete cascade,
      project_id uuid not null references projects (id) on delete cascade,
      uid_validity bigint not null,
      uid bigint not null,
      message_id text,
      sender text,
      subject text,
      sent_at timestamptz,
      attachments jsonb not null default '[]'::jsonb,
      rows_loaded bigint not null default 0,
      status text not null check (status in ('loaded', 'partially_loaded', 'failed', 'skipped')),
      error text,
      attempts integer not null default 1,
      execution_id uuid,
      created_at timestamptz not null default now(),
      unique (feed_id, uid_validity, uid)
    )`.execute(db);
  await sql`create index email_feed_messages_history on email_feed_messages (feed_id, created_at desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists email_feed_messages`.execute(db);
  await sql`drop table if exists email_feeds`.execute(db);
}
