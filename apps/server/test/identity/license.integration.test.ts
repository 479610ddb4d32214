import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createUser, refreshCookieOf } from '../support/http.js';

function licenseJwt(privateKey: KeyObject, claims: Record<string, unknown>): string {
  const encode = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const unsigned = `${encode({ alg: 'EdDSA', typ: 'JWT' })}.${encode(claims)}`;
  return `${unsigned}.${sign(null, Buffer.from(unsigned), privateKey).toString('base64url')}`;
}

describe('license and read-only mode', () => {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const stranger = generateKeyPairSync('ed25519');
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp({
      env: { ...NO_RATE_LIMITS, SVC_LICENSE_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'pem' }).toString() },
    });
    admin = (await adminLogin(t)).accessToken;
  });
  afterAll(async () => t?.close());

  const now = () => Math.floor(Date.now() / 1000);
  const claims = (expiresIn: number) => ({
    customer: 'Acme Data',
    seats: 25,
    features: ['sso', 'cdc'],
    iat: now(),
    exp: now() + expiresIn,
  });
  const put = (license: string, token = admin) => api(t, 'PUT', '/api/v1/license', { token, body: { license } });

  it('starts unlicensed and writable', async () => {
    expect((await api(t, 'GET', '/api/v1/license', { token: admin })).body).toEqual({
      state: 'unlicensed',
      customer: null,
      seats: null,
      features: [],
      expires_at: null,
    });
    expect(
      (await api(t, 'POST', '/api/v1/admin/projects', { token: admin, body: { name: 'community-ok' } })).status,
    ).toBe(201);
  });

  it('refuses a license signed by another key, a malformed one, and one already expired; non-admins may not install', async () => {
    expect((await put(licenseJwt(stranger.privateKey, claims(3600)))).status).toBe(422);
    expect((await put('not-a-jwt')).status).toBe(422);
    const expired = await put(licenseJwt(privateKey, { ...claims(3600), exp: now() - 5 }));
    expect(expired.status).toBe(422);
    expect(expired.body['errors']).toEqual([expect.objectContaining({ path: 'license' })]);
    const user = await createUser(t, admin);
    expect((await put(licenseJwt(privateKey, claims(3600)), user.session.accessToken)).status).toBe(403);
  });

  it(
    'turns read-only within seconds of expiry without a restart, and writable again with a renewed license',
    { timeout: 30_000 },
    async () => {
      const installed = await put(licenseJwt(privateKey, claims(3)));
      expect(installed.status).toBe(200);
      expect(installed.body).toMatchObject({
        state: 'licensed',
        customer: 'Acme Data',
        seats: 25,
        features: ['sso', 'cdc'],
      });
      const user = await createUser(t, admin);
      expect(
        (await api(t, 'POST', '/api/v1/admin/projects', { token: admin, body: { name: 'before-expiry' } })).status,
      ).toBe(201);

      await new Promise((r) => setTimeout(r, 3500));
      expect((await api(t, 'GET', '/api/v1/license', { token: admin })).body['state']).toBe('expired');
      const refused = await api(t, 'POST', '/api/v1/admin/projects', { token: admin, body: { name: 'after-expiry' } });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ detail: 'license_expired', request_id: expect.any(String) });
      expect(
        (await api(t, 'PATCH', '/api/v1/me', { token: user.session.accessToken, body: { display_name: 'x' } })).status,
      ).toBe(403);
      expect(
        (await api(t, 'POST', '/api/v1/api-tokens', { token: admin, body: { name: 'x', scope: 'read' } })).status,
      ).toBe(403);
      // Reads work; sign-in, refresh, password change and logout stay possible.
      expect((await api(t, 'GET', '/api/v1/admin/projects', { token: admin })).status).toBe(200);
      const relogin = await api(t, 'POST', '/api/v1/auth/login', {
        body: { username: user.username, password: user.password },
      });
      expect(relogin.status).toBe(200);
      expect(
        (await api(t, 'POST', '/api/v1/auth/refresh', { cookie: refreshCookieOf(relogin.setCookies) })).status,
      ).toBe(200);
      expect(
        (
          await api(t, 'POST', '/api/v1/me/password', {
            token: user.session.accessToken,
            body: { current_password: user.password, new_password: 'renewed-password-123' },
          })
        ).status,
      ).toBe(204);

      const renewed = await put(licenseJwt(privateKey, claims(3600)));
      expect(renewed.status).toBe(200);
      expect(renewed.body['state']).toBe('licensed');
      expect(
        (await api(t, 'POST', '/api/v1/admin/projects', { token: admin, body: { name: 'after-renewal' } })).status,
      ).toBe(201);
      const events = await api<{ items: unknown[] }>(t, 'GET', '/api/v1/audit-log?kind=license_installed', {
        token: admin,
      });
      expect(events.body.items).toHaveLength(2);
    },
  );
});
