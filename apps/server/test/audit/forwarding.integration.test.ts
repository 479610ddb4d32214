/**
 * Audit forwarding to Debian's rsyslogd (TCP, UDP, TLS and mutual TLS) and to an HTTP receiver,
 * started by the tests on loopback: every event id arrives, in RFC 5424 with structured data, across a
 * restart of the forwarding process, retried after failures, with an overflowing backlog counted and
 * audited; a client certificate's key is write-only.
 */
import { generateKeyPairSync } from 'node:crypto';
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

  it('forwards over mutual TLS with a client certificate whose key is write-only, and says why a server drops it without one', async () => {
    const mutual = await startRsyslog({ mutual: true });
    try {
      const client = mutual.client!;
      // A line from the middle of the key: found nowhere but where the key is used.
      const keyLine = client.key.split('\n')[5]!;
      expect(keyLine).toMatch(/^[A-Za-z0-9+/]{64}$/);
      const base = { host: '127.0.0.1', port: mutual.port, transport: 'tls', framing: 'octet-counting', ca: mutual.ca };
      const pkcs8 = (cipher?: string) =>
        generateKeyPairSync('rsa', {
          modulusLength: 2048,
          publicKeyEncoding: { type: 'spki', format: 'pem' },
          privateKeyEncoding: cipher
            ? { type: 'pkcs8', format: 'pem', cipher, passphrase: 'a passphrase' }
            : { type: 'pkcs8', format: 'pem' },
        }).privateKey;

      // Refused before anything is stored, naming the field and never quoting the key.
      const refusals: Array<[Record<string, unknown>, string, RegExp]> = [
        [{ ...base, client_cert: client.cert, client_key: 'not a key' }, 'config.client_key', /PEM private key/],
        [{ ...base, client_cert: client.cert, client_key: pkcs8('aes-256-cbc') }, 'config.client_key', /encrypted/],
        [{ ...base, client_cert: client.cert, client_key: pkcs8() }, 'config.client_key', /does not belong/],
        [{ ...base, client_cert: client.cert }, 'config.client_key', /required with client_cert/],
        [{ ...base, client_key: client.key }, 'config.client_cert', /required with client_key/],
        [{ ...base, client_cert: client.key, client_key: client.key }, 'config.client_cert', /PEM of certificates/],
        [{ ...base, ca: '-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----' }, 'config.ca', /PEM/],
      ];
      for (const [config, field, message] of refusals) {
        const refused = await api<{ errors: Array<{ path: string; message: string }> }>(
          t,
          'POST',
          '/api/v1/audit-forwarder-settings',
          { token: admin, body: { name: 'refused', type: 'syslog', config } },
        );
        expect(refused.status, field).toBe(422);
        expect(refused.body.errors.find((e) => e.path === field)?.message, field).toMatch(message);
        expect(JSON.stringify(refused.body)).not.toContain(keyLine);
      }

      // The key as a one-line field leaves it (line breaks lost): it is put back in shape.
      const secure = await create({
        name: 'siem mtls',
        type: 'syslog',
        config: { ...base, app_name: 'svc-mtls', client_cert: client.cert, client_key: client.key.replace(/\n/g, '') },
      });
      expect(secure.secrets_set).toEqual(['client_key']);
      expect(secure.config['client_cert']).toBe(client.cert);
      expect(secure.config).not.toHaveProperty('client_key');
      const bare = await create({
        name: 'siem mtls, no certificate',
        type: 'syslog',
        config: { ...base, app_name: 'svc-bare' },
      });
      expect(bare.secrets_set).toEqual([]);
      const fromApp = async (app: string) =>
        (await mutual.messages())
          .filter((m) => m.includes(` ${app} - `))
          .flatMap((m) => / id="(\d+)"/.exec(m)?.[1] ?? []);

      await makeEvents(12);
      let last = await lastAuditId();
      await until(async () => BigInt((await forwarder(secure.id)).cursor) >= BigInt(last), 20_000, 'delivery');
      let expected = (await auditIdsAfter(secure.cursor)).filter((id) => BigInt(id) <= BigInt(last));
      await until(async () => new Set(await fromApp('svc-mtls')).size >= expected.length, 5000, 'rsyslog to write');
      expect([...new Set(await fromApp('svc-mtls'))].sort()).toEqual(expected.sort());
      const delivered = await forwarder(secure.id);
      expect(delivered.last_error).toBeNull();
      expect(delivered.sent).toBeGreaterThanOrEqual(expected.length);

      // Without a client certificate the server drops the connection after the handshake: the
      // attempt fails and says why, the cursor stays, nothing is counted as delivered.
      await until(async () => (await forwarder(bare.id)).last_error !== null, 20_000, 'the refusal');
      const refused = await forwarder(bare.id);
      expect(refused.last_error).toMatch(/closed the TLS connection right after the handshake.*client certificate/);
      expect(refused.sent).toBe(0);
      expect(refused.failed).toBeGreaterThan(0);
      expect(refused.cursor).toBe(bare.cursor);
      expect(refused.last_delivered_at).toBeNull();
      const test = await api<{ ok: boolean; detail: string }>(
        t,
        'POST',
        `/api/v1/audit-forwarder-settings/${bare.id}/test`,
        { token: admin },
      );
      expect(test.body).toMatchObject({ ok: false, detail: expect.stringMatching(/client certificate/) });
      expect(await fromApp('svc-bare')).toEqual([]);

      // Given the certificate and its key, the same destination catches up from its cursor.
      const patched = await api<Forwarder>(t, 'PATCH', `/api/v1/audit-forwarder-settings/${bare.id}`, {
        token: admin,
        body: { config: { client_cert: client.cert, client_key: client.key } },
      });
      expect(patched.status).toBe(200);
      expect(patched.body.secrets_set).toEqual(['client_key']);
      last = await lastAuditId();
      await until(async () => BigInt((await forwarder(bare.id)).cursor) >= BigInt(last), 20_000, 'catching up');
      expected = (await auditIdsAfter(bare.cursor)).filter((id) => BigInt(id) <= BigInt(last));
      await until(async () => new Set(await fromApp('svc-bare')).size >= expected.length, 5000, 'rsyslog to write');
      expect([...new Set(await fromApp('svc-bare'))].sort()).toEqual(expected.sort());
      expect((await forwarder(bare.id)).last_error).toBeNull();

      // A change that leaves the key out keeps it; the key is in no response, log line, audit event
      // or stored setting (it is sealed).
      const renamed = await api<Forwarder>(t, 'PATCH', `/api/v1/audit-forwarder-settings/${secure.id}`, {
        token: admin,
        body: { config: { app_name: 'svc-mtls-2' } },
      });
      expect(renamed.body.secrets_set).toEqual(['client_key']);
      const list = await api(t, 'GET', '/api/v1/audit-forwarder-settings', { token: admin });
      for (const body of [list.body, await forwarder(secure.id), await forwarder(bare.id), renamed.body])
        expect(JSON.stringify(body)).not.toContain(keyLine);
      expect(t.logText()).not.toContain(keyLine);
      const stored = await query(
        database.url,
        `select (select count(*) from audit_forwarders where settings::text like $1 or secrets like $1)::int as settings,
                (select count(*) from audit_log where details::text like $1)::int as audit`,
        [`%${keyLine}%`],
      );
      expect(stored.rows[0]).toEqual({ settings: 0, audit: 0 });
      await api(t, 'DELETE', `/api/v1/audit-forwarder-settings/${bare.id}`, { token: admin });
      await api(t, 'DELETE', `/api/v1/audit-forwarder-settings/${secure.id}`, { token: admin });
    } finally {
      await mutual.stop();
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
