import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser } from '../support/http.js';
import { query } from '../support/runs.js';
import { startHttpReceiver, startSmtpReceiver, type HttpReceiver, type SmtpReceiver } from './receivers.js';

interface Channel {
  id: string;
  project_id: string | null;
  name: string;
  type: string;
  config: Record<string, unknown>;
  secrets_set: string[];
}

describe('notification configs', () => {
  let t: TestApp;
  let admin: string;
  let projectId: string;
  let http: HttpReceiver;
  let smtp: SmtpReceiver;

  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS });
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
    http = await startHttpReceiver();
    smtp = await startSmtpReceiver('alerts', 'smtp-Secret-9');
  });
  afterAll(async () => {
    await t?.close();
    await http?.close();
    await smtp?.close();
  });

  const create = (body: Record<string, unknown>, token = admin) =>
    api<Channel>(t, 'POST', '/api/v1/notification-configs', { token, body: { project_id: projectId, ...body } });
  const test = (id: string, token = admin) =>
    api<{ ok: boolean; status: number | null; response: string }>(
      t,
      'POST',
      `/api/v1/notification-configs/${id}/test`,
      { token },
    );

  it('keeps secrets write-only: encrypted at rest, never returned, kept by a change that leaves them out', async () => {
    const created = await create({
      name: 'ops slack',
      type: 'slack',
      config: { url: `${http.url}/slack/T000/B000/secret-token-1` },
    });
    expect(created.status).toBe(201);
    expect(created.body.config).toEqual({});
    expect(created.body.secrets_set).toEqual(['url']);
    const raw = await query(
      t.config.db.url!,
      'select settings::text, secrets from notification_configs where id = $1',
      [created.body.id],
    );
    expect(JSON.stringify(raw.rows[0])).not.toContain('secret-token-1');
    const renamed = await api<Channel>(t, 'PATCH', `/api/v1/notification-configs/${created.body.id}`, {
      token: admin,
      body: { name: 'ops slack 2' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.secrets_set).toEqual(['url']);
    const sent = await test(created.body.id);
    expect(sent.body).toEqual({ ok: true, status: 200, response: 'ok' });
    expect(http.on('/slack/T000/B000/secret-token-1')).toHaveLength(1);
    expect(t.logText()).not.toContain('secret-token-1');
  });

  it('answers 422 naming the field of a bad configuration, and 409 for a name taken', async () => {
    const missing = await create({ name: 'mail', type: 'email', config: { host: 'smtp.example.com', from: 'a@b.c' } });
    expect(missing.status).toBe(422);
    expect(JSON.stringify(missing.body)).toContain('config.to');
    const badUrl = await create({ name: 'hook', type: 'webhook', config: { url: 'ftp://example.com' } });
    expect(badUrl.status).toBe(422);
    expect(JSON.stringify(badUrl.body)).toContain('config.url');
    const badType = await create({ name: 'x', type: 'carrier-pigeon', config: {} });
    expect(badType.status).toBe(422);
    await create({ name: 'same', type: 'slack', config: { url: `${http.url}/s` } });
    expect((await create({ name: 'same', type: 'slack', config: { url: `${http.url}/s` } })).status).toBe(409);
  });

  it('tests each kind of channel against a real receiver and reports the remote answer', async () => {
    const mail = await create({
      name: 'mail',
      type: 'email',
      config: {
        host: '127.0.0.1',
        port: smtp.port,
        tls: 'none',
        user: 'alerts',
        password: 'smtp-Secret-9',
        from: 'svc@example.com',
        to: ['oncall@example.com', 'lead@example.com'],
      },
    });
    expect(mail.status).toBe(201);
    expect(mail.body.secrets_set).toEqual(['password']);
    const mailed = await test(mail.body.id);
    expect(mailed.body.ok).toBe(true);
    expect(mailed.body.status).toBe(250);
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0]!.subject).toContain('Test of the notification channel "mail"');
    expect(smtp.mails[0]!.envelopeTo.sort()).toEqual(['lead@example.com', 'oncall@example.com']);
    expect(smtp.mails[0]!.user).toBe('alerts');

    const teams = await create({ name: 'teams', type: 'teams', config: { url: `${http.url}/teams` } });
    expect((await test(teams.body.id)).body.ok).toBe(true);
    const card = http.on('/teams')[0]!.body as {
      type: string;
      attachments: Array<{ contentType: string; content: { type: string; body: Array<{ text?: string }> } }>;
    };
    expect(card.type).toBe('message');
    expect(card.attachments[0]!.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(card.attachments[0]!.content.type).toBe('AdaptiveCard');

    const hook = await create({
      name: 'hook',
      type: 'webhook',
      config: { url: `${http.url}/hook`, hmac_secret: 'sign-Me-please', headers: { 'X-Team': 'data' } },
    });
    expect(hook.body.secrets_set.sort()).toEqual(['headers', 'hmac_secret']);
    expect((await test(hook.body.id)).body.ok).toBe(true);
    const delivered = http.on('/hook')[0]!;
    const expected = createHmac('sha256', 'sign-Me-please')
      .update(`${String(delivered.headers['x-svc-timestamp'])}.${delivered.raw}`)
      .digest('hex');
    expect(delivered.headers['x-svc-signature']).toBe(`sha256=${expected}`);
    expect(delivered.headers['x-team']).toBe('data');
    expect(delivered.body['state']).toBe('test');

    http.answer('/pd', 202, { status: 'success', message: 'Event processed', dedup_key: 'x' });
    const pd = await create({
      name: 'pd',
      type: 'pagerduty',
      config: { routing_key: 'R0UTING-key-0123456789abcdef', url: `${http.url}/pd` },
    });
    const paged = await test(pd.body.id);
    expect(paged.body).toMatchObject({ ok: true, status: 202 });
    expect(paged.body.response).toContain('Event processed');
    expect(http.on('/pd')[0]!.body).toMatchObject({
      routing_key: 'R0UTING-key-0123456789abcdef',
      event_action: 'trigger',
      dedup_key: `svc-test-${pd.body.id}`,
    });

    http.answer('/broken', 500, { error: 'boom' });
    const broken = await create({ name: 'broken', type: 'slack', config: { url: `${http.url}/broken` } });
    expect((await test(broken.body.id)).body).toMatchObject({ ok: false, status: 500 });
  });

  it('refuses destinations the egress policy refuses', async () => {
    const strict = await startTestApp({ env: { ...NO_RATE_LIMITS, SVC_CONNECTOR_ALLOWED_HOSTS: '' } });
    try {
      const token = (await adminLogin(strict)).accessToken;
      const project = await createProject(strict, token);
      const created = await api<Channel>(strict, 'POST', '/api/v1/notification-configs', {
        token,
        body: { project_id: project.id, name: 'local', type: 'slack', config: { url: `${http.url}/egress` } },
      });
      const result = await api<{ ok: boolean; response: string }>(
        strict,
        'POST',
        `/api/v1/notification-configs/${created.body.id}/test`,
        { token },
      );
      expect(result.body.ok).toBe(false);
      expect(result.body.response).toContain('not allowed by the egress policy');
      expect(http.on('/egress')).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });

  it('keeps channels to their project, and instance-wide ones to administrators', async () => {
    const member = await createUser(t, admin);
    const other = await createProject(t, admin);
    const joined = await api(t, 'PUT', `/api/v1/admin/projects/${other.id}/members/${member.id}`, {
      token: admin,
      body: { role: 'viewer' },
    });
    expect(joined.status).toBeLessThan(300);
    const own = await create({ name: 'private', type: 'slack', config: { url: `${http.url}/p` } });
    const token = member.session.accessToken;
    expect((await api(t, 'GET', `/api/v1/notification-configs/${own.body.id}`, { token })).status).toBe(403);
    const list = await api<{ items: Channel[] }>(t, 'GET', '/api/v1/notification-configs', { token });
    expect(list.body.items.map((c) => c.id)).not.toContain(own.body.id);
    const denied = await api(t, 'POST', '/api/v1/notification-configs', {
      token,
      body: { project_id: other.id, name: 'n', type: 'slack', config: { url: `${http.url}/n` } },
    });
    expect(denied.status).toBe(403);
    const instance = await api<Channel>(t, 'POST', '/api/v1/notification-configs', {
      token: admin,
      body: { project_id: null, name: 'instance pager', type: 'slack', config: { url: `${http.url}/i` } },
    });
    expect(instance.status).toBe(201);
    expect((await api(t, 'GET', `/api/v1/notification-configs/${instance.body.id}`, { token })).status).toBe(404);
    const asMember = await api(t, 'POST', '/api/v1/notification-configs', {
      token,
      body: { project_id: null, name: 'mine', type: 'slack', config: { url: `${http.url}/m` } },
    });
    expect(asMember.status).toBe(403);
    const adminList = await api<{ items: Channel[] }>(t, 'GET', '/api/v1/notification-configs', { token: admin });
    expect(adminList.body.items.map((c) => c.id)).toContain(instance.body.id);
  });
});
