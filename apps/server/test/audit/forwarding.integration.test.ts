/**
 * Audit forwarding to Debian's rsyslogd (TCP, UDP and TLS) and to an HTTP receiver, started by the
 * tests on loopback: every event id arrives, in RFC 5424 with structured data, across a restart of
 * the forwarding process, retried after failures, with an overflowing backlog counted and audited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser } from '../support/http.js';
import { query } from '../support/runs.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';
import { startHttpReceiver, until, type HttpReceiver } from '../alerting/receivers.js';
import { startRsyslog, type Rsyslog } from './rsyslog.js';

interface Forwarder {
  id: string;
  cursor: string;
  backlog: number;
  sent: number;
  failed: number;
  skipped: number;
  last_delivered_at: string | null;
  last_error: string | null;
  secrets_set: string[];
  config: Record<string, unknown>;
}

const env = {
  ...NO_RATE_LIMITS,
  SVC_AUDIT_FORWARD_POLL_MS: '100',
  SVC_AUDIT_FORWARD_BATCH_SIZE: '7',
  SVC_AUDIT_FORWARD_MAX_BACKLOG: '500',
};

describe('audit forwarding', () => {
  let database: TestDatabase;
  let t: TestApp;
  let admin: string;
  let projectId: string;
  let channelId: string;
  let tcp: Rsyslog;
  let http: HttpReceiver;

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await startTestApp({ database, env, leader: true });
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
    const channel = await api<{ id: string }>(t, 'POST', '/api/v1/notification-configs', {
      token: admin,
      body: { project_id: projectId, name: 'audit source', type: 'slack', config: { url: 'http://127.0.0.1:9/x' } },
    });
    channelId = channel.body.id;
    tcp = await startRsyslog();
    http = await startHttpReceiver();
  });
  afterAll(async () => {
    await t?.close();
    await tcp?.stop();
    await http?.close();
    await database?.drop();
  });

  /** `n` audited changes (a channel renamed), through the API of `app`. */
  const makeEvents = async (n: number, app = t, token = admin) => {
    for (let i = 0; i < n; i++) {
      const result = await api(app, 'PATCH', `/api/v1/notification-configs/${channelId}`, {
        token,
        body: { name: `audit source ${Math.random().toString(36).slice(2)}` },
      });
      expect(result.status).toBe(200);
    }
  };
  const auditIdsAfter = async (cursor: string) =>
    (await query(database.url, 'select id::text from audit_log where id > $1 order by id', [cursor])).rows.map(
      (r: { id: string }) => r.id,
    );
  const lastAuditId = async () =>
    String((await query(database.url, 'select coalesce(max(id), 0)::text as id from audit_log')).rows[0].id);
  const forwarder = async (id: string, app = t, token = admin) =>
    (await api<Forwarder>(app, 'GET', `/api/v1/audit-forwarder-settings/${id}`, { token })).body;
  const create = async (body: Record<string, unknown>) => {
    const created = await api<Forwarder>(t, 'POST', '/api/v1/audit-forwarder-settings', { token: admin, body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  };

  it('forwards every event to rsyslog over TCP in RFC 5424 with structured data, across a restart of the forwarder', async () => {
    const destination = await create({
      name: 'siem tcp',
      type: 'syslog',
      enabled: false,
      config: { host: '127.0.0.1', port: tcp.port, transport: 'tcp', framing: 'octet-counting', facility: 'local4' },
    });
    const start = destination.cursor;
    await makeEvents(150);
    await api(t, 'PATCH', `/api/v1/audit-forwarder-settings/${destination.id}`, {
      token: admin,
      body: { enabled: true },
    });
    // Stop the forwarding process once it has sent some (it may have caught up already: a pass runs
    // until the backlog is empty), then let another process carry on from the cursor, with events
    // made after the restart: everything since the start arrives, nothing is lost across the restart.
    await until(async () => (await forwarder(destination.id)).sent >= 20, 20_000, 'the first batches');
    await t.close();
    const stoppedAt = await tcp.ids();
    expect(stoppedAt.length).toBeGreaterThanOrEqual(20);
    t = await startTestApp({ database, env, leader: true });
    admin = (await adminLogin(t)).accessToken;
    await makeEvents(30);
    const last = await lastAuditId();
    await until(async () => BigInt((await forwarder(destination.id)).cursor) >= BigInt(last), 20_000, 'catching up');
    const expected = (await auditIdsAfter(start)).filter((id) => BigInt(id) <= BigInt(last));
    await until(async () => new Set(await tcp.ids()).size >= expected.length, 5000, 'rsyslog to write');
    const received = await tcp.ids();
    expect([...new Set(received)].sort()).toEqual([...expected].sort());
    const status = await forwarder(destination.id);
    expect(status.last_error).toBeNull();
    expect(status.last_delivered_at).not.toBeNull();
    expect(status.sent).toBeGreaterThanOrEqual(expected.length);
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    expect(metrics).toMatch(/svc_audit_forwarded_total\{type="syslog"\} [1-9]/);
    expect(metrics).toContain('svc_audit_forward_backlog{destination="siem tcp"} 0');

    const line = (await tcp.messages()).find((m) => m.includes(`id="${expected[0]}"`))!;
    // local4 (20) * 8 + informational (6) = 166; version 1; the event in structured data; the details as JSON.
    expect(line).toMatch(/^<166>1 \d{4}-\d\d-\d\dT\S+Z \S+ svc - notification_config_updated \[svc@32473 id="\d+" /);
    expect(line).toContain(`target_type="notification_config" target_id="${channelId}"`);
    expect(JSON.parse(line.slice(line.indexOf('] ') + 2))).toMatchObject({ details: { fields: ['name'] } });
  });

  it('forwards over UDP with a filter by action, and over TLS verified against the CA, retrying until it is right', async () => {
    const udp = await create({
      name: 'siem udp',
      type: 'syslog',
      actions: ['audit_forwarder_tested'],
      config: { host: '127.0.0.1', port: tcp.port, transport: 'udp', app_name: 'svc-udp' },
    });
    await makeEvents(3);
    const tested = await api<{ ok: boolean }>(t, 'POST', `/api/v1/audit-forwarder-settings/${udp.id}/test`, {
      token: admin,
    });
    expect(tested.body.ok).toBe(true);
    await until(
      async () => (await tcp.messages()).some((m) => m.includes('svc-udp - audit_forwarder_tested')),
      5000,
      'the filtered event over UDP',
    );
    expect((await tcp.messages()).filter((m) => m.includes(' svc-udp - notification_config_updated'))).toHaveLength(0);

    const tls = await startRsyslog({ tls: true });
    try {
      const other = await startRsyslog({ tls: true }); // a CA the server's certificate does not chain to
      const wrongCa = other.ca;
      await other.stop();
      const secure = await create({
        name: 'siem tls',
        type: 'syslog',
        config: { host: '127.0.0.1', port: tls.port, transport: 'tls', framing: 'lf', ca: wrongCa },
      });
      await makeEvents(5);
      await until(async () => (await forwarder(secure.id)).last_error !== null, 20_000, 'a TLS failure');
      const failing = await forwarder(secure.id);
      expect(failing.failed).toBeGreaterThan(0);
      expect(failing.sent).toBe(0);
      await api(t, 'PATCH', `/api/v1/audit-forwarder-settings/${secure.id}`, {
        token: admin,
        body: { config: { ca: tls.ca } },
      });
      const last = await lastAuditId();
      await until(async () => BigInt((await forwarder(secure.id)).cursor) >= BigInt(last), 20_000, 'delivery');
      const expected = (await auditIdsAfter(secure.cursor)).filter((id) => BigInt(id) <= BigInt(last));
      await until(async () => new Set(await tls.ids()).size >= expected.length, 5000, 'rsyslog to write');
      expect([...new Set(await tls.ids())].sort()).toEqual(expected.sort());
      expect((await forwarder(secure.id)).last_error).toBeNull();
    } finally {
      await tls.stop();
    }
  });

  it('posts JSON batches with the verification token, retries a failing receiver and loses nothing', async () => {
    http.answer('/audit', 503, { error: 'busy' });
    const destination = await create({
      name: 'http siem',
      type: 'http',
      config: { url: `${http.url}/audit`, token: 'verify-ME-123', headers: { 'X-Source': 'svc' } },
    });
    expect(destination.secrets_set).toEqual(['headers', 'token']);
    expect(JSON.stringify(destination)).not.toContain('verify-ME-123');
    await makeEvents(10);
    await until(async () => (await forwarder(destination.id)).failed > 0, 20_000, 'a failed attempt');
    expect((await forwarder(destination.id)).last_error).toContain('503');
    http.answer('/audit', 200, { ok: true });
    const last = await lastAuditId();
    await until(async () => BigInt((await forwarder(destination.id)).cursor) >= BigInt(last), 15_000, 'delivery');
    const accepted = http.on('/audit').filter((r) => r.headers['x-svc-verification-token'] === 'verify-ME-123');
    expect(accepted.length).toBe(http.on('/audit').length);
    expect(accepted[0]!.headers['x-source']).toBe('svc');
    const ids = new Set(accepted.flatMap((r) => (r.body['events'] as Array<{ id: string }>).map((e) => e.id)));
    const expected = (await auditIdsAfter(destination.cursor)).filter((id) => BigInt(id) <= BigInt(last));
    for (const id of expected) expect(ids.has(id)).toBe(true);
    expect((await forwarder(destination.id)).last_error).toBeNull();
  });

  it('counts and audits an overflowing backlog instead of dropping it silently', async () => {
    const small = await startTestApp({
      database,
      env: { ...env, SVC_AUDIT_FORWARD_MAX_BACKLOG: '20' },
      leader: false,
    });
    try {
      await t.close();
      const token = (await adminLogin(small)).accessToken;
      const destination = await api<Forwarder>(small, 'POST', '/api/v1/audit-forwarder-settings', {
        token,
        body: {
          name: 'slow siem',
          type: 'http',
          enabled: false,
          config: { url: `${http.url}/overflow` },
        },
      });
      await makeEvents(35, small, token);
      expect((await forwarder(destination.body.id, small, token)).backlog).toBe(21);
      await api(small, 'PATCH', `/api/v1/audit-forwarder-settings/${destination.body.id}`, {
        token,
        body: { enabled: true },
      });
      await small.close();
      // A leader with the small backlog limit picks it up.
      const leader = await startTestApp({
        database,
        env: { ...env, SVC_AUDIT_FORWARD_MAX_BACKLOG: '20' },
        leader: true,
      });
      t = leader;
      admin = (await adminLogin(t)).accessToken;
      await until(async () => (await forwarder(destination.body.id)).skipped > 0, 30_000, 'the overflow');
      const status = await forwarder(destination.body.id);
      expect(status.skipped).toBeGreaterThanOrEqual(15);
      const audited = await query(
        database.url,
        "select details from audit_log where kind = 'audit_forwarding_overflow' and target_id = $1",
        [destination.body.id],
      );
      expect(audited.rows).toHaveLength(1);
      expect(audited.rows[0].details.skipped).toBe(status.skipped);
      // The overflow's own audit event reaches the destination too.
      await until(
        () =>
          http
            .on('/overflow')
            .some((r) =>
              (r.body['events'] as Array<{ kind: string }>).some((e) => e.kind === 'audit_forwarding_overflow'),
            ),
        20_000,
        'the overflow event forwarded',
      );
    } finally {
      await small.close().catch(() => undefined);
    }
  });

  it('is for administrators only', async () => {
    const user = await createUser(t, admin);
    const list = await api(t, 'GET', '/api/v1/audit-forwarder-settings', { token: user.session.accessToken });
    expect(list.status).toBe(403);
    const created = await api(t, 'POST', '/api/v1/audit-forwarder-settings', {
      token: user.session.accessToken,
      body: { name: 'x', type: 'http', config: { url: 'http://127.0.0.1:9/' } },
    });
    expect(created.status).toBe(403);
    const bad = await api(t, 'POST', '/api/v1/audit-forwarder-settings', {
      token: admin,
      body: { name: 'bad', type: 'syslog', config: { host: '127.0.0.1', transport: 'carrier' } },
    });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('config.transport');
  });
});
