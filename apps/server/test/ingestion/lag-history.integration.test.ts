/**
 * Lag over the last hour: the leader samples the lag of every CDC table and stream every
 * SVC_LAG_SAMPLE_SECONDS; the lag-history routes serve the samples with the same access check as the
 * item's detail, and samples past the hour are dropped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser } from '../support/http.js';
import { createPostgresConnector, query } from '../support/runs.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';

interface LagPoint {
  at: string;
  lag_seconds: number | null;
  lag_bytes: number | null;
  lag_messages: number | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('lag history', () => {
  let framework: TestDatabase;
  let source: TestDatabase;
  let t: TestApp;
  let admin: string;
  let projectId: string;
  let cdcTable: string;
  let stream: string;

  beforeAll(async () => {
    framework = await createTestDatabase();
    source = await createTestDatabase();
    t = await startTestApp({
      database: framework,
      worker: true,
      leader: true,
      env: { ...NO_RATE_LIMITS, SVC_LAG_SAMPLE_SECONDS: '5', SVC_CDC_SOURCE_HEARTBEAT_SECONDS: '1' },
    });
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
    await query(source.url, 'create table items (id bigint primary key, name text)');
    await query(source.url, "insert into items select g, 'item ' || g from generate_series(1, 10) g");
    const from = await createPostgresConnector(t, admin, projectId, 'source', source.name);
    const into = await createPostgresConnector(t, admin, projectId, 'destination', source.name);
    const created = await api<{ id: string }>(t, 'POST', '/api/v1/cdc-tables', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'items mirror',
        source: { connector_id: from, table: 'items' },
        destination: { connector_id: into, table: 'items_mirror' },
        mode: 'mirror',
        start: true,
      },
    });
    expect(created.status).toBe(201);
    cdcTable = created.body.id;
    const broker = await api<{ id: string }>(t, 'POST', '/api/v1/data-connectors', {
      token: admin,
      body: { project_id: projectId, name: 'broker', kind: 'nats', config: { host: '127.0.0.1' } },
    });
    const madeStream = await api<{ id: string }>(t, 'POST', '/api/v1/streams', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'items stream',
        source_connector_id: broker.body.id,
        source: { name: 'LAG_ITEMS' },
        destination_connector_id: into,
        table: 'items_stream',
      },
    });
    expect(madeStream.status).toBe(201);
    stream = madeStream.body.id;
  }, 120_000);
  afterAll(async () => {
    // Deleting the CDC table drops its replication slot at the source.
    if (cdcTable) await api(t, 'DELETE', `/api/v1/cdc-tables/${cdcTable}?force=true`, { token: admin });
    await t?.close();
    await source?.drop();
    await framework?.drop();
  });

  it('records the lag of a running CDC table and serves the last hour of it', { timeout: 120_000 }, async () => {
    // A change after the snapshot: the reader applies it and reports its lag.
    await query(source.url, "insert into items values (11, 'item 11')");
    let history: LagPoint[] = [];
    for (let tries = 0; tries < 90; tries++) {
      const answer = await api<{ items: LagPoint[] }>(t, 'GET', `/api/v1/cdc-tables/${cdcTable}/lag-history`, {
        token: admin,
      });
      expect(answer.status).toBe(200);
      history = answer.body.items;
      if (history.some((p) => p.lag_seconds !== null)) break;
      await sleep(1000);
    }
    const measured = history.filter((p) => p.lag_seconds !== null);
    expect(measured.length).toBeGreaterThan(0);
    expect(measured[0]!.lag_seconds).toBeGreaterThanOrEqual(0);
    // Oldest first, each a timestamp of the last hour.
    const times = history.map((p) => Date.parse(p.at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(Math.min(...times)).toBeGreaterThan(Date.now() - 3_600_000);
    for (const point of history) expect(point.lag_messages).toBeNull();
  });

  it('samples streams too, and drops samples older than an hour', { timeout: 60_000 }, async () => {
    await query(
      framework.url,
      `insert into lag_samples (item_kind, item_id, sampled_at, lag_messages) values ('stream', $1, now() - interval '2 hours', 7)`,
      [stream],
    );
    let history: LagPoint[] = [];
    for (let tries = 0; tries < 30; tries++) {
      history = (await api<{ items: LagPoint[] }>(t, 'GET', `/api/v1/streams/${stream}/lag-history`, { token: admin }))
        .body.items;
      if (history.length > 0) break;
      await sleep(1000);
    }
    expect(history.length).toBeGreaterThan(0);
    // The stream has not run: nothing waits that it knows of.
    for (const point of history) expect(point).toMatchObject({ lag_seconds: null, lag_bytes: null });
    // The next sampling prunes the old sample from the table itself, not only from the answer.
    for (let tries = 0; tries < 15; tries++) {
      const old = await query(
        framework.url,
        `select count(*) as n from lag_samples where item_id = $1 and sampled_at < now() - interval '1 hour'`,
        [stream],
      );
      if ((old.rows[0] as { n: string }).n === '0') return;
      await sleep(1000);
    }
    throw new Error('the sample older than an hour was not dropped');
  });

  it('answers only those who may read the item', async () => {
    const stranger = await createUser(t, admin);
    for (const path of [`/api/v1/cdc-tables/${cdcTable}/lag-history`, `/api/v1/streams/${stream}/lag-history`]) {
      const refused = await api(t, 'GET', path, { token: stranger.session.accessToken });
      expect([403, 404]).toContain(refused.status);
      expect(JSON.stringify(refused.body)).not.toContain('lag_seconds');
    }
    const unknown = await api(t, 'GET', '/api/v1/cdc-tables/00000000-0000-4000-8000-000000000000/lag-history', {
      token: admin,
    });
    expect(unknown.status).toBe(404);
    const anonymous = await api(t, 'GET', `/api/v1/streams/${stream}/lag-history`, {});
    expect(anonymous.status).toBe(401);
  });
});
