/**
 * Alert rules on the items beyond pipelines and syncs, against real runs: stream_lag on a NATS
 * JetStream stream consumed by the worker (messages waiting and publish-to-commit seconds from the
 * stream's own figures), run_failed on an export run, freshness on a file ingestion; a scoped item
 * deleted or disabled resolves its alert (a resolved notification is sent); scopes validated.
 */
import { randomBytes } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect as natsConnect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject } from '../support/http.js';
import { createPostgresConnector, waitForStatus } from '../support/runs.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';
import { startHttpReceiver, until, type HttpReceiver } from './receivers.js';

interface RuleItem {
  item_kind: string;
  item_id: string;
  item_name: string | null;
  state: string;
  value: Record<string, unknown>;
}
interface Rule {
  id: string;
  state: string;
  items: RuleItem[];
}

const suffix = randomBytes(4).toString('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('alert rules on streams, exports and file ingestions', () => {
  let t: TestApp;
  let admin: string;
  let projectId: string;
  let destination: TestDatabase;
  let destinationId: string;
  let http: HttpReceiver;
  let hookId: string;
  let nc: NatsConnection;
  const natsStreams: string[] = [];

  beforeAll(async () => {
    destination = await createTestDatabase();
    http = await startHttpReceiver();
    t = await startTestApp({
      env: {
        ...NO_RATE_LIMITS,
        SVC_ALERT_EVALUATION_MS: '300',
        SVC_STREAMS_LEASE_SECONDS: '3',
        SVC_CDC_MAX_TABLES_PER_WORKER: '0',
      },
      worker: true,
      leader: true,
    });
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
    destinationId = await createPostgresConnector(t, admin, projectId, 'destination', destination.name);
    const hook = await api<{ id: string }>(t, 'POST', '/api/v1/notification-configs', {
      token: admin,
      body: { project_id: projectId, name: 'hook', type: 'webhook', config: { url: `${http.url}/hook` } },
    });
    hookId = hook.body.id;
    nc = await natsConnect({ servers: '127.0.0.1:4222' });
  });
  afterAll(async () => {
    await t?.close();
    const jsm = nc ? await jetstreamManager(nc) : undefined;
    for (const name of natsStreams) await jsm?.streams.delete(name).catch(() => undefined);
    await nc?.close();
    await http?.close();
    await destination?.drop();
  });

  const createRule = async (body: Record<string, unknown>) => {
    const created = await api<Rule>(t, 'POST', '/api/v1/alert-rules', {
      token: admin,
      body: { project_id: projectId, channel_ids: [hookId], ...body },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  };
  const item = async (id: string) =>
    (await api<Rule>(t, 'GET', `/api/v1/alert-rules/${id}`, { token: admin })).body.items[0];
  const waitState = (id: string, state: string, timeoutMs = 15_000) =>
    until(async () => (await item(id))?.state === state, timeoutMs, `rule ${id} ${state}`);
  const hooksOf = (ruleId: string) =>
    http.on('/hook').filter((r) => (r.body['rule'] as { id?: string } | undefined)?.id === ruleId);

  it(
    'stream_lag fires on messages waiting and publish-to-commit seconds, resolves when the stream catches up, and resolves when the stream is stopped',
    { timeout: 120_000 },
    async () => {
      const natsId = (
        await api<{ id: string }>(t, 'POST', '/api/v1/data-connectors', {
          token: admin,
          body: { project_id: projectId, name: 'nats', kind: 'nats', config: { host: '127.0.0.1', port: 4222 } },
        })
      ).body.id;
      const name = `svc_lag_${suffix}`;
      await (await jetstreamManager(nc)).streams.add({ name, subjects: [`${name}.>`] });
      natsStreams.push(name);
      const js = jetstream(nc);
      for (let i = 1; i <= 400; i++) await js.publish(`${name}.new`, JSON.stringify({ id: i }));
      const created = await api<{ id: string }>(t, 'POST', '/api/v1/streams', {
        token: admin,
        body: {
          project_id: projectId,
          name: 'orders',
          source_connector_id: natsId,
          source: { name, filter: `${name}.new` },
          destination_connector_id: destinationId,
          table: 'lagging_orders',
          batch: { max_rows: 10, max_latency_ms: 50 },
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const streamId = created.body.id;
      const rule = await createRule({
        name: 'stream lag',
        kind: 'stream_lag',
        params: { max_lag_messages: 100, max_lag_seconds: 2 },
        scope: [{ kind: 'stream', id: streamId }],
      });
      // A stopped stream is not watched.
      await sleep(2500);
      expect(await item(rule.id)).toBeUndefined();

      // The messages waited 2.5 s and more before the stream started: both limits are passed.
      const started = await api(t, 'POST', `/api/v1/streams/${streamId}/start`, { token: admin });
      expect(started.status).toBe(200);
      await waitState(rule.id, 'firing', 30_000);
      const firing = await until(
        async () => {
          const current = (await item(rule.id))!;
          return (current.value['breaches'] as string[]).length === 2 && current;
        },
        10_000,
        'both breaches',
      );
      expect(firing).toMatchObject({ item_kind: 'stream', item_id: streamId, item_name: 'orders' });
      expect(firing.value['breaches']).toEqual(['lag_seconds', 'lag_messages']);
      expect(Number(firing.value['lag_messages'])).toBeGreaterThan(100);
      expect(Number(firing.value['lag_seconds'])).toBeGreaterThan(2);
      await until(() => hooksOf(rule.id).length === 1, 5000, 'the firing notification');
      expect(hooksOf(rule.id)[0]!.body['state']).toBe('firing');
      expect(String(hooksOf(rule.id)[0]!.body['text'])).toContain('messages waiting');

      // Caught up: fresh messages are written at once and the broker has none waiting.
      let next = 1000;
      await until(
        async () => {
          await js.publish(`${name}.new`, JSON.stringify({ id: next++ }));
          return (await item(rule.id))?.state === 'resolved';
        },
        40_000,
        'resolved after catching up',
      );
      const resolved = (await item(rule.id))!;
      expect(resolved.value['breaches']).toEqual([]);
      await until(() => hooksOf(rule.id).length === 2, 5000, 'the resolved notification');
      expect(hooksOf(rule.id)[1]!.body['state']).toBe('resolved');

      // Firing again (any latency passes a limit of 0), then the stream is stopped: resolved, not firing forever.
      const strict = await api(t, 'PATCH', `/api/v1/alert-rules/${rule.id}`, {
        token: admin,
        body: { params: { max_lag_seconds: 0 } },
      });
      expect(strict.status).toBe(200);
      await waitState(rule.id, 'firing');
      await until(() => hooksOf(rule.id).length === 3, 5000, 'the second firing notification');
      const stopped = await api(t, 'POST', `/api/v1/streams/${streamId}/stop`, { token: admin });
      expect(stopped.status).toBe(200);
      await waitState(rule.id, 'resolved');
      expect((await item(rule.id))!.value['item']).toBe('disabled');
      await until(() => hooksOf(rule.id).length === 4, 5000, 'the resolved notification of the stopped stream');
      expect(hooksOf(rule.id)[3]!.body['state']).toBe('resolved');
      expect(String(hooksOf(rule.id)[3]!.body['text'])).toContain('was disabled');
      await sleep(1500);
      expect((await item(rule.id))!.state).toBe('resolved');
      expect(hooksOf(rule.id)).toHaveLength(4);
    },
  );

  it('run_failed on an export run fires, and the export deleted resolves it with a notification', async () => {
    const created = await api<{ id: string }>(t, 'POST', '/api/v1/exports', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'broken export',
        source: { kind: 'warehouse_query', query: 'select * from no_such_table_anywhere' },
        destination: { kind: 'files' },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const exportId = created.body.id;
    const rule = await createRule({
      name: 'export failed',
      kind: 'run_failed',
      keep_firing_for: 3600,
      scope: [{ kind: 'export', id: exportId }],
    });
    const run = await api<{ id: string }>(t, 'POST', `/api/v1/exports/${exportId}/run`, { token: admin });
    expect(run.status, JSON.stringify(run.body)).toBe(201);
    const failed = await waitForStatus(t, admin, run.body.id, ['succeeded', 'failed', 'partially_failed']);
    expect(failed.status).toBe('failed');
    const ended = Date.now();
    await waitState(rule.id, 'firing', 5000);
    expect(Date.now() - ended).toBeLessThan(5000);
    const firing = (await item(rule.id))!;
    expect(firing).toMatchObject({ item_kind: 'export', item_id: exportId, item_name: 'broken export' });
    expect(firing.value['execution_id']).toBe(run.body.id);
    await until(() => hooksOf(rule.id).length === 1, 5000, 'the firing notification');

    // Deleted: resolved at once (keep_firing_for does not hold an item that is gone).
    expect((await api(t, 'DELETE', `/api/v1/exports/${exportId}`, { token: admin })).status).toBe(204);
    await waitState(rule.id, 'resolved');
    expect((await item(rule.id))!.value['item']).toBe('deleted');
    await until(() => hooksOf(rule.id).length === 2, 5000, 'the resolved notification');
    expect(hooksOf(rule.id)[1]!.body).toMatchObject({ state: 'resolved' });
    expect(String(hooksOf(rule.id)[1]!.body['text'])).toContain('was deleted');
    expect(hooksOf(rule.id)[1]!.body['dedup_key']).toBe(hooksOf(rule.id)[0]!.body['dedup_key']);
  });

  it('freshness on a file ingestion fires when no file has loaded for the limit, and resolves on the next load', async () => {
    const created = await api<{ id: string }>(t, 'POST', '/api/v1/file-ingestions', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'daily files',
        source: { kind: 'upload' },
        format: { type: 'csv' },
        destination: { connector_id: destinationId, table: 'daily_files', mode: 'append' },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const ingestionId = created.body.id;
    const upload = async (fileName: string, content: string) => {
      const form = new FormData();
      form.append('file', new Blob([content]), fileName);
      const response = await fetch(`${t.url}/api/v1/file-ingestions/${ingestionId}/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}` },
        body: form,
      });
      const body = (await response.json()) as { execution_id: string | null };
      expect(response.status, JSON.stringify(body)).toBeLessThan(300);
      const done = await waitForStatus(t, admin, body.execution_id!, ['succeeded', 'failed']);
      expect(done.status).toBe('succeeded');
    };
    await upload('a.csv', 'id,name\n1,a\n2,b\n');
    const rule = await createRule({
      name: 'files stale',
      kind: 'freshness',
      params: { max_age_seconds: 2 },
      scope: [{ kind: 'file_ingestion', id: ingestionId }],
    });
    expect((await item(rule.id))?.state ?? 'ok').toBe('ok');
    await waitState(rule.id, 'firing', 8000);
    expect((await item(rule.id))!).toMatchObject({ item_kind: 'file_ingestion', item_name: 'daily files' });
    await upload('b.csv', 'id,name\n3,c\n');
    await waitState(rule.id, 'resolved');
    await until(() => hooksOf(rule.id).length === 2, 5000, 'two notifications');
    expect(hooksOf(rule.id).map((r) => r.body['state'])).toEqual(['firing', 'resolved']);
  });

  it('validates the scope by kind, naming scope[i].id for an item of another project', async () => {
    const other = (await createProject(t, admin)).id;
    const theirs = await api<{ id: string }>(t, 'POST', '/api/v1/exports', {
      token: admin,
      body: {
        project_id: other,
        name: 'their export',
        source: { kind: 'warehouse_query', query: 'select 1 as one' },
        destination: { kind: 'files' },
      },
    });
    expect(theirs.status).toBe(201);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ kind: 'run_failed', scope: [{ kind: 'export', id: theirs.body.id }] }, 'scope.0.id'],
      [
        { kind: 'freshness', params: { max_age_seconds: 60 }, scope: [{ kind: 'inbox', id: theirs.body.id }] },
        'scope.0.id',
      ],
      [{ kind: 'run_failed', scope: [{ kind: 'dw_model', id: theirs.body.id }] }, 'scope.0.id'],
      [{ kind: 'run_failed', scope: [{ kind: 'file_ingestion', id: 'nope' }] }, 'scope.0.id'],
      [
        { kind: 'stream_lag', params: { max_lag_messages: 1 }, scope: [{ kind: 'stream', id: theirs.body.id }] },
        'scope.0.id',
      ],
      [
        { kind: 'stream_lag', params: { max_lag_messages: 1 }, scope: [{ kind: 'export', id: theirs.body.id }] },
        'scope.0.kind',
      ],
      [{ kind: 'run_failed', scope: [{ kind: 'stream', id: theirs.body.id }] }, 'scope.0.kind'],
      [{ kind: 'stream_lag', params: {} }, 'params'],
    ];
    for (const [body, path] of cases) {
      const result = await api<{ errors: Array<{ path: string }> }>(t, 'POST', '/api/v1/alert-rules', {
        token: admin,
        body: { project_id: projectId, name: `bad ${path}`, ...body },
      });
      expect(result.status, JSON.stringify(body)).toBe(422);
      expect(
        result.body.errors.map((e) => e.path),
        JSON.stringify(body),
      ).toContain(path);
    }
  });
});
