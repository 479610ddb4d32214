/**
 * The built-in warehouse lives in its own database on the framework PostgreSQL server (the embedded
 * one by default), created at startup when missing. If the server refuses (no CREATEDB privilege),
 * the warehouse kind is unavailable and says so, and everything else works.
 */
import type { PostgresConfig } from '@svc/engine';
import { parse } from 'pg-connection-string';
import pg from 'pg';
import type { Logger } from 'pino';

export type WarehouseConnection = Omit<PostgresConfig, 'schema'>;

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

export async function ensureWarehouse(framework: pg.PoolConfig, configuredName: string | undefined, logger: Logger): Promise<WarehouseConnection | undefined> {
  const base = partsOf(framework);
  const database = configuredName ?? `${base.database}_warehouse`;
  const client = new pg.Client(framework);
  try {
    await client.connect();
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (!rowCount) {
      await client.query(`create database "${database.replaceAll('"', '""')}"`).catch((error: { code?: string }) => {
        if (error.code !== '42P04') throw error; // created meanwhile by another process
      });
      logger.info({ database }, 'created the built-in warehouse database');
    }
    return { ...base, database };
  } catch (error) {
    logger.warn({ err: { message: (error as Error).message }, database }, 'the built-in warehouse is unavailable');
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}
