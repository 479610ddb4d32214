import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_PASSWORD, NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createUser, login, refreshCookieOf } from '../support/http.js';

describe('sessions: login, refresh rotation, reuse detection, logout', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS });
  });
  afterAll(async () => t?.close());

  const refresh = (cookie: string) => api<{ access_token: string }>(t, 'POST', '/api/v1/auth/refresh', { cookie });

  it('login answers the documented body and sets the refresh cookie with its attributes', async () => {
    const result = await api(t, 'POST', '/api/v1/auth/login', {
      body: { username: 'admin', password: TEST_ADMIN_PASSWORD },
    });
    expect(result.status).toBe(200);
    expect(Object.keys(result.body).sort()).toEqual([
      'access_token',
      'expires_in',
      'password_change_required',
      'token_type',
    ]);
    expect(result.body).toMatchObject({ token_type: 'Bearer', expires_in: 900, password_change_required: true });
    const cookie = result.setCookies.find((c) => c.startsWith('svc_refresh='))!;
    const attributes = cookie.split(';').map((part) => part.trim().toLowerCase());
    expect(attributes).toContain('httponly');
    expect(attributes).toContain('samesite=strict');
    expect(attributes).toContain('path=/api/v1/auth');
    expect(attributes).toContain(`max-age=${7 * 86400}`);
    expect(attributes).not.toContain('secure'); // development; production adds Secure
    const value = cookie.split(';')[0]!.slice('svc_refresh='.length);
    expect(Buffer.from(value, 'base64url').length).toBeGreaterThanOrEqual(32);
    expect(JSON.stringify(result.body)).not.toContain(value);
  });

  it('marks the cookie Secure in production', async () => {
    const production = await startTestApp({
      env: {
        SVC_ENV: 'production',
        SVC_JWT_SECRET: 'a-production-secret-of-at-least-32-chars',
        SVC_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
      },
    });
    try {
      const result = await api(production, 'POST', '/api/v1/auth/login', {
        body: { username: 'admin', password: TEST_ADMIN_PASSWORD },
      });
      const cookie = result.setCookies.find((c) => c.startsWith('svc_refresh='))!;
      expect(cookie.split(';').map((p) => p.trim().toLowerCase())).toContain('secure');
    } finally {
      await production.close();
    }
  });

  it('refuses a wrong password and an unknown user with the same 401 body', async () => {
    const wrong = await api(t, 'POST', '/api/v1/auth/login', {
      body: { username: 'admin', password: 'not-the-password' },
    });
    const unknown = await api(t, 'POST', '/api/v1/auth/login', {
      body: { username: 'nobody-here', password: 'not-the-password' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body['detail']).toBe(unknown.body['detail']);
    expect(Object.keys(wrong.body).sort()).toEqual(Object.keys(unknown.body).sort());
  });

  it('rotates the refresh cookie and never returns it in a body', async () => {
    const session = await adminLogin(t);
    const first = await refresh(session.cookie);
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    const rotated = refreshCookieOf(first.setCookies);
    expect(rotated).not.toBe(session.cookie);
    expect((await api(t, 'GET', '/api/v1/me', { token: first.body.access_token })).status).toBe(200);
    expect((await refresh(rotated)).status).toBe(200);
  });

  it('revokes the whole family when a consumed token is presented again, refusing the newest access token', async () => {
    const session = await adminLogin(t);
    const first = await refresh(session.cookie);
    const newest = await refresh(refreshCookieOf(first.setCookies));
    expect(newest.status).toBe(200);
    expect((await api(t, 'GET', '/api/v1/me', { token: newest.body.access_token })).status).toBe(200);

    const reuse = await refresh(session.cookie); // consumed already
    expect(reuse.status).toBe(401);
    expect((await api(t, 'GET', '/api/v1/me', { token: newest.body.access_token })).status).toBe(401);
    expect((await api(t, 'GET', '/api/v1/me', { token: session.accessToken })).status).toBe(401);
    expect((await refresh(refreshCookieOf(newest.setCookies))).status).toBe(401);

    const admin = await adminLogin(t);
    const events = await api<{ items: Array<{ kind: string; target_id: string }> }>(
      t,
      'GET',
      '/api/v1/audit-log?kind=refresh_token_reuse_detected',
      { token: admin.accessToken },
    );
    expect(events.body.items.length).toBeGreaterThanOrEqual(1);
  });

  it('8 parallel refreshes of one token: at most one succeeds, the family ends revoked, one audit event', async () => {
    const user = await createUser(t, (await adminLogin(t)).accessToken);
    const results = await Promise.all(Array.from({ length: 8 }, () => refresh(user.session.cookie)));
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBeLessThanOrEqual(1);
    expect(results.filter((r) => r.status === 401).length).toBe(8 - ok.length);
    for (const r of ok) expect((await api(t, 'GET', '/api/v1/me', { token: r.body.access_token })).status).toBe(401);
    for (const r of ok) expect((await refresh(refreshCookieOf(r.setCookies))).status).toBe(401);
    expect((await api(t, 'GET', '/api/v1/me', { token: user.session.accessToken })).status).toBe(401);

    const admin = await adminLogin(t);
    const events = await api<{ items: Array<{ actor_user_id: string }> }>(
      t,
      'GET',
      `/api/v1/audit-log?kind=refresh_token_reuse_detected&actor_id=${user.id}`,
      {
        token: admin.accessToken,
      },
    );
    expect(events.body.items).toHaveLength(1);
  });

  it('refuses refresh without a cookie or with an unknown one', async () => {
    expect((await api(t, 'POST', '/api/v1/auth/refresh')).status).toBe(401);
    expect((await refresh('svc_refresh=made-up-value')).status).toBe(401);
  });

  it('logout revokes the presented access token and the session family and clears the cookie', async () => {
    const session = await adminLogin(t);
    const other = await refresh(session.cookie); // same family, a later access token
    const out = await api(t, 'POST', '/api/v1/auth/logout', {
      token: session.accessToken,
      cookie: refreshCookieOf(other.setCookies),
    });
    expect(out.status).toBe(204);
    const cleared = out.setCookies.find((c) => c.startsWith('svc_refresh='))!;
    expect(cleared).toMatch(/svc_refresh=;|Max-Age=0|Expires=Thu, 01 Jan 1970/);
    expect((await api(t, 'GET', '/api/v1/me', { token: session.accessToken })).status).toBe(401);
    expect((await api(t, 'GET', '/api/v1/me', { token: other.body.access_token })).status).toBe(401);
    expect((await refresh(refreshCookieOf(other.setCookies))).status).toBe(401);
  });

  it('password change: policy, clears the flag, ends the other sessions but not this one', async () => {
    const admin = await adminLogin(t);
    const user = await createUser(t, admin.accessToken);
    expect(user.session.passwordChangeRequired).toBe(true);
    const otherSession = await login(t, user.username, user.password);

    const change = (body: unknown) => api(t, 'POST', '/api/v1/me/password', { token: user.session.accessToken, body });
    const short = await change({ current_password: user.password, new_password: 'short' });
    expect(short.status).toBe(422);
    expect(short.body['errors']).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'new_password' })]));
    expect((await change({ current_password: user.password, new_password: user.username })).status).toBe(422);
    expect((await change({ current_password: user.password, new_password: 'change-me-now-please' })).status).toBe(422);
    const wrongCurrent = await change({ current_password: 'not-my-password', new_password: 'a-brand-new-password-1' });
    expect(wrongCurrent.status).toBe(422);
    expect(wrongCurrent.body['errors']).toEqual([expect.objectContaining({ path: 'current_password' })]);

    expect((await change({ current_password: user.password, new_password: 'a-brand-new-password-1' })).status).toBe(
      204,
    );
    const me = await api(t, 'GET', '/api/v1/me', { token: user.session.accessToken });
    expect(me.status).toBe(200);
    expect(me.body['password_change_required']).toBe(false);
    expect((await api(t, 'GET', '/api/v1/me', { token: otherSession.accessToken })).status).toBe(401);
    expect((await refresh(otherSession.cookie)).status).toBe(401);
    expect((await login(t, user.username, 'a-brand-new-password-1')).passwordChangeRequired).toBe(false);
  });

  it('PATCH /me changes email and display name', async () => {
    const admin = await adminLogin(t);
    const user = await createUser(t, admin.accessToken);
    const changed = await api(t, 'PATCH', '/api/v1/me', {
      token: user.session.accessToken,
      body: { display_name: 'Ada L.', email: 'ada@example.org' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ display_name: 'Ada L.', email: 'ada@example.org' });
    expect((await api(t, 'GET', '/api/v1/me', { token: user.session.accessToken })).body).toMatchObject({
      display_name: 'Ada L.',
    });
    expect(
      (await api(t, 'PATCH', '/api/v1/me', { token: user.session.accessToken, body: { email: 'not-an-email' } }))
        .status,
    ).toBe(422);
  });
});
