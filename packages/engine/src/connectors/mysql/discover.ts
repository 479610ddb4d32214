/** Tables and views of one database with columns, primary keys and InnoDB's row estimates. */
import type { RowDataPacket } from 'mysql2';
import type { PoolConnection } from 'mysql2';
import type { ColumnSchema, DatasetSchema } from '../../types.js';
import { canonicalOf } from './type-mapping.js';

interface ColumnRow extends RowDataPacket {
  table_name: string;
  column_name: string;
  data_type: string;
  column_type: string;
  is_nullable: string;
  numeric_precision: string | null;
  numeric_scale: string | null;
  column_comment: string;
}

const JSON_CHECK = /^json_valid\(`((?:[^`]|``)+)`\)$/i;

/** MariaDB's JSON columns, by table: longtext columns with a json_valid check. MySQL has a real JSON type. */
async function mariadbJsonColumns(conn: PoolConnection, database: string, only?: string): Promise<Set<string>> {
  const p = conn.promise();
  const [version] = await p.query<RowDataPacket[]>('select version() as version');
  const found = new Set<string>();
  if (!/mariadb/i.test(String(version[0]?.['version'] ?? ''))) return found;
  const [checks] = await p.query<RowDataPacket[]>(
    `select table_name as table_name, check_clause as check_clause from information_schema.check_constraints
      where constraint_schema = ?${only !== undefined ? ' and table_name = ?' : ''}`,
    only !== undefined ? [database, only] : [database],
  );
  for (const check of checks) {
    const m = JSON_CHECK.exec(String(check['check_clause']));
    if (m?.[1]) found.add(`${String(check['table_name'])}\0${m[1].replaceAll('``', '`')}`);
  }
  return found;
}

/** Every table of `database`, or only the table named `only` (an empty list when it does not exist). */
export async function discoverTables(conn: PoolConnection, database: string, only?: string): Promise<DatasetSchema[]> {
  const p = conn.promise();
  const filter = only !== undefined ? ' and table_name = ?' : '';
  const params = only !== undefined ? [database, only] : [database];
  // Column aliases keep the keys lowercase on MySQL 8, which returns information_schema names in capitals.
  const [tableRows] = await p.query<RowDataPacket[]>(
    `select table_name as table_name, table_type as table_type, table_rows as table_rows from information_schema.tables
      where table_schema = ?${filter} and table_type in ('BASE TABLE', 'VIEW', 'SYSTEM VERSIONED') and table_name <> '_svc_runs'
      order by table_name`,
    params,
  );
  const [columnRows] = await p.query<ColumnRow[]>(
    `select table_name as table_name, column_name as column_name, data_type as data_type, column_type as column_type,
            is_nullable as is_nullable, numeric_precision as numeric_precision, numeric_scale as numeric_scale,
            column_comment as column_comment
       from information_schema.columns where table_schema = ?${filter}
      order by table_name, ordinal_position`,
    params,
  );
  const [keyRows] = await p.query<RowDataPacket[]>(
    `select table_name as table_name, column_name as column_name from information_schema.key_column_usage
      where table_schema = ?${filter} and constraint_name = 'PRIMARY'
      order by table_name, ordinal_position`,
    params,
  );
  const json = await mariadbJsonColumns(conn, database, only);

  // information_schema compares names case-insensitively; keep exact matches only.
  const tables = new Map<string, DatasetSchema>();
  for (const row of tableRows) {
    const name = String(row['table_name']);
    if (only !== undefined && name !== only) continue;
    const estimate = row['table_type'] === 'VIEW' || row['table_rows'] === null ? null : Number(row['table_rows']);
    tables.set(name, { namespace: database, name, columns: [], primaryKey: [], rowEstimate: estimate });
  }
  for (const row of columnRows) {
    const table = tables.get(row.table_name);
    if (!table) continue;
    const isJson = json.has(`${row.table_name}\0${row.column_name}`);
    const column: ColumnSchema = {
      name: row.column_name,
      ...canonicalOf({
        dataType: row.data_type,
        columnType: row.column_type,
        precision: row.numeric_precision === null ? null : Number(row.numeric_precision),
        scale: row.numeric_scale === null ? null : Number(row.numeric_scale),
        comment: row.column_comment ?? '',
        isJson,
      }),
      sourceType: isJson ? 'json' : row.column_type,
      nullable: row.is_nullable === 'YES',
    };
    table.columns.push(column);
  }
  for (const row of keyRows) tables.get(String(row['table_name']))?.primaryKey.push(String(row['column_name']));
  return [...tables.values()];
}

/** One table's schema, or undefined when it does not exist. */
export async function describeTable(
  conn: PoolConnection,
  database: string,
  table: string,
): Promise<DatasetSchema | undefined> {
  return (await discoverTables(conn, database, table))[0];
}
