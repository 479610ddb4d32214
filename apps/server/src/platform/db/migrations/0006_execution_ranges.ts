import { sql, type Kysely } from 'kysely';

/** Key ranges of a stream copied in parallel, each done (and resumed) on its own. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table execution_ranges (
      execution_id uuid not null references executions (id) on delete cascade,
      stream_index integer not null,
      range_no integer not null,
      range_from jsonb,
      range_to jsonb,
      state text not null default 'pending' check (state in ('pending', 'done')),
      rows_read bigint not null default 0,
      rows_written bigint not null default 0,
      bytes_read bigint not null default 0,
      job_id uuid,
      primary key (execution_id, stream_index, range_no)
    )`.execute(db);
  await sql`alter table executions add column coordinator_done boolean not null default false`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migrations');
}
