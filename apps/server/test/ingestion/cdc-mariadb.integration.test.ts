/**
 * A CDC table from MariaDB (row-based binlog) into PostgreSQL, through the API and a worker: snapshot,
 * then inserts, updates (also of the key), deletes, a multi-statement transaction, a rollback, truncate
 * and an added column, with the destination checked against the source row by row.
 */
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject } from '../support/http.js';
import { createPostgresConnector, query } from '../support/runs.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';

const MYSQL_URL = new URL(process.env['SVC_TEST_MYSQL_URL'] ?? 'mysql://root@127.0.0.1:3306');
const mysqlConfig = {
  host: MYSQL_URL.hostname,
  port: Number(MYSQL_URL.port || 3306),
  user: decodeURIComponent(MYSQL_URL.username),
  password: decodeURIComponent(MYSQL_URL.password),
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('CDC tables from MariaDB', () => {
  const database = `svc_cdc_${randomBytes(5).toString('hex')}`;
  let t: TestApp;
  let destination: TestDatabase;
  let admin: string;
  let projectId: string;

  const mariadb = async (...statements: string[]) => {
    const conn = await mysql.createConnection({ ...mysqlConfig, database });
    try {
      for (const statement of statements) await conn.query(statement);
    } finally {
      await conn.end();
    }
  };

  beforeAll(async () => {
    const conn = await mysql.createConnection(mysqlConfig);
    await conn.query(`create database ${database}`);
    await conn.end();
    destination = await createTestDatabase();
    t = await startTestApp({ worker: true, env: { ...NO_RATE_LIMITS, SVC_CDC_SOURCE_HEARTBEAT_SECONDS: '1' } });
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
  });
  afterAll(async () => {
    await t?.close();
    await destination?.drop();
    const conn = await mysql.createConnection(mysqlConfig);
    await conn.query(`drop database if exists ${database}`);
    await conn.end();
  });

  it('snapshots, then applies every change in order, exactly once', { timeout: 120_000 }, async () => {
    await mariadb(
      'create table accounts (id int primary key, owner varchar(100), balance decimal(12,2), opened datetime(6), note text)',
      `insert into accounts values (1, 'ana', 10.50, '2024-01-01 10:00:00.123456', 'first'), (2, 'bob', 20, '2024-01-02 11:00:00', null), (3, 'cé', 30.25, '2024-01-03 12:00:00', 'third')`,
    );
    const sourceId = (
      await api<{ id: string }>(t, 'POST', '/api/v1/data-connectors', {
        token: admin,
        body: { project_id: projectId, name: 'mariadb', kind: 'mysql', config: { ...mysqlConfig, database } },
      })
    ).body.id;
    const destinationId = await createPostgresConnector(t, admin, projectId, 'warehouse', destination.name);
    const created = await api<{ id: string }>(t, 'POST', '/api/v1/cdc-tables', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'accounts',
        source: { connector_id: sourceId, table: 'accounts' },
        destination: { connector_id: destinationId, table: 'accounts' },
        mode: 'mirror',
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const status = async () =>
      (
        await api<{
          status: string;
          snapshot_rows: number | null;
          last_position: string | null;
          last_error: string | null;
        }>(t, 'GET', `/api/v1/cdc-tables/${id}`, { token: admin })
      ).body;
    for (let i = 0; (await status()).status !== 'streaming'; i++) {
      if (i > 300) throw new Error(`never streaming: ${JSON.stringify(await status())}`);
      await sleep(100);
    }
    expect((await status()).snapshot_rows).toBe(3);

    await mariadb(
      `insert into accounts values (4, 'dan', 40, '2024-01-04 00:00:00', 'fourth')`,
      `update accounts set balance = balance + 1, note = 'changed' where id = 1`,
      'delete from accounts where id = 2',
      'update accounts set id = 30 where id = 3',
      `begin`,
      `insert into accounts values (5, 'eve', 50, now(6), 'tx')`,
      `update accounts set owner = 'eve 2' where id = 5`,
      `commit`,
      `begin`,
      `insert into accounts values (6, 'rolled back', 0, now(6), null)`,
      `rollback`,
      'alter table accounts add column tier varchar(10)',
      `insert into accounts values (7, 'fay', 70, '2024-01-07 00:00:00', null, 'gold')`,
    );
    const sourceRows = async () => {
      const conn = await mysql.createConnection({ ...mysqlConfig, database, dateStrings: true });
      try {
        const [rows] = await conn.query(
          'select id, owner, cast(balance as char) as balance, date_format(opened, "%Y-%m-%dT%H:%i:%s.%f") as opened, note, tier from accounts order by id',
        );
        return rows as Array<Record<string, unknown>>;
      } finally {
        await conn.end();
      }
    };
    const destinationRows = async () =>
      (
        await query(
          destination.url,
          `select id, owner, balance::text as balance, to_char(opened, 'YYYY-MM-DD"T"HH24:MI:SS.US') as opened, note, tier from accounts order by id`,
        ).catch(() => ({ rows: [] }))
      ).rows;
    let expected = await sourceRows();
    expect(expected.map((r) => r['id'])).toEqual([1, 4, 5, 7, 30]);
    const deadline = Date.now() + 30_000;
    let actual: Array<Record<string, unknown>> = [];
    while (Date.now() < deadline) {
      actual = await destinationRows();
      if (JSON.stringify(actual) === JSON.stringify(expected)) break;
      await sleep(200);
    }
    expect(actual).toEqual(expected);

    await mariadb('truncate table accounts', `insert into accounts (id, owner) values (100, 'after truncate')`);
    expected = await sourceRows();
    const until = Date.now() + 30_000;
    while (Date.now() < until && JSON.stringify(await destinationRows()) !== JSON.stringify(expected)) await sleep(200);
    expect(await destinationRows()).toEqual(expected);
    expect((await status()).last_position).toMatch(/^[\w.-]+:\d+/);
    expect(await api(t, 'DELETE', `/api/v1/cdc-tables/${id}`, { token: admin }).then((r) => r.status)).toBe(204);
  });
});
