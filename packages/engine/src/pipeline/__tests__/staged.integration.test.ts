/**
 * The staged path: a MariaDB source's rows copied as COPY text into a temporary table of the
 * PostgreSQL destination, and the steps run there as one SELECT. It must write exactly what the
 * in-process path writes (same rows, same types), append once per run, upsert on keys, and report a
 * value a step cannot compute as the in-process path does (the step and the column), writing nothing.
 */
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgQuery as pgQueryOn, quiet, serverConfigOf } from '../../__tests__/support.js';
import { mysqlConnector } from '../../connectors/mysql/definition.js';
import { openPostgres } from '../../connectors/postgres/definition.js';
import type { TransformStep } from '../../transforms/index.js';
import type { ConnectorHandle, WriteMode } from '../../types.js';
import { runPipeline } from '../run.js';

const PG_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MYSQL_URL = process.env['SVC_TEST_MYSQL_URL'] ?? 'mysql://root@127.0.0.1:3306';
const suffix = randomBytes(5).toString('hex');
const names = { mysql: `svc_staged_${suffix}`, pg: `svc_staged_${suffix}` };
const pgConfig = serverConfigOf(PG_URL, names.pg);
const mysqlConfig = serverConfigOf(MYSQL_URL, names.mysql);

const pgQuery = (database: string, text: string) => pgQueryOn(PG_URL, database, text);

/** Every row of a destination table as text (the exact values, whatever their types), in id order. */
const rowsOf = async (table: string) =>
  (await pgQuery(names.pg, `select to_jsonb(t)::text as row from ${table} t order by 1`)).rows.map((r) => r.row);
const typesOf = async (table: string) =>
  (
    await pgQuery(
      names.pg,
      `select column_name, data_type from information_schema.columns where table_name = '${table}' order by ordinal_position`,
    )
  ).rows;

describe('pipeline: staged in the PostgreSQL destination', () => {
  let source: ConnectorHandle;

  beforeAll(async () => {
    await pgQuery('postgres', `create database ${names.pg}`);
    const conn = await mysql.createConnection({ ...mysqlConfig, database: undefined, multipleStatements: true });
    try {
      await conn.query(
        `create database \`${names.mysql}\` character set utf8mb4; use \`${names.mysql}\`;
         create table orders (
           id int primary key, customer varchar(40), amount decimal(12,2), paid tinyint(1), placed datetime(3),
           ratio double, small int, doc json, note text
         );
         insert into orders values
           (1, 'Ada', 12.50, 1, '2024-02-29 12:34:56.789', 0.1, 2, '{"g": 1, "tag": "x1", "deep": {"n": 123456789012345678901234567890}}', 'ünïcödé 😀'),
           (2, 'Bob', -0.01, 0, '1999-12-31 23:59:59.000', 1e300, 0, '{"g": 2, "tag": null}', 'tab\\there "q" back\\\\slash'),
           (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
           (4, 'Ada', 99999.99, 1, '2024-01-01 00:00:00.500', -2.5, 5, '{"g": 4, "tag": "x4"}', ''),
           (5, 'Cy', 0.00, 0, '2000-01-01 10:00:00.000', 3, 1, 'null', 'last');`,
      );
    } finally {
      await conn.end();
    }
    source = await mysqlConnector.open(mysqlConfig, quiet);
  });
  afterAll(async () => {
    await source?.close();
    const conn = await mysql.createConnection({ ...mysqlConfig, database: undefined });
    await conn.query(`drop database if exists \`${names.mysql}\``).finally(() => conn.end());
    await pgQuery('postgres', `drop database if exists ${names.pg} with (force)`);
  });

  const run = async (
    steps: TransformStep[],
    options: { table: string; staged: boolean; mode?: WriteMode; keyColumns?: string[]; runId?: string },
  ) => {
    const destination = openPostgres(pgConfig);
    try {
      return await runPipeline({
        sources: [{ name: 'orders', handle: source, dataset: { namespace: null, name: 'orders' } }],
        steps,
        destination: {
          // Without importStaged the destination takes batches: the steps run in process.
          handle: options.staged ? destination : { ...destination, importStaged: undefined },
          dataset: { namespace: null, name: options.table },
          mode: options.mode ?? 'overwrite',
          keyColumns: options.keyColumns,
        },
        runId: options.runId ?? randomBytes(4).toString('hex'),
        signal: new AbortController().signal,
        log: () => undefined,
      });
    } finally {
      await destination.close();
    }
  };

  const FIVE_STEPS: TransformStep[] = [
    { type: 'filter', expression: 'coalesce(amount, 0) >= 0' },
    { type: 'derive', column: 'label', expression: "upper(concat(customer, '/', id % 10))" },
    { type: 'flatten', column: 'doc', paths: ['g', 'tag'] },
    { type: 'rename', columns: { placed: 'placed_at' } },
    { type: 'cast', columns: { amount: 'float64' } },
  ];

  it('writes the same rows and types as the in-process path', async () => {
    const staged = await run(FIVE_STEPS, { table: 'five_staged', staged: true });
    const local = await run(FIVE_STEPS, { table: 'five_local', staged: false });
    expect(staged).toMatchObject({ path: 'staged', rowsRead: 5, rowsWritten: 4 });
    expect(local).toMatchObject({ path: 'in-process', rowsWritten: 4 });
    expect(staged.output).toEqual(local.output);
    expect(await rowsOf('five_staged')).toEqual(await rowsOf('five_local'));
    expect(await typesOf('five_staged')).toEqual(await typesOf('five_local'));
    // The values themselves, not only their agreement.
    const first = JSON.parse((await rowsOf('five_staged'))[0]!) as Record<string, unknown>;
    expect(first).toMatchObject({ id: 1, label: 'ADA/1', amount: 12.5, doc_g: 1, doc_tag: 'x1', note: 'ünïcödé 😀' });
    expect(first['placed_at']).toMatch(/^2024-02-29T12:34:56\.789/);
  });

  it('appends once per run, and upserts on its keys', async () => {
    const steps: TransformStep[] = [{ type: 'select', columns: ['id', 'customer', 'amount', 'doc'] }];
    const runId = randomBytes(4).toString('hex');
    expect(await run(steps, { table: 'appended', staged: true, mode: 'append', runId })).toMatchObject({
      path: 'staged',
      rowsWritten: 5,
    });
    // The same run again (a retried job): its marker is there, nothing is written twice.
    expect(await run(steps, { table: 'appended', staged: true, mode: 'append', runId })).toMatchObject({
      rowsWritten: 0,
    });
    expect(await rowsOf('appended')).toHaveLength(5);
    // JSON as its text: every digit of a 30-digit number, and JSON null apart from SQL NULL.
    const docs = await pgQuery(
      names.pg,
      `select id, doc::text as doc, doc is null as missing from appended order by id`,
    );
    expect(docs.rows[0].doc).toContain('123456789012345678901234567890');
    expect(docs.rows[2]).toMatchObject({ doc: null, missing: true });
    expect(docs.rows[4]).toMatchObject({ doc: 'null', missing: false });

    const upsert = { table: 'upserted', staged: true, mode: 'upsert' as const, keyColumns: ['id'] };
    await run(steps, upsert);
    await run([...steps, { type: 'derive', column: 'customer', expression: "concat(customer, '!')" }], upsert);
    const rows = (await rowsOf('upserted')).map((r) => JSON.parse(r) as { id: number; customer: string | null });
    expect(rows.map((r) => [r.id, r.customer])).toEqual([
      [1, 'Ada!'],
      [2, 'Bob!'],
      [3, '!'],
      [4, 'Ada!'],
      [5, 'Cy!'],
    ]);
  });

  it('names the step and the column of a value it cannot compute, as in process, and writes nothing', async () => {
    const steps: TransformStep[] = [
      { type: 'derive', column: 'double', expression: 'small * 2' },
      { type: 'derive', column: 'share', expression: 'id / small' },
    ];
    const failure = { path: '1.expression', message: 'step 2 (derive): column "share": division by zero' };
    await expect(run(steps, { table: 'failed_staged', staged: true, mode: 'append' })).rejects.toMatchObject(failure);
    await expect(run(steps, { table: 'failed_local', staged: false, mode: 'append' })).rejects.toMatchObject(failure);
    const left = await pgQuery(names.pg, `select to_regclass('failed_staged') as t`);
    expect(left.rows[0].t).toBeNull();
  });
});
