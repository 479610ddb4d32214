import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser } from '../support/http.js';
import { createPostgresConnector, waitForStatus } from '../support/runs.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';
import { startSync } from './sync.js';
import { startSmtpReceiver, until, type SmtpReceiver } from './receivers.js';

const clock = (date: Date) => date.toISOString().slice(11, 16);

describe('notification settings', () => {
  let t: TestApp;
  let admin: string;
  let source: TestDatabase;
  let smtp: SmtpReceiver;
  let projectId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { ...NO_RATE_LIMITS, SVC_ALERT_EVALUATION_MS: '300' }, worker: true, leader: true });
    admin = (await adminLogin(t)).accessToken;
    source = await createTestDatabase();
    smtp = await startSmtpReceiver('relay', 'relay-Pass-1');
    projectId = (await createProject(t, admin)).id;
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
    await smtp?.close();
  });

  const member = async (role: string) => {
    const user = await createUser(t, admin);
    const added = await api(t, 'PUT', `/api/v1/admin/projects/${projectId}/members/${user.id}`, {
      token: admin,
      body: { role },
    });
    expect(added.status).toBeLessThan(300);
    return user;
  };

  it("mails users' own alerts through the instance's SMTP server, by their settings and quiet hours", async () => {
    const instance = await api<{ smtp: Record<string, unknown>; smtp_secrets_set: string[] }>(
      t,
      'PUT',
      '/api/v1/notification-settings/instance',
      {
        token: admin,
        body: {
          defaults: { events: ['alert_firing', 'alert_resolved'], min_severity: 'warning' },
          smtp: {
            host: '127.0.0.1',
            port: smtp.port,
            tls: 'none',
            user: 'relay',
            password: 'relay-Pass-1',
            from: 'alerts@example.com',
          },
        },
      },
    );
    expect(instance.status, JSON.stringify(instance.body)).toBe(200);
    expect(instance.body.smtp_secrets_set).toEqual(['password']);
    expect(JSON.stringify(instance.body)).not.toContain('relay-Pass-1');

    const reader = await member('viewer');
    const sleeper = await member('viewer');
    const outsider = await createUser(t, admin);
    const put = (token: string, body: Record<string, unknown>) =>
      api<{ id: string; events: string[] }>(t, 'PUT', '/api/v1/notification-settings', { token, body });

    const mine = await put(reader.session.accessToken, {
      project_id: projectId,
      events: ['alert_firing'],
      min_severity: 'info',
      email: 'reader-alerts@example.com',
    });
    expect(mine.status).toBe(200);
    const now = new Date();
    const quiet = {
      start: clock(new Date(now.getTime() - 3_600_000)),
      end: clock(new Date(now.getTime() + 3_600_000)),
      timezone: 'UTC',
    };
    expect((await put(sleeper.session.accessToken, { project_id: projectId, quiet_hours: quiet })).status).toBe(200);
    // Every project, the defaults filling what is left out.
    const everywhere = await put(sleeper.session.accessToken, { project_id: null });
    expect(everywhere.body.events).toEqual(['alert_firing', 'alert_resolved']);
    expect((await put(outsider.session.accessToken, { project_id: projectId })).status).toBe(403);
    const badZone = await put(reader.session.accessToken, {
      project_id: projectId,
      quiet_hours: { ...quiet, timezone: 'Mars/Olympus' },
    });
    expect(badZone.status).toBe(422);
    expect(JSON.stringify(badZone.body)).toContain('quiet_hours.timezone');
    const listed = await api<{ items: unknown[] }>(t, 'GET', '/api/v1/notification-settings', {
      token: sleeper.session.accessToken,
    });
    expect(listed.body.items).toHaveLength(2);
    expect(
      (await api(t, 'DELETE', `/api/v1/notification-settings/${mine.body.id}`, { token: sleeper.session.accessToken }))
        .status,
    ).toBe(404);
    expect(
      (await api(t, 'GET', '/api/v1/notification-settings/instance', { token: reader.session.accessToken })).status,
    ).toBe(403);

    const sourceId = await createPostgresConnector(t, admin, projectId, 'source', source.name);
    const destinationId = await createPostgresConnector(t, admin, projectId, 'destination', source.name);
    const fail = async () => {
      const started = await startSync(t, admin, {
        projectId,
        sourceId,
        destinationId,
        stream: 'missing',
        table: 'copy',
      });
      await waitForStatus(t, admin, started.id, ['failed']);
    };
    const warning = await api<{ id: string }>(t, 'POST', '/api/v1/alert-rules', {
      token: admin,
      body: { project_id: projectId, name: 'warn', kind: 'run_failed', severity: 'warning' },
    });
    expect(warning.status).toBe(201);
    await fail();
    await until(() => smtp.mails.length >= 1, 8000, 'the reader mail');
    await new Promise((r) => setTimeout(r, 1500));
    // The reader, at the address they chose; not the one in quiet hours (a warning).
    expect(smtp.mails.map((m) => m.envelopeTo).flat()).toEqual(['reader-alerts@example.com']);
    expect(smtp.mails[0]!.subject).toContain('[Firing] warn');
    expect(smtp.mails[0]!.user).toBe('relay');

    await api(t, 'DELETE', `/api/v1/alert-rules/${warning.body.id}`, { token: admin });
    await api(t, 'POST', '/api/v1/alert-rules', {
      token: admin,
      body: { project_id: projectId, name: 'crit', kind: 'run_failed', severity: 'critical' },
    });
    await fail();
    // A critical alert reaches through quiet hours.
    await until(
      () => smtp.mails.some((m) => m.envelopeTo.includes(`${sleeper.username}@example.com`)),
      8000,
      'the critical mail',
    );
  });
});
