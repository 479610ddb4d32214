import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionFromUrl, createFrameworkDb, type FrameworkDb } from '../../src/platform/db/index.js';
import { migrateToLatest } from '../../src/platform/db/migrate.js';
import { migrations } from '../../src/platform/db/migrations/index.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';

describe('migrations', () => {
  let database: TestDatabase;
  const pools: FrameworkDb[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
    await database?.drop();
  });

  it('run from several processes at once: each migration applied exactly once, no error', async () => {
    const logger = pino({ level: 'silent' });
    // Separate pools stand for separate processes: each has its own connections and sessions.
    for (let i = 0; i < 4; i++) pools.push(createFrameworkDb(connectionFromUrl(database.url), 3));
    const results = await Promise.all(pools.map((p) => migrateToLatest(p, logger)));

    const appliedCounts = results.map((applied) => applied.length);
    expect(appliedCounts.reduce((a, b) => a + b, 0)).toBe(Object.keys(migrations).length);
    expect(appliedCounts.filter((n) => n > 0)).toHaveLength(1);

    const { rows } = await pools[0]!.pool.query<{ name: string }>('select name from kysely_migration order by name');
    expect(rows.map((r) => r.name)).toEqual(Object.keys(migrations).sort());

    // A later start finds nothing to do.
    expect(await migrateToLatest(pools[1]!, logger)).toEqual([]);
  });
});
