import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject } from '../support/http.js';
import { createPostgresConnector, query, waitForStatus } from '../support/runs.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';
import { startSync } from './sync.js';
import { startHttpReceiver, until, type HttpReceiver } from './receivers.js';

describe('alert evaluation across processes', () => {
  let database: TestDatabase;
  let source: TestDatabase;
  let first: TestApp | undefined;
  let second: TestApp;
  let http: HttpReceiver;

  const env = { ...NO_RATE_LIMITS, SVC_ALERT_EVALUATION_MS: '200' };

  beforeAll(async () => {
    database = await createTestDatabase();
    source = await createTestDatabase();
    http = await startHttpReceiver();
    // The first process wins the election; the second waits for its turn.
    first = await startTestApp({ database, env, leader: true, worker: true });
    await until(() => first!.leadership?.isLeader(), 5000, 'the first leader');
    second = await startTestApp({ database, env, leader: true, worker: true });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await http?.close();
    await source?.drop();
    await database?.drop();
  });

  it('a rule pending when the leader dies is fired once by the process that takes over', async () => {
    const admin = (await adminLogin(second)).accessToken;
    const projectId = (await createProject(second, admin)).id;
    const sourceId = await createPostgresConnector(second, admin, projectId, 'source', source.name);
    const destinationId = await createPostgresConnector(second, admin, projectId, 'destination', source.name);
    await query(source.url, 'create table seed (id int)');
    const hook = await api<{ id: string }>(second, 'POST', '/api/v1/notification-configs', {
      token: admin,
      body: { project_id: projectId, name: 'hook', type: 'webhook', config: { url: `${http.url}/hook` } },
    });
    const rule = await api<{ id: string }>(second, 'POST', '/api/v1/alert-rules', {
      token: admin,
      body: { project_id: projectId, name: 'failing', kind: 'run_failed', for: 3, channel_ids: [hook.body.id] },
    });
    expect(rule.status).toBe(201);

    const started = await startSync(second, admin, {
      projectId,
      sourceId,
      destinationId,
      stream: 'missing_table',
      table: 'copy',
    });
    expect((await waitForStatus(second, admin, started.id, ['failed', 'succeeded'])).status).toBe('failed');
    const stateOf = async () =>
      (
        await api<{ items: Array<{ state: string }> }>(second, 'GET', `/api/v1/alert-rules/${rule.body.id}`, {
          token: admin,
        })
      ).body.items[0]?.state;
    await until(async () => (await stateOf()) === 'pending', 5000, 'pending');
    expect(first!.leadership!.isLeader()).toBe(true);
    expect(second.leadership!.isLeader()).toBe(false);

    // The leader dies: its session (and with it the leadership lock) ends, then the process goes.
    await query(
      database.url,
      "select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and granted and database = (select oid from pg_database where datname = current_database())",
    );
    await first!.close();
    first = undefined;

    await until(() => second.leadership!.isLeader(), 5000, 'the new leader');
    await until(async () => (await stateOf()) === 'firing', 8000, 'firing');
    await until(() => http.on('/hook').length >= 1, 5000, 'the notification');
    await new Promise((r) => setTimeout(r, 1500));
    expect(http.on('/hook')).toHaveLength(1);
    const history = (
      await api<{ items: Array<{ previous_state: string; state: string; at: string }> }>(
        second,
        'GET',
        `/api/v1/alert-rules/${rule.body.id}/events`,
        { token: admin },
      )
    ).body.items;
    expect(history.map((e) => `${e.previous_state}>${e.state}`)).toEqual(['pending>firing', 'ok>pending']);
    // `for` counted from when the first leader saw the condition, not from the takeover.
    const waited = Date.parse(history[0]!.at) - Date.parse(history[1]!.at);
    expect(waited).toBeGreaterThanOrEqual(3000);
    expect(waited).toBeLessThan(6000);
  });
});
