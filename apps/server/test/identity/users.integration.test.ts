import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createApiToken, createUser, login } from '../support/http.js';

describe('users', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS });
    admin = (await adminLogin(t)).accessToken;
  });
  afterAll(async () => t?.close());

  it('creates a user who must change the password at first login; duplicates 409; policy 422', async () => {
    const created = await api(t, 'POST', '/api/v1/users', {
      token: admin,
      body: { username: 'grace', email: 'grace@example.com', password: 'grace-initial-pass' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      username: 'grace',
      is_admin: false,
      disabled: false,
      password_change_required: true,
      id: expect.any(String),
    });
    expect(created.body).not.toHaveProperty('password');
    expect(created.body).not.toHaveProperty('password_hash');
    expect((await login(t, 'grace', 'grace-initial-pass')).passwordChangeRequired).toBe(true);
    expect(
      (
        await api(t, 'POST', '/api/v1/users', {
          token: admin,
          body: { username: 'GRACE', email: 'g2@example.com', password: 'grace-initial-pass' },
        })
      ).status,
    ).toBe(409);
    const weak = await api(t, 'POST', '/api/v1/users', {
      token: admin,
      body: { username: 'weak', email: 'w@example.com', password: 'short' },
    });
    expect(weak.status).toBe(422);
    expect(weak.body['errors']).toEqual([expect.objectContaining({ path: 'password' })]);
    const invalid = await api(t, 'POST', '/api/v1/users', {
      token: admin,
      body: { username: 'x y', email: 'nope', password: 'long-enough-password' },
    });
    expect(invalid.status).toBe(422);
    expect((invalid.body['errors'] as Array<{ path: string }>).map((e) => e.path).sort()).toEqual([
      'email',
      'username',
    ]);
  });

  it('disabling a user revokes its sessions and tokens at once; enabling lets it sign in again', async () => {
    const user = await createUser(t, admin);
    const personal = await createApiToken(t, user.session.accessToken, { scope: 'read' });
    expect((await api(t, 'GET', '/api/v1/me', { token: personal.token })).status).toBe(200);
    const disabled = await api(t, 'PATCH', `/api/v1/users/${user.id}`, { token: admin, body: { disabled: true } });
    expect(disabled.status).toBe(200);
    expect(disabled.body['disabled']).toBe(true);
    expect((await api(t, 'GET', '/api/v1/me', { token: user.session.accessToken })).status).toBe(401);
    expect((await api(t, 'GET', '/api/v1/me', { token: personal.token })).status).toBe(401);
    expect((await api(t, 'POST', '/api/v1/auth/refresh', { cookie: user.session.cookie })).status).toBe(401);
    expect(
      (await api(t, 'POST', '/api/v1/auth/login', { body: { username: user.username, password: user.password } }))
        .status,
    ).toBe(401);
    expect(
      (await api(t, 'PATCH', `/api/v1/users/${user.id}`, { token: admin, body: { disabled: false } })).status,
    ).toBe(200);
    expect((await login(t, user.username, user.password)).accessToken).toBeTruthy();
    // Tokens revoked by the disable stay revoked.
    expect((await api(t, 'GET', '/api/v1/me', { token: personal.token })).status).toBe(401);
  });

  it('an admin password reset forces a change and ends the user’s sessions', async () => {
    const user = await createUser(t, admin);
    expect(
      (await api(t, 'PATCH', `/api/v1/users/${user.id}`, { token: admin, body: { password: 'reset-by-admin-123' } }))
        .status,
    ).toBe(200);
    expect((await api(t, 'GET', '/api/v1/me', { token: user.session.accessToken })).status).toBe(401);
    expect((await login(t, user.username, 'reset-by-admin-123')).passwordChangeRequired).toBe(true);
  });

  it('keeps at least one active administrator and refuses deleting oneself', async () => {
    const me = await api<{ id: string }>(t, 'GET', '/api/v1/me', { token: admin });
    expect(
      (await api(t, 'PATCH', `/api/v1/users/${me.body.id}`, { token: admin, body: { disabled: true } })).status,
    ).toBe(409);
    expect(
      (await api(t, 'PATCH', `/api/v1/users/${me.body.id}`, { token: admin, body: { is_admin: false } })).status,
    ).toBe(409);
    expect((await api(t, 'DELETE', `/api/v1/users/${me.body.id}`, { token: admin })).status).toBe(409);
  });

  it('deletes a user; lists page with a cursor', async () => {
    const user = await createUser(t, admin);
    expect((await api(t, 'DELETE', `/api/v1/users/${user.id}`, { token: admin })).status).toBe(204);
    expect((await api(t, 'GET', `/api/v1/users/${user.id}`, { token: admin })).status).toBe(404);
    expect((await api(t, 'GET', '/api/v1/me', { token: user.session.accessToken })).status).toBe(401);

    const first = await api<{ items: Array<{ id: string }>; next_cursor: string | null }>(
      t,
      'GET',
      '/api/v1/users?limit=2',
      { token: admin },
    );
    expect(first.body.items).toHaveLength(2);
    expect(first.body.next_cursor).not.toBeNull();
    const second = await api<{ items: Array<{ id: string }> }>(
      t,
      'GET',
      `/api/v1/users?limit=2&cursor=${first.body.next_cursor}`,
      { token: admin },
    );
    expect(second.body.items.length).toBeGreaterThan(0);
    expect(second.body.items.map((u) => u.id)).not.toContain(first.body.items[0]!.id);
  });
});
