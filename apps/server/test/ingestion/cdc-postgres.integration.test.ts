/**
 * CDC tables from PostgreSQL (logical replication) into PostgreSQL, against the machine's server with
 * wal_level=logical: snapshot then streaming, TOASTed values, truncate, an added column, a dropped
 * one, a worker killed mid-stream while a writer keeps going, slot clean-up, and the live log tail.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EventSource } from 'eventsource';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { runCli, type CliProcess } from '../support/cli.js';
import { adminLogin, api, createApiToken, createProject } from '../support/http.js';
import { checksum, createPostgresConnector, query } from '../support/runs.js';
import { TEST_REDIS_URL, createTestDatabase, uniqueName, type TestDatabase } from '../support/services.js';

interface CdcTable {
  id: string;
  status: string;
  desired_state: string;
  last_position: string | null;
  changes_applied: number;
  snapshot_rows: number | null;
  last_error: string | null;
  lag_seconds: number | null;
  reader: string | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('CDC tables from PostgreSQL', () => {
  const encryptionKey = randomBytes(32).toString('base64');
  const redisKeyPrefix = uniqueName('svccdc');
  const env = {
    ...NO_RATE_LIMITS,
    SVC_ENCRYPTION_KEY: encryptionKey,
    SVC_CDC_LEASE_SECONDS: '3',
    SVC_CDC_SOURCE_HEARTBEAT_SECONDS: '1',
    SVC_SSE_HEARTBEAT_SECONDS: '1',
  };
  let framework: TestDatabase;
  let source: TestDatabase;
  let destination: TestDatabase;
  let t: TestApp;
  let admin: string;
  let projectId: string;
  let sourceId: string;
  let destinationId: string;
  const workers: CliProcess[] = [];
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    framework = await createTestDatabase();
    source = await createTestDatabase();
    destination = await createTestDatabase();
    // The API process has no worker: CDC tables are read by worker processes started per test.
    t = await startTestApp({ database: framework, redisKeyPrefix, env });
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
    sourceId = await createPostgresConnector(t, admin, projectId, 'source', source.name);
    destinationId = await createPostgresConnector(t, admin, projectId, 'destination', destination.name);
  });
  afterAll(async () => {
    for (const worker of workers) worker.child.kill('SIGKILL');
    for (const cleanup of cleanups.splice(0)) await cleanup();
    await t?.close();
    // Slots left by a failed test would hold WAL: drop them with the databases.
    await query(
      framework.url.replace(/\/[^/]*$/, '/postgres'),
      `select pg_drop_replication_slot(slot_name) from pg_replication_slots where database = $1 and not active`,
      [source.name],
    ).catch(() => undefined);
    await framework?.drop();
    await source?.drop();
    await destination?.drop();
  });

  // A test that fails must not leave its worker reading the next test's tables.
  afterEach(async () => {
    for (const worker of workers.splice(0)) {
      if (worker.child.exitCode === null && worker.child.signalCode === null) {
        worker.child.kill('SIGTERM');
        await worker.exited;
      }
    }
  });

  const startWorker = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-cdc-worker-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const worker = runCli(['worker'], {
      ...env,
      SVC_DATABASE_URL: framework.url,
      SVC_REDIS_URL: TEST_REDIS_URL,
      SVC_REDIS_KEY_PREFIX: `${redisKeyPrefix}:`,
      SVC_DATA_DIR: dir,
      SVC_LOG_LEVEL: 'warn',
    });
    workers.push(worker);
    return worker;
  };
  const create = async (name: string, table: string, target: string, mode: 'mirror' | 'changelog' = 'mirror') => {
    const created = await api<CdcTable>(t, 'POST', '/api/v1/cdc-tables', {
      token: admin,
      body: {
        project_id: projectId,
        name,
        source: { connector_id: sourceId, table },
        destination: { connector_id: destinationId, table: target },
        mode,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  };
  const get = async (id: string) => (await api<CdcTable>(t, 'GET', `/api/v1/cdc-tables/${id}`, { token: admin })).body;
  const waitFor = async (id: string, predicate: (row: CdcTable) => boolean, what: string, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const row = await get(id);
      if (predicate(row)) return row;
      if (Date.now() > deadline) throw new Error(`CDC table never ${what}: ${JSON.stringify(row)}`);
      await sleep(200);
    }
  };
  const waitEqual = async (sourceTable: string, targetTable: string, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [expected, actual] = await Promise.all([
        checksum(source.url, sourceTable),
        checksum(destination.url, targetTable).catch(() => ({ rows: -1, md5: '' })),
      ]);
      if (expected.md5 === actual.md5 && expected.rows === actual.rows) return expected;
      if (Date.now() > deadline) {
        const rowsOf = async (url: string, table: string) =>
          new Set((await query(url, `select t::text as row from ${table} t`)).rows.map((r) => r.row as string));
        const [want, have] = await Promise.all([rowsOf(source.url, sourceTable), rowsOf(destination.url, targetTable)]);
        const missing = [...want]
          .filter((r) => !have.has(r))
          .slice(0, 3)
          .map((r) => r.slice(0, 300));
        const extra = [...have]
          .filter((r) => !want.has(r))
          .slice(0, 3)
          .map((r) => r.slice(0, 300));
        throw new Error(
          `${targetTable} never equalled ${sourceTable}: ${JSON.stringify({ expected, actual, missing, extra })}`,
        );
      }
      await sleep(200);
    }
  };
  /** Random text that compresses badly, so PostgreSQL stores it out of line (TOAST). */
  const bigText = `(select string_agg(md5(random()::text || g::text), '') from generate_series(1, 400) g)`;

  it(
    'snapshots, then streams inserts, updates, deletes, large TOASTed values and truncate',
    { timeout: 120_000 },
    async () => {
      await query(
        source.url,
        'create table accounts (id bigint primary key, owner text, balance numeric(12,2), doc jsonb, notes text, updated timestamptz default now())',
      );
      await query(
        source.url,
        `insert into accounts (id, owner, balance, doc, notes) select g, 'owner ' || g, g * 1.5, jsonb_build_object('g', g), case when g % 10 = 0 then ${bigText} end from generate_series(1, 500) g`,
      );
      const worker = await startWorker();
      const cdc = await create('accounts', 'accounts', 'accounts_mirror');
      await waitFor(cdc.id, (r) => r.status === 'streaming', 'streamed');
      expect((await get(cdc.id)).snapshot_rows).toBe(500);
      await waitEqual('accounts', 'accounts_mirror');

      await query(
        source.url,
        `insert into accounts (id, owner, balance, notes) select g, 'new ' || g, 1, ${bigText} from generate_series(501, 520) g`,
      );
      await query(source.url, `update accounts set balance = balance + 1 where id <= 100`); // the TOASTed notes of ids 10..100 are not sent again
      await query(source.url, `update accounts set notes = ${bigText} where id = 20`);
      await query(source.url, `delete from accounts where id between 200 and 260`);
      await query(source.url, `update accounts set id = 10000 where id = 300`); // a key change
      await query(
        source.url,
        `begin; insert into accounts (id, owner) values (9001, 'tx'); update accounts set owner = 'tx2' where id = 9001; commit`,
      );
      await query(source.url, `begin; insert into accounts (id, owner) values (9002, 'rolled back'); rollback`);
      await waitEqual('accounts', 'accounts_mirror');
      const notes = await query(
        destination.url,
        `select count(*)::int as n from accounts_mirror where notes is not null and length(notes) = 12800`,
      );
      expect(notes.rows[0].n).toBe(50 - 7 + 20); // every tenth of 1..500, less those deleted (200..260), plus the 20 new ones

      await query(source.url, 'truncate accounts');
      await query(source.url, `insert into accounts (id, owner) values (1, 'after truncate')`);
      await waitEqual('accounts', 'accounts_mirror');
      const row = await waitFor(cdc.id, (r) => r.changes_applied > 0 && r.lag_seconds !== null, 'reported progress');
      expect(row.last_position).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
      const metrics = await (await fetch(`${t.url}/metrics`)).text();
      expect(metrics).toMatch(new RegExp(`svc_cdc_lag_seconds\\{cdc_table="${cdc.id}"\\} \\d`));
      expect(metrics).toMatch(new RegExp(`svc_cdc_changes_applied_total\\{cdc_table="${cdc.id}"\\} [1-9]`));
      await api(t, 'POST', `/api/v1/cdc-tables/${cdc.id}/stop`, { token: admin });
      await waitFor(cdc.id, (r) => r.status === 'paused', 'paused');
      worker.child.kill('SIGTERM');
      await worker.exited;
    },
  );

  it('appends every change in changelog mode, with operation and position', { timeout: 120_000 }, async () => {
    await query(source.url, 'create table events (id int primary key, kind text)');
    await query(source.url, `insert into events values (1, 'a'), (2, 'b')`);
    const worker = await startWorker();
    const cdc = await create('events log', 'events', 'events_log', 'changelog');
    await waitFor(cdc.id, (r) => r.status === 'streaming', 'streamed');
    await query(source.url, `update events set kind = 'c' where id = 1`);
    await query(source.url, `delete from events where id = 2`);
    await query(source.url, `insert into events values (3, 'd')`);
    const deadline = Date.now() + 30_000;
    let rows: Array<{ id: number; kind: string | null; _svc_op: string; _svc_position: string }> = [];
    while (Date.now() < deadline && rows.length < 5) {
      rows = (
        await query(
          destination.url,
          'select id, kind, _svc_op, _svc_position from events_log order by _svc_position::pg_lsn, _svc_seq, id',
        ).catch(() => ({ rows: [] }))
      ).rows;
      await sleep(200);
    }
    expect(rows.map((r) => [r._svc_op, r.id, r.kind])).toEqual([
      ['snapshot', 1, 'a'],
      ['snapshot', 2, 'b'],
      ['update', 1, 'c'],
      ['delete', 2, null],
      ['insert', 3, 'd'],
    ]);
    worker.child.kill('SIGTERM');
    await worker.exited;
  });

  it(
    'follows an added column, and stops with a clear status on a dropped one; refuses a table without a primary key',
    { timeout: 120_000 },
    async () => {
      await query(source.url, 'create table items (id int primary key, name text)');
      await query(source.url, `insert into items values (1, 'one')`);
      await query(source.url, 'create table no_key (id int, name text)');
      const worker = await startWorker();
      const cdc = await create('items', 'items', 'items_mirror');
      await waitFor(cdc.id, (r) => r.status === 'streaming', 'streamed');
      await query(source.url, 'alter table items add column price numeric(8,2)');
      await query(source.url, `insert into items values (2, 'two', 9.99)`);
      await query(source.url, `update items set price = 1.5 where id = 1`);
      await waitEqual('items', 'items_mirror');

      await query(source.url, 'alter table items drop column name');
      await query(source.url, `insert into items values (3, 2.5)`);
      const failed = await waitFor(cdc.id, (r) => r.status === 'failed', 'failed');
      expect(failed.last_error).toMatch(/column "name" was dropped.*resync/);
      expect(failed.desired_state).toBe('stopped');
      // Nothing was lost: the destination keeps the column and its values.
      expect((await query(destination.url, 'select name from items_mirror order by id')).rows).toEqual([
        { name: 'one' },
        { name: 'two' },
      ]);
      await api(t, 'POST', `/api/v1/cdc-tables/${cdc.id}/resync`, { token: admin });
      await waitFor(cdc.id, (r) => r.status === 'streaming' && r.snapshot_rows === 3, 'resynced');
      await waitEqual('items', 'items_mirror');

      const keyless = await create('no key', 'no_key', 'no_key_mirror');
      const refused = await waitFor(keyless.id, (r) => r.status === 'failed', 'failed');
      expect(refused.last_error).toMatch(/has no primary key.*add a primary key/);
      worker.child.kill('SIGTERM');
      await worker.exited;
    },
  );

  it(
    'recovers from a worker killed mid-stream while a writer keeps changing the source: equal by checksum',
    { timeout: 180_000 },
    async () => {
      await query(source.url, 'create table orders (id int primary key, qty int, note text)');
      await query(source.url, `insert into orders select g, g, 'n' || g from generate_series(1, 1000) g`);
      const first = await startWorker();
      const cdc = await create('orders', 'orders', 'orders_mirror');
      await waitFor(cdc.id, (r) => r.status === 'streaming', 'streamed');
      const readerBefore = (await get(cdc.id)).reader;
      expect(readerBefore).not.toBeNull();

      let writing = true;
      let writes = 0;
      const writer = (async () => {
        let n = 1000;
        while (writing) {
          n += 1;
          await query(
            source.url,
            `begin; insert into orders values (${n}, ${n}, 'w'); update orders set qty = qty + 1 where id = ${(n % 1000) + 1}; delete from orders where id = ${n - 500}; commit`,
          );
          writes += 1;
          await sleep(5);
        }
      })();
      cleanups.unshift(async () => {
        writing = false;
        await writer.catch(() => undefined);
      });
      await sleep(2_000);
      expect(readerBefore).toMatch(new RegExp(`^${first.child.pid}-`));
      first.child.kill('SIGKILL');
      await first.exited;
      await sleep(1_000);
      const second = await startWorker();
      const takenOver = await waitFor(
        cdc.id,
        (r) => r.reader !== null && r.reader !== readerBefore,
        'taken over',
        30_000,
      );
      expect(takenOver.reader).not.toBe(readerBefore);
      await sleep(2_000);
      writing = false;
      await writer;
      expect(writes).toBeGreaterThan(50);
      await waitEqual('orders', 'orders_mirror', 60_000);
      second.child.kill('SIGTERM');
      await second.exited;
    },
  );

  it(
    'streams its log live over SSE to an EventSource with the access token, resumes with Last-Event-ID, refuses a personal token, and drops the slot on delete',
    { timeout: 120_000 },
    async () => {
      await query(source.url, 'create table pings (id int primary key)');
      const cdc = await create('pings', 'pings', 'pings_mirror');
      const url = `${t.url}/api/v1/cdc-tables/${cdc.id}/logs/stream`;

      const received: Array<{ id: string; message: string }> = [];
      const source1 = new EventSource(`${url}?token=${encodeURIComponent(admin)}`);
      source1.addEventListener('log', (event) =>
        received.push({ id: event.lastEventId, ...(JSON.parse(event.data) as { message: string }) }),
      );
      // The worker is another process: its lines reach this API process through Redis.
      const worker = await startWorker();
      await waitFor(cdc.id, (r) => r.status === 'streaming', 'streamed');
      const deadline = Date.now() + 20_000;
      while (!received.some((l) => /snapshot loaded/.test(l.message)) && Date.now() < deadline) await sleep(100);
      source1.close();
      expect(received.map((l) => l.message)).toEqual(
        expect.arrayContaining([expect.stringMatching(/took over/), expect.stringMatching(/snapshot loaded: 0 rows/)]),
      );
      const ids = received.map((l) => BigInt(l.id));
      expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

      // Resume: only lines after the given id, from the stored history. An EventSource sends
      // Last-Event-ID when it reconnects; this one sends it from the start, through its fetch.
      const resumeAfter = received[0]!.id;
      await api(t, 'POST', `/api/v1/cdc-tables/${cdc.id}/stop`, { token: admin });
      const again: Array<{ id: string; message: string }> = [];
      const source2 = new EventSource(`${url}?token=${encodeURIComponent(admin)}`, {
        fetch: (input, init) =>
          fetch(input, {
            ...init,
            headers: { ...(init?.headers as Record<string, string>), 'last-event-id': resumeAfter },
          }),
      });
      source2.addEventListener('log', (event) =>
        again.push({ id: event.lastEventId, ...(JSON.parse(event.data) as { message: string }) }),
      );
      const resumeDeadline = Date.now() + 10_000;
      while (!again.some((l) => /stop requested/.test(l.message)) && Date.now() < resumeDeadline) await sleep(100);
      source2.close();
      expect(again.length).toBeGreaterThan(0);
      expect(again.every((l) => BigInt(l.id) > BigInt(resumeAfter))).toBe(true);
      expect(again.map((l) => l.id)).toEqual(expect.arrayContaining(received.slice(1).map((l) => l.id)));
      expect(again.map((l) => l.message)).toContainEqual(expect.stringMatching(/stop requested/));
      const resumed = await fetch(`${url}?token=${encodeURIComponent(admin)}`, {
        headers: { 'last-event-id': resumeAfter },
      });
      expect(resumed.status).toBe(200);
      expect(resumed.headers.get('content-type')).toMatch(/text\/event-stream/);
      const reader = resumed.body!.getReader();
      let text = '';
      const until = Date.now() + 10_000;
      while (!/stop requested/.test(text) || !/heartbeat/.test(text)) {
        if (Date.now() > until) break;
        const { value, done } = await reader.read();
        if (done) break;
        text += Buffer.from(value).toString();
      }
      await reader.cancel();
      const resumedIds = [...text.matchAll(/^id: (\d+)$/gm)].map((m) => m[1]);
      expect(resumedIds.length).toBeGreaterThan(0);
      expect(resumedIds.every((id) => BigInt(id!) > BigInt(resumeAfter))).toBe(true);
      expect(text).toMatch(/stop requested/);
      expect(text).toMatch(/^: heartbeat$/m);

      const renamed = await api<{ name: string }>(t, 'PATCH', `/api/v1/cdc-tables/${cdc.id}`, {
        token: admin,
        body: { name: 'pings renamed' },
      });
      expect(renamed.body.name).toBe('pings renamed');
      const listed = await api<{ items: Array<{ id: string }> }>(
        t,
        'GET',
        `/api/v1/cdc-tables?project_id=${projectId}`,
        { token: admin },
      );
      expect(listed.body.items.map((c) => c.id)).toContain(cdc.id);
      const personal = await createApiToken(t, admin, { scope: 'read' });
      expect((await fetch(`${url}?token=${personal.token}`)).status).toBe(401);
      expect((await fetch(url)).status).toBe(401);
      // The history route has the same lines.
      const history = await api<{ items: Array<{ id: string; message: string }> }>(
        t,
        'GET',
        `/api/v1/cdc-tables/${cdc.id}/logs`,
        { token: admin },
      );
      expect(history.body.items.map((l) => l.id)).toEqual(expect.arrayContaining(received.map((l) => l.id)));

      await waitFor(cdc.id, (r) => r.status === 'paused', 'paused');
      const slotName = `svc_cdc_${cdc.id.replaceAll('-', '')}`;
      const slots = async () =>
        (
          await query(source.url, 'select count(*)::int as n from pg_replication_slots where slot_name = $1', [
            slotName,
          ])
        ).rows[0].n as number;
      expect(await slots()).toBe(1);
      expect((await api(t, 'DELETE', `/api/v1/cdc-tables/${cdc.id}`, { token: admin })).status).toBe(204);
      expect(await slots()).toBe(0);
      expect(
        (await query(source.url, `select count(*)::int as n from pg_publication where pubname = $1`, [slotName]))
          .rows[0].n,
      ).toBe(0);
      expect((await get(cdc.id)).status).toBeUndefined();
      worker.child.kill('SIGTERM');
      await worker.exited;
    },
  );
});
