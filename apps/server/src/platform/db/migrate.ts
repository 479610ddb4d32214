/**
 * Versioned, forward-only migrations. A session-level advisory lock serialises every process that
 * migrates at once (several API and worker processes starting together); the others wait, then find
 * nothing left to do.
 */
import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Logger } from 'pino';
import type { FrameworkDb } from './index.js';
import { migrations } from './migrations/index.js';

const MIGRATION_LOCK_KEY = 0x5_7c_d1_00; // arbitrary, stable: "svc migrations"

const provider: MigrationProvider = {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  },
};

export async function migrateToLatest(framework: FrameworkDb, logger: Logger): Promise<string[]> {
  const lockClient = await framework.pool.connect();
  try {
    await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const migrator = new Migrator({ db: framework.db, provider });
    const { error, results } = await migrator.migrateToLatest();
    const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    if (error) {
      const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
      throw new Error(`migration ${failed} failed: ${(error as Error).message}`, { cause: error });
    }
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
    return applied;
  } finally {
    await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    lockClient.release();
  }
}
