/**
 * The real servers the integration tests use. Defaults match the CI machine (see .ci/run);
 * override with SVC_TEST_DATABASE_URL (an admin connection that may create databases) and SVC_TEST_REDIS_URL.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { warehouseRolePrefix } from '../../src/areas/connectivity/warehouse.js';

export const TEST_DATABASE_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env['SVC_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A fresh database for one test file, dropped afterwards, so runs never see each other's rows. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = uniqueName('svc_test');
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return {
    name,
    url: withDatabase(TEST_DATABASE_URL, name),
    async drop() {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
        await client.query(`drop database if exists ${name}_warehouse with (force)`);
        await dropWarehouseRoles(client, `${name}_warehouse`);
      } finally {
        await client.end();
      }
    },
  };
}

/** The projects' warehouse roles of a warehouse database (roles are global to the server; the database is gone). */
export async function dropWarehouseRoles(client: pg.Client, warehouseDatabase: string): Promise<void> {
  const { rows } = await client.query<{ rolname: string }>(
    'select rolname from pg_roles where starts_with(rolname, $1)',
    [warehouseRolePrefix(warehouseDatabase)],
  );
  for (const { rolname } of rows) await client.query(`drop role if exists "${rolname}"`);
}
