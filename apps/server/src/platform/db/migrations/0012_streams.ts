import { sql, type Kysely } from 'kysely';

/**
 * Streams: a broker subject, queue, topic or stream key consumed continuously into a destination
 * table. The stream row holds what the user asked for (configuration, desired state) and what its
 * consumer reports (status, last error, `event_seq`, which moves with every reported change: the id
 * of the live status events); the lease makes one worker at a time its consumer. Each time a worker
 * takes a running stream it starts a run with its own counters. Dead letters keep the messages that
 * could not be written, with why.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table streams (
      id uuid primary key default gen_random_uuid(),
      project_id uuid not null references projects (id) on delete cascade,
      environment_id uuid,
      name text not null,
      source_connector_id uuid not null,
      source jsonb not null,
      format jsonb not null,
      destination_connector_id uuid not null,
      destination_table text not null,
      write_mode text not null check (write_mode in ('append', 'upsert')),
      key_columns text[] not null default '{}',
      batch_max_rows integer not null,
      batch_max_latency_ms integer not null,
      max_deliveries integer not null,
      dead_letter jsonb not null,
      desired_state text not null default 'stopped' check (desired_state in ('running', 'stopped')),
      status text not null default 'stopped'
        check (status in ('stopped', 'starting', 'running', 'degraded', 'failed', 'paused')),
      last_error text,
      event_seq bigint not null default 1,
      lease_owner text,
      lease_expires_at timestamptz,
      created_by uuid,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (project_id, name)
    )`.execute(db);
  await sql`create index streams_claimable on streams (lease_expires_at) where desired_state = 'running'`.execute(db);

  await sql`
    create table stream_runs (
      id uuid primary key default gen_random_uuid(),
      stream_id uuid not null references streams (id) on delete cascade,
      worker text not null,
      status text not null check (status in ('running', 'stopped', 'failed', 'interrupted')),
      started_at timestamptz not null default now(),
      ended_at timestamptz,
      messages_received bigint not null default 0,
      messages_written bigint not null default 0,
      rows_written bigint not null default 0,
      duplicates bigint not null default 0,
      dead_lettered bigint not null default 0,
      bytes bigint not null default 0,
      lag_messages bigint,
      latency_seconds double precision,
      last_message_at timestamptz,
      errors integer not null default 0,
      last_error text
    )`.execute(db);
  await sql`create index stream_runs_stream on stream_runs (stream_id, started_at desc)`.execute(db);

  await sql`
    create table stream_dead_letters (
      id bigint generated always as identity primary key,
      stream_id uuid not null references streams (id) on delete cascade,
      message_id text not null,
      subject text,
      payload bytea not null,
      reason text not null,
      deliveries integer not null,
      created_at timestamptz not null default now(),
      retry_requested_at timestamptz,
      unique (stream_id, message_id)
    )`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
