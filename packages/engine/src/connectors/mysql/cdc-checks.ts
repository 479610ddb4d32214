/**
 * What change capture needs from a MySQL/MariaDB server, checked up front so that a user gets a
 * message to act on instead of a stream that fails later: a row-based binlog with whole row images,
 * the replication privileges, and a captured table with a primary key.
 */
import type { PoolConnection, RowDataPacket } from 'mysql2';
import type { ColumnSchema } from '../../types.js';
import { ConnectorError } from '../../types.js';
import { qualified } from './client.js';
import { describeTable } from './discover.js';
import type { BinlogPosition } from './cdc-position.js';

export interface BinlogSettings {
  logBin: boolean;
  format: string;
  rowImage: string;
}

/** What is wrong with the server's binlog settings for change capture, or undefined when nothing is. */
export function binlogSettingsProblem(settings: BinlogSettings): string | undefined {
  if (!settings.logBin) {
    return 'binary logging is off on the server: change capture reads the binlog; start the server with log_bin enabled (with binlog_format=ROW and binlog_row_image=FULL)';
  }
  if (settings.format.toUpperCase() !== 'ROW') {
    return `the server's binlog_format is ${settings.format}: change capture needs row events; set binlog_format=ROW (SET GLOBAL binlog_format='ROW' and in the server configuration)`;
  }
  if (settings.rowImage.toUpperCase() !== 'FULL') {
    return `the server's binlog_row_image is ${settings.rowImage}: change capture needs whole rows before and after each change; set binlog_row_image=FULL (SET GLOBAL binlog_row_image='FULL' and in the server configuration)`;
  }
  return undefined;
}

async function checkBinlogSettings(conn: PoolConnection): Promise<void> {
  const [rows] = await conn
    .promise()
    .query<RowDataPacket[]>(
      'select @@global.log_bin as log_bin, @@global.binlog_format as format, @@global.binlog_row_image as row_image',
    );
  const row = rows[0];
  const problem = binlogSettingsProblem({
    logBin: Number(row?.['log_bin']) === 1,
    format: String(row?.['format']),
    rowImage: String(row?.['row_image']),
  });
  if (problem) throw new ConnectorError('unsupported', problem, false);
}

const GLOBAL_GRANT = /^GRANT (.+?) ON \*\.\* TO /i;
/** `GRANT role TO user`: a role whose privileges SHOW GRANTS may not list (MySQL never does). */
const ROLE_GRANT = /^GRANT (?:(?! ON ).)+ TO /i;

function deniedAccess(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return (
    code === 'ER_SPECIFIC_ACCESS_DENIED_ERROR' ||
    code === 'ER_TABLEACCESS_DENIED_ERROR' ||
    code === 'ER_DBACCESS_DENIED_ERROR'
  );
}

async function deniedBy(run: () => Promise<unknown>): Promise<boolean> {
  try {
    await run();
    return false;
  } catch (error) {
    if (deniedAccess(error)) return true;
    throw error;
  }
}

/**
 * The privileges capture needs that the user lacks. REPLICATION CLIENT and SELECT are tried; REPLICATION
 * SLAVE cannot be tried without opening a binlog stream, so it is read from SHOW GRANTS and only
 * reported missing when no role could be giving it.
 */
async function missingPrivileges(conn: PoolConnection, database: string, table: string): Promise<string[]> {
  const p = conn.promise();
  const missing: string[] = [];
  const [grantRows] = await p.query<RowDataPacket[]>({ sql: 'show grants', rowsAsArray: true });
  const grants = (grantRows as unknown as unknown[][]).map((row) => String(row[0]));
  const globalPrivileges = new Set(
    grants.flatMap(
      (grant) =>
        GLOBAL_GRANT.exec(grant)?.[1]
          ?.split(/,\s*/)
          .map((name) => name.trim().toUpperCase()) ?? [],
    ),
  );
  const hasRoles = grants.some((grant) => ROLE_GRANT.test(grant));
  if (!globalPrivileges.has('ALL PRIVILEGES') && !globalPrivileges.has('REPLICATION SLAVE') && !hasRoles)
    missing.push('REPLICATION SLAVE');
  if (await deniedBy(() => p.query('show binary logs'))) missing.push('REPLICATION CLIENT');
  if (await deniedBy(() => p.query(`select 1 from ${qualified(database, table)} limit 0`)))
    missing.push(`SELECT on "${database}"."${table}"`);
  return missing;
}

/** Checks the server's binlog settings and the user's privileges; throws a ConnectorError naming what to change. */
export async function checkCaptureSupport(conn: PoolConnection, database: string, table: string): Promise<void> {
  await checkBinlogSettings(conn);
  const missing = await missingPrivileges(conn, database, table);
  if (missing.length > 0) {
    throw new ConnectorError(
      'missing_privilege',
      `the user lacks ${missing.join(', ')}: change capture needs REPLICATION SLAVE and REPLICATION CLIENT on *.* and SELECT on the table (GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO ...; GRANT SELECT ON \`${database}\`.\`${table}\` TO ...)`,
      false,
    );
  }
}

export interface KeyedTable {
  columns: ColumnSchema[];
  primaryKey: string[];
}

/** The table's canonical columns and primary key; refuses a missing table and one without a primary key. */
export async function describeKeyedTable(conn: PoolConnection, database: string, table: string): Promise<KeyedTable> {
  const schema = await describeTable(conn, database, table);
  if (!schema) throw new ConnectorError('not_found', `table "${database}"."${table}" does not exist`, false);
  if (schema.primaryKey.length === 0) {
    throw new ConnectorError(
      'unsupported',
      `table "${database}"."${table}" has no primary key: change capture needs one to apply updates and deletes; add a primary key`,
      false,
    );
  }
  return { columns: schema.columns, primaryKey: schema.primaryKey };
}

/** The server's current binlog write position (SHOW MASTER STATUS; SHOW BINARY LOG STATUS on MySQL 8.4+). */
export async function currentBinlogPosition(conn: PoolConnection): Promise<BinlogPosition> {
  const p = conn.promise();
  let rows: RowDataPacket[];
  try {
    [rows] = await p.query<RowDataPacket[]>('show master status');
  } catch (error) {
    if ((error as { code?: string }).code !== 'ER_PARSE_ERROR') throw error;
    [rows] = await p.query<RowDataPacket[]>('show binary log status');
  }
  const row = rows[0];
  if (!row)
    throw new ConnectorError(
      'unsupported',
      'binary logging is off on the server: change capture reads the binlog; start the server with log_bin enabled',
      false,
    );
  return { file: String(row['File']), offset: Number(row['Position']) };
}

/** The server's binlog files, oldest first, with their sizes. */
export async function binaryLogs(conn: PoolConnection): Promise<{ file: string; size: number }[]> {
  const [rows] = await conn.promise().query<RowDataPacket[]>('show binary logs');
  return rows.map((row) => ({ file: String(row['Log_name']), size: Number(row['File_size']) }));
}
