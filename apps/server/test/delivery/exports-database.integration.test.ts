import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject } from '../support/http.js';
import { createPostgresConnector, query, waitForStatus, type Execution } from '../support/runs.js';
import { createTestDatabase, uniqueName, type TestDatabase } from '../support/services.js';

const MYSQL_URL = new URL(process.env['SVC_TEST_MYSQL_URL'] ?? 'mysql://root@127.0.0.1:3306');
const PG_URL = new URL(process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres');

interface ExportRun {
  execution_id: string;
  status: string;
  extracted: number;
  added: number;
  changed: number;
  removed: number;
  delivered: number;
  failed: number;
}

describe('exports to database tables (reverse ETL)', () => {
  let t: TestApp;
  let admin: string;
  let projectId: string;
  let source: TestDatabase;
  let target: TestDatabase;
  let sourceId: string;
  const mariadbName = uniqueName('svc_export').slice(0, 60);
  let maria: mysql.Connection;

  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS, worker: true });
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
    source = await createTestDatabase();
    target = await createTestDatabase();
    sourceId = await createPostgresConnector(t, admin, projectId, 'source', source.name);
    maria = await mysql.createConnection({
      host: MYSQL_URL.hostname,
      port: Number(MYSQL_URL.port || 3306),
      user: decodeURIComponent(MYSQL_URL.username),
      password: decodeURIComponent(MYSQL_URL.password),
      timezone: 'Z',
      dateStrings: true,
    });
    await maria.query(`create database \`${mariadbName}\``);
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
    await target?.drop();
    await maria?.query(`drop database if exists \`${mariadbName}\``);
    await maria?.end();
  });

  const postgresTarget = () => ({
    kind: 'database',
    engine: 'postgres',
    host: PG_URL.hostname,
    port: Number(PG_URL.port || 5432),
    database: target.name,
    user: decodeURIComponent(PG_URL.username),
    password: decodeURIComponent(PG_URL.password) || 'unused',
  });
  const mariadbTarget = () => ({
    kind: 'database',
    engine: 'mysql',
    host: MYSQL_URL.hostname,
    port: Number(MYSQL_URL.port || 3306),
    database: mariadbName,
    user: decodeURIComponent(MYSQL_URL.username),
  });
  const create = async (body: Record<string, unknown>) => {
    const created = await api<{ id: string; destination: Record<string, unknown>; secrets_set: string[] }>(
      t,
      'POST',
      '/api/v1/exports',
      { token: admin, body: { project_id: projectId, name: uniqueName('export'), ...body } },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  };
  const run = async (id: string) => {
    const started = await api<Execution>(t, 'POST', `/api/v1/exports/${id}/run`, { token: admin });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const execution = await waitForStatus(t, admin, started.body.id, [
      'succeeded',
      'partially_failed',
      'failed',
      'cancelled',
    ]);
    const runs = await api<{ items: ExportRun[] }>(t, 'GET', `/api/v1/exports/${id}/runs`, { token: admin });
    return { execution, account: runs.body.items.find((r) => r.execution_id === started.body.id)! };
  };
  const failedRows = async (id: string) =>
    (
      await api<{ items: Array<{ row_key: string; reason: string; record: Record<string, unknown> }> }>(
        t,
        'GET',
        `/api/v1/exports/${id}/failed-rows`,
        { token: admin },
      )
    ).body.items;

  it('mirrors a PostgreSQL table through a field map: rows refused fail alone, then go again; inserts, updates and deletes follow', async () => {
    await query(source.url, 'create table accounts (id int primary key, owner text, balance int, secret text)');
    await query(
      source.url,
      "insert into accounts select g, 'owner ' || g, case when g = 13 then -5 else g * 10 end, 'not exported' from generate_series(1, 20) g",
    );
    await query(
      target.url,
      "create table balances (account_id int primary key, holder text not null, balance int check (balance >= 0), note text default 'kept')",
    );
    await query(target.url, "insert into balances values (99, 'stale row', 1, 'x')");
    const created = await create({
      source: { kind: 'connector', connector_id: sourceId, dataset: 'accounts' },
      mode: 'diff',
      key_columns: ['id'],
      destination: {
        ...postgresTarget(),
        table: 'balances',
        write_mode: 'mirror',
        field_map: { id: 'account_id', owner: 'holder', balance: 'balance' },
      },
    });
    // The password is stored encrypted and never shown.
    expect(created.destination).not.toHaveProperty('password');
    expect(created.secrets_set).toEqual(['password']);

    const first = await run(created.id);
    expect(first.execution.status).toBe('partially_failed');
    expect(first.execution.error).toBe('1 of 20 rows failed');
    expect(first.account).toMatchObject({
      status: 'partially_failed',
      extracted: 20,
      added: 20,
      delivered: 19,
      failed: 1,
    });
    const failed = await failedRows(created.id);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ row_key: '[13]', record: { id: 13, balance: -5 } });
    expect(failed[0]!.reason).toContain('check constraint');
    expect((await query(target.url, 'select count(*)::int as n from balances where account_id <= 20')).rows[0].n).toBe(
      19,
    );

    await query(source.url, 'update accounts set balance = 5 where id = 13');
    await query(source.url, "update accounts set owner = 'new owner' where id = 2");
    await query(source.url, "insert into accounts values (21, 'owner 21', 210, 's')");
    await query(source.url, 'delete from accounts where id in (3, 4)');
    const second = await run(created.id);
    expect(second.execution.status, second.execution.error ?? '').toBe('succeeded');
    expect(second.account).toMatchObject({ extracted: 19, added: 2, changed: 1, removed: 2, delivered: 5, failed: 0 });
    expect(await failedRows(created.id)).toEqual([]);
    const mirrored = await query(
      target.url,
      'select account_id, holder, balance, note from balances where account_id <= 21 order by account_id',
    );
    const expected = await query(source.url, "select id, owner, balance, 'kept' as note from accounts order by id");
    expect(mirrored.rows.map((r) => Object.values(r))).toEqual(expected.rows.map((r) => Object.values(r)));
    // A row the source never had is not the export's to delete.
    expect((await query(target.url, 'select count(*)::int as n from balances where account_id = 99')).rows[0].n).toBe(
      1,
    );

    const third = await run(created.id);
    expect(third.account).toMatchObject({ added: 0, changed: 0, removed: 0, delivered: 0, status: 'succeeded' });
  });

  it('upserts into a MariaDB table, leaving values where the source has null (null_handling skip)', async () => {
    await query(source.url, 'create table people (id int primary key, name text, city text, seen timestamptz)');
    await query(
      source.url,
      "insert into people values (1, 'Ann', null, '2024-05-01T10:00:00.123456Z'), (2, 'Bob', 'Oslo', '2024-05-02T11:00:00Z')",
    );
    await maria.query(
      `create table \`${mariadbName}\`.people (id int primary key, name varchar(100), city varchar(100), seen datetime(6))`,
    );
    await maria.query(`insert into \`${mariadbName}\`.people values (1, 'Old name', 'Paris', null)`);
    const created = await create({
      source: { kind: 'connector', connector_id: sourceId, dataset: 'people' },
      key_columns: ['id'],
      destination: { ...mariadbTarget(), table: 'people', write_mode: 'upsert', null_handling: 'skip' },
    });
    const { execution, account } = await run(created.id);
    expect(execution.status, execution.error ?? '').toBe('succeeded');
    expect(account).toMatchObject({ extracted: 2, delivered: 2, failed: 0 });
    const [rows] = await maria.query(`select id, name, city, seen from \`${mariadbName}\`.people order by id`);
    expect(rows).toEqual([
      { id: 1, name: 'Ann', city: 'Paris', seen: '2024-05-01 10:00:00.123456' },
      { id: 2, name: 'Bob', city: 'Oslo', seen: '2024-05-02 11:00:00.000000' },
    ]);
  });

  it('counts a row update mode cannot find as failed, with its reason', async () => {
    await query(source.url, 'create table prices (sku text primary key, price int)');
    await query(source.url, "insert into prices values ('a', 1), ('b', 2)");
    await maria.query(`create table \`${mariadbName}\`.prices (sku varchar(10) primary key, price int)`);
    await maria.query(`insert into \`${mariadbName}\`.prices values ('a', 100)`);
    const created = await create({
      source: { kind: 'connector', connector_id: sourceId, dataset: 'prices' },
      key_columns: ['sku'],
      destination: { ...mariadbTarget(), table: 'prices', write_mode: 'update' },
    });
    const { execution, account } = await run(created.id);
    expect(execution.status).toBe('partially_failed');
    expect(account).toMatchObject({ delivered: 1, failed: 1 });
    expect(await failedRows(created.id)).toMatchObject([
      { row_key: '["b"]', reason: 'no row of the destination table matches the key' },
    ]);
    const [rows] = await maria.query(`select sku, price from \`${mariadbName}\`.prices order by sku`);
    expect(rows).toEqual([{ sku: 'a', price: 1 }]);
  });

  it('answers 422 naming the field of a database destination that cannot work', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ destination: { ...mariadbTarget(), table: 'x', write_mode: 'mirror' }, key_columns: ['id'] }, 'mode'],
      [{ destination: { ...mariadbTarget(), table: 'x', write_mode: 'upsert' } }, 'key_columns'],
      [
        { destination: { ...mariadbTarget(), table: 'x', write_mode: 'merge' }, key_columns: ['id'] },
        'destination.write_mode',
      ],
      [{ destination: { ...mariadbTarget(), write_mode: 'upsert' }, key_columns: ['id'] }, 'destination.table'],
      [
        {
          destination: { ...mariadbTarget(), table: 'x', write_mode: 'upsert', field_map: { name: 'n' } },
          key_columns: ['id'],
        },
        'destination.field_map',
      ],
      [{ destination: { ...mariadbTarget(), table: 'x', write_mode: 'insert', port: 70000 } }, 'destination.port'],
      [{ destination: { ...mariadbTarget(), table: 'x', write_mode: 'insert' }, format: { type: 'csv' } }, 'format'],
    ];
    for (const [overrides, path] of cases) {
      const result = await api<{ errors: Array<{ path: string }> }>(t, 'POST', '/api/v1/exports', {
        token: admin,
        body: {
          project_id: projectId,
          name: uniqueName('bad'),
          source: { kind: 'connector', connector_id: sourceId, dataset: 'prices' },
          ...overrides,
        },
      });
      expect(result.status, JSON.stringify(overrides)).toBe(422);
      expect(
        result.body.errors.map((e) => e.path),
        JSON.stringify(result.body),
      ).toContain(path);
    }
  });
});
