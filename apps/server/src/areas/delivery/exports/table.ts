/**
 * A database table destination (reverse ETL): rows written into an existing table of a PostgreSQL or
 * MySQL/MariaDB server, matched on the export's key columns: `insert`, `update` (rows that exist),
 * `upsert`, or `mirror` (upsert, and delete the rows the source no longer has). Each batch is one
 * transaction and each row its own savepoint, so a row the table refuses (a constraint, a type) fails
 * alone, with the server's reason, and the others are written. The connection goes to the address the
 * egress policy checked.
 */
import { jsonTextOf, type ColumnSchema, type EgressPolicy, type Value } from '@svc/engine';
import { connect as connectSocket } from 'node:net';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { DatabaseDestinationConfig } from './config.js';
import type { Change, RowFailure, Sink } from './runs.js';
import { ExportSourceError } from './source.js';

interface Connection {
  quote(name: string): string;
  placeholder(index: number): string;
  /** Runs one statement; answers the rows it touched. */
  run(text: string, params: unknown[]): Promise<number>;
  /** How a value travels to this server. */
  value(value: Value, column: ColumnSchema): unknown;
  close(): Promise<void>;
}

const jsonOrValue = (value: Value): unknown =>
  value !== null && typeof value === 'object' && !Buffer.isBuffer(value) ? jsonTextOf(value) : value;

async function connectPostgres(config: DatabaseDestinationConfig, egress: EgressPolicy): Promise<Connection> {
  const port = config.port ?? 5432;
  const { address } = await egress.resolve(config.host, port);
  const client = new pg.Client({
    host: address,
    port,
    database: config.database,
    user: config.user,
    password: config.password,
    ssl: config.ssl ? { rejectUnauthorized: true, servername: config.host } : false,
    connectionTimeoutMillis: 10_000,
    application_name: 'svc-export',
  });
  client.on('error', () => undefined);
  await client.connect();
  return {
    quote: (name) => `"${name.replaceAll('"', '""')}"`,
    placeholder: (index) => `$${index + 1}`,
    run: async (text, params) => (await client.query(text, params)).rowCount ?? 0,
    value: jsonOrValue,
    close: () => client.end().catch(() => undefined),
  };
}

/** MySQL takes date-times without the ISO 'T' and zone: UTC values as 'YYYY-MM-DD HH:MM:SS.ffffff'. */
const mysqlValue = (value: Value, column: ColumnSchema): unknown => {
  if (typeof value === 'string' && (column.type === 'timestamptz' || column.type === 'timestamp'))
    return value.replace('T', ' ').replace(/(Z|[+-]\d\d:?\d\d)$/, '');
  return jsonOrValue(value);
};

async function connectMysql(config: DatabaseDestinationConfig, egress: EgressPolicy): Promise<Connection> {
  const port = config.port ?? 3306;
  const { address } = await egress.resolve(config.host, port);
  // The socket goes to the address the policy checked; `host` stays the name TLS verifies.
  const connection = await mysql.createConnection({
    host: config.host,
    port,
    stream: () => connectSocket(port, address),
    database: config.database,
    user: config.user,
    password: config.password,
    ssl: config.ssl ? { rejectUnauthorized: true } : undefined,
    connectTimeout: 10_000,
    timezone: 'Z',
  });
  connection.on('error', () => undefined);
  return {
    quote: (name) => `\`${name.replaceAll('`', '``')}\``,
    placeholder: () => '?',
    run: async (text, params) => {
      const [result] = await connection.query(text, params);
      return (result as { affectedRows?: number }).affectedRows ?? 0;
    },
    value: mysqlValue,
    close: () => connection.end().catch(() => undefined),
  };
}

/** The statements of one write mode, for the columns written (destination names) and the match keys. */
function statements(connection: Connection, config: DatabaseDestinationConfig, columns: string[], keys: string[]) {
  const q = connection.quote;
  const table = config.engine === 'postgres' ? `${q(config.schema ?? 'public')}.${q(config.table)}` : q(config.table);
  const ph = (i: number) => connection.placeholder(i);
  const others = columns.filter((c) => !keys.includes(c));
  const skip = config.null_handling === 'skip';
  const list = columns.map(q).join(', ');
  const values = columns.map((_, i) => ph(i)).join(', ');
  const insert = `insert into ${table} (${list}) values (${values})`;
  const keyMatch = (offset: number) => keys.map((k, i) => `${q(k)} = ${ph(offset + i)}`).join(' and ');
  let upsert: string;
  if (config.engine === 'postgres') {
    const set = others.map((c) =>
      skip ? `${q(c)} = coalesce(excluded.${q(c)}, ${table}.${q(c)})` : `${q(c)} = excluded.${q(c)}`,
    );
    upsert = `${insert} on conflict (${keys.map(q).join(', ')}) do ${set.length ? `update set ${set.join(', ')}` : 'nothing'}`;
  } else {
    const set = (others.length ? others : keys).map((c) =>
      skip ? `${q(c)} = coalesce(values(${q(c)}), ${q(c)})` : `${q(c)} = values(${q(c)})`,
    );
    upsert = `${insert} on duplicate key update ${set.join(', ')}`;
  }
  const update = others.length
    ? `update ${table} set ${others.map((c, i) => (skip ? `${q(c)} = coalesce(${ph(i)}, ${q(c)})` : `${q(c)} = ${ph(i)}`)).join(', ')} where ${keyMatch(others.length)}`
    : undefined;
  const remove = `delete from ${table} where ${keyMatch(0)}`;
  return { insert, upsert, update, remove, others };
}

export async function tableSink(
  config: DatabaseDestinationConfig,
  keyColumns: string[],
  egress: EgressPolicy,
): Promise<Sink> {
  const connection =
    config.engine === 'postgres' ? await connectPostgres(config, egress) : await connectMysql(config, egress);
  let plan:
    | {
        indexes: number[];
        types: ColumnSchema[];
        keyIndexes: number[];
        keyTypes: ColumnSchema[];
        sql: ReturnType<typeof statements>;
        columns: string[];
      }
    | undefined;
  const planFor = (columns: ColumnSchema[]) => {
    const names = columns.map((c) => c.name);
    const map = config.field_map ?? Object.fromEntries(names.map((n) => [n, n]));
    for (const source of Object.keys(map))
      if (!names.includes(source))
        throw new ExportSourceError(`field_map names ${source}, which is not a column of the source`);
    const sourceColumns = Object.keys(map);
    const destinationColumns = sourceColumns.map((s) => map[s]!);
    const keys = keyColumns.map((k) => map[k] ?? k);
    return {
      indexes: sourceColumns.map((s) => names.indexOf(s)),
      types: sourceColumns.map((s) => columns[names.indexOf(s)]!),
      keyIndexes: keyColumns.map((k) => names.indexOf(k)),
      keyTypes: keyColumns.map((k) => columns[names.indexOf(k)]!),
      sql: statements(connection, config, destinationColumns, keys),
      columns: destinationColumns,
    };
  };
  const writeOne = async (change: Change): Promise<string | undefined> => {
    const p = plan!;
    const row = p.indexes.map((index, i) => connection.value(change.values[index] ?? null, p.types[i]!));
    const key = p.keyIndexes.map((index, i) => connection.value(change.values[index] ?? null, p.keyTypes[i]!));
    if (change.kind === 'removed') {
      if (config.write_mode === 'mirror') await connection.run(p.sql.remove, key);
      return undefined;
    }
    switch (config.write_mode) {
      case 'insert':
        await connection.run(p.sql.insert, row);
        return undefined;
      case 'update': {
        if (!p.sql.update) return undefined;
        const others = p.sql.others.map((c) => row[p.columns.indexOf(c)]);
        const touched = await connection.run(p.sql.update, [...others, ...key]);
        return touched === 0 ? 'no row of the destination table matches the key' : undefined;
      }
      default:
        await connection.run(p.sql.upsert, row);
        return undefined;
    }
  };
  return {
    async deliver(columns, changes) {
      plan ??= planFor(columns);
      const failures: RowFailure[] = [];
      await connection.run('begin', []);
      try {
        for (const change of changes) {
          await connection.run('savepoint svc_row', []);
          try {
            const reason = await writeOne(change);
            if (reason) failures.push({ key: change.key, reason });
            await connection.run('release savepoint svc_row', []);
          } catch (error) {
            await connection.run('rollback to savepoint svc_row', []);
            failures.push({ key: change.key, reason: (error as Error).message });
          }
        }
        await connection.run('commit', []);
      } catch (error) {
        await connection.run('rollback', []).catch(() => undefined);
        throw error;
      }
      return failures;
    },
    finish: async () => {
      await connection.close();
      return [];
    },
    abort: () => connection.close(),
  };
}
