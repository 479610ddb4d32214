import { createHmac, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { runCli, waitForHealth } from '../support/cli.js';
import { adminLogin, api, createProject } from '../support/http.js';
import { createPostgresConnector, query } from '../support/runs.js';
import { createTestDatabase, TEST_REDIS_URL, uniqueName, type TestDatabase } from '../support/services.js';

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

interface InboxRequest {
  id: string;
  status: string;
  reason: string | null;
  size: number;
  dedupe_hit: boolean;
  load_status: string | null;
  rows_loaded: number;
  replay_of: string | null;
}

describe('inboxes', () => {
  let t: TestApp;
  let admin: string;
  let destination: TestDatabase;
  let projectId: string;
  let connectorId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS, worker: true });
    admin = (await adminLogin(t)).accessToken;
    destination = await createTestDatabase();
    projectId = (await createProject(t, admin)).id;
    connectorId = await createPostgresConnector(t, admin, projectId, 'dest', destination.name);
  });
  afterAll(async () => {
    await t?.close();
    await destination?.drop();
  });

  const create = async (app: TestApp, body: Record<string, unknown>) => {
    const table = `inbox_${Math.random().toString(36).slice(2, 8)}`;
    const result = await api<{ id: string; secret?: string; receive_path: string }>(app, 'POST', '/api/v1/inboxes', {
      token: admin,
      body: {
        project_id: projectId,
        name: uniqueName('inbox'),
        destination: { connector_id: connectorId, table, mode: 'append' },
        ...body,
      },
    });
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    return { ...result.body, table };
  };
  const send = (base: string, path: string, body: string | Buffer, headers: Record<string, string>) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const requests = async (id: string) =>
    (await api<{ items: InboxRequest[] }>(t, 'GET', `/api/v1/inboxes/${id}/requests`, { token: admin })).body.items;
  const loaded = async (id: string, count: number, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const items = (await requests(id)).filter((r) => r.status === 'accepted');
      if (items.length >= count && items.every((r) => ['loaded', 'skipped', 'failed'].includes(r.load_status!)))
        return items;
      if (Date.now() > deadline) throw new Error(`not loaded: ${JSON.stringify(items)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const rowsOf = async (table: string) =>
    (await query(destination.url, `select * from ${table} order by 1`)).rows as Array<Record<string, unknown>>;

  it('bearer: the token is shown once; JSON, NDJSON and CSV bodies are loaded in batches; a wrong token is refused and recorded', async () => {
    const inbox = await create(t, {
      auth: { kind: 'bearer' },
      content_types: ['application/json', 'application/x-ndjson', 'text/csv'],
    });
    expect(inbox.secret).toMatch(/^svc_inbox_/);
    const shown = await api<Record<string, unknown>>(t, 'GET', `/api/v1/inboxes/${inbox.id}`, { token: admin });
    expect(JSON.stringify(shown.body)).not.toContain(inbox.secret!);
    const auth = { authorization: `Bearer ${inbox.secret}` };
    const one = await send(t.url, inbox.receive_path, JSON.stringify({ id: 1, name: 'one' }), auth);
    expect(one.status).toBe(202);
    expect(await one.json()).toMatchObject({ status: 'accepted', duplicate: false });
    expect(
      (await send(t.url, inbox.receive_path, JSON.stringify([{ id: 2, name: 'two' }, { id: 3 }]), auth)).status,
    ).toBe(202);
    expect(
      (
        await send(t.url, inbox.receive_path, '{"id": 4, "name": "four"}\n{"id": 5, "name": "five"}\n', {
          ...auth,
          'content-type': 'application/x-ndjson',
        })
      ).status,
    ).toBe(202);
    expect(
      (await send(t.url, inbox.receive_path, 'id,name\n6,six\n', { ...auth, 'content-type': 'text/csv' })).status,
    ).toBe(202);
    const wrong = await send(t.url, inbox.receive_path, '{"id": 99}', { authorization: 'Bearer svc_inbox_wrong' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ detail: expect.stringMatching(/invalid bearer token/) });
    const badJson = await send(t.url, inbox.receive_path, '{"id": ', auth);
    expect(badJson.status).toBe(400);
    const wrongType = await send(t.url, inbox.receive_path, '<xml/>', { ...auth, 'content-type': 'application/xml' });
    expect(wrongType.status).toBe(415);

    const items = await loaded(inbox.id, 4);
    expect(items.map((r) => r.rows_loaded).sort()).toEqual([1, 1, 2, 2]);
    const rows = await rowsOf(inbox.table);
    expect(rows.map((r) => [Number(r['id']), r['name']])).toEqual([
      [1, 'one'],
      [2, 'two'],
      [3, null],
      [4, 'four'],
      [5, 'five'],
      [6, 'six'],
    ]);
    // What moved is counted: received, loaded and rejected requests, and their bytes.
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    const counter = (labels: string) =>
      Number(new RegExp(`^svc_ingest_items_total\\{${labels}\\} (\\d+)`, 'm').exec(metrics)?.[1] ?? 0);
    expect(counter('source="inbox",outcome="received"')).toBeGreaterThanOrEqual(4);
    expect(counter('source="inbox",outcome="loaded"')).toBeGreaterThanOrEqual(4);
    expect(counter('source="inbox",outcome="rejected"')).toBeGreaterThanOrEqual(3);
    expect(metrics).toMatch(/^svc_ingest_bytes_total\{source="inbox",direction="received"\} [1-9]/m);
    const rejected = (await requests(inbox.id)).filter((r) => r.status === 'rejected');
    expect(rejected.map((r) => r.reason).sort()).toEqual([
      expect.stringMatching(/content type "application\/xml"/),
      'invalid bearer token',
      expect.stringMatching(/not valid json/),
    ]);

    // Replay of a kept request: loaded again, as a new request.
    const first = (await requests(inbox.id)).find(
      (r) => r.status === 'accepted' && r.size === JSON.stringify({ id: 1, name: 'one' }).length,
    )!;
    const replay = await api<InboxRequest>(t, 'POST', `/api/v1/inboxes/${inbox.id}/requests/${first.id}/replay`, {
      token: admin,
    });
    expect(replay.status).toBe(201);
    expect(replay.body.replay_of).toBe(first.id);
    // The loads' lineage: the inbox's endpoint feeds the destination table, as the inbox's job.
    const graph = await api<{ nodes: Array<{ type: string; name: string; item_id: string | null }> }>(
      t,
      'GET',
      `/api/v1/lineage/graph?node=item:${inbox.id}&depth=1`,
      { token: admin },
    );
    expect(graph.status, JSON.stringify(graph.body)).toBe(200);
    expect(graph.body.nodes.filter((n) => n.type === 'job').map((n) => n.item_id)).toEqual([inbox.id]);
    expect(
      graph.body.nodes
        .filter((n) => n.type === 'dataset')
        .map((n) => n.name)
        .sort(),
    ).toEqual([`/api/v1/inboxes/${inbox.id}/receive`, `${destination.name}.public.${inbox.table}`].sort());
    await loaded(inbox.id, 5);
    expect((await rowsOf(inbox.table)).map((r) => Number(r['id']))).toEqual([1, 1, 2, 3, 4, 5, 6]);
  });

  it('hmac: a valid signature is accepted; a wrong one, or a timestamp outside the tolerance (a replay), is refused', async () => {
    const inbox = await create(t, {
      auth: {
        kind: 'hmac',
        header: 'X-Signature',
        algorithm: 'sha512',
        secret: 'a-shared-secret-of-enough-length',
        timestamp_header: 'X-Timestamp',
        tolerance_seconds: 300,
      },
    });
    expect(inbox.secret).toBeUndefined(); // the caller chose it: nothing to show
    const body = JSON.stringify({ id: 7, event: 'paid' });
    const sign = (stamp: number, text: string, secret = 'a-shared-secret-of-enough-length') =>
      `sha512=${createHmac('sha512', secret).update(`${stamp}.${text}`).digest('hex')}`;
    const now = Math.floor(Date.now() / 1000);
    const valid = await send(t.url, inbox.receive_path, body, {
      'x-timestamp': String(now),
      'x-signature': sign(now, body),
    });
    expect(valid.status).toBe(202);
    const tampered = await send(t.url, inbox.receive_path, body.replace('paid', 'refunded'), {
      'x-timestamp': String(now),
      'x-signature': sign(now, body),
    });
    expect(tampered.status).toBe(401);
    const wrongSecret = await send(t.url, inbox.receive_path, body, {
      'x-timestamp': String(now),
      'x-signature': sign(now, body, 'another-secret-of-enough-length'),
    });
    expect(wrongSecret.status).toBe(401);
    // A request signed ten minutes ago and sent again now: its signature is valid, its time is not.
    const old = now - 600;
    const replayed = await send(t.url, inbox.receive_path, body, {
      'x-timestamp': String(old),
      'x-signature': sign(old, body),
    });
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toMatchObject({ detail: expect.stringMatching(/timestamp outside the tolerance/) });
    const unsigned = await send(t.url, inbox.receive_path, body, {});
    expect(unsigned.status).toBe(401);
    await loaded(inbox.id, 1);
    expect((await rowsOf(inbox.table)).map((r) => r['event'])).toEqual(['paid']);
    const reasons = (await requests(inbox.id)).filter((r) => r.status === 'rejected').map((r) => r.reason);
    expect(reasons).toHaveLength(4);
    expect(reasons).toContain('timestamp outside the tolerance (a replayed or delayed request)');
  });

  it('basic auth, 413 above max_body_bytes with the error envelope, and a duplicate idempotency key loads once', async () => {
    const inbox = await create(t, {
      auth: { kind: 'basic', username: 'sender', password: 'a-long-basic-password' },
      max_body_bytes: 1024,
      dedupe: { header: 'Idempotency-Key', window_seconds: 3600 },
    });
    const basic = (user: string, password: string) => ({
      authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
    });
    const good = basic('sender', 'a-long-basic-password');
    expect((await send(t.url, inbox.receive_path, '{"a":1}', basic('sender', 'wrong-password'))).status).toBe(401);
    expect((await send(t.url, inbox.receive_path, '{"a":1}', basic('other', 'a-long-basic-password'))).status).toBe(
      401,
    );

    const big = JSON.stringify({ a: 'x'.repeat(2000) });
    const tooLarge = await send(t.url, inbox.receive_path, big, good);
    expect(tooLarge.status).toBe(413);
    const envelope = (await tooLarge.json()) as Record<string, unknown>;
    expect(envelope).toMatchObject({ detail: expect.stringMatching(/larger than 1024 bytes/) });
    expect(envelope['request_id']).toMatch(/^[0-9a-f-]{36}$/);
    // Sent in chunks without a length: refused as it crosses the limit, not after reading it all.
    const chunked = await fetch(`${t.url}${inbox.receive_path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...good },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(big));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);

    const key = { ...good, 'idempotency-key': 'order-42' };
    const first = await send(t.url, inbox.receive_path, '{"order": 42, "total": 10}', key);
    expect(await first.json()).toMatchObject({ duplicate: false });
    const second = await send(t.url, inbox.receive_path, '{"order": 42, "total": 10}', key);
    expect(second.status).toBe(202);
    expect(await second.json()).toMatchObject({ duplicate: true });
    const other = await send(t.url, inbox.receive_path, '{"order": 43, "total": 5}', {
      ...good,
      'idempotency-key': 'order-43',
    });
    expect(other.status).toBe(202);
    const items = await loaded(inbox.id, 3);
    expect(items.filter((r) => r.dedupe_hit).map((r) => r.load_status)).toEqual(['skipped']);
    expect((await rowsOf(inbox.table)).map((r) => Number(r['order']))).toEqual([42, 43]);
    const rejected = (await requests(inbox.id)).filter((r) => r.status === 'rejected');
    expect(rejected.map((r) => r.reason)).toEqual(
      expect.arrayContaining(['body too large', 'invalid basic credentials']),
    );
  });

  it('a per-inbox rate limit, apart from the API limit', async () => {
    const inbox = await create(t, { auth: { kind: 'bearer' }, rate_limit_per_minute: 3 });
    const auth = { authorization: `Bearer ${inbox.secret}` };
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await send(t.url, inbox.receive_path, `{"n":${i}}`, auth)).status);
    expect(statuses).toEqual([202, 202, 202, 429, 429]);
    // Another inbox has its own budget.
    const other = await create(t, { auth: { kind: 'bearer' }, rate_limit_per_minute: 3 });
    expect((await send(t.url, other.receive_path, '{"n":1}', { authorization: `Bearer ${other.secret}` })).status).toBe(
      202,
    );
  });

  it('50 concurrent requests share inserts: each is recorded exactly once and answered 202 only once its row is committed', async () => {
    const inbox = await create(t, { auth: { kind: 'bearer' } });
    const auth = { authorization: `Bearer ${inbox.secret}` };
    const db = t.platform.framework.db;
    const answers = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const response = await send(t.url, inbox.receive_path, JSON.stringify({ n: i }), auth);
        const body = (await response.json()) as { id: string };
        // The 202 is out: its row is already committed, visible to any other connection.
        const row = await db
          .selectFrom('inbox_requests')
          .select(['id', 'body'])
          .where('id', '=', body.id)
          .executeTakeFirst();
        return { status: response.status, id: body.id, body: row?.body?.toString() };
      }),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(202));
    expect(answers.map((a) => a.body)).toEqual(Array.from({ length: 50 }, (_, i) => JSON.stringify({ n: i })));
    expect(new Set(answers.map((a) => a.id)).size).toBe(50);
    const recorded = await db
      .selectFrom('inbox_requests')
      .select(['id'])
      .where('inbox_id', '=', inbox.id)
      .where('status', '=', 'accepted')
      .execute();
    expect(recorded.map((r) => r.id).sort()).toEqual(answers.map((a) => a.id).sort());
    const items = await loaded(inbox.id, 50);
    expect(items.every((r) => r.load_status === 'loaded')).toBe(true);
    expect((await rowsOf(inbox.table)).map((r) => Number(r['n']))).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('an inbox deleted by another process while this one still has it cached: its requests are answered 5xx, never 202', async () => {
    const inbox = await create(t, { auth: { kind: 'bearer' } });
    const auth = { authorization: `Bearer ${inbox.secret}` };
    expect((await send(t.url, inbox.receive_path, '{"n":0}', auth)).status).toBe(202); // now cached here
    const other = await create(t, { auth: { kind: 'bearer' } });
    const otherAuth = { authorization: `Bearer ${other.secret}` };
    // Deleted behind this process's back (as another API process would), so its cache is not told.
    await t.platform.framework.db.deleteFrom('inboxes').where('id', '=', inbox.id).execute();
    const [gone, alive] = await Promise.all([
      Promise.all(Array.from({ length: 10 }, (_, i) => send(t.url, inbox.receive_path, `{"n":${i}}`, auth))),
      Promise.all(Array.from({ length: 10 }, (_, i) => send(t.url, other.receive_path, `{"n":${i}}`, otherAuth))),
    ]);
    // Requests of the deleted inbox fail (their rows cannot be inserted); the other inbox's, in the same groups, do not.
    for (const r of gone) expect(r.status).toBeGreaterThanOrEqual(500);
    expect(alive.map((r) => r.status)).toEqual(Array(10).fill(202));
    const left = await t.platform.framework.db
      .selectFrom('inbox_requests')
      .select('id')
      .where('inbox_id', '=', inbox.id)
      .execute();
    expect(left).toEqual([]);
    // Once the cache bound is past, the deleted inbox is unknown.
    await new Promise((r) => setTimeout(r, 2100));
    expect((await send(t.url, inbox.receive_path, '{"n":1}', auth)).status).toBe(404);
  });

  it('a process killed with SIGKILL right after its 202 loses nothing: a worker loads it afterwards', async () => {
    const shared = await createTestDatabase();
    const key = { SVC_ENCRYPTION_KEY: randomBytes(32).toString('base64') };
    const first = await startTestApp({ env: { ...NO_RATE_LIMITS, ...key }, database: shared });
    const token = (await adminLogin(first)).accessToken;
    const project = (await createProject(first, token)).id;
    const dest = await createPostgresConnector(first, token, project, 'dest', destination.name);
    const table = `inbox_kill_${Math.random().toString(36).slice(2, 8)}`;
    const created = await api<{ id: string; secret: string; receive_path: string }>(first, 'POST', '/api/v1/inboxes', {
      token,
      body: {
        project_id: project,
        name: 'kill test',
        auth: { kind: 'bearer' },
        destination: { connector_id: dest, table, mode: 'append' },
      },
    });
    await first.close();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-kill-'));
    const port = await freePort();
    // An API process without a worker (svc serve): nothing it accepts can be loaded before it dies.
    const serve = runCli(['serve'], {
      SVC_DATABASE_URL: shared.url,
      SVC_REDIS_URL: TEST_REDIS_URL,
      SVC_REDIS_KEY_PREFIX: `${uniqueName('kill')}:`,
      SVC_PORT: String(port),
      SVC_DATA_DIR: dataDir,
      SVC_LOG_LEVEL: 'warn',
      SVC_INITIAL_ADMIN_PASSWORD: 'unused-Admin-pass-42',
      ...key,
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      await waitForHealth(base, serve);
      const answers = [];
      for (let i = 1; i <= 20; i++)
        answers.push(
          (
            await send(base, created.body.receive_path, JSON.stringify({ id: i }), {
              authorization: `Bearer ${created.body.secret}`,
            })
          ).status,
        );
      serve.child.kill('SIGKILL');
      await serve.exited;
      expect(answers.every((s) => s === 202)).toBe(true);
    } finally {
      if (serve.child.exitCode === null) serve.child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
    // A worker on the same database finds the accepted requests and loads each once.
    const worker = await startTestApp({ env: { ...NO_RATE_LIMITS, ...key }, database: shared, worker: true });
    try {
      const deadline = Date.now() + 30_000;
      let count = 0;
      while (Date.now() < deadline) {
        count = Number(
          (
            await query(destination.url, `select count(*) from information_schema.tables where table_name = $1`, [
              table,
            ])
          ).rows[0].count,
        )
          ? Number((await query(destination.url, `select count(*)::int as n from ${table}`)).rows[0].n)
          : 0;
        if (count >= 20) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(count).toBe(20);
      const ids = (await query(destination.url, `select id from ${table} order by id`)).rows.map((r) => Number(r.id));
      expect(ids).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    } finally {
      await worker.close();
      await shared.drop();
    }
  }, 180_000);
});
