import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject } from '../support/http.js';
import { checksum, query, waitForStatus, type Execution } from '../support/runs.js';
import { TEST_DATABASE_URL, createTestDatabase, type TestDatabase } from '../support/services.js';

describe('sync runs', () => {
  let t: TestApp;
  let admin: string;
  let source: TestDatabase;
  let destination: TestDatabase;
  let projectId: string;
  let sourceId: string;
  let destinationId: string;

  beforeAll(async () => {
    // Runs read their cancel flag in the database only every minute here: a cancel within 5 s came by pub/sub.
    t = await startTestApp({ env: { ...NO_RATE_LIMITS, SVC_RUN_CANCEL_POLL_SECONDS: '60' }, worker: true });
    admin = (await adminLogin(t)).accessToken;
    source = await createTestDatabase();
    destination = await createTestDatabase();
    const url = new URL(TEST_DATABASE_URL);
    const config = (database: string) => ({
      host: url.hostname,
      port: Number(url.port || 5432),
      database,
      user: decodeURIComponent(url.username),
      password: 'unused',
    });
    projectId = (await createProject(t, admin)).id;
    const create = async (name: string, database: string) =>
      (
        await api<{ id: string }>(t, 'POST', '/api/v1/data-connectors', {
          token: admin,
          body: { project_id: projectId, name, kind: 'postgres', config: config(database) },
        })
      ).body.id;
    sourceId = await create('source', source.name);
    destinationId = await create('destination', destination.name);
    await query(
      source.url,
      `create table orders (id bigint primary key, customer text, amount numeric(12,2), placed timestamptz, meta jsonb)`,
    );
    await query(
      source.url,
      `insert into orders select g, 'c' || (g % 97), g * 1.25, timestamptz '2024-01-01' + g * interval '1 minute', jsonb_build_object('g', g) from generate_series(1, 5000) g`,
    );
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
    await destination?.drop();
  });

  const start = (streams: unknown[]) =>
    api<Execution>(t, 'POST', '/api/v1/executions', {
      token: admin,
      body: {
        kind: 'sync',
        project_id: projectId,
        source_connector_id: sourceId,
        destination_connector_id: destinationId,
        streams,
      },
    });

  it('copies a table in full: the destination equals the source, counters and logs tell the run', async () => {
    const started = await start([{ name: 'orders', mode: 'overwrite' }]);
    expect(started.status).toBe(201);
    expect(started.body.status).toBe('queued');
    const done = await waitForStatus(t, admin, started.body.id, ['succeeded', 'failed']);
    expect(done).toMatchObject({ status: 'succeeded', rows_read: 5000, rows_written: 5000, error: null });
    const detail = await api<{ bytes_read: number; bytes_written: number }>(t, 'GET', `/api/v1/executions/${done.id}`, {
      token: admin,
    });
    expect(detail.body.bytes_read).toBeGreaterThan(5000 * 20);
    expect(detail.body.bytes_written).toBe(detail.body.bytes_read);
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).toMatch(/svc_rows_moved_total\{direction="written"\} [1-9]\d*/);
    expect(metrics).toMatch(/svc_executions\{status="succeeded"\} [1-9]/);
    expect(metrics).toMatch(/svc_job_queue_depth\{state="queued"\} \d+/);
    expect(metrics).toMatch(/svc_job_duration_seconds_count\{kind="sync",outcome="done"\} [1-9]/);
    expect(await checksum(destination.url, 'orders')).toEqual(await checksum(source.url, 'orders'));
    const logs = await api<{ items: Array<{ message: string }> }>(t, 'GET', `/api/v1/executions/${done.id}/logs`, {
      token: admin,
    });
    expect(logs.body.items.map((l) => l.message)).toEqual(
      expect.arrayContaining(['sync succeeded', expect.stringMatching(/orders: 5000 rows read, 5000 written/)]),
    );
    const lineage = await query(
      t.config.db.url!,
      'select source_connector_id, source_name, destination_connector_id, destination_name, rows_written::int from lineage_edges where execution_id = $1',
      [done.id],
    );
    expect(lineage.rows).toEqual([
      {
        source_connector_id: sourceId,
        source_name: 'orders',
        destination_connector_id: destinationId,
        destination_name: 'orders',
        rows_written: 5000,
      },
    ]);
  });

  it('copies a CSV file with COPY ... CSV, and reads it as batches when the server refuses a row', async () => {
    const folder = path.join(t.config.files.root ?? path.join(t.config.dataDir, 'files'), projectId, 'csv_in');
    await mkdir(folder, { recursive: true });
    const rows = ['id,name,amount,at'];
    for (let i = 1; i <= 1500; i++)
      rows.push(`${i},"n, ${i}",${i}.25,2024-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`);
    await writeFile(path.join(folder, 'clean.csv'), `${rows.join('\n')}\n`);
    // Past the inference sample: a quoted empty integer, null on the batch path, refused by COPY.
    rows[1200] = '1200,"n, 1200","",2024-01-01T00:00:00Z';
    await writeFile(path.join(folder, 'late.csv'), `${rows.join('\n')}\n`);
    const files = (
      await api<{ id: string }>(t, 'POST', '/api/v1/data-connectors', {
        token: admin,
        body: { project_id: projectId, name: 'csv files', kind: 'files', config: { path: 'csv_in', format: 'csv' } },
      })
    ).body.id;
    const run = async (name: string) => {
      const started = await api<Execution>(t, 'POST', '/api/v1/executions', {
        token: admin,
        body: {
          kind: 'sync',
          project_id: projectId,
          source_connector_id: files,
          destination_connector_id: destinationId,
          streams: [{ name, destination_name: `csv_${name}`, mode: 'overwrite' }],
        },
      });
      const done = await waitForStatus(t, admin, started.body.id, ['succeeded', 'failed']);
      const logs = await api<{ items: Array<{ message: string }> }>(t, 'GET', `/api/v1/executions/${done.id}/logs`, {
        token: admin,
      });
      return { done, messages: logs.body.items.map((l) => l.message) };
    };
    const clean = await run('clean');
    expect(clean.done).toMatchObject({ status: 'succeeded', rows_read: 1500, rows_written: 1500 });
    expect(clean.messages).toEqual(
      expect.arrayContaining([expect.stringMatching(/clean: 1500 rows read, 1500 written \(overwrite, bulk copy\)/)]),
    );
    const late = await run('late');
    expect(late.done).toMatchObject({ status: 'succeeded', rows_read: 1500, rows_written: 1500 });
    expect(late.messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/refused the file as CSV .*line 1201, column amount.*reading it as batches/),
        expect.stringMatching(/late: 1500 rows read, 1500 written \(overwrite\)$/),
      ]),
    );
    const loaded = await query(
      destination.url,
      `select count(*)::int as n, count(amount)::int as amounts, min(at)::text as first, max(name) as name from csv_clean`,
    );
    expect(loaded.rows[0]).toEqual({ n: 1500, amounts: 1500, first: '2024-01-01 00:00:00+00', name: 'n, 999' });
    expect((await query(destination.url, 'select amount from csv_late where id = 1200')).rows[0].amount).toBeNull();
  });

  it('copies a MariaDB table into PostgreSQL with the bulk path, every value as the batch path loads it', async () => {
    const mysqlUrl = new URL(process.env['SVC_TEST_MYSQL_URL'] ?? 'mysql://root@127.0.0.1:3306');
    const mysqlConfig = {
      host: mysqlUrl.hostname,
      port: Number(mysqlUrl.port || 3306),
      user: decodeURIComponent(mysqlUrl.username),
      password: decodeURIComponent(mysqlUrl.password),
    };
    const database = `svc_sync_${randomBytes(5).toString('hex')}`;
    const conn = await mysql.createConnection({ ...mysqlConfig, multipleStatements: true });
    try {
      await conn.query(`create database \`${database}\` character set utf8mb4; use \`${database}\`; set sql_mode = ''`);
      await conn.query(`create table items (
        id int primary key, flag tinyint(1), bits bit(3), big bigint unsigned, yr year, f float, d double,
        amount decimal(30,10), label text, day date, clock time(3), at datetime(6), stamp timestamp null,
        doc json, raw varbinary(8))`);
      await conn.query(`insert into items values
        (1, 1, b'101', 18446744073709551615, 2024, 0.1, 0.30000000000000004, 12345678901234567890.0123456789,
         'tab\\there\\nline \\\\ 😀', '2024-02-29', '12:34:56.5', '2024-02-29 23:59:59.000001', '2024-03-10 02:30:00',
         '{"big": 123456789012345678901234567890, "e": 1e400}', x'005c0a'),
        (2, 0, b'0', 0, 0, -1.5, -1e308, 0, '', '0000-00-00', '00:00:00', '0000-00-00 00:00:00', null, 'null', x''),
        (3, null, null, null, null, null, null, null, null, null, null, null, null, null, null)`);
      await conn.query(
        `insert into items (id, label, doc) select seq, concat('row ', seq), json_object('g', seq) from seq_4_to_3000`,
      );
      const mariadb = (
        await api<{ id: string }>(t, 'POST', '/api/v1/data-connectors', {
          token: admin,
          body: { project_id: projectId, name: 'mariadb', kind: 'mysql', config: { ...mysqlConfig, database } },
        })
      ).body.id;
      const run = async (stream: Record<string, unknown>) => {
        const started = await api<Execution>(t, 'POST', '/api/v1/executions', {
          token: admin,
          body: {
            kind: 'sync',
            project_id: projectId,
            source_connector_id: mariadb,
            destination_connector_id: destinationId,
            streams: [stream],
          },
        });
        const done = await waitForStatus(t, admin, started.body.id, ['succeeded', 'failed']);
        const logs = await api<{ items: Array<{ message: string }> }>(t, 'GET', `/api/v1/executions/${done.id}/logs`, {
          token: admin,
        });
        return { done, messages: logs.body.items.map((l) => l.message) };
      };
      const bulk = await run({ name: 'items', destination_name: 'items_bulk', mode: 'overwrite' });
      expect(bulk.done).toMatchObject({ status: 'succeeded', rows_read: 3000, rows_written: 3000 });
      expect(bulk.messages).toEqual(
        expect.arrayContaining([expect.stringMatching(/items: 3000 rows read, 3000 written \(overwrite, bulk copy\)/)]),
      );
      // A cursor column takes the batch path.
      const batch = await run({ name: 'items', destination_name: 'items_batch', mode: 'append', cursor_column: 'id' });
      expect(batch.done).toMatchObject({ status: 'succeeded', rows_read: 3000, rows_written: 3000 });
      expect(batch.messages.some((m) => m.includes('bulk copy'))).toBe(false);
      const differ = await query(
        destination.url,
        `with a as (select t::text as r from items_bulk t), b as (select t::text as r from items_batch t)
         select count(*)::int as n from ((table a except all table b) union all (table b except all table a)) d`,
      );
      expect(differ.rows[0].n).toBe(0);
      const first = await query(
        destination.url,
        `select flag, encode(bits, 'hex') as bits, big::text, yr, f::text, d::text, amount::text, label, day::text,
                clock::text, at::text, stamp::text, doc::text, encode(raw, 'hex') as raw from items_bulk where id in (1, 2) order by id`,
      );
      expect(first.rows).toEqual([
        {
          flag: true,
          bits: '05',
          big: '18446744073709551615',
          yr: 2024,
          f: '0.1',
          d: '0.30000000000000004',
          amount: '12345678901234567890.0123456789',
          label: 'tab\there\nline \\ 😀',
          day: '2024-02-29',
          clock: '12:34:56.5',
          at: '2024-02-29 23:59:59.000001',
          stamp: '2024-03-10 02:30:00+00',
          doc: '{"big": 123456789012345678901234567890, "e": 1e400}',
          raw: '005c0a',
        },
        {
          flag: false,
          bits: '00',
          big: '0',
          yr: 0,
          f: '-1.5',
          d: '-1e+308',
          amount: '0.0000000000',
          label: '',
          day: null,
          clock: '00:00:00',
          at: null,
          stamp: null,
          doc: 'null',
          raw: '',
        },
      ]);
    } finally {
      await conn.query(`drop database if exists \`${database}\``);
      await conn.end();
    }
  });

  it('runs incrementally on a cursor column: the second run moves only the new rows', async () => {
    const first = await start([
      { name: 'orders', destination_name: 'orders_log', mode: 'append', cursor_column: 'id' },
    ]);
    const firstDone = await waitForStatus(t, admin, first.body.id, ['succeeded', 'failed']);
    expect(firstDone).toMatchObject({ status: 'succeeded', rows_read: 5000 });
    const firstDetail = await api<{ bytes_read: number; bytes_written: number }>(
      t,
      'GET',
      `/api/v1/executions/${first.body.id}`,
      { token: admin },
    );
    expect(firstDetail.body.bytes_read).toBeGreaterThan(0);
    expect(firstDetail.body.bytes_written).toBeGreaterThan(0);
    await query(source.url, `insert into orders select g, 'new', 1, now(), '{}' from generate_series(5001, 5030) g`);
    const second = await start([
      { name: 'orders', destination_name: 'orders_log', mode: 'append', cursor_column: 'id' },
    ]);
    expect(await waitForStatus(t, admin, second.body.id, ['succeeded', 'failed'])).toMatchObject({
      status: 'succeeded',
      rows_read: 30,
      rows_written: 30,
    });
    const third = await start([
      { name: 'orders', destination_name: 'orders_log', mode: 'append', cursor_column: 'id' },
    ]);
    expect(await waitForStatus(t, admin, third.body.id, ['succeeded', 'failed'])).toMatchObject({
      status: 'succeeded',
      rows_read: 0,
    });
    expect(await checksum(destination.url, 'orders_log')).toEqual(await checksum(source.url, 'orders'));
  });

  it('upserts on key columns', async () => {
    const first = await start([
      { name: 'orders', destination_name: 'orders_upsert', mode: 'upsert', key_columns: ['id'] },
    ]);
    await waitForStatus(t, admin, first.body.id, ['succeeded']);
    await query(source.url, `update orders set customer = 'changed' where id <= 10`);
    const second = await start([
      { name: 'orders', destination_name: 'orders_upsert', mode: 'upsert', key_columns: ['id'] },
    ]);
    await waitForStatus(t, admin, second.body.id, ['succeeded']);
    expect(await checksum(destination.url, 'orders_upsert')).toEqual(await checksum(source.url, 'orders'));
  });

  it('refuses bad requests: 422 naming the field', async () => {
    const noKeys = await start([{ name: 'orders', mode: 'upsert' }]);
    expect(noKeys.status).toBe(422);
    expect(noKeys.body).toMatchObject({ errors: [expect.objectContaining({ path: 'streams.0.key_columns' })] });
    const other = await createProject(t, admin);
    const wrongProject = await api(t, 'POST', '/api/v1/executions', {
      token: admin,
      body: {
        kind: 'sync',
        project_id: other.id,
        source_connector_id: sourceId,
        destination_connector_id: destinationId,
        streams: [{ name: 'orders', mode: 'append' }],
      },
    });
    expect(wrongProject.status).toBe(422);
  });

  it('fails a run whose source table is missing, with the cause, and retries it as a new execution', async () => {
    const started = await start([{ name: 'no_such_table', mode: 'append' }]);
    const failed = await waitForStatus(t, admin, started.body.id, ['failed', 'succeeded']);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/does not exist/);
    await query(source.url, 'create table no_such_table (id int)');
    const retried = await api<Execution & { retry_of: string }>(t, 'POST', `/api/v1/executions/${failed.id}/retry`, {
      token: admin,
    });
    expect(retried.status).toBe(201);
    expect(retried.body.retry_of).toBe(failed.id);
    expect((await waitForStatus(t, admin, retried.body.id, ['succeeded', 'failed'])).status).toBe('succeeded');
    expect((await api(t, 'POST', `/api/v1/executions/${retried.body.id}/retry`, { token: admin })).status).toBe(409);
  });

  it('cancels a running execution within 5 s, and lists and filters executions', async () => {
    await query(
      source.url,
      `create view slow_rows as select g as id, pg_sleep(0.002)::text as pause from generate_series(1, 20000) g`,
    );
    const started = await start([{ name: 'slow_rows', mode: 'append' }]);
    await waitForStatus(t, admin, started.body.id, ['running']);
    await new Promise((r) => setTimeout(r, 500));
    const asked = Date.now();
    const cancelled = await api<Execution>(t, 'POST', `/api/v1/executions/${started.body.id}/cancel`, { token: admin });
    expect(cancelled.status).toBe(200);
    const final = await waitForStatus(t, admin, started.body.id, ['cancelled', 'failed', 'succeeded'], 10_000);
    expect(final.status).toBe('cancelled');
    expect(Date.now() - asked).toBeLessThan(5000);
    expect(await query(destination.url, `select to_regclass('slow_rows') as t`).then((r) => r.rows[0].t)).toBeNull();

    const list = await api<{ items: Execution[]; next_cursor: string | null }>(
      t,
      'GET',
      `/api/v1/executions?project_id=${projectId}&status=cancelled`,
      { token: admin },
    );
    expect(list.body.items.map((e) => e.id)).toEqual([started.body.id]);
    const page = await api<{ items: Execution[]; next_cursor: string | null }>(
      t,
      'GET',
      `/api/v1/executions?project_id=${projectId}&limit=2`,
      { token: admin },
    );
    expect(page.body.items).toHaveLength(2);
    const next = await api<{ items: Execution[] }>(
      t,
      'GET',
      `/api/v1/executions?project_id=${projectId}&limit=2&cursor=${page.body.next_cursor}`,
      { token: admin },
    );
    expect(next.body.items.map((e) => e.id)).not.toContain(page.body.items[0]!.id);
  });

  it('cancels every matching execution in one call (a runaway schedule)', async () => {
    const project = await createProject(t, admin);
    const url = new URL(TEST_DATABASE_URL);
    const config = {
      host: url.hostname,
      port: Number(url.port || 5432),
      database: source.name,
      user: decodeURIComponent(url.username),
      password: 'unused',
    };
    const src = (
      await api<{ id: string }>(t, 'POST', '/api/v1/data-connectors', {
        token: admin,
        body: { project_id: project.id, name: 'src', kind: 'postgres', config },
      })
    ).body.id;
    const dst = (
      await api<{ id: string }>(t, 'POST', '/api/v1/data-connectors', {
        token: admin,
        body: {
          project_id: project.id,
          name: 'dst',
          kind: 'postgres',
          config: { ...config, database: destination.name },
        },
      })
    ).body.id;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const started = await api<Execution>(t, 'POST', '/api/v1/executions', {
        token: admin,
        body: {
          kind: 'sync',
          project_id: project.id,
          source_connector_id: src,
          destination_connector_id: dst,
          streams: [{ name: 'slow_rows', destination_name: `runaway_${i}`, mode: 'append' }],
        },
      });
      ids.push(started.body.id);
    }
    await waitForStatus(t, admin, ids[0]!, ['running']);
    const result = await api<{ cancelled: number }>(t, 'POST', '/api/v1/executions/cancel', {
      token: admin,
      body: { project_id: project.id },
    });
    expect(result.status).toBe(200);
    expect(result.body.cancelled).toBe(3);
    for (const id of ids)
      expect((await waitForStatus(t, admin, id, ['cancelled', 'succeeded', 'failed'], 10_000)).status).toBe(
        'cancelled',
      );
    // Other projects' executions are untouched.
    expect(
      (
        await api<{ cancelled: number }>(t, 'POST', '/api/v1/executions/cancel', {
          token: admin,
          body: { project_id: project.id },
        })
      ).body.cancelled,
    ).toBe(0);
  });

  it('copies a table in parallel key ranges, each range its own job', async () => {
    await query(source.url, `create table wide (id int primary key, body text)`);
    await query(source.url, `insert into wide select g, md5(g::text) from generate_series(1, 40000) g`);
    const started = await start([{ name: 'wide', mode: 'append', ranges: 4, range_column: 'id' }]);
    expect(started.status).toBe(201);
    const done = await waitForStatus(t, admin, started.body.id, ['succeeded', 'failed']);
    expect(done).toMatchObject({ status: 'succeeded', rows_read: 40000, rows_written: 40000 });
    expect(await checksum(destination.url, 'wide')).toEqual(await checksum(source.url, 'wide'));
    const ranges = await query(
      t.config.db.url!,
      `select range_no, state, rows_written::int as rows from execution_ranges where execution_id = $1 order by range_no`,
      [done.id],
    );
    expect(ranges.rows).toEqual([0, 1, 2, 3].map((n) => ({ range_no: n, state: 'done', rows: 10000 })));
    const overwrite = await start([{ name: 'wide', mode: 'overwrite', ranges: 4, range_column: 'id' }]);
    expect(overwrite.status).toBe(422);
  });

  it('retries a failed range alone: the others are not copied twice', { timeout: 60_000 }, async () => {
    await query(source.url, `create table resumable (id int primary key, body text)`);
    await query(source.url, `insert into resumable select g, 'b' || g from generate_series(1, 8000) g`);
    // The destination refuses one row until the constraint goes: the range holding it fails.
    await query(
      destination.url,
      `create table resumable (id int primary key, body text, constraint not_yet check (id <> 7000))`,
    );
    const started = await start([{ name: 'resumable', mode: 'append', ranges: 4, range_column: 'id' }]);
    const deadline = Date.now() + 20_000;
    let failedOnce = false;
    while (!failedOnce && Date.now() < deadline) {
      const logs = await api<{ items: Array<{ message: string }> }>(
        t,
        'GET',
        `/api/v1/executions/${started.body.id}/logs`,
        { token: admin },
      );
      failedOnce = logs.body.items.some((l) => /will retry/.test(l.message));
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(failedOnce).toBe(true);
    await query(destination.url, `alter table resumable drop constraint not_yet`);
    const done = await waitForStatus(t, admin, started.body.id, ['succeeded', 'failed'], 40_000);
    expect(done).toMatchObject({ status: 'succeeded', rows_written: 8000 });
    expect(await checksum(destination.url, 'resumable')).toEqual(await checksum(source.url, 'resumable'));
    const markers = await query(destination.url, `select count(*)::int as n from _svc_runs where run_id like $1`, [
      `${started.body.id}:%`,
    ]);
    expect(markers.rows[0].n).toBe(4);
    const logs = await api<{ items: Array<{ message: string }> }>(
      t,
      'GET',
      `/api/v1/executions/${started.body.id}/logs`,
      { token: admin },
    );
    const rangeLines = logs.body.items.map((l) => l.message).filter((m) => /^range \d of resumable/.test(m));
    expect(rangeLines.filter((m) => m.startsWith('range 3')).some((m) => /attempt [2-9]/.test(m))).toBe(true);
    expect(rangeLines.filter((m) => !m.startsWith('range 3')).every((m) => /attempt 1\)/.test(m))).toBe(true);
  });

  it('a retried execution copies only the key ranges its predecessor had not finished', async () => {
    await query(source.url, `create table ranged_retry (id int primary key, body text)`);
    await query(source.url, `insert into ranged_retry select g, 'r' || g from generate_series(1, 4000) g`);
    const first = await start([{ name: 'ranged_retry', mode: 'append', ranges: 4, range_column: 'id' }]);
    const firstDone = await waitForStatus(t, admin, first.body.id, ['succeeded', 'failed']);
    expect(firstDone.status, JSON.stringify(firstDone)).toBe('succeeded');
    // As if range 2 had failed: its rows never committed, the execution ended failed.
    const range = await query(
      t.config.db.url!,
      `select range_from, range_to from execution_ranges where execution_id = $1 and range_no = 2`,
      [first.body.id],
    );
    const { range_from: from, range_to: to } = range.rows[0] as { range_from: string; range_to: string | null };
    await query(destination.url, `delete from ranged_retry where id >= $1 and ($2::int is null or id < $2::int)`, [
      from,
      to,
    ]);
    await query(
      t.config.db.url!,
      `update execution_ranges set state = 'pending' where execution_id = $1 and range_no = 2`,
      [first.body.id],
    );
    await query(t.config.db.url!, `update executions set status = 'failed' where id = $1`, [first.body.id]);

    const retried = await api<{ id: string }>(t, 'POST', `/api/v1/executions/${first.body.id}/retry`, { token: admin });
    expect(retried.status).toBe(201);
    const done = await waitForStatus(t, admin, retried.body.id, ['succeeded', 'failed']);
    expect(done.status).toBe('succeeded');
    expect(await checksum(destination.url, 'ranged_retry')).toEqual(await checksum(source.url, 'ranged_retry'));
    const copiedAgain = await query(destination.url, `select run_id from _svc_runs where run_id like $1`, [
      `${retried.body.id}:%`,
    ]);
    expect(copiedAgain.rows.map((r) => r.run_id)).toEqual([`${retried.body.id}:0:2`]);
  });
});
