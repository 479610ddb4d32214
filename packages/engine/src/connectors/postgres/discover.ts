/** Tables and views of one schema with columns, primary keys and the planner's row estimates. */
import type pg from 'pg';
import type { DatasetSchema } from '../../types.js';
import { canonicalOfUdt } from './type-mapping.js';

export async function discoverSchema(client: pg.Client, schema: string): Promise<DatasetSchema[]> {
  const columns = await client.query<{
    table_name: string;
    column_name: string;
    udt_name: string;
    data_type: string;
    is_nullable: string;
    numeric_precision: number | null;
    numeric_scale: number | null;
  }>(
    `select c.table_name, c.column_name, c.udt_name, c.data_type, c.is_nullable, c.numeric_precision, c.numeric_scale
       from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = $1 and t.table_type in ('BASE TABLE', 'VIEW') and c.table_name not like '\\_svc\\_%'
      order by c.table_name, c.ordinal_position`,
    [schema],
  );
  const keys = await client.query<{ table_name: string; column_name: string }>(
    `select tc.table_name, kcu.column_name
       from information_schema.table_constraints tc
       join information_schema.key_column_usage kcu
         on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema and kcu.table_name = tc.table_name
      where tc.constraint_type = 'PRIMARY KEY' and tc.table_schema = $1
      order by tc.table_name, kcu.ordinal_position`,
    [schema],
  );
  const estimates = await client.query<{ relname: string; reltuples: number }>(
    `select c.relname, c.reltuples from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind in ('r', 'p')`,
    [schema],
  );
  const tables = new Map<string, DatasetSchema>();
  for (const row of columns.rows) {
    let table = tables.get(row.table_name);
    if (!table) {
      const estimate = estimates.rows.find((e) => e.relname === row.table_name)?.reltuples;
      table = {
        namespace: schema,
        name: row.table_name,
        columns: [],
        primaryKey: [],
        rowEstimate: estimate !== undefined && estimate >= 0 ? Math.round(estimate) : null,
      };
      tables.set(row.table_name, table);
    }
    const type = canonicalOfUdt(row.udt_name);
    table.columns.push({
      name: row.column_name,
      type,
      sourceType: row.data_type === 'USER-DEFINED' || row.data_type === 'ARRAY' ? row.udt_name : row.data_type,
      nullable: row.is_nullable === 'YES',
      ...(type === 'decimal' && row.numeric_precision !== null
        ? { precision: row.numeric_precision, scale: row.numeric_scale ?? 0 }
        : {}),
    });
  }
  for (const key of keys.rows) tables.get(key.table_name)?.primaryKey.push(key.column_name);
  return [...tables.values()];
}
