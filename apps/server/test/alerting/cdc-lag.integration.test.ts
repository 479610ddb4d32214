/** cdc_lag rules against a real CDC table (PostgreSQL logical replication into PostgreSQL). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject } from '../support/http.js';
import { createPostgresConnector, query } from '../support/runs.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';
import { startHttpReceiver, until, type HttpReceiver } from './receivers.js';

interface Rule {
  id: string;
  items: Array<{ item_kind: string; item_id: string; state: string; value: Record<string, unknown>; link: string }>;
}

describe('cdc_lag rules', () => {
  let t: TestApp;
  let source: TestDatabase;
  let destination: TestDatabase;
  let http: HttpReceiver;

  beforeAll(async () => {
    source = await createTestDatabase();
    destination = await createTestDatabase();
    http = await startHttpReceiver();
    t = await startTestApp({
      env: { ...NO_RATE_LIMITS, SVC_ALERT_EVALUATION_MS: '300', SVC_CDC_SOURCE_HEARTBEAT_SECONDS: '1' },
      worker: true,
      leader: true,
    });
  });
  afterAll(async () => {
    await t?.close();
    await query(
      source.url.replace(/\/[^/]*$/, '/postgres'),
      'select pg_drop_replication_slot(slot_name) from pg_replication_slots where database = $1 and not active',
      [source.name],
    ).catch(() => undefined);
    await http?.close();
    await source?.drop();
    await destination?.drop();
  });

  it('fires when a CDC table lags or its slot retains WAL past the limits, and resolves within them', async () => {
    const admin = (await adminLogin(t)).accessToken;
    const projectId = (await createProject(t, admin)).id;
    const sourceId = await createPostgresConnector(t, admin, projectId, 'source', source.name);
    const destinationId = await createPostgresConnector(t, admin, projectId, 'destination', destination.name);
    await query(source.url, 'create table events (id bigint primary key, payload text)');
    await query(source.url, "insert into events select g, 'p' || g from generate_series(1, 50) g");
    const table = await api<{ id: string }>(t, 'POST', '/api/v1/cdc-tables', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'events',
        source: { connector_id: sourceId, table: 'events' },
        destination: { connector_id: destinationId, table: 'events' },
        mode: 'mirror',
      },
    });
    expect(table.status, JSON.stringify(table.body)).toBe(201);
    const cdc = async () =>
      (
        await api<{ status: string; lag_seconds: number | null; retained_wal_bytes: number | null }>(
          t,
          'GET',
          `/api/v1/cdc-tables/${table.body.id}`,
          { token: admin },
        )
      ).body;
    await until(async () => (await cdc()).status === 'streaming', 30_000, 'streaming');
    await query(source.url, "insert into events select g, 'p' || g from generate_series(51, 60) g");
    await until(async () => (await cdc()).lag_seconds !== null, 15_000, 'a lag figure');
    const hook = await api<{ id: string }>(t, 'POST', '/api/v1/notification-configs', {
      token: admin,
      body: { project_id: projectId, name: 'hook', type: 'webhook', config: { url: `${http.url}/hook` } },
    });
    const created = await api<Rule>(t, 'POST', '/api/v1/alert-rules', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'replication lag',
        kind: 'cdc_lag',
        params: { max_lag_seconds: 0 },
        scope: [{ kind: 'cdc_table', id: table.body.id }],
        channel_ids: [hook.body.id],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const rule = async () =>
      (await api<Rule>(t, 'GET', `/api/v1/alert-rules/${created.body.id}`, { token: admin })).body.items[0];
    await until(async () => (await rule())?.state === 'firing', 10_000, 'firing');
    const firing = (await rule())!;
    expect(firing).toMatchObject({ item_kind: 'cdc_table', item_id: table.body.id });
    expect(firing.value['breaches']).toEqual(['lag_seconds']);
    expect(firing.link).toContain(`/cdc-tables?id=${table.body.id}`);
    await until(() => http.on('/hook').length === 1, 5000, 'the notification');
    expect(JSON.stringify(http.on('/hook')[0]!.body)).toContain('lag_seconds');

    const relaxed = await api(t, 'PATCH', `/api/v1/alert-rules/${created.body.id}`, {
      token: admin,
      body: { params: { max_lag_seconds: 3600 } },
    });
    expect(relaxed.status).toBe(200);
    await until(async () => (await rule())?.state === 'resolved', 10_000, 'resolved');

    // Slot bloat: the WAL the slot holds back, compared with its own limit.
    await until(async () => Number((await cdc()).retained_wal_bytes) > 0, 15_000, 'retained WAL');
    const bloat = await api<Rule>(t, 'POST', '/api/v1/alert-rules', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'slot bloat',
        kind: 'cdc_lag',
        params: { max_retained_wal_bytes: 0 },
      },
    });
    const bloated = async () =>
      (await api<Rule>(t, 'GET', `/api/v1/alert-rules/${bloat.body.id}`, { token: admin })).body.items[0];
    await until(async () => (await bloated())?.state === 'firing', 10_000, 'slot bloat firing');
    expect((await bloated())!.value['breaches']).toEqual(['retained_wal_bytes']);
    await api(t, 'DELETE', `/api/v1/cdc-tables/${table.body.id}`, { token: admin });
  });
});
