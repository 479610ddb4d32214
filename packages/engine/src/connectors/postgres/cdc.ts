/**
 * PostgreSQL change capture: logical replication with pgoutput, through a publication and a slot
 * named after the capture. The snapshot is exported by the slot's creation, so the rows and the
 * stream meet exactly at the slot's consistent point. Values are decoded by the connector's own
 * parsers (the replication connection runs with TimeZone=UTC and ISO dates like every other).
 */
import pg from 'pg';
import { LogicalReplicationService, PgoutputPlugin } from 'pg-logical-replication';
import type { ChangeSource, RowChange, SourceTransaction } from '../../cdc/types.js';
import {
  ConnectorError,
  type ColumnSchema,
  type DatasetRef,
  type EgressPolicy,
  type RecordBatch,
  type Value,
} from '../../types.js';
import { classify, connect, connectionOptions, qualified, type PostgresConfig } from './client.js';
import { columnOfType, typeParser } from './type-mapping.js';

const SNAPSHOT_BATCH = 10_000;
const HEARTBEAT_PREFIX = 'svc_heartbeat';

/** Slot and publication names: lower case, at most 63 bytes, from the capture's id. */
export const captureName = (captureId: string) =>
  `svc_cdc_${captureId.replace(/[^a-zA-Z0-9]/g, '').toLowerCase()}`.slice(0, 63);

/** An LSN ("16/B374D848") as a number that orders. */
export function lsnValue(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high ?? '0'}`) << 32n) + BigInt(`0x${low ?? '0'}`);
}

/** pg-logical-replication gives commit times in microseconds since the Unix epoch. */
/** An LSN as PostgreSQL prints it ("16/B374D848"): the library pads its halves to eight digits. */
export function lsnText(lsn: string): string {
  const value = lsnValue(lsn);
  return `${(value >> 32n).toString(16).toUpperCase()}/${(value & 0xffffffffn).toString(16).toUpperCase()}`;
}

const isoOfMicros = (micros: bigint | number) => new Date(Number(BigInt(micros) / 1000n)).toISOString();

interface RelationColumn {
  name: string;
  typeOid: number;
  typeMod: number;
  parser: (raw: string) => unknown;
}

export function postgresChangeSource(
  config: PostgresConfig,
  defaultSchema: string,
  captureId: string,
  egress?: EgressPolicy,
): ChangeSource {
  const name = captureName(captureId);
  let admin: pg.Client | undefined;
  const ready = async () => (admin ??= await connect(config, egress));
  let service: LogicalReplicationService | undefined;
  let confirmed: string | undefined;

  const schemaOf = (table: DatasetRef) => table.namespace ?? defaultSchema;

  const describe: ChangeSource['describe'] = async (table) => {
    const client = await ready();
    const schema = schemaOf(table);
    const { rows } = await client.query<{ oid: number; relreplident: string }>(
      `select c.oid, c.relreplident from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relname = $2 and c.relkind in ('r', 'p')`,
      [schema, table.name],
    );
    const relation = rows[0];
    if (!relation) throw new ConnectorError('not_found', `table "${schema}"."${table.name}" does not exist`, false);
    const keys = await client.query<{ attname: string }>(
      `select a.attname from pg_index i join lateral unnest(i.indkey) with ordinality k(attnum, n) on true
         join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
        where i.indrelid = $1 and i.indisprimary order by k.n`,
      [relation.oid],
    );
    if (keys.rows.length === 0) {
      throw new ConnectorError(
        'unsupported',
        `table "${schema}"."${table.name}" has no primary key: change capture needs one to apply updates and deletes; add a primary key`,
        false,
      );
    }
    if (relation.relreplident === 'n') {
      throw new ConnectorError(
        'unsupported',
        `table "${schema}"."${table.name}" has REPLICA IDENTITY NOTHING, so deletes and updates carry no key; set REPLICA IDENTITY DEFAULT`,
        false,
      );
    }
    const fields = (await client.query(`select * from ${qualified(schema, table.name)} limit 0`)).fields;
    const columns = fields.map((f) => columnOfType(f.name, f.dataTypeID, f.dataTypeModifier));
    return { columns, primaryKey: keys.rows.map((k) => k.attname) };
  };

  const ensurePublication = async (table: DatasetRef) => {
    const client = await ready();
    const { rows } = await client.query('select 1 from pg_publication where pubname = $1', [name]);
    if (rows.length === 0) {
      try {
        await client.query(`create publication ${name} for table ${qualified(schemaOf(table), table.name)}`);
      } catch (error) {
        const classified = classify(error);
        if ((error as { code?: string }).code === '42501')
          throw new ConnectorError(
            'missing_privilege',
            `creating the publication needs ownership of the table (or superuser): ${classified.message}`,
            false,
          );
        throw classified;
      }
    }
  };

  const dropSlot = async () => {
    const client = await ready();
    // A slot in use by a walsender (a reader that died moments ago) cannot be dropped: end that reader first.
    await client.query(
      'select pg_terminate_backend(active_pid) from pg_replication_slots where slot_name = $1 and active_pid is not null',
      [name],
    );
    for (let attempt = 0; attempt < 20; attempt++) {
      try {
        await client.query(
          'select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name = $1',
          [name],
        );
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== '55006') throw classify(error); // object in use: the walsender is still exiting
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  };

  return {
    describe,

    async snapshot(table, signal) {
      const { columns, primaryKey } = await describe(table, signal);
      await ensurePublication(table);
      await dropSlot(); // a resync starts from a new slot
      const replication = new pg.Client({
        ...(await connectionOptions(config, egress)),
        replication: 'database',
      } as pg.ClientConfig);
      replication.on('error', () => undefined);
      const reader = await connect(config, egress);
      try {
        await replication.connect();
        const created = await replication.query(`CREATE_REPLICATION_SLOT ${name} LOGICAL pgoutput EXPORT_SNAPSHOT`);
        const slot = created.rows[0] as { consistent_point: string; snapshot_name: string };
        await reader.query('begin isolation level repeatable read read only');
        await reader.query(`set transaction snapshot '${slot.snapshot_name.replace(/'/g, "''")}'`);
        // The snapshot is imported: the replication connection may go.
        await replication.end();
        await reader.query(
          `declare svc_snapshot no scroll cursor for select ${columns.map((c) => `"${c.name.replaceAll('"', '""')}"`).join(', ')} from ${qualified(schemaOf(table), table.name)}`,
        );
        const rows = async function* (): AsyncIterable<RecordBatch> {
          for (;;) {
            if (signal?.aborted) throw signal.reason;
            const result = await reader.query({ text: `fetch ${SNAPSHOT_BATCH} from svc_snapshot`, rowMode: 'array' });
            if (result.rows.length > 0) yield { columns, rows: result.rows as Value[][] };
            if (result.rows.length < SNAPSHOT_BATCH) return;
          }
        };
        return {
          columns,
          primaryKey,
          position: lsnText(slot.consistent_point),
          rows: rows(),
          async close() {
            await reader.query('commit').catch(() => undefined);
            await reader.end().catch(() => undefined);
          },
        };
      } catch (error) {
        await replication.end().catch(() => undefined);
        await reader.end().catch(() => undefined);
        throw classify(error);
      }
    },

    async stream(table, position, onTransaction, options) {
      const { signal } = options;
      const schema = schemaOf(table);
      const { primaryKey } = await describe(table);
      const relations = new Map<number, { columns: ColumnSchema[]; parsers: RelationColumn[]; mine: boolean }>();
      const plugin = new PgoutputPlugin({ protoVersion: 1, publicationNames: [name], messages: true });
      // Values in the connector's canonical form: replace the library's parsers as each relation
      // message is parsed, before any row that follows it.
      const parse = plugin.parse.bind(plugin);
      plugin.parse = (buffer: Buffer) => {
        const message = parse(buffer);
        if (message.tag === 'relation') {
          for (const column of message.columns as unknown as RelationColumn[])
            column.parser = typeParser(column.typeOid) ?? ((raw: string) => raw);
        }
        return message;
      };
      const current = new LogicalReplicationService(
        { ...(await connectionOptions(config, egress)) },
        { acknowledge: { auto: false, timeoutSeconds: 0 }, flowControl: { enabled: true } },
      );
      service = current;
      confirmed ??= position;
      let pending: { commitTime: string; changes: RowChange[] } | undefined;
      let failure: Error | undefined;
      let settle: (() => void) | undefined;
      const done = new Promise<void>((resolve) => (settle = resolve));
      const fail = (error: Error) => {
        failure ??= error;
        settle?.();
      };
      const toValues = (relation: { parsers: RelationColumn[] }, tuple: Record<string, unknown> | null) =>
        tuple ? relation.parsers.map((c) => (tuple[c.name] === undefined ? null : (tuple[c.name] as Value))) : null;
      current.on('data', async (lsn: string, message: { tag: string } & Record<string, unknown>) => {
        if (failure || signal.aborted) return;
        try {
          switch (message.tag) {
            case 'relation': {
              const columns = (message['columns'] as RelationColumn[]).map((c) =>
                columnOfType(c.name, c.typeOid, c.typeMod),
              );
              relations.set(message['relationOid'] as number, {
                columns,
                parsers: message['columns'] as RelationColumn[],
                mine: message['schema'] === schema && message['name'] === table.name,
              });
              break;
            }
            case 'begin':
              pending = { commitTime: isoOfMicros(message['commitTime'] as bigint), changes: [] };
              break;
            case 'insert':
            case 'update':
            case 'delete': {
              const relation = relations.get((message['relation'] as { relationOid: number }).relationOid);
              if (!relation?.mine || !pending) break;
              const newTuple = (message['new'] as Record<string, unknown> | undefined) ?? null;
              const oldTuple = ((message['key'] ?? message['old']) as Record<string, unknown> | null) ?? null;
              // 'u' in pgoutput: an unchanged TOAST value, not sent; the library leaves it undefined.
              const unchanged =
                message.tag === 'update' && newTuple && relation.parsers.some((c) => newTuple[c.name] === undefined)
                  ? relation.parsers.map((c) => newTuple[c.name] === undefined)
                  : undefined;
              pending.changes.push({
                op: message.tag,
                columns: relation.columns,
                values: message.tag === 'delete' ? null : toValues(relation, newTuple),
                oldKey: oldTuple ? primaryKey.map((k) => (oldTuple[k] as Value) ?? null) : null,
                ...(unchanged ? { unchanged } : {}),
              });
              break;
            }
            case 'truncate': {
              const mine = (message['relations'] as Array<{ relationOid: number }>).some(
                (r) => relations.get(r.relationOid)?.mine,
              );
              const relation = [...relations.values()].find((r) => r.mine);
              if (mine && pending)
                pending.changes.push({ op: 'truncate', columns: relation?.columns ?? [], values: null, oldKey: null });
              break;
            }
            case 'commit': {
              const transaction: SourceTransaction = {
                position: lsnText((message['commitEndLsn'] as string | null) ?? lsn),
                commitTime: pending?.commitTime ?? isoOfMicros(message['commitTime'] as bigint),
                changes: pending?.changes ?? [],
              };
              pending = undefined;
              await onTransaction(transaction);
              break;
            }
            default:
              break; // messages (heartbeats) end in their own commit; origin and type need nothing
          }
        } catch (error) {
          fail(error as Error);
        }
      });
      current.on('heartbeat', (_lsn: string, _timestamp: number, shouldRespond: boolean) => {
        // Keepalive answers carry the confirmed position only: the slot never moves past applied data.
        if (shouldRespond && confirmed) void current.acknowledge(confirmed).catch(() => undefined);
      });
      current.on('error', (error: Error) => fail(classify(error)));
      // While the table is idle, a transactional message moves the stream (and so the slot) along.
      const heartbeat = setInterval(() => {
        void ready()
          .then((client) =>
            client.query('select pg_logical_emit_message(true, $1, $2)', [HEARTBEAT_PREFIX, new Date().toISOString()]),
          )
          .catch(() => undefined);
      }, options.heartbeatMs ?? 10_000);
      const onAbort = () => settle?.();
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        // Aborted while the table was being described: the listener above will never fire, and a
        // subscription started now would outlive this call.
        if (signal.aborted) onAbort();
        else current.subscribe(plugin, name, position).catch((error: Error) => fail(classify(error)));
        await done;
      } finally {
        clearInterval(heartbeat);
        signal.removeEventListener('abort', onAbort);
        await current.stop().catch(() => undefined);
        if (service === current) service = undefined;
      }
      if (failure && !signal.aborted) throw failure;
    },

    async confirm(position) {
      if (confirmed && lsnValue(position) < lsnValue(confirmed)) return;
      confirmed = position;
      await service?.acknowledge(position).catch(() => undefined);
    },

    compare: (a, b) => {
      const d = lsnValue(a) - lsnValue(b);
      return d > 0n ? 1 : d < 0n ? -1 : 0;
    },

    async lagBytes(position) {
      const { rows } = await (
        await ready()
      ).query<{ n: string | null }>('select pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::bigint as n', [
        position,
      ]);
      return rows[0]?.n === null || rows[0]?.n === undefined ? null : Math.max(0, Number(rows[0].n));
    },

    async retainedBytes() {
      const { rows } = await (
        await ready()
      ).query<{ n: string | null }>(
        'select pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)::bigint as n from pg_replication_slots where slot_name = $1',
        [name],
      );
      return rows[0]?.n === null || rows[0]?.n === undefined ? null : Number(rows[0].n);
    },

    async drop() {
      await service?.stop().catch(() => undefined);
      await dropSlot();
      await (await ready()).query(`drop publication if exists ${name}`);
    },

    async close() {
      await service?.stop().catch(() => undefined);
      await admin?.end().catch(() => undefined);
      admin = undefined;
    },
  };
}
