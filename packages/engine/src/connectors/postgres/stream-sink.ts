/**
 * Writes streamed messages to a PostgreSQL table, each exactly once. Every write is one transaction
 * that first records the batch in `_svc_stream_batches` of the connector's schema: one row per batch
 * (the ids of its messages as an array, and the range of their broker positions where the broker has
 * them), not one per message. The batch's ids already in a row of the ledger were written by an
 * earlier delivery and are left out; an advisory lock on the stream serialises its writes, so two
 * consumers (one that lost its lease and does not know yet) cannot both take an id as fresh. The
 * ledger is pruned by broker position (the source's ack floor) or by age.
 */
import type pg from 'pg';
import type { MessageSink, SinkWrite } from '../../streams/types.js';
import type { ColumnSchema, DatasetRef, EgressPolicy, RecordBatch } from '../../types.js';
import { classify, connect, ensureSchema, qualified, quoteIdent, type PostgresConfig } from './client.js';
import { canonicalOfUdt, ddlType } from './type-mapping.js';
import { copyInto } from './write.js';

export const LEDGER_TABLE = '_svc_stream_batches';
/** The ledger of the first version: one row per message; read into the batch ledger once. */
const OLD_LEDGER_TABLE = '_svc_stream_ledger';

/** Whether decimal integer `a` (no sign, no leading zeros) is below `b`, without a BigInt per position. */
const below = (a: string, b: string) => a.length < b.length || (a.length === b.length && a < b);

/** The lowest and highest position of a batch, or nulls when a message has none (not a positional broker). */
export function positionRange(messages: { position: string | null }[]): { min: string | null; max: string | null } {
  let min: string | null = null;
  let max: string | null = null;
  for (const { position } of messages) {
    if (position === null || !/^(?:0|[1-9]\d*)$/.test(position)) return { min: null, max: null };
    if (min === null || below(position, min)) min = position;
    if (max === null || below(max, position)) max = position;
  }
  return { min, max };
}

/**
 * A text[] parameter as PostgreSQL's array literal, built in one join: the driver's own serialisation
 * of an array of a thousand ids added them to a string one piece at a time (a few hundred bytes of
 * garbage per id, on every batch).
 */
export function textArrayLiteral(items: readonly string[]): string {
  return `{${items.map((item) => `"${/[\\"]/.test(item) ? item.replace(/[\\"]/g, '\\$&') : item}"`).join(',')}}`;
}

export function postgresMessageSink(config: PostgresConfig, defaultSchema: string, egress?: EgressPolicy): MessageSink {
  let client: pg.Client | undefined;
  const ready = async () => (client ??= await connect(config, egress));
  const ledger = qualified(defaultSchema, LEDGER_TABLE);
  const schemaOf = (target: DatasetRef) => target.namespace ?? defaultSchema;
  let ledgerReady = false;

  const columnsOf = async (c: pg.Client, target: DatasetRef): Promise<ColumnSchema[]> => {
    const { rows } = await c.query<{ column_name: string; udt_name: string; is_nullable: string }>(
      'select column_name, udt_name, is_nullable from information_schema.columns where table_schema = $1 and table_name = $2 order by ordinal_position',
      [schemaOf(target), target.name],
    );
    return rows.map((r) => ({
      name: r.column_name,
      type: canonicalOfUdt(r.udt_name),
      sourceType: r.udt_name,
      nullable: r.is_nullable === 'YES',
    }));
  };

  const ensureLedger = async (c: pg.Client) => {
    if (ledgerReady) return;
    await ensureSchema(c, defaultSchema);
    await c.query(
      `create table if not exists ${ledger} (stream_id text not null, batch_id bigint generated always as identity, min_position bigint, max_position bigint, message_ids text[] not null, written_at timestamptz not null default now(), primary key (stream_id, batch_id))`,
    );
    // Brokers with positions look batches up by range; the others by id (a GIN index on the array).
    await c.query(
      `create index if not exists ${quoteIdent(`${LEDGER_TABLE}_range`)} on ${ledger} (stream_id, max_position) where min_position is not null`,
    );
    await c.query(
      `create index if not exists ${quoteIdent(`${LEDGER_TABLE}_ids`)} on ${ledger} using gin (message_ids) with (fastupdate = off) where min_position is null`,
    );
    // Without the pending list: with it every lookup scanned all the entries not yet merged, a cost
    // that grew with each batch written (a RabbitMQ stream slowed to a batch a second).
    await c.query(`alter index ${qualified(defaultSchema, `${LEDGER_TABLE}_ids`)} set (fastupdate = off)`);
    const old = qualified(defaultSchema, OLD_LEDGER_TABLE);
    const { rows } = await c.query<{ present: boolean }>('select to_regclass($1) is not null as present', [old]);
    if (rows[0]?.present) {
      await c.query(
        `insert into ${ledger} (stream_id, message_ids) select stream_id, array_agg(message_id) from ${old} group by stream_id`,
      );
      await c.query(`drop table ${old}`);
    }
    ledgerReady = true;
  };

  // The columns each target table has, as far as this sink made or saw them (forgotten after a rollback).
  const known = new Map<string, Set<string>>();
  const prepareTable = async (c: pg.Client, request: SinkWrite, planned: () => Promise<void>) => {
    const schema = schemaOf(request.target);
    const table = qualified(schema, request.target.name);
    const key = `${schema}.${request.target.name}`;
    const have = known.get(key);
    if (have && request.columns.every((col) => have.has(col.name))) return;
    await planned();
    const existing = await columnsOf(c, request.target);
    known.set(key, new Set([...existing, ...request.columns].map((col) => col.name)));
    if (existing.length === 0) {
      await ensureSchema(c, schema);
      const keys = request.mode === 'upsert' ? `, primary key (${request.keyColumns.map(quoteIdent).join(', ')})` : '';
      await c.query(
        `create table if not exists ${table} (${request.columns.map((col) => `${quoteIdent(col.name)} ${ddlType(col)}`).join(', ')}${keys})`,
      );
      return;
    }
    const present = new Set(existing.map((col) => col.name));
    for (const column of request.columns.filter((col) => !present.has(col.name)))
      await c.query(`alter table ${table} add column if not exists ${quoteIdent(column.name)} ${ddlType(column)}`);
  };

  return {
    async columns(target) {
      try {
        return await columnsOf(await ready(), target);
      } catch (error) {
        throw classify(error);
      }
    },

    async write(streamId, request) {
      const c = await ready();
      const table = qualified(schemaOf(request.target), request.target.name);
      try {
        await ensureLedger(c);
        // Few round trips: each one also waits for this process's event loop, busy with the broker's
        // next messages, so a batch is four of them when the table's columns are known (this one, the
        // ledger's, the COPY and the commit). The lookup below must not use sequential scans (see
        // there): off until the transaction ends, or until a statement that plans otherwise runs.
        await c.query(
          `begin; set local enable_seqscan = off; select pg_advisory_xact_lock(hashtext(${c.escapeLiteral(`svc_stream:${streamId}`)}))`,
        );
        let seqscan = false;
        const planned = async () => {
          if (!seqscan) await c.query('set local enable_seqscan = on');
          seqscan = true;
        };
        const ids = request.messages.map((m) => m.id);
        const { min, max } = positionRange(request.messages);
        const ranged = min !== null;
        // Two lookups, each on its own index: batches without positions by id overlap (GIN), batches
        // with positions by range. The planner must not read the batches of the stream one by one
        // (by the primary key, or a scan of a table it thinks small): the overlap of two arrays of
        // a thousand ids costs a million comparisons a batch, and a RabbitMQ stream slowed to a
        // batch a second after a hundred batches. Hence the stream id as an expression (no primary
        // key) and no sequential scan for this statement. The same statement records the batch's
        // fresh ids (those not found) as one ledger row, and answers with the ids found.
        const byId = `select m.id from ${ledger} l cross join lateral unnest(l.message_ids) as m(id)
           where (l.stream_id || '') = $1 and l.min_position is null and l.message_ids && $2::text[] and m.id = any($2::text[])`;
        const byRange = `select m.id from ${ledger} l cross join lateral unnest(l.message_ids) as m(id)
           where l.stream_id = $1 and l.min_position is not null and l.max_position >= $3::bigint
             and l.min_position <= $4::bigint and m.id = any($2::text[])`;
        const { rows: seen } = await c.query<{ id: string }>(
          `with seen as (${ranged ? `${byId} union ${byRange}` : byId}),
                fresh as (select array_agg(x.id) as ids from unnest($2::text[]) as x(id) where x.id not in (select id from seen)),
                recorded as (insert into ${ledger} (stream_id, min_position, max_position, message_ids)
                             select $1, $3::bigint, $4::bigint, ids from fresh where ids is not null)
           select id from seen`,
          [streamId, textArrayLiteral(ids), min, max],
        );
        // The usual batch has no id in the ledger: its rows are taken as they are.
        const written = new Set(seen.map((r) => r.id));
        let rows = written.size ? request.rows.filter((row) => !written.has(row.messageId)) : request.rows;
        const duplicates = request.messages.filter((m) => written.has(m.id)).length;
        await prepareTable(c, request, planned);
        if (request.mode === 'upsert' && rows.length) {
          // A key once per statement: the last version of the batch wins.
          const keyAt = request.keyColumns.map((k) => request.columns.findIndex((col) => col.name === k));
          const latest = new Map<string, (typeof rows)[number]>();
          for (const row of rows) latest.set(JSON.stringify(keyAt.map((i) => row.values[i] ?? null)), row);
          rows = [...latest.values()];
        }
        const batch: RecordBatch = { columns: request.columns, rows: rows.map((row) => row.values) };
        const bytes = { written: 0 };
        const one = async function* () {
          yield batch;
        };
        if (rows.length && request.mode === 'append') {
          await copyInto(c, table, request.columns, one(), bytes);
        } else if (rows.length) {
          await planned();
          const staging = quoteIdent(`_svc_stage_${streamId.replaceAll('-', '').slice(0, 20)}`);
          await c.query(
            `create temporary table if not exists ${staging} (${request.columns.map((col) => `${quoteIdent(col.name)} ${ddlType(col)}`).join(', ')}) on commit drop`,
          );
          await copyInto(c, staging, request.columns, one(), bytes);
          const names = request.columns.map((col) => quoteIdent(col.name)).join(', ');
          const updates = request.columns
            .filter((col) => !request.keyColumns.includes(col.name))
            .map((col) => `${quoteIdent(col.name)} = excluded.${quoteIdent(col.name)}`);
          await c.query(
            `insert into ${table} (${names}) select ${names} from ${staging}
             on conflict (${request.keyColumns.map(quoteIdent).join(', ')}) do ${updates.length ? `update set ${updates.join(', ')}` : 'nothing'}`,
          );
        }
        await c.query('commit');
        return { rowsWritten: rows.length, duplicates, bytes: bytes.written };
      } catch (error) {
        await c.query('rollback').catch(() => undefined);
        ledgerReady = false;
        known.clear(); // a table or column made in the transaction is gone
        throw classify(error);
      }
    },

    async prune(streamId, through) {
      const c = await ready();
      await ensureLedger(c);
      if (through.position !== undefined)
        await c.query(`delete from ${ledger} where stream_id = $1 and max_position <= $2::bigint`, [
          streamId,
          through.position,
        ]);
      if (through.olderThanMs !== undefined)
        await c.query(
          `delete from ${ledger} where stream_id = $1 and min_position is null and written_at < now() - $2::interval`,
          [streamId, `${through.olderThanMs} milliseconds`],
        );
    },

    async forget(streamId) {
      const c = await ready();
      await c.query(`delete from ${ledger} where stream_id = $1`, [streamId]).catch((error: { code?: string }) => {
        if (error.code !== '42P01') throw classify(error);
      });
    },

    async close() {
      await client?.end().catch(() => undefined);
      client = undefined;
    },
  };
}
