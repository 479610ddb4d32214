import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject } from '../support/http.js';
import { createPostgresConnector, query, waitForStatus, type Execution } from '../support/runs.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';
import { startSync } from './sync.js';
import { startHttpReceiver, startSmtpReceiver, until, type HttpReceiver, type SmtpReceiver } from './receivers.js';

interface RuleItem {
  item_kind: string;
  item_id: string;
  state: string;
  deadline_at: string | null;
  value: Record<string, unknown>;
  link: string | null;
}
interface Rule {
  id: string;
  state: string;
  items: RuleItem[];
}
interface AlertEvent {
  previous_state: string;
  state: string;
  repeat: boolean;
  muted: boolean;
  notifications: Array<{ status: string }>;
}

describe('alert rules', () => {
  let t: TestApp;
  let admin: string;
  let source: TestDatabase;
  let destination: TestDatabase;
  let projectId: string;
  let sourceId: string;
  let http: HttpReceiver;
  let smtp: SmtpReceiver;
  const channel: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp({
      env: { ...NO_RATE_LIMITS, SVC_ALERT_EVALUATION_MS: '300' },
      worker: true,
      leader: true,
    });
    admin = (await adminLogin(t)).accessToken;
    source = await createTestDatabase();
    destination = await createTestDatabase();
    projectId = (await createProject(t, admin)).id;
    sourceId = await createPostgresConnector(t, admin, projectId, 'source', source.name);
    await query(source.url, 'create table orders (id bigint primary key, note text)');
    await query(source.url, "insert into orders select g, 'n' || g from generate_series(1, 100) g");
    await query(
      source.url,
      'create view slow_orders as select o.*, pg_sleep(0.5)::text as pause from orders o where o.id <= 6',
    );
    http = await startHttpReceiver();
    http.answer('/pd', 202, { status: 'success', message: 'Event processed' });
    smtp = await startSmtpReceiver('alerts', 'smtp-Secret-9');
    const make = async (name: string, type: string, config: Record<string, unknown>) => {
      const created = await api<{ id: string }>(t, 'POST', '/api/v1/notification-configs', {
        token: admin,
        body: { project_id: projectId, name, type, config },
      });
      expect(created.status).toBe(201);
      channel[name] = created.body.id;
    };
    await make('slack', 'slack', { url: `${http.url}/slack` });
    await make('teams', 'teams', { url: `${http.url}/teams` });
    await make('hook', 'webhook', { url: `${http.url}/hook`, hmac_secret: 'k3y-for-signing' });
    await make('pd', 'pagerduty', { routing_key: 'routing-KEY-42', url: `${http.url}/pd` });
    await make('mail', 'email', {
      host: '127.0.0.1',
      port: smtp.port,
      tls: 'none',
      user: 'alerts',
      password: 'smtp-Secret-9',
      from: 'svc@example.com',
      to: ['oncall@example.com'],
    });
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
    await destination?.drop();
    await http?.close();
    await smtp?.close();
  });

  /** A destination connector of its own per test: its runs are a subject (source>destination) of their own. */
  let destinations = 0;
  const newSubject = async () => {
    destinations += 1;
    const id = await createPostgresConnector(t, admin, projectId, `destination ${destinations}`, destination.name);
    return { id: `${sourceId}>${id}`, destinationId: id, table: `copy_${destinations}` };
  };
  const run = async (subject: { destinationId: string; table: string }, stream: string, wait = true) => {
    const started = await startSync(t, admin, {
      projectId,
      sourceId,
      destinationId: subject.destinationId,
      stream,
      table: subject.table,
    });
    return wait ? waitForStatus(t, admin, started.id, ['succeeded', 'failed']) : started;
  };
  const createRule = async (body: Record<string, unknown>) => {
    const created = await api<Rule>(t, 'POST', '/api/v1/alert-rules', {
      token: admin,
      body: { project_id: projectId, ...body },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  };
  const rule = async (id: string) => (await api<Rule>(t, 'GET', `/api/v1/alert-rules/${id}`, { token: admin })).body;
  const stateOf = async (id: string) => (await rule(id)).items[0]?.state ?? 'ok';
  const waitState = (id: string, state: string, timeoutMs = 10_000) =>
    until(async () => (await stateOf(id)) === state, timeoutMs, `rule ${id} ${state}`);
  const events = async (id: string) =>
    (await api<{ items: AlertEvent[] }>(t, 'GET', `/api/v1/alert-rules/${id}/events`, { token: admin })).body.items;
  const hooksOf = (ruleId: string) =>
    http.on('/hook').filter((r) => (r.body['rule'] as { id?: string } | undefined)?.id === ruleId);

  it('run_failed: every channel hears the failure within 5 s, once, and the recovery with the same dedup_key', async () => {
    const subject = await newSubject();
    const created = await createRule({
      name: 'sync failed',
      kind: 'run_failed',
      severity: 'critical',
      scope: [{ kind: 'sync', id: subject.id }],
      channel_ids: Object.values(channel),
    });
    expect(created.state).toBe('ok');
    const failed = await run(subject, 'no_such_table');
    expect(failed.status).toBe('failed');
    const ended = Date.now();
    await until(() => hooksOf(created.id).length === 1, 5000, 'the webhook');
    expect(Date.now() - ended).toBeLessThan(5000);
    await until(() => http.on('/pd').length === 1 && smtp.mails.length === 1, 5000, 'all channels');
    const firing = await rule(created.id);
    expect(firing.state).toBe('firing');
    expect(firing.items[0]).toMatchObject({ item_kind: 'sync', item_id: subject.id, state: 'firing' });
    expect(firing.items[0]!.link).toContain(`/executions?id=${failed.id}`);

    expect(http.on('/slack').at(-1)!.body['text']).toContain('[Firing] sync failed');
    const card = JSON.stringify(http.on('/teams').at(-1)!.body);
    expect(card).toContain('AdaptiveCard');
    expect(card).toContain('Action.OpenUrl');
    const trigger = http.on('/pd')[0]!.body;
    expect(trigger).toMatchObject({ routing_key: 'routing-KEY-42', event_action: 'trigger' });
    expect((trigger['payload'] as { severity: string }).severity).toBe('critical');
    expect(smtp.mails[0]!.subject).toContain('[Firing] sync failed');
    expect(smtp.mails[0]!.text).toContain(`/executions?id=${failed.id}`);

    // A second failure: still firing, nothing new sent (one notification per change of state).
    await run(subject, 'no_such_table');
    await new Promise((r) => setTimeout(r, 1500));
    expect(hooksOf(created.id)).toHaveLength(1);
    expect(http.on('/pd')).toHaveLength(1);

    await run(subject, 'orders');
    await waitState(created.id, 'resolved');
    await until(() => http.on('/pd').length === 2 && smtp.mails.length === 2, 5000, 'the resolution');
    const resolve = http.on('/pd')[1]!.body;
    expect(resolve).toMatchObject({ event_action: 'resolve', dedup_key: trigger['dedup_key'] });
    expect(hooksOf(created.id).at(-1)!.body['state']).toBe('resolved');
    expect(smtp.mails[1]!.subject).toContain('[Resolved]');
    const history = await events(created.id);
    expect(history.map((e) => `${e.previous_state}>${e.state}`)).toEqual(['firing>resolved', 'ok>firing']);
    expect(history[0]!.notifications.every((n) => n.status === 'sent')).toBe(true);
    expect(history[0]!.notifications).toHaveLength(5);
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).toContain('svc_alert_notifications_total{type="pagerduty",outcome="sent"} 2');
    expect(metrics).toMatch(/svc_alert_transitions_total\{state="resolved"\} [1-9]/);
  });

  it('consecutive_failures fires on the Nth failure in a row and resolves on a success', async () => {
    const subject = await newSubject();
    const created = await createRule({
      name: 'three in a row',
      kind: 'consecutive_failures',
      params: { count: 2 },
      scope: [{ kind: 'sync', id: subject.id }],
      channel_ids: [channel['hook']],
    });
    await run(subject, 'no_such_table');
    await new Promise((r) => setTimeout(r, 1000));
    expect(await stateOf(created.id)).toBe('ok');
    await run(subject, 'no_such_table');
    await waitState(created.id, 'firing');
    expect((await rule(created.id)).items[0]!.value).toMatchObject({ failures_in_a_row: 2 });
    await run(subject, 'orders');
    await waitState(created.id, 'resolved');
    await until(() => hooksOf(created.id).length === 2, 5000, 'two webhooks');
    expect(hooksOf(created.id).map((r) => r.body['state'])).toEqual(['firing', 'resolved']);
  });

  it('run_duration fires while a run still runs past the deadline set at its start, and resolves after a quick run', async () => {
    const subject = await newSubject();
    const created = await createRule({
      name: 'too slow',
      kind: 'run_duration',
      params: { max_seconds: 1 },
      scope: [{ kind: 'sync', id: subject.id }],
      channel_ids: [channel['hook']],
    });
    const slow = await run(subject, 'slow_orders', false);
    await waitForStatus(t, admin, slow.id, ['running']);
    await waitState(created.id, 'firing', 4000);
    const detail = await rule(created.id);
    expect(detail.items[0]!.deadline_at).not.toBeNull();
    // Fired before the run ended: the deadline, not the run's end, set it off.
    const current = await api<Execution>(t, 'GET', `/api/v1/executions/${slow.id}`, { token: admin });
    expect(current.body.status).toBe('running');
    await waitForStatus(t, admin, slow.id, ['succeeded', 'failed']);
    await run(subject, 'orders');
    await waitState(created.id, 'resolved');
  });

  it('freshness fires when the item has had no successful run for the limit, and resolves on the next', async () => {
    const subject = await newSubject();
    await run(subject, 'orders');
    const created = await createRule({
      name: 'stale',
      kind: 'freshness',
      params: { max_age_seconds: 2 },
      scope: [{ kind: 'sync', id: subject.id }],
      channel_ids: [channel['hook']],
    });
    expect(await stateOf(created.id)).toBe('ok');
    await waitState(created.id, 'firing', 6000);
    await run(subject, 'orders');
    await waitState(created.id, 'resolved');
  });

  it('row_count fires when a run writes far fewer rows than the median of the previous runs', async () => {
    const subject = await newSubject();
    const created = await createRule({
      name: 'few rows',
      kind: 'row_count',
      params: { fraction: 0.5, last_runs: 5, min_runs: 2 },
      scope: [{ kind: 'sync', id: subject.id }],
      channel_ids: [channel['hook']],
    });
    await query(source.url, 'create table daily (id bigint primary key)');
    await query(source.url, 'insert into daily select generate_series(1, 100)');
    await run(subject, 'daily');
    await run(subject, 'daily');
    await new Promise((r) => setTimeout(r, 800));
    expect(await stateOf(created.id)).toBe('ok');
    await query(source.url, 'delete from daily where id > 10');
    await run(subject, 'daily');
    await waitState(created.id, 'firing');
    expect((await rule(created.id)).items[0]!.value).toMatchObject({ rows_written: 10, median: 100 });
    await query(source.url, 'insert into daily select generate_series(11, 100)');
    await run(subject, 'daily');
    await waitState(created.id, 'resolved');
  });

  it('waits `for` before firing, repeats after repeat_interval, and a muted rule stays silent', async () => {
    const subject = await newSubject();
    const patient = await createRule({
      name: 'patient',
      kind: 'run_failed',
      for: 2,
      repeat_interval: 1,
      scope: [{ kind: 'sync', id: subject.id }],
      channel_ids: [channel['hook']],
    });
    const muted = await createRule({
      name: 'muted',
      kind: 'run_failed',
      scope: [{ kind: 'sync', id: subject.id }],
      channel_ids: [channel['hook']],
      muted_until: new Date(Date.now() + 3_600_000).toISOString(),
    });
    await run(subject, 'no_such_table');
    await waitState(patient.id, 'pending');
    expect(hooksOf(patient.id)).toHaveLength(0);
    await waitState(patient.id, 'firing', 5000);
    await until(() => hooksOf(patient.id).length >= 3, 6000, 'repeated notifications');
    const sent = hooksOf(patient.id);
    expect(sent[0]!.body['repeat']).toBe(false);
    expect(sent[1]!.body['repeat']).toBe(true);
    expect(new Set(sent.map((r) => r.body['dedup_key'])).size).toBe(1);

    expect(await stateOf(muted.id)).toBe('firing');
    expect(hooksOf(muted.id)).toHaveLength(0);
    const mutedHistory = await events(muted.id);
    expect(mutedHistory[0]).toMatchObject({ state: 'firing', muted: true, notifications: [] });
    // The recovery of a muted rule is recorded, and silent too.
    await run(subject, 'orders');
    await waitState(muted.id, 'resolved');
    expect((await events(muted.id))[0]).toMatchObject({ state: 'resolved', muted: true, notifications: [] });
    expect(hooksOf(muted.id)).toHaveLength(0);
  });

  it('keep_firing_for holds a cleared alert before it resolves; a failure meanwhile sends nothing new', async () => {
    const subject = await newSubject();
    const held = await createRule({
      name: 'held',
      kind: 'run_failed',
      keep_firing_for: 4,
      scope: [{ kind: 'sync', id: subject.id }],
      channel_ids: [channel['hook']],
    });
    await run(subject, 'no_such_table');
    await waitState(held.id, 'firing');
    await run(subject, 'orders');
    await new Promise((r) => setTimeout(r, 1500));
    expect(await stateOf(held.id)).toBe('firing');
    // Failing again within the window: still the same firing alert, no second notification.
    await run(subject, 'no_such_table');
    await new Promise((r) => setTimeout(r, 800));
    expect(hooksOf(held.id)).toHaveLength(1);
    await run(subject, 'orders');
    const cleared = Date.now();
    await waitState(held.id, 'resolved', 10_000);
    expect(Date.now() - cleared).toBeGreaterThanOrEqual(3000);
    await until(() => hooksOf(held.id).length === 2, 5000, 'the resolution');
    expect(hooksOf(held.id).map((r) => r.body['state'])).toEqual(['firing', 'resolved']);
    expect((await events(held.id)).map((e) => `${e.previous_state}>${e.state}`)).toEqual([
      'firing>resolved',
      'ok>firing',
    ]);
  });

  it('validates parameters, scope and channels, naming the field', async () => {
    const badParams = await api(t, 'POST', '/api/v1/alert-rules', {
      token: admin,
      body: { project_id: projectId, name: 'bad', kind: 'consecutive_failures', params: { count: 1 } },
    });
    expect(badParams.status).toBe(422);
    expect(JSON.stringify(badParams.body)).toContain('params.count');
    const badScope = await api(t, 'POST', '/api/v1/alert-rules', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'bad scope',
        kind: 'run_failed',
        scope: [{ kind: 'pipeline', id: '00000000-0000-0000-0000-000000000001' }],
      },
    });
    expect(badScope.status).toBe(422);
    expect(JSON.stringify(badScope.body)).toContain('scope.0.id');
    const other = await createProject(t, admin);
    const foreign = await api<{ id: string }>(t, 'POST', '/api/v1/notification-configs', {
      token: admin,
      body: { project_id: other.id, name: 'theirs', type: 'slack', config: { url: `${http.url}/x` } },
    });
    const badChannel = await api(t, 'POST', '/api/v1/alert-rules', {
      token: admin,
      body: { project_id: projectId, name: 'bad channel', kind: 'run_failed', channel_ids: [foreign.body.id] },
    });
    expect(badChannel.status).toBe(422);
    expect(JSON.stringify(badChannel.body)).toContain('channel_ids.0');
  });
});
