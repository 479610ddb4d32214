/**
 * Connections to a MySQL or MariaDB server: a small pool per handle, sessions pinned to UTC, and
 * driver errors mapped to connector error codes (never carrying the password).
 */
import { connect as connectSocket } from 'node:net';
import mysql from 'mysql2';
import type { Pool, PoolConnection, PoolOptions } from 'mysql2';
import { egressOf } from '../../egress.js';
import { Type, type Static } from 'typebox';
import {
  ConnectorError,
  Secret,
  type ConnectorContext,
  type ConnectorErrorCode,
  type EgressPolicy,
} from '../../types.js';

export const mysqlSpec = Type.Object(
  {
    host: Type.String({ minLength: 1, title: 'Host' }),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, default: 3306, title: 'Port' })),
    database: Type.String({ minLength: 1, title: 'Database' }),
    user: Type.String({ minLength: 1, title: 'User' }),
    password: Secret('Password'),
    ssl: Type.Optional(Type.Boolean({ default: false, title: 'Require TLS (server certificate verified)' })),
  },
  { additionalProperties: false },
);

export type MysqlConfig = Static<typeof mysqlSpec>;

export function poolOptions(config: MysqlConfig): PoolOptions {
  return {
    host: config.host,
    port: config.port ?? 3306,
    database: config.database,
    user: config.user,
    password: config.password ?? '',
    ssl: config.ssl ? { rejectUnauthorized: true } : undefined,
    connectTimeout: 10_000,
    connectionLimit: 4,
    enableKeepAlive: true,
    charset: 'UTF8MB4_UNICODE_CI',
    // Values as exact strings: nothing goes through a JS Date or a double on the way out.
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    decimalNumbers: false,
    jsonStrings: true,
    timezone: 'Z',
  };
}

/**
 * The options of connections to the server, through the egress policy: sockets go to the address it
 * checked, while `host` keeps the name mysql2 verifies the TLS certificate against.
 */
export async function connectionOptions(config: MysqlConfig, egress: EgressPolicy): Promise<PoolOptions> {
  const options = poolOptions(config);
  const port = config.port ?? 3306;
  const { address } = await egress.resolve(config.host, port);
  return {
    ...options,
    stream: () => {
      const socket = connectSocket(port, address);
      socket.setNoDelay(true);
      socket.once('connect', () => socket.setKeepAlive(true));
      return socket;
    },
  };
}

type Known = [ConnectorErrorCode, boolean, string];

const BY_CODE: Record<string, Known> = {
  ER_ACCESS_DENIED_ERROR: ['auth_failed', false, 'authentication failed: check the user and password'],
  ER_ACCESS_DENIED_NO_PASSWORD_ERROR: ['auth_failed', false, 'authentication failed: check the user and password'],
  ER_DBACCESS_DENIED_ERROR: ['missing_privilege', false, 'no access to the database'],
  ER_TABLEACCESS_DENIED_ERROR: ['missing_privilege', false, 'missing privilege on a table'],
  ER_COLUMNACCESS_DENIED_ERROR: ['missing_privilege', false, 'missing privilege on a column'],
  ER_SPECIFIC_ACCESS_DENIED_ERROR: ['missing_privilege', false, 'missing privilege'],
  ER_BAD_DB_ERROR: ['not_found', false, 'the database does not exist'],
  ER_NO_SUCH_TABLE: ['not_found', false, 'the table does not exist'],
  ER_BAD_FIELD_ERROR: ['schema_mismatch', false, 'unknown column'],
  ER_DATA_TOO_LONG: ['schema_mismatch', false, 'a value does not fit its column'],
  ER_WARN_DATA_OUT_OF_RANGE: ['schema_mismatch', false, 'a value is out of its column range'],
  ER_TRUNCATED_WRONG_VALUE: ['schema_mismatch', false, 'a value does not fit its column type'],
  ER_TRUNCATED_WRONG_VALUE_FOR_FIELD: ['schema_mismatch', false, 'a value does not fit its column type'],
  WARN_DATA_TRUNCATED: ['schema_mismatch', false, 'a value was truncated'],
  ER_BAD_NULL_ERROR: ['schema_mismatch', false, 'null in a NOT NULL column'],
  ER_INVALID_JSON_TEXT: ['schema_mismatch', false, 'invalid JSON'],
  ER_CHECK_CONSTRAINT_VIOLATED: ['schema_mismatch', false, 'a check constraint failed'],
  ER_LOCK_DEADLOCK: ['failed', true, 'deadlock'],
  ER_LOCK_WAIT_TIMEOUT: ['failed', true, 'lock wait timeout'],
  ER_CON_COUNT_ERROR: ['unreachable', true, 'the server has too many connections'],
  ECONNREFUSED: ['unreachable', true, 'connection refused: is the server running and the port right?'],
  ENOTFOUND: ['unreachable', true, 'host not found'],
  EAI_AGAIN: ['unreachable', true, 'host name lookup failed'],
  EHOSTUNREACH: ['unreachable', true, 'host unreachable'],
  ENETUNREACH: ['unreachable', true, 'network unreachable'],
  ECONNRESET: ['unreachable', true, 'connection reset'],
  EPIPE: ['unreachable', true, 'connection closed'],
  PROTOCOL_CONNECTION_LOST: ['unreachable', true, 'connection lost'],
  ETIMEDOUT: ['timeout', true, 'connection timed out'],
  PROTOCOL_SEQUENCE_TIMEOUT: ['timeout', true, 'the server did not answer in time'],
};

function scrub(text: string, secret: string | undefined): string {
  return secret ? text.replaceAll(secret, '***') : text;
}

/** A driver error as a ConnectorError; `password` is removed from any text that could echo it. */
export function classify(error: unknown, password?: string): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const e = (error ?? {}) as { code?: string; errno?: number; message?: string; sqlState?: string; fatal?: boolean };
  const detail = scrub(e.message ?? String(error), password);
  // MariaDB's CONSTRAINT_FAILED (4025, e.g. a JSON column's json_valid) carries a MySQL name in mysql2.
  const code = e.errno === 4025 && e.sqlState === '23000' ? 'ER_CHECK_CONSTRAINT_VIOLATED' : e.code;
  const known = code ? BY_CODE[code] : undefined;
  if (known) return new ConnectorError(known[0], `${known[2]} (${detail})`, known[1], { cause: error });
  if (/timeout|timed out/i.test(e.message ?? ''))
    return new ConnectorError('timeout', `timed out (${detail})`, true, { cause: error });
  // A server error (it has an SQL state) repeats on retry; a network failure may not.
  return new ConnectorError('failed', detail, e.sqlState === undefined || e.fatal === true, { cause: error });
}

/** A MySQL identifier in backticks (a backtick inside is doubled). */
export function quoteIdent(name: string): string {
  if (name.length === 0 || name.includes('\0'))
    throw new ConnectorError('invalid_config', 'an identifier must be non-empty and free of NUL', false);
  return `\`${name.replaceAll('`', '``')}\``;
}

export function qualified(database: string, table: string): string {
  return `${quoteIdent(database)}.${quoteIdent(table)}`;
}

/** Session modes this connector relies on: strict writes (no silent truncation) and standard backslash escapes. */
export function sessionSqlMode(current: string): string {
  const modes = current.split(',').filter((m) => m !== '' && m !== 'NO_BACKSLASH_ESCAPES');
  if (!modes.includes('STRICT_ALL_TABLES')) modes.push('STRICT_ALL_TABLES');
  return modes.join(',');
}

/** A lazily created pool; each connection is set up once (UTC, sql_mode) before its first use. */
export class MysqlClient {
  private pool: Promise<Pool> | undefined;
  private readonly prepared = new WeakSet<PoolConnection>();
  private readonly egress: EgressPolicy;

  constructor(
    readonly config: MysqlConfig,
    context: Pick<ConnectorContext, 'egress'> | undefined,
  ) {
    this.egress = egressOf(context);
  }

  /** Options of a single connection (the binlog reader's), checked by the egress policy like the pool's. */
  async connectionOptions(): Promise<PoolOptions> {
    return connectionOptions(this.config, this.egress);
  }

  classify(error: unknown): ConnectorError {
    return classify(error, this.config.password);
  }

  async connection(): Promise<PoolConnection> {
    let conn: PoolConnection;
    try {
      // One resolution per pool: its connections all go to the address checked then.
      this.pool ??= this.connectionOptions().then((options) => mysql.createPool(options));
      const pool = await this.pool.catch((error: unknown) => {
        this.pool = undefined;
        throw error;
      });
      conn = await new Promise<PoolConnection>((resolve, reject) =>
        pool.getConnection((error, c) => (error ? reject(error) : resolve(c))),
      );
    } catch (error) {
      throw this.classify(error);
    }
    if (this.prepared.has(conn)) return conn;
    try {
      const p = conn.promise();
      const [rows] = await p.query<mysql.RowDataPacket[]>('select @@session.sql_mode as mode');
      // TIMESTAMP columns are read and written in UTC whatever the server's zone.
      await p.query("set time_zone = '+00:00', sql_mode = ?", [sessionSqlMode(String(rows[0]?.['mode'] ?? ''))]);
      this.prepared.add(conn);
      return conn;
    } catch (error) {
      conn.destroy();
      throw this.classify(error);
    }
  }

  async close(): Promise<void> {
    const pending = this.pool;
    this.pool = undefined;
    const pool = await pending?.catch(() => undefined);
    if (pool) await new Promise<void>((resolve) => pool.end(() => resolve()));
  }
}
