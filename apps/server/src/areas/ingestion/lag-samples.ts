/**
 * Lag over the last hour, from the service's own figures: the leader records the lag of every CDC
 * table (seconds and bytes behind the source) and every stream (messages waiting at the broker)
 * every SVC_LAG_SAMPLE_SECONDS, and drops samples older than an hour.
 */
import { sql, type Generated } from 'kysely';
import { Type } from 'typebox';
import type { Db } from '../../platform/db/index.js';
import type { LeaderTask } from '../../platform/leader.js';

interface LagSamplesTable {
  id: Generated<string>;
  item_kind: 'cdc_table' | 'stream';
  item_id: string;
  sampled_at: Generated<Date>;
  lag_seconds: number | null;
  lag_bytes: string | null;
  lag_messages: string | null;
}

declare module '../../platform/db/schema.js' {
  interface Database {
    lag_samples: LagSamplesTable;
  }
}

/** How far back samples are kept and served. */
export const LAG_WINDOW_SECONDS = 3600;

export const LagPoint = Type.Object({
  at: Type.String({ format: 'date-time' }),
  lag_seconds: Type.Union([Type.Number(), Type.Null()], { description: 'CDC tables: seconds behind the source' }),
  lag_bytes: Type.Union([Type.Integer(), Type.Null()], {
    description: 'CDC tables: change data past the applied position',
  }),
  lag_messages: Type.Union([Type.Integer(), Type.Null()], { description: 'Streams: messages waiting at the broker' }),
});

export interface LagPoint {
  at: string;
  lag_seconds: number | null;
  lag_bytes: number | null;
  lag_messages: number | null;
}

/** Records one sample of every CDC table and stream, then drops those past the hour. */
export async function sampleLag(db: Db): Promise<void> {
  await sql`
    insert into lag_samples (item_kind, item_id, lag_seconds, lag_bytes)
    select 'cdc_table', id, lag_seconds, lag_bytes from cdc_tables`.execute(db);
  // A stream's lag is what the consumer of its latest run saw last.
  await sql`
    insert into lag_samples (item_kind, item_id, lag_messages)
    select 'stream', s.id,
      (select r.lag_messages from stream_runs r where r.stream_id = s.id order by r.started_at desc limit 1)
    from streams s`.execute(db);
  await sql`delete from lag_samples where sampled_at < now() - make_interval(secs => ${LAG_WINDOW_SECONDS})`.execute(
    db,
  );
}

/** The samples of one item over the last hour, oldest first. */
export async function lagHistory(db: Db, kind: 'cdc_table' | 'stream', id: string): Promise<LagPoint[]> {
  const rows = await db
    .selectFrom('lag_samples')
    .select(['sampled_at', 'lag_seconds', 'lag_bytes', 'lag_messages'])
    .where('item_kind', '=', kind)
    .where('item_id', '=', id)
    .where(sql<boolean>`sampled_at >= now() - make_interval(secs => ${LAG_WINDOW_SECONDS})`)
    .orderBy('sampled_at')
    .execute();
  return rows.map((row) => ({
    at: row.sampled_at.toISOString(),
    lag_seconds: row.lag_seconds === null ? null : Number(row.lag_seconds),
    lag_bytes: row.lag_bytes === null ? null : Number(row.lag_bytes),
    lag_messages: row.lag_messages === null ? null : Number(row.lag_messages),
  }));
}

export function lagSamplingTask(db: Db, intervalSeconds: number): LeaderTask {
  return { name: 'lag-samples', intervalMs: intervalSeconds * 1000, run: () => sampleLag(db) };
}
