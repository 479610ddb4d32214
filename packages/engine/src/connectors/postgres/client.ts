/** Connections to a PostgreSQL server, with errors mapped to connector error codes. */
import { isIP } from 'node:net';
import pg from 'pg';
import { Type } from 'typebox';
import {
  ConnectorError,
  Secret,
  type ConnectorConfig,
  type ConnectorErrorCode,
  type EgressPolicy,
} from '../../types.js';
import { typeParser } from './type-mapping.js';

/** What users set. */
export const postgresSpec = Type.Object(
  {
    host: Type.String({ minLength: 1, title: 'Host' }),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, default: 5432, title: 'Port' })),
    database: Type.String({ minLength: 1, title: 'Database' }),
    user: Type.String({ minLength: 1, title: 'User' }),
    password: Secret('Password'),
    ssl: Type.Optional(Type.Boolean({ default: false, title: 'Require TLS (server certificate verified)' })),
    schema: Type.Optional(Type.String({ minLength: 1, default: 'public', title: 'Schema' })),
  },
  { additionalProperties: false },
);

/** Set by hosts, never by users' configs (the spec refuses it). */
export interface PostgresHostConfig {
  /** The connection's search_path (unqualified names in users' SQL resolve there). */
  searchPath?: string;
}

export type PostgresConfig = ConnectorConfig<typeof postgresSpec, PostgresHostConfig>;

const types = {
  getTypeParser: ((oid: number, format?: string) => {
    if (format === 'binary') return pg.types.getTypeParser(oid, 'binary');
    return typeParser(oid) ?? ((value: string) => value);
  }) as typeof pg.types.getTypeParser,
};

export function clientConfig(config: PostgresConfig): pg.ClientConfig {
  return {
    host: config.host,
    port: config.port ?? 5432,
    database: config.database,
    user: config.user,
    password: config.password,
    ssl: config.ssl ? { rejectUnauthorized: true } : false,
    connectionTimeoutMillis: 10_000,
    // Timestamps with zone come back in UTC; the engine's representation of timestamptz.
    options: `-c TimeZone=UTC -c DateStyle=ISO${config.searchPath ? ` -c search_path=${quoteIdent(config.searchPath).replace(/[\\ ]/g, '\\$&')}` : ''}`,
    application_name: 'svc-connector',
    types,
  };
}

/**
 * The options of one connection. With an egress policy (a server the user named), the connection
 * goes to the address the policy checked, while TLS still verifies the certificate against the host
 * name. Without one (the host's own server, e.g. the built-in warehouse), to the host as configured.
 */
export async function connectionOptions(config: PostgresConfig, egress?: EgressPolicy): Promise<pg.ClientConfig> {
  const options = clientConfig(config);
  if (!egress) return options;
  const { address } = await egress.resolve(config.host, config.port ?? 5432);
  const ssl = config.ssl
    ? { rejectUnauthorized: true, ...(isIP(config.host) ? {} : { servername: config.host }) }
    : false;
  return { ...options, host: address, ssl };
}

export function classify(error: unknown): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const e = error as { code?: string; message?: string };
  const byCode: Record<string, [ConnectorErrorCode, boolean, string]> = {
    '28P01': ['auth_failed', false, 'authentication failed: check the user and password'],
    '28000': ['auth_failed', false, 'the server refused the connection for this user and host (pg_hba.conf)'],
    '3D000': ['not_found', false, 'the database does not exist'],
    '42501': ['missing_privilege', false, 'missing privilege'],
    '3F000': ['not_found', false, 'the schema does not exist'],
    '42P01': ['not_found', false, 'the table does not exist'],
    ECONNREFUSED: ['unreachable', true, 'connection refused: is the server running and the port right?'],
    ENOTFOUND: ['unreachable', true, 'host not found'],
    EHOSTUNREACH: ['unreachable', true, 'host unreachable'],
    ETIMEDOUT: ['timeout', true, 'connection timed out'],
  };
  // 28000 covers both a role that does not exist (trust authentication) and a pg_hba.conf refusal.
  if (e.code === '28000' && /role .* does not exist/.test(e.message ?? ''))
    return new ConnectorError('auth_failed', `the user does not exist (${e.message})`, false, { cause: error });
  const known = e.code ? byCode[e.code] : undefined;
  if (known) {
    const detail =
      known[0] === 'missing_privilege' || known[0] === 'not_found' ? `${known[2]} (${e.message ?? ''})` : known[2];
    return new ConnectorError(known[0], detail, known[1], { cause: error });
  }
  if (/timeout/i.test(e.message ?? ''))
    return new ConnectorError('timeout', 'connection timed out', true, { cause: error });
  // A statement the server refuses as written (syntax, an unknown column, bad data, a write in a
  // read-only transaction) fails the same way on every attempt.
  // A row COPY refused: the server's context names its line and column.
  const copyLine = /^COPY [^\n]*, line \d+[^\n]*/.exec((error as { where?: string }).where ?? '')?.[0];
  const message = `${e.message ?? 'PostgreSQL error'}${copyLine ? ` (${copyLine})` : ''}`;
  if (e.code && (e.code.startsWith('42') || e.code.startsWith('22') || e.code === '25006'))
    return new ConnectorError('failed', message, false, { cause: error });
  return new ConnectorError('failed', message, true, { cause: error });
}

export async function connect(config: PostgresConfig, egress?: EgressPolicy): Promise<pg.Client> {
  const client = new pg.Client(await connectionOptions(config, egress));
  client.on('error', () => undefined); // a dropped connection surfaces on the next query
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.end().catch(() => undefined);
    throw classify(error);
  }
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export function qualified(namespace: string | null, name: string): string {
  return namespace ? `${quoteIdent(namespace)}.${quoteIdent(name)}` : quoteIdent(name);
}

/**
 * Creates a schema that does not exist yet. `create schema if not exists` alone needs CREATE on the
 * database even when the schema is there, which a role confined to its own schemas does not have.
 */
export async function ensureSchema(client: pg.Client, schema: string): Promise<void> {
  const { rowCount } = await client.query('select 1 from pg_namespace where nspname = $1', [schema]);
  if (!rowCount) await client.query(`create schema if not exists ${quoteIdent(schema)}`);
}
