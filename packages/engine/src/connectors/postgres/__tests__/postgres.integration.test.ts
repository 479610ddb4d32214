import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectorHandle, RecordBatch, Value } from '../../../types.js';
import { openPostgres, postgresConnector } from '../definition.js';
import { connectorContract } from '../../../__tests__/contract.js';
import { CANONICAL_COLUMNS, batchesOf, col, collect, parsedRows } from '../../../__tests__/support.js';
import { openWarehouse, warehouseConnector } from '../../warehouse/definition.js';

const ADMIN_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const admin = new URL(ADMIN_URL);
const database = `svc_pgconn_${randomBytes(5).toString('hex')}`;
const config = {
  host: admin.hostname,
  port: Number(admin.port || 5432),
  database,
  user: decodeURIComponent(admin.username),
  password: decodeURIComponent(admin.password),
};

async function sql(text: string, params: unknown[] = []) {
  const client = new pg.Client({ ...config });
  await client.connect();
  try {
    return await client.query(text, params);
  } finally {
    await client.end();
  }
}

describe('PostgreSQL connector', () => {
  let handle: ConnectorHandle;
  beforeAll(async () => {
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    await client.query(`create database ${database}`);
    await client.end();
    handle = openPostgres(config);
  });
  afterAll(async () => {
    await handle?.close();
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    await client.query(`drop database if exists ${database} with (force)`);
    await client.query(`drop role if exists svc_pgconn_limited`);
    await client.end();
  });

  connectorContract('postgres', {
    capabilities: postgresConnector.capabilities,
    open: () => openPostgres(config),
    broken: { open: () => openPostgres({ ...config, database: 'no_such_database_here' }), code: 'not_found' },
    dataset: (name) => ({ namespace: null, name }),
    incremental: true,
  });

  // The built-in warehouse: PostgreSQL confined to one schema, here the test database's own.
  const tenant = { connection: config, schema: 'contract_warehouse', captureConnection: config };
  connectorContract('warehouse', {
    capabilities: warehouseConnector.capabilities,
    open: () => openWarehouse(tenant),
    broken: {
      open: () => openWarehouse({ ...tenant, connection: { ...config, user: 'no_such_role_here' } }),
      code: 'auth_failed',
    },
    dataset: (name) => ({ namespace: null, name }),
    incremental: true,
  });

  it('checks a good connection, and names the cause of a bad one', async () => {
    expect(await handle.check()).toEqual({ ok: true });
    const unknownRole = openPostgres({ ...config, user: 'no_such_role_here', password: 'hunter2-secret' });
    const refused = await unknownRole.check();
    await unknownRole.close();
    // Not pg_hba.conf: the server said which (SQLSTATE 28000 with "role ... does not exist").
    expect(refused).toMatchObject({ ok: false, code: 'auth_failed', message: expect.stringMatching(/does not exist/) });
    expect(JSON.stringify(refused)).not.toContain('pg_hba');
    expect(JSON.stringify(refused)).not.toContain('hunter2-secret');
    const unreachable = openPostgres({ ...config, port: 1 });
    expect(await unreachable.check()).toMatchObject({ ok: false, code: 'unreachable' });
    await unreachable.close();
    const noDb = openPostgres({ ...config, database: 'no_such_database_here' });
    expect(await noDb.check()).toMatchObject({
      ok: false,
      code: 'not_found',
      message: expect.stringMatching(/database does not exist/),
    });
    await noDb.close();
  });

  it('reports a schema the user may not use as a missing privilege', async () => {
    await sql(`create role svc_pgconn_limited login`);
    await sql(`create schema private_stuff`);
    await sql(`revoke all on schema private_stuff from public`);
    const limited = openPostgres({ ...config, user: 'svc_pgconn_limited', schema: 'private_stuff' });
    expect(await limited.check()).toMatchObject({ ok: false, code: 'missing_privilege' });
    await limited.close();
  });

  it('discovers tables with canonical and source types, primary keys and row estimates', async () => {
    await sql(
      `create table discovered (id bigint primary key, name varchar(40) not null, price numeric(12, 3), tags jsonb, seen timestamptz)`,
    );
    await sql(`insert into discovered select g, 'n' || g, g * 1.5, '{}', now() from generate_series(1, 500) g`);
    await sql(`analyze discovered`);
    const tables = await handle.discover();
    const table = tables.find((t) => t.name === 'discovered')!;
    expect(table).toMatchObject({ namespace: 'public', primaryKey: ['id'], rowEstimate: 500 });
    expect(table.columns).toEqual([
      { name: 'id', type: 'int64', sourceType: 'bigint', nullable: false },
      { name: 'name', type: 'string', sourceType: 'character varying', nullable: false },
      { name: 'price', type: 'decimal', sourceType: 'numeric', nullable: true, precision: 12, scale: 3 },
      { name: 'tags', type: 'json', sourceType: 'jsonb', nullable: true },
      { name: 'seen', type: 'timestamptz', sourceType: 'timestamp with time zone', nullable: true },
    ]);
  });

  it('round-trips every canonical type without loss', async () => {
    const columns = CANONICAL_COLUMNS;
    const rows: Value[][] = [
      [
        1,
        true,
        32767,
        '9223372036854775807',
        1.5,
        0.1 + 0.2,
        '12345678901234.567890',
        'tab\there, newline\nthere, back\\slash, 😀 ünïcödé',
        '3b241101-e2bb-4255-8caf-4136c566a962',
        '2024-02-29',
        '23:59:59.123456',
        '2024-02-29T12:34:56.789012',
        '2024-02-29T12:34:56.789012Z',
        { nested: { list: [1, 'two', null] }, quote: '"' },
        Buffer.from([0, 1, 2, 254, 255]),
      ],
      [
        2,
        false,
        -32768,
        '-9223372036854775808',
        -0,
        -1.7976931348623157e308,
        '-0.000001',
        '',
        '00000000-0000-0000-0000-000000000000',
        '0001-01-01',
        '00:00:00',
        '1970-01-01T00:00:00',
        '1970-01-01T00:00:00.000000Z',
        [],
        Buffer.alloc(0),
      ],
      [3, null, null, null, null, null, null, null, null, null, null, null, null, null, null],
    ];
    const summary = await handle.write!(
      { dataset: { namespace: null, name: 'all_types' }, mode: 'append', columns, runId: 'r1' },
      batchesOf(columns, rows),
    );
    expect(summary.rowsWritten).toBe(3);
    const batches = await collect(
      handle.read!({ dataset: { namespace: null, name: 'all_types' }, incremental: { cursorColumn: 'id' } }),
    );
    const back = batches.flatMap((b) => b.rows);
    expect(batches[0]!.columns.map((c) => c.type)).toEqual(columns.map((c) => c.type));
    expect(parsedRows(back)).toEqual(rows);
  });

  it('keeps numeric(p, s) from the source to the destination, on the batch and the bulk path', async () => {
    await sql(`create table priced (id int, exact numeric(38, 10), free numeric)`);
    await sql(`insert into priced values (1, 1234567890123456789012345678.0123456789, 1.5)`);
    const source = { namespace: null, name: 'priced' };
    const [batch] = await collect(handle.read!({ dataset: source }));
    expect(batch!.columns.map(({ name, precision, scale }) => ({ name, precision, scale }))).toEqual([
      { name: 'id', precision: undefined, scale: undefined },
      { name: 'exact', precision: 38, scale: 10 },
      { name: 'free', precision: undefined, scale: undefined },
    ]);
    await handle.write!(
      { dataset: { namespace: null, name: 'priced_batch' }, mode: 'overwrite', columns: batch!.columns, runId: 'n1' },
      batchesOf(batch!.columns, batch!.rows),
    );
    // Source and destination are separate connections, as in a sync.
    const destination = openPostgres(config);
    try {
      const bulk = (await handle.exportBulk!({ dataset: source }))!;
      await destination.importBulk!(
        { dataset: { namespace: null, name: 'priced_bulk' }, mode: 'overwrite', columns: bulk.columns, runId: 'n2' },
        bulk,
      );
    } finally {
      await destination.close();
    }
    for (const table of ['priced_batch', 'priced_bulk']) {
      const types = await sql(
        `select attname, format_type(atttypid, atttypmod) as type from pg_attribute
          where attrelid = $1::regclass and attnum > 0 and not attisdropped order by attnum`,
        [table],
      );
      expect(types.rows.map((r) => r.type)).toEqual(['integer', 'numeric(38,10)', 'numeric']);
      expect((await sql(`select exact::text from ${table}`)).rows[0].exact).toBe(
        '1234567890123456789012345678.0123456789',
      );
    }
  });

  it('keeps JSON exact on the batch path: JSON null apart from SQL NULL, every digit, json as json', async () => {
    await sql(`create table docs (id int primary key, j json, b jsonb)`);
    const values = [
      [1, 'null', 'null'],
      [2, null, null],
      [3, '123456789012345678901234567890', '123456789012345678901234567890'],
      [4, '1e400', '1e400'],
      [5, '{"b": 1,  "a": 2, "a": 3}', '{"b": 1, "a": [0.1, -5e-7]}'],
      [6, '[12345678901234567890.12345678901234567890]', '"text"'],
    ];
    for (const row of values) await sql(`insert into docs values ($1, $2, $3)`, row);
    const expected = (
      await sql(`select id, j::text as j, b::text as b, j is null as j_null, b is null as b_null from docs order by id`)
    ).rows;
    // Incremental with a cursor: the decoded-batch path.
    const batches = await collect(
      handle.read!({ dataset: { namespace: null, name: 'docs' }, incremental: { cursorColumn: 'id', after: 0 } }),
    );
    for (const mode of ['append', 'overwrite', 'upsert'] as const) {
      const target = `docs_${mode}`;
      await handle.write!(
        {
          dataset: { namespace: null, name: target },
          mode,
          keyColumns: ['id'],
          columns: batches[0]!.columns,
          runId: `j-${mode}`,
        },
        batchesOf(
          batches[0]!.columns,
          batches.flatMap((b) => b.rows),
        ),
      );
      const back = await sql(
        `select id, j::text as j, b::text as b, j is null as j_null, b is null as b_null from ${target} order by id`,
      );
      expect(back.rows).toEqual(expected);
      const types = await sql(
        `select format_type(atttypid, atttypmod) as type from pg_attribute
          where attrelid = $1::regclass and attnum > 1 and not attisdropped order by attnum`,
        [target],
      );
      expect(types.rows.map((r) => r.type)).toEqual(['json', 'jsonb']);
    }
    expect(expected[0]).toMatchObject({ j: 'null', j_null: false, b: 'null', b_null: false });
    expect(expected[3]!.j).toBe('1e400');
  });

  it('reads incrementally: only rows past the cursor, in cursor order', async () => {
    await sql(`create table events (id int primary key, body text)`);
    await sql(`insert into events select g, 'e' || g from generate_series(1, 30) g`);
    const batches = await collect(
      handle.read!({ dataset: { namespace: null, name: 'events' }, incremental: { cursorColumn: 'id', after: 25 } }),
    );
    expect(batches.flatMap((b) => b.rows).map((r) => r[0])).toEqual([26, 27, 28, 29, 30]);
  });

  it('reads a large table in several batches', async () => {
    await sql(`create table big (id int, payload text)`);
    await sql(`insert into big select g, repeat('x', 20) from generate_series(1, 25000) g`);
    const batches = await collect(handle.read!({ dataset: { namespace: null, name: 'big' }, batchSize: 10_000 }));
    expect(batches.map((b) => b.rows.length)).toEqual([10_000, 10_000, 5_000]);
  });

  it('overwrites in one transaction, upserts on keys, and widens the table with new columns', async () => {
    const columns = [col('id', 'int32'), col('name', 'string')];
    const target = { namespace: null, name: 'people' };
    await handle.write!(
      { dataset: target, mode: 'upsert', keyColumns: ['id'], columns, runId: 'a' },
      batchesOf(columns, [
        [1, 'ada'],
        [2, 'bob'],
      ]),
    );
    await handle.write!(
      { dataset: target, mode: 'upsert', keyColumns: ['id'], columns, runId: 'b' },
      batchesOf(columns, [
        [2, 'bobby'],
        [3, 'cy'],
        [3, 'cyd'],
      ]),
    );
    expect((await sql('select id, name from people order by id')).rows).toEqual([
      { id: 1, name: 'ada' },
      { id: 2, name: 'bobby' },
      { id: 3, name: 'cyd' },
    ]);
    const wider = [...columns, col('email', 'string')];
    await handle.write!(
      { dataset: target, mode: 'overwrite', columns: wider, runId: 'c' },
      batchesOf(wider, [[9, 'zed', 'z@example.com']]),
    );
    expect((await sql('select id, name, email from people')).rows).toEqual([
      { id: 9, name: 'zed', email: 'z@example.com' },
    ]);
  });

  it('appends once per run: a retried run writes nothing twice, and the marker table stays out of discovery', async () => {
    const columns = [col('id', 'int32')];
    const target = { namespace: null, name: 'appended' };
    const first = await handle.write!(
      { dataset: target, mode: 'append', columns, runId: 'run-1' },
      batchesOf(columns, [[1], [2]]),
    );
    const retried = await handle.write!(
      { dataset: target, mode: 'append', columns, runId: 'run-1' },
      batchesOf(columns, [[1], [2]]),
    );
    const next = await handle.write!(
      { dataset: target, mode: 'append', columns, runId: 'run-2' },
      batchesOf(columns, [[3]]),
    );
    expect([first.rowsWritten, retried.rowsWritten, next.rowsWritten]).toEqual([2, 0, 1]);
    expect((await sql('select id from appended order by id')).rows.map((r) => r.id)).toEqual([1, 2, 3]);
    expect((await handle.discover()).map((d) => d.name)).not.toContain('_svc_runs');
  });

  it('leaves the old rows in place when an overwrite fails midway', async () => {
    const columns = [col('id', 'int32'), col('name', 'string')];
    const target = { namespace: null, name: 'stable' };
    await handle.write!({ dataset: target, mode: 'append', columns, runId: 'a' }, batchesOf(columns, [[1, 'kept']]));
    async function* failing(): AsyncIterable<RecordBatch> {
      yield { columns, rows: [[2, 'new']] };
      throw new Error('source broke');
    }
    await expect(handle.write!({ dataset: target, mode: 'overwrite', columns, runId: 'b' }, failing())).rejects.toThrow(
      /source broke/,
    );
    expect((await sql('select id, name from stable')).rows).toEqual([{ id: 1, name: 'kept' }]);
  });
});
