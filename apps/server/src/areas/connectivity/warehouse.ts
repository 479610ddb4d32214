/**
 * The built-in warehouse lives in its own database on the framework PostgreSQL server (the embedded
 * one by default), created at startup when missing. It is multi-tenant: every project gets its own
 * PostgreSQL login role (no superuser, no CREATEDB/CREATEROLE/REPLICATION/BYPASSRLS, not a member of
 * any role, CONNECT and TEMP on the warehouse database only) and its own schemas, which that role
 * owns and no other role may use. Every warehouse connection of a project (reads, writes, previews,
 * CDC applied into it) logs in as that role, so the boundary is PostgreSQL's own privilege system,
 * not a check in our code that a query could step around (SET ROLE or set_config would undo a role
 * switched to on the service's own connection; a role logged in as has nothing to switch back to).
 *
 * The service's login creates the roles, so it needs CREATEROLE (or superuser); without it the
 * warehouse is unavailable and says why, and everything else works.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import type { PostgresConfig } from '@svc/engine';
import { parse } from 'pg-connection-string';
import pg from 'pg';
import type { Logger } from 'pino';

export type WarehouseConnection = Omit<PostgresConfig, 'schema'>;

/** Where a project's warehouse connector connects, and as whom. */
export interface ProjectWarehouse {
  /** The project's own login role. */
  connection: WarehouseConnection;
  /** The schema the connector works in (owned by the project's role). */
  schema: string;
  /** Change capture needs REPLICATION, which no project role has: the service's login reads the WAL, confined to `schema`. */
  captureConnection: WarehouseConnection;
}

export interface Warehouse {
  /** Makes sure the project's role and the schema exist, and returns how to connect as that role. */
  forProject(projectId: string, name: string): Promise<ProjectWarehouse>;
  /** Drops a deleted project's role and everything it owns in the warehouse. */
  dropProject(projectId: string): Promise<void>;
  /**
   * Masked views of every relation in the project's schemas, made for one read of a principal
   * without the masking exemption, and how to connect to them as the project's masked reader role
   * (which may read these views and nothing else). `release` drops them.
   */
  maskedReads(projectId: string, view: MaskedViewPlan): Promise<MaskedReads>;
}

/** What a masked view of a relation selects, column by column (governance/masking/warehouse-views.ts). */
export interface MaskedViewPlan {
  /** The project's hash key, when a policy that applies uses `hash` (the views read it from a table only the service's login may read). */
  hashKey?: Buffer;
  /**
   * The select list of the masked view of the relation `name` with these columns (`format_type`
   * names); policies by tag match the catalog's tags of the project's datasets of that name.
   */
  selectList(
    name: string,
    columns: { name: string; type: string }[],
    keyTable: { ipad: string; opad: string },
  ): string[];
}

export interface MaskedReads {
  /** The masked reader role's connection and the masked schema standing for the project's schema `name`. */
  tenant(name: string): ProjectWarehouse;
  /** The PostgreSQL schema of masked views standing for the project's schema `name`. */
  schemaOf(name: string): string;
  /** Drops the views (always call it, also after a failure). */
  release(): Promise<void>;
}

/** Where the service keeps each project's hash key for the masked views: readable by the service's login alone. */
export const MASKING_KEY_SCHEMA = 'svc_masking';
/** Masked schemas left by a process that stopped mid-read are dropped by the next read of the project after this long. */
const MASKED_SCHEMA_MAX_AGE_MS = 24 * 3600_000;

/** What a project's schema is called when the connector names none. */
export const DEFAULT_SCHEMA = 'main';

function partsOf(connection: pg.PoolConfig): WarehouseConnection {
  if (connection.connectionString) {
    const parsed = parse(connection.connectionString);
    return {
      host: parsed.host ?? '127.0.0.1',
      port: parsed.port ? Number(parsed.port) : 5432,
      database: parsed.database ?? 'postgres',
      user: parsed.user ?? 'postgres',
      password: parsed.password,
      ssl: Boolean(parsed.ssl),
    };
  }
  return {
    host: connection.host ?? '127.0.0.1',
    port: connection.port ?? 5432,
    database: connection.database ?? 'postgres',
    user: connection.user ?? 'postgres',
    password: typeof connection.password === 'string' ? connection.password : undefined,
  };
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;
const projectKey = (projectId: string) => projectId.replaceAll('-', '').slice(0, 16).toLowerCase();

/** The PostgreSQL schema that a project's warehouse schema `name` is: the project's prefix, then the name. */
export function projectSchemaName(projectId: string, name: string): string {
  return `p${projectKey(projectId)}_${name}`;
}

/**
 * The SCRAM-SHA-256 verifier of a password (RFC 7677, PostgreSQL's stored form): what we send in
 * CREATE/ALTER ROLE, so that the password itself never appears in a statement the server may log.
 */
export function scramVerifier(password: string, salt: Buffer = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(password.normalize('NFKC'), salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}

/**
 * Role names are global to a PostgreSQL server, which several instances (or test runs) may share:
 * each instance's roles carry a short hash of its warehouse database's name.
 */
export function warehouseRolePrefix(database: string): string {
  return `svc_${createHash('sha256').update(database).digest('hex').slice(0, 8)}_`;
}

export interface WarehouseOptions {
  /** SVC_WAREHOUSE_DATABASE, or undefined for the framework database's name + "_warehouse". */
  database: string | undefined;
  /** Longest a statement of a project's role may run. */
  statementTimeoutMs: number;
  /** Connections one project's role may hold at once. */
  connectionsPerProject: number;
  /** Key the roles' passwords are derived from (never stored, never shown). */
  passwordKey: Buffer;
  /** The embedded default: the whole cluster is ours, so PUBLIC loses CONNECT on every other database too. */
  embedded: boolean;
}

/**
 * Creates the warehouse database when missing and locks it down (PUBLIC may neither connect nor use
 * its public schema). Undefined, with a warning that says why, when the server refuses or the
 * service's login cannot create roles.
 */
/** The advisory lock (in the framework database) under which a process sets the warehouse database up. */
const WAREHOUSE_SETUP_LOCK = 0x5_7c_d1_10;

export async function ensureWarehouse(
  framework: pg.PoolConfig,
  options: WarehouseOptions,
  logger: Logger,
): Promise<Warehouse | undefined> {
  const base = partsOf(framework);
  const database = options.database ?? `${base.database}_warehouse`;
  const unavailable = (reason: string) => {
    logger.warn({ database, reason }, `the built-in warehouse is unavailable: ${reason}`);
    return undefined;
  };
  const client = new pg.Client(framework);
  let superuser: boolean;
  try {
    await client.connect();
    const { rows } = await client.query<{ rolsuper: boolean; rolcreaterole: boolean; framework: string }>(
      'select rolsuper, rolcreaterole, current_database() as framework from pg_roles where rolname = current_user',
    );
    const login = rows[0];
    if (!login?.rolsuper && !login?.rolcreaterole) {
      return unavailable(
        `the service's database login "${base.user}" may not create roles (CREATEROLE), so the warehouse cannot give each project a role of its own; ` +
          'grant it CREATEROLE (and CREATEDB, or create the warehouse database for it), see docs/connectors.md',
      );
    }
    superuser = login.rolsuper;
    // Processes starting together take turns: two CREATE DATABASE at once can fail on the template's
    // other user, and two GRANT/REVOKE on one database at once with "tuple concurrently updated".
    // Held until this client ends.
    await client.query('select pg_advisory_lock($1)', [WAREHOUSE_SETUP_LOCK]);
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (!rowCount) {
      await client.query(`create database ${quote(database)}`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // created meanwhile by another process
      });
      logger.info({ database }, 'created the built-in warehouse database');
    }
    // Nobody connects to the warehouse or the framework database unless granted; on the embedded
    // default, to no database at all (the project roles are granted the warehouse alone).
    const lockedDown = options.embedded
      ? (
          await client.query<{ datname: string }>(
            'select datname from pg_database where datallowconn and datname <> $1',
            [database],
          )
        ).rows.map((r) => r.datname)
      : [login.framework];
    for (const name of [database, ...lockedDown])
      await client.query(`revoke connect, temporary on database ${quote(name)} from public`);
  } catch (error) {
    return unavailable((error as Error).message);
  } finally {
    await client.end().catch(() => undefined);
  }

  const connection: WarehouseConnection = { ...base, database };
  const prefix = warehouseRolePrefix(database);
  const roleOf = (projectId: string) => `${prefix}${projectKey(projectId)}`;
  const passwordOf = (role: string) =>
    createHmac('sha256', options.passwordKey).update(`warehouse-role:${role}`).digest('base64url');

  // Once per process and project (role) or schema: the statements are idempotent, so another
  // process doing the same at the same time is harmless (an advisory lock orders the two).
  const ready = new Map<string, Promise<void>>();
  const once = (key: string, work: () => Promise<void>) => {
    let pending = ready.get(key);
    if (!pending) {
      pending = work().catch((error: unknown) => {
        ready.delete(key);
        throw error;
      });
      ready.set(key, pending);
    }
    return pending;
  };
  // The service's own login, in the warehouse database.
  // `lock`: under the lock that orders role and schema changes (a masked read's own views need none).
  const asService = async (work: (c: pg.Client) => Promise<void>, lock = true) => {
    const c = new pg.Client({ ...connection, ssl: connection.ssl ? { rejectUnauthorized: true } : false });
    await c.connect();
    try {
      await c.query('begin');
      if (lock) await c.query(`select pg_advisory_xact_lock(hashtext('svc warehouse roles'))`);
      await work(c);
      await c.query('commit');
    } catch (error) {
      await c.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      await c.end().catch(() => undefined);
    }
  };

  const ensureRole = (projectId: string) =>
    once(`role:${projectId}`, () =>
      asService(async (c) => {
        const role = roleOf(projectId);
        const attributes = `login nosuperuser nocreatedb nocreaterole noreplication nobypassrls noinherit connection limit ${options.connectionsPerProject} password ${literal(scramVerifier(passwordOf(role)))}`;
        const comment = `svc warehouse role of project ${projectId} in database ${database}`;
        const existing = await c.query<{ description: string | null }>(
          `select shobj_description(oid, 'pg_authid') as description from pg_roles where rolname = $1`,
          [role],
        );
        const exists = existing.rowCount === 1;
        // Role names hold 64 bits of the project id: never take over a role that is not this project's.
        if (exists && existing.rows[0]!.description !== comment)
          throw new Error(`the PostgreSQL role ${role} exists and is not this project's warehouse role`);
        await c.query(`${exists ? 'alter' : 'create'} role ${quote(role)} ${exists ? 'with' : ''} ${attributes}`);
        await c.query(`comment on role ${quote(role)} is ${literal(comment)}`);
        // Whatever someone granted it since, it is a member of no role.
        const memberships = await c.query<{ name: string }>(
          'select r.rolname as name from pg_auth_members m join pg_roles r on r.oid = m.roleid join pg_roles u on u.oid = m.member where u.rolname = $1',
          [role],
        );
        for (const { name } of memberships.rows) await c.query(`revoke ${quote(name)} from ${quote(role)}`);
        await c.query(`grant connect, temporary on database ${quote(database)} to ${quote(role)}`);
        await c.query(
          `alter role ${quote(role)} in database ${quote(database)} set statement_timeout = ${Math.floor(options.statementTimeoutMs)}`,
        );
        await c.query(
          `alter role ${quote(role)} in database ${quote(database)} set idle_in_transaction_session_timeout = 600000`,
        );
        await c.query(
          `alter role ${quote(role)} in database ${quote(database)} set search_path = ${quote(projectSchemaName(projectId, DEFAULT_SCHEMA))}`,
        );
        // A login that is not a superuser creates the schemas on the role's behalf as a member of it.
        if (!superuser) await c.query(`grant ${quote(role)} to current_user`);
        await c.query(`revoke all on schema public from public`);
      }),
    );

  /**
   * The project's masked reader: a second login role that may read the masked views made for a read
   * (granted per view) and nothing else: member of no role, no privilege on the project's schemas.
   */
  const maskedReaderOf = (projectId: string) => `${roleOf(projectId)}_m`;
  const ensureMaskedReader = async (projectId: string) => {
    const reader = maskedReaderOf(projectId);
    await once(`reader:${projectId}`, () =>
      asService(async (c) => {
        const attributes = `login nosuperuser nocreatedb nocreaterole noreplication nobypassrls noinherit connection limit ${options.connectionsPerProject} password ${literal(scramVerifier(passwordOf(reader)))}`;
        const comment = `svc masked reader of project ${projectId} in database ${database}`;
        const existing = await c.query<{ description: string | null }>(
          `select shobj_description(oid, 'pg_authid') as description from pg_roles where rolname = $1`,
          [reader],
        );
        const exists = existing.rowCount === 1;
        if (exists && existing.rows[0]!.description !== comment)
          throw new Error(`the PostgreSQL role ${reader} exists and is not this project's masked reader`);
        await c.query(`${exists ? 'alter' : 'create'} role ${quote(reader)} ${exists ? 'with' : ''} ${attributes}`);
        await c.query(`comment on role ${quote(reader)} is ${literal(comment)}`);
        const memberships = await c.query<{ name: string }>(
          'select r.rolname as name from pg_auth_members m join pg_roles r on r.oid = m.roleid join pg_roles u on u.oid = m.member where u.rolname = $1',
          [reader],
        );
        for (const { name } of memberships.rows) await c.query(`revoke ${quote(name)} from ${quote(reader)}`);
        await c.query(`grant connect on database ${quote(database)} to ${quote(reader)}`);
        await c.query(`revoke temporary on database ${quote(database)} from ${quote(reader)}`);
        await c.query(
          `alter role ${quote(reader)} in database ${quote(database)} set statement_timeout = ${Math.floor(options.statementTimeoutMs)}`,
        );
        await c.query(
          `alter role ${quote(reader)} in database ${quote(database)} set idle_in_transaction_session_timeout = 600000`,
        );
      }),
    );
    return reader;
  };

  /** The table of hash keys the masked views read: the service's login alone may use its schema. */
  const ensureKeyTable = () =>
    once('masking-keys', () =>
      asService(async (c) => {
        const { rowCount } = await c.query('select 1 from pg_namespace where nspname = $1', [MASKING_KEY_SCHEMA]);
        if (!rowCount) await c.query(`create schema ${quote(MASKING_KEY_SCHEMA)}`);
        await c.query(`revoke all on schema ${quote(MASKING_KEY_SCHEMA)} from public`);
        await c.query(
          `create table if not exists ${quote(MASKING_KEY_SCHEMA)}.hash_keys (project text primary key, ipad bytea not null, opad bytea not null)`,
        );
        await c.query(`revoke all on ${quote(MASKING_KEY_SCHEMA)}.hash_keys from public`);
      }),
    );

  const ensureSchema = (projectId: string, schema: string) =>
    once(`schema:${schema}`, () =>
      asService(async (c) => {
        const role = roleOf(projectId);
        await c.query(`create schema if not exists ${quote(schema)} authorization ${quote(role)}`);
        // Owned by the project's role alone, whoever created it first.
        await c.query(`alter schema ${quote(schema)} owner to ${quote(role)}`);
        await c.query(`revoke all on schema ${quote(schema)} from public`);
      }),
    );
  return {
    async forProject(projectId, name) {
      const schema = projectSchemaName(projectId, name);
      await ensureRole(projectId);
      await ensureSchema(projectId, schema);
      const role = roleOf(projectId);
      return {
        connection: { ...connection, user: role, password: passwordOf(role) },
        schema,
        captureConnection: connection,
      };
    },
    async maskedReads(projectId, plan) {
      await ensureRole(projectId);
      const reader = await ensureMaskedReader(projectId);
      const token = randomBytes(4).toString('hex');
      const maskedPrefix = `m${projectKey(projectId)}_${token}_`;
      const baseOf = projectSchemaName(projectId, '');
      const made: string[] = [];
      if (plan.hashKey) await ensureKeyTable();
      await asService(async (c) => {
        // Left by a process that stopped mid-read.
        const stale = await c.query<{ nspname: string }>(
          `select nspname from pg_namespace where starts_with(nspname, $1) and coalesce(obj_description(oid, 'pg_namespace'), '') ~ '^svc masked views [0-9]+$'
             and split_part(obj_description(oid, 'pg_namespace'), ' ', 4)::bigint < $2`,
          [`m${projectKey(projectId)}_`, Date.now() - MASKED_SCHEMA_MAX_AGE_MS],
        );
        for (const { nspname } of stale.rows) await c.query(`drop schema if exists ${quote(nspname)} cascade`);
        const keyTable = { ipad: '', opad: '' };
        if (plan.hashKey) {
          const padded = Buffer.concat([plan.hashKey, Buffer.alloc(Math.max(0, 64 - plan.hashKey.length))]);
          const ipad = Buffer.from(padded.map((b) => b ^ 0x36));
          const opad = Buffer.from(padded.map((b) => b ^ 0x5c));
          await c.query(
            `insert into ${quote(MASKING_KEY_SCHEMA)}.hash_keys (project, ipad, opad) values ($1, $2, $3)
               on conflict (project) do update set ipad = excluded.ipad, opad = excluded.opad`,
            [projectId, ipad, opad],
          );
          const keyOf = (column: string) =>
            `(select ${column} from ${quote(MASKING_KEY_SCHEMA)}.hash_keys where project = ${literal(projectId)})`;
          keyTable.ipad = keyOf('ipad');
          keyTable.opad = keyOf('opad');
        }
        const { rows } = await c.query<{ schema: string; name: string; column: string; type: string }>(
          `select n.nspname as schema, c.relname as name, a.attname as column, format_type(a.atttypid, a.atttypmod) as type
             from pg_namespace n join pg_class c on c.relnamespace = n.oid
             join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
            where n.nspowner = (select oid from pg_roles where rolname = $1) and starts_with(n.nspname, $2)
              and c.relkind in ('r', 'v', 'm', 'p', 'f')
            order by n.nspname, c.relname, a.attnum`,
          [roleOf(projectId), baseOf],
        );
        const relations = new Map<
          string,
          { schema: string; name: string; columns: { name: string; type: string }[] }
        >();
        for (const row of rows) {
          const key = `${row.schema}\u0000${row.name}`;
          let relation = relations.get(key);
          if (!relation) relations.set(key, (relation = { schema: row.schema, name: row.name, columns: [] }));
          relation.columns.push({ name: row.column, type: row.type });
        }
        const schemas = (
          await c.query<{ nspname: string }>(
            'select nspname from pg_namespace where nspowner = (select oid from pg_roles where rolname = $1) and starts_with(nspname, $2)',
            [roleOf(projectId), baseOf],
          )
        ).rows.map((r) => r.nspname);
        for (const schema of schemas) {
          const masked = maskedPrefix + schema.slice(baseOf.length);
          await c.query(`create schema ${quote(masked)}`);
          await c.query(`comment on schema ${quote(masked)} is ${literal(`svc masked views ${Date.now()}`)}`);
          await c.query(`revoke all on schema ${quote(masked)} from public`);
          await c.query(`grant usage on schema ${quote(masked)} to ${quote(reader)}`);
          made.push(masked);
        }
        for (const relation of relations.values()) {
          const masked = maskedPrefix + relation.schema.slice(baseOf.length);
          const list = plan.selectList(relation.name, relation.columns, keyTable);
          await c.query(
            `create view ${quote(masked)}.${quote(relation.name)} with (security_barrier) as select ${list.join(', ')} from ${quote(relation.schema)}.${quote(relation.name)}`,
          );
          await c.query(`grant select on ${quote(masked)}.${quote(relation.name)} to ${quote(reader)}`);
        }
      }, false);
      const schemaOf = (name: string) => maskedPrefix + name;
      return {
        schemaOf,
        tenant: (name) => ({
          connection: { ...connection, user: reader, password: passwordOf(reader) },
          schema: schemaOf(name),
          captureConnection: connection,
        }),
        async release() {
          if (!made.length) return;
          await asService(async (c) => {
            for (const schema of made) await c.query(`drop schema if exists ${quote(schema)} cascade`);
          }, false);
        },
      };
    },
    async dropProject(projectId) {
      const role = roleOf(projectId);
      await asService(async (c) => {
        const keys = await c.query<{ present: boolean }>('select to_regclass($1) is not null as present', [
          `${MASKING_KEY_SCHEMA}.hash_keys`,
        ]);
        if (keys.rows[0]?.present)
          await c.query(`delete from ${quote(MASKING_KEY_SCHEMA)}.hash_keys where project = $1`, [projectId]);
        const masked = await c.query<{ nspname: string }>(
          'select nspname from pg_namespace where starts_with(nspname, $1)',
          [`m${projectKey(projectId)}_`],
        );
        for (const { nspname } of masked.rows) await c.query(`drop schema ${quote(nspname)} cascade`);
        const reader = maskedReaderOf(projectId);
        if ((await c.query('select 1 from pg_roles where rolname = $1', [reader])).rowCount) {
          await c.query(`drop owned by ${quote(reader)}`);
          await c.query(`drop role ${quote(reader)}`);
        }
        if (!(await c.query('select 1 from pg_roles where rolname = $1', [role])).rowCount) return;
        // Its schemas (and their tables), then whatever else it owns or was granted, then the role.
        const schemas = await c.query<{ nspname: string }>(
          'select nspname from pg_namespace where nspowner = (select oid from pg_roles where rolname = $1)',
          [role],
        );
        for (const { nspname } of schemas.rows) await c.query(`drop schema ${quote(nspname)} cascade`);
        await c.query(`drop owned by ${quote(role)}`);
        await c.query(`drop role ${quote(role)}`);
      });
      for (const key of [...ready.keys()])
        if (
          key === `role:${projectId}` ||
          key === `reader:${projectId}` ||
          key.startsWith(`schema:${projectSchemaName(projectId, '')}`)
        )
          ready.delete(key);
    },
  };
}
