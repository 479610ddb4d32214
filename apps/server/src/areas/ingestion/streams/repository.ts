import type { MessageFormat, StartPosition, TransformStep } from '@svc/engine';
import { sql, type Generated, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../../platform/db/index.js';
import { leaseQueries } from '../../../platform/leases.js';

export type StreamStatus = 'stopped' | 'starting' | 'running' | 'degraded' | 'failed' | 'paused';

export interface StreamSource {
  name: string;
  filter?: string;
  consumer?: string;
  start: StartPosition;
  start_time?: string;
  start_sequence?: number;
}
export interface StreamFormat {
  type: MessageFormat;
  record_path?: string;
}
export type DeadLetterTarget = { kind: 'table' } | { kind: 'broker'; target: string };

export interface StreamsTable {
  id: Generated<string>;
  project_id: string;
  environment_id: string | null;
  name: string;
  source_connector_id: string;
  source: StreamSource;
  format: StreamFormat;
  destination_connector_id: string;
  destination_table: string;
  write_mode: 'append' | 'upsert';
  key_columns: string[];
  batch_max_rows: number;
  batch_max_latency_ms: number;
  max_deliveries: number;
  dead_letter: DeadLetterTarget;
  /** Declarative transform steps applied to each message's records. */
  transforms: Generated<TransformStep[]>;
  /** Set while the stream is paused: its consumer holds it and takes no messages. */
  paused_at: Date | null;
  desired_state: Generated<'running' | 'stopped'>;
  status: Generated<StreamStatus>;
  last_error: string | null;
  event_seq: Generated<string>;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface StreamRunsTable {
  id: Generated<string>;
  stream_id: string;
  worker: string;
  status: 'running' | 'stopped' | 'failed' | 'interrupted';
  started_at: Generated<Date>;
  ended_at: Date | null;
  messages_received: Generated<string>;
  messages_written: Generated<string>;
  rows_written: Generated<string>;
  duplicates: Generated<string>;
  dead_lettered: Generated<string>;
  bytes: Generated<string>;
  lag_messages: string | null;
  latency_seconds: number | null;
  last_message_at: Date | null;
  errors: Generated<number>;
  last_error: string | null;
}

export interface StreamDeadLettersTable {
  id: Generated<string>;
  stream_id: string;
  message_id: string;
  subject: string | null;
  payload: Buffer;
  reason: string;
  deliveries: number;
  created_at: Generated<Date>;
  retry_requested_at: Date | null;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    streams: StreamsTable;
    stream_runs: StreamRunsTable;
    stream_dead_letters: StreamDeadLettersTable;
  }
}

export type StreamRow = Selectable<StreamsTable>;
export type StreamRunRow = Selectable<StreamRunsTable>;
export type DeadLetterRow = Selectable<StreamDeadLettersTable>;
export type StreamChanges = Omit<Updateable<StreamsTable>, 'id' | 'project_id' | 'created_at' | 'created_by'>;
export interface RunCounters {
  received: number;
  written: number;
  rows: number;
  duplicates: number;
  deadLettered: number;
  bytes: number;
  errors: number;
}

const NO_PROJECT = '00000000-0000-0000-0000-000000000000';
/** JSON text for a jsonb column: node-pg would send a JS array as a PostgreSQL array. */
const json = <T>(value: T): T => JSON.stringify(value) as unknown as T;

export function createStreamsRepository() {
  return {
    ...leaseQueries<StreamRow>('streams'),
    insert: (
      db: Db,
      row: Omit<
        StreamsTable,
        | 'id'
        | 'status'
        | 'desired_state'
        | 'event_seq'
        | 'last_error'
        | 'lease_owner'
        | 'lease_expires_at'
        | 'created_at'
        | 'updated_at'
        | 'transforms'
        | 'paused_at'
      > & { desired_state: 'running' | 'stopped'; transforms: TransformStep[] },
    ) =>
      db
        .insertInto('streams')
        .values({
          ...row,
          source: json(row.source),
          format: json(row.format),
          dead_letter: json(row.dead_letter),
          transforms: json(row.transforms),
          paused_at: null,
          status: row.desired_state === 'running' ? 'starting' : 'stopped',
          last_error: null,
          lease_owner: null,
          lease_expires_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    find: (db: Db, id: string) => db.selectFrom('streams').selectAll().where('id', '=', id).executeTakeFirst(),
    list: (db: Db, projectIds: string[] | null) => {
      let query = db.selectFrom('streams').selectAll().orderBy('name');
      if (projectIds) query = query.where('project_id', 'in', projectIds.length ? projectIds : [NO_PROJECT]);
      return query.execute();
    },
    /** Every change moves `event_seq`: live status streams send one event per value of it. */
    update: (db: Db, id: string, changes: StreamChanges, owner?: string) => {
      const { source, format, dead_letter, transforms, ...rest } = changes;
      let query = db
        .updateTable('streams')
        .set((eb) => ({
          ...rest,
          ...(source ? { source: json(source) } : {}),
          ...(format ? { format: json(format) } : {}),
          ...(dead_letter ? { dead_letter: json(dead_letter) } : {}),
          ...(transforms ? { transforms: json(transforms) } : {}),
          event_seq: eb('event_seq', '+', '1'),
          updated_at: sql`now()`,
        }))
        .where('id', '=', id);
      if (owner !== undefined) query = query.where('lease_owner', '=', owner);
      return query.returningAll().executeTakeFirst();
    },
    remove: async (db: Db, id: string) =>
      Number((await db.deleteFrom('streams').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,

    /** A new run; runs of the stream still marked running belonged to a worker that died: interrupted. */
    startRun: async (db: Db, streamId: string, worker: string) => {
      await db
        .updateTable('stream_runs')
        .set({ status: 'interrupted', ended_at: sql`now()` })
        .where('stream_id', '=', streamId)
        .where('status', '=', 'running')
        .execute();
      return db
        .insertInto('stream_runs')
        .values({
          stream_id: streamId,
          worker,
          status: 'running',
          ended_at: null,
          lag_messages: null,
          latency_seconds: null,
          last_message_at: null,
          last_error: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    },
    addToRun: (
      db: Db,
      runId: string,
      counters: RunCounters,
      facts: { lag?: number | null; latency?: number | null; lastMessageAt?: Date | null; lastError?: string | null },
    ) =>
      db
        .updateTable('stream_runs')
        .set((eb) => ({
          messages_received: eb('messages_received', '+', String(counters.received)),
          messages_written: eb('messages_written', '+', String(counters.written)),
          rows_written: eb('rows_written', '+', String(counters.rows)),
          duplicates: eb('duplicates', '+', String(counters.duplicates)),
          dead_lettered: eb('dead_lettered', '+', String(counters.deadLettered)),
          bytes: eb('bytes', '+', String(counters.bytes)),
          errors: eb('errors', '+', counters.errors),
          ...(facts.lag !== undefined ? { lag_messages: facts.lag === null ? null : String(facts.lag) } : {}),
          ...(facts.latency !== undefined && facts.latency !== null ? { latency_seconds: facts.latency } : {}),
          ...(facts.lastMessageAt ? { last_message_at: facts.lastMessageAt } : {}),
          ...(facts.lastError !== undefined ? { last_error: facts.lastError } : {}),
        }))
        .where('id', '=', runId)
        .execute(),
    endRun: (db: Db, runId: string, status: 'stopped' | 'failed' | 'interrupted', lastError: string | null) =>
      db
        .updateTable('stream_runs')
        .set({ status, ended_at: sql`now()`, ...(lastError ? { last_error: lastError } : {}) })
        .where('id', '=', runId)
        .execute(),
    runs: (db: Db, streamId: string, limit: number) =>
      db
        .selectFrom('stream_runs')
        .selectAll()
        .where('stream_id', '=', streamId)
        .orderBy('started_at', 'desc')
        .limit(limit)
        .execute(),
    /** Counters of every stream summed over its runs, for the metrics. */
    totals: (db: Db) =>
      db
        .selectFrom('stream_runs')
        .select((eb) => [
          'stream_id',
          eb.fn.sum<string>('messages_received').as('received'),
          eb.fn.sum<string>('rows_written').as('rows'),
          eb.fn.sum<string>('dead_lettered').as('dead'),
          eb.fn.sum<string>('bytes').as('bytes'),
        ])
        .groupBy('stream_id')
        .execute(),
    latestRuns: (db: Db) =>
      db
        .selectFrom('stream_runs')
        .selectAll()
        .distinctOn('stream_id')
        .orderBy('stream_id')
        .orderBy('started_at', 'desc')
        .execute(),

    addDeadLetter: (
      db: Db,
      row: Pick<DeadLetterRow, 'stream_id' | 'message_id' | 'subject' | 'payload' | 'reason' | 'deliveries'>,
    ) =>
      db
        .insertInto('stream_dead_letters')
        .values({ ...row, retry_requested_at: null })
        .onConflict((oc) =>
          oc.columns(['stream_id', 'message_id']).doUpdateSet({
            reason: row.reason,
            deliveries: row.deliveries,
            retry_requested_at: null,
          }),
        )
        .execute(),
    deadLetters: (db: Db, streamId: string, limit: number) =>
      db
        .selectFrom('stream_dead_letters')
        .selectAll()
        .where('stream_id', '=', streamId)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute(),
    findDeadLetter: (db: Db, streamId: string, id: string) =>
      db
        .selectFrom('stream_dead_letters')
        .selectAll()
        .where('stream_id', '=', streamId)
        .where('id', '=', id)
        .executeTakeFirst(),
    requestRetry: (db: Db, streamId: string, id: string) =>
      db
        .updateTable('stream_dead_letters')
        .set({ retry_requested_at: sql`now()` })
        .where('stream_id', '=', streamId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    retryRequested: (db: Db, streamId: string, limit: number) =>
      db
        .selectFrom('stream_dead_letters')
        .selectAll()
        .where('stream_id', '=', streamId)
        .where('retry_requested_at', 'is not', null)
        .orderBy('id')
        .limit(limit)
        .execute(),
    removeDeadLetter: (db: Db, id: string) => db.deleteFrom('stream_dead_letters').where('id', '=', id).execute(),
  };
}

export type StreamsRepository = ReturnType<typeof createStreamsRepository>;
