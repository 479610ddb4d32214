/**
 * LDAP sign-in through POST /api/v1/auth/login against a real OpenLDAP server (slapd, started by the
 * test with a small seeded directory), over StartTLS with the test's own CA.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject } from '../support/http.js';
import { startSlapd, type Slapd } from '../support/slapd.js';

describe('LDAP sign-in', () => {
  let t: TestApp;
  let slapd: Slapd;
  let admin: string;
  let projectId: string;
  let providerId: string;

  beforeAll(async () => {
    slapd = await startSlapd({ tls: true });
    t = await startTestApp({ env: NO_RATE_LIMITS });
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
    const created = await api<{ id: string; secrets_set: string[] }>(t, 'POST', '/api/v1/ldap/providers', {
      token: admin,
      body: {
        name: 'directory',
        config: {
          url: slapd.url,
          start_tls: true,
          ca_pem: slapd.caPem,
          bind_dn: slapd.serviceDn,
          bind_password: slapd.servicePassword,
          user_base_dn: `ou=people,${slapd.baseDn}`,
          user_filter: '(uid={username})',
          username_attribute: 'uid',
          email_attribute: 'mail',
          group_base_dn: `ou=groups,${slapd.baseDn}`,
          group_mappings: [{ group: `cn=engineers,ou=groups,${slapd.baseDn}`, project_id: projectId, role: 'editor' }],
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.secrets_set).toEqual(['bind_password']);
    expect(JSON.stringify(created.body)).not.toContain(slapd.servicePassword);
    providerId = created.body.id;
  });
  afterAll(async () => {
    await t?.close();
    await slapd?.stop();
  });

  const login = (username: string, password: string, provider?: string) =>
    api<{ access_token?: string; detail?: string }>(t, 'POST', '/api/v1/auth/login', {
      body: { username, password, ...(provider ? { provider } : {}) },
    });

  it('signs a directory user in, provisioned on first login with the mapped role; the password is never stored', async () => {
    const first = await login('alice', 'alice-pass-1');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const me = await api<{ username: string; email: string }>(t, 'GET', '/api/v1/me', {
      token: first.body.access_token!,
    });
    expect(me.body).toMatchObject({ username: 'alice', email: 'alice@example.com' });
    const members = await api<{ items: Array<{ username: string; role: string }> }>(
      t,
      'GET',
      `/api/v1/admin/projects/${projectId}/members`,
      { token: admin },
    );
    expect(members.body.items).toContainEqual(expect.objectContaining({ username: 'alice', role: 'editor' }));
    // bob is not an engineer: signed in, but no role in the project.
    expect((await login('bob', 'bob-pass-2', 'directory')).status).toBe(200);
    expect(
      (
        await api<{ items: Array<{ username: string }> }>(t, 'GET', `/api/v1/admin/projects/${projectId}/members`, {
          token: admin,
        })
      ).body.items.map((m) => m.username),
    ).not.toContain('bob');
    // A second login finds the same user.
    expect((await login('alice', 'alice-pass-1')).status).toBe(200);
    const users = await api<{ items: Array<{ username: string }> }>(t, 'GET', '/api/v1/users', { token: admin });
    expect(users.body.items.filter((u) => u.username === 'alice')).toHaveLength(1);
    expect(t.logText()).not.toContain('alice-pass-1');
    expect(t.logText()).not.toContain(slapd.servicePassword);
  });

  it('refuses a wrong password and an unknown user with the same answer, and audits both', async () => {
    const wrong = await login('alice', 'not-her-password');
    const unknown = await login('nobody', 'whatever-password');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.detail).toBe(unknown.body.detail);
    const audit = await api<{ items: Array<{ kind: string; details: Record<string, unknown> }> }>(
      t,
      'GET',
      '/api/v1/audit-log?kind=ldap_login_failed',
      { token: admin },
    );
    expect(audit.body.items.map((e) => e.details['reason'])).toEqual(
      expect.arrayContaining(['wrong_password', 'unknown_user']),
    );
    // Local accounts still sign in locally.
    expect((await adminLogin(t)).accessToken).toBeTruthy();
  });

  it('checks the provider (connection, StartTLS, service bind), and fails cleanly without the CA', async () => {
    const checked = await api<{ ok: boolean }>(t, 'POST', `/api/v1/ldap/providers/${providerId}/test`, {
      token: admin,
    });
    expect(checked.body).toEqual({ ok: true });
    const untrusted = await api<{ id: string }>(t, 'POST', '/api/v1/ldap/providers', {
      token: admin,
      body: {
        name: 'untrusted',
        config: {
          url: slapd.url,
          start_tls: true,
          bind_dn: slapd.serviceDn,
          bind_password: slapd.servicePassword,
          user_base_dn: `ou=people,${slapd.baseDn}`,
          user_filter: '(uid={username})',
          username_attribute: 'uid',
          email_attribute: 'mail',
        },
      },
    });
    const failed = await api<{ ok: boolean; reason: string }>(
      t,
      'POST',
      `/api/v1/ldap/providers/${untrusted.body.id}/test`,
      { token: admin },
    );
    expect(failed.body).toMatchObject({ ok: false, reason: 'tls_failed' });
    expect((await login('alice', 'alice-pass-1', 'untrusted')).status).toBe(401);
  });
});
