/** The framework database: one pg pool per process and a typed Kysely instance over it. */
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

/**
 * Runs `work` inside a savepoint of the caller's transaction: a failure (such as a unique violation
 * the caller expects) rolls back only that work and leaves the transaction usable.
 */
let savepoints = 0;
export async function savepoint<T>(trx: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  // A name of its own, so that nested savepoints roll back to the right one.
  const name = sql.id(`svc_savepoint_${++savepoints}`);
  await sql`savepoint ${name}`.execute(trx);
  try {
    const result = await work(trx);
    await sql`release savepoint ${name}`.execute(trx);
    return result;
  } catch (error) {
    await sql`rollback to savepoint ${name}`.execute(trx);
    throw error;
  }
}

/** Whether a database error is a unique violation (SQLSTATE 23505), of one named constraint when given. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const { code, constraint: violated } = error as { code?: string; constraint?: string };
  return code === '23505' && (constraint === undefined || violated === constraint);
}

/** What `work` gives, with a unique violation (of `constraint`, when given) answered by `answer()` instead: the name taken, the one already there. */
export async function onUniqueViolation<T>(work: Promise<T>, answer: () => Error, constraint?: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isUniqueViolation(error, constraint)) throw answer();
    throw error;
  }
}

export interface FrameworkDb {
  db: Db;
  pool: pg.Pool;
  /** How the pool connects (for components that open their own connections to the same server). */
  connection: pg.PoolConfig;
  /** Rejects when the database does not answer `select 1` within timeoutMs. */
  ping(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

// int8 (counts, sums) as JS numbers would silently lose precision past 2^53; keep them as strings
// except for count(*) results, which callers convert explicitly.
export function createFrameworkDb(connection: pg.PoolConfig, poolMax: number): FrameworkDb {
  const pool = new pg.Pool({
    ...connection,
    max: poolMax,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
    application_name: 'svc',
  });
  // An idle client that loses its connection emits here; the pool replaces it.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    pool,
    connection,
    async ping(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        pool.query('select 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`database ping timed out after ${timeoutMs} ms`)), timeoutMs);
        }),
      ]).finally(() => clearTimeout(timer));
    },
    async close() {
      await db.destroy();
    },
  };
}

/** The tables with a `project_id` column. */
export type ProjectOwnedTable = {
  [T in keyof Database]: Database[T] extends { project_id: string } ? T : never;
}[keyof Database];

/** Rows of a project-owned table per project (for read models such as the overview); each area counts its own table. */
export async function countByProject(
  db: Db,
  table: ProjectOwnedTable,
  projectIds: string[],
): Promise<Map<string, number>> {
  if (projectIds.length === 0) return new Map();
  const rows = await db
    .selectFrom(table)
    .select(['project_id', sql<string>`count(*)`.as('n')])
    .where('project_id', 'in', projectIds)
    .groupBy('project_id')
    .execute();
  return new Map(rows.map((r) => [String(r.project_id), Number(r.n)]));
}

export function connectionFromUrl(url: string): pg.PoolConfig {
  return { connectionString: url };
}
