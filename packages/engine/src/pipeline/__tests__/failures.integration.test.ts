/**
 * A value a step cannot compute fails the run with the same account on both paths: the step (its
 * number and type) and the column, whether the steps ran in process or were pushed down into the
 * PostgreSQL source as one SELECT (where the server alone would only say "division by zero").
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../connectors/postgres/definition.js';
import type { TransformStep } from '../../transforms/index.js';
import { runPipeline } from '../run.js';

const ADMIN_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const admin = new URL(ADMIN_URL);
const database = `svc_pipefail_${randomBytes(5).toString('hex')}`;
const config = {
  host: admin.hostname,
  port: Number(admin.port || 5432),
  database,
  user: decodeURIComponent(admin.username),
  password: decodeURIComponent(admin.password),
};

async function sql(url: string, text: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

describe('pipeline run failures', () => {
  beforeAll(async () => {
    await sql(ADMIN_URL, `create database ${database}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    await sql(url.toString(), `create table numbers (id int, num int, small int, label text)`);
    await sql(url.toString(), `insert into numbers select g, g * 10, g % 5, 'n' || g from generate_series(1, 50) g`);
  });
  afterAll(async () => {
    await sql(ADMIN_URL, `drop database if exists ${database} with (force)`);
  });

  /** One run on connections of its own, as a pipeline job opens them. */
  const run = async (steps: TransformStep[], pushdown: boolean) => {
    const source = openPostgres(config);
    const destination = openPostgres(config);
    try {
      return await runPipeline({
        sources: [{ name: 'numbers', handle: source, dataset: { namespace: null, name: 'numbers' } }],
        steps,
        // Without importBulk the destination takes batches: the steps run in process.
        destination: {
          handle: pushdown ? destination : { ...destination, importBulk: undefined, bulkFormats: undefined },
          dataset: { namespace: null, name: `out_${pushdown ? 'pushed' : 'local'}` },
          mode: 'overwrite',
        },
        runId: randomBytes(4).toString('hex'),
        signal: new AbortController().signal,
        log: () => undefined,
      });
    } finally {
      await source.close();
      await destination.close();
    }
  };

  const steps: TransformStep[] = [
    { type: 'rename', columns: { label: 'name' } },
    { type: 'derive', column: 'double', expression: 'num * 2' },
    { type: 'derive', column: 'ratio', expression: 'num / small' },
    { type: 'select', columns: ['id', 'double', 'ratio'] },
  ];

  it('names the step and the column on both paths', async () => {
    await expect(run(steps, false)).rejects.toMatchObject({
      path: '2.expression',
      message: 'step 3 (derive): column "ratio": division by zero',
    });
    await expect(run(steps, true)).rejects.toMatchObject({
      path: '2.expression',
      message: 'step 3 (derive): column "ratio": division by zero',
    });
  });

  it('names a filter that fails, and passes a run whose guard keeps the failing rows out', async () => {
    const filtered: TransformStep[] = [{ type: 'filter', expression: 'num / small > 3' }];
    for (const pushdown of [false, true])
      await expect(run(filtered, pushdown)).rejects.toMatchObject({
        path: '0.expression',
        message: expect.stringMatching(/^step 1 \(filter\): .*division by zero/),
      });
    const guarded: TransformStep[] = [{ type: 'filter', expression: 'small != 0' }, ...steps];
    for (const pushdown of [false, true])
      expect(await run(guarded, pushdown)).toMatchObject({
        path: pushdown ? 'pushdown' : 'in-process',
        rowsWritten: 40,
      });
  });
});
