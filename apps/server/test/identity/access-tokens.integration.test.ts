import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api } from '../support/http.js';

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256';

function b64(value: unknown) {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function forge(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  secret: string | null,
  hash = 'sha256',
) {
  const unsigned = `${b64(header)}.${b64(payload)}`;
  const signature = secret === null ? '' : createHmac(hash, secret).update(unsigned).digest('base64url');
  return `${unsigned}.${signature}`;
}

describe('access tokens (JWT)', () => {
  let t: TestApp;
  let claims: Record<string, unknown>;
  beforeAll(async () => {
    t = await startTestApp({ env: { SVC_JWT_SECRET: SECRET } });
    const { accessToken } = await adminLogin(t);
    claims = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
  });
  afterAll(async () => t?.close());

  const me = (token: string) => api(t, 'GET', '/api/v1/me', { token });

  it('carries the user, a session family id and a token id, and is accepted as issued', async () => {
    expect(claims).toMatchObject({
      sub: expect.any(String),
      sid: expect.any(String),
      jti: expect.any(String),
      exp: expect.any(Number),
      iat: expect.any(Number),
    });
    expect((claims['exp'] as number) - (claims['iat'] as number)).toBe(900);
    expect((await me(forge({ alg: 'HS256', typ: 'JWT' }, claims, SECRET))).status).toBe(200);
  });

  it('refuses alg none', async () => {
    expect((await me(forge({ alg: 'none', typ: 'JWT' }, claims, null))).status).toBe(401);
  });

  it('refuses another HMAC algorithm than the configured one, even with the right secret', async () => {
    expect((await me(forge({ alg: 'HS384', typ: 'JWT' }, claims, SECRET, 'sha384'))).status).toBe(401);
    expect((await me(forge({ alg: 'HS512', typ: 'JWT' }, claims, SECRET, 'sha512'))).status).toBe(401);
  });

  it('refuses a token signed with another secret, or tampered with', async () => {
    expect((await me(forge({ alg: 'HS256', typ: 'JWT' }, claims, 'another-secret-another-secret-xx'))).status).toBe(
      401,
    );
    const valid = forge({ alg: 'HS256', typ: 'JWT' }, claims, SECRET);
    const [h, , s] = valid.split('.');
    expect((await me(`${h}.${b64({ ...claims, sub: '00000000-0000-0000-0000-000000000000' })}.${s}`)).status).toBe(401);
  });

  it('refuses an expired token', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await me(
      forge({ alg: 'HS256', typ: 'JWT' }, { ...claims, iat: now - 1000, exp: now - 10 }, SECRET),
    );
    expect(expired.status).toBe(401);
    expect(expired.body['detail']).toMatch(/expired/i);
  });

  it('is invalidated wholesale by changing SVC_JWT_SECRET', async () => {
    const { accessToken } = await adminLogin(t);
    const other = await startTestApp({ env: { SVC_JWT_SECRET: `${SECRET}-rotated` } });
    try {
      expect((await api(other, 'GET', '/api/v1/me', { token: accessToken })).status).toBe(401);
    } finally {
      await other.close();
    }
  });
});

describe('SVC_JWT_ALGORITHM=HS512', () => {
  it('signs with HS512 and refuses HS256', async () => {
    const t = await startTestApp({ env: { SVC_JWT_SECRET: SECRET, SVC_JWT_ALGORITHM: 'HS512' } });
    try {
      const { accessToken } = await adminLogin(t);
      expect(JSON.parse(Buffer.from(accessToken.split('.')[0]!, 'base64url').toString())).toMatchObject({
        alg: 'HS512',
      });
      expect((await api(t, 'GET', '/api/v1/me', { token: accessToken })).status).toBe(200);
      const claims = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as Record<
        string,
        unknown
      >;
      expect(
        (await api(t, 'GET', '/api/v1/me', { token: forge({ alg: 'HS256', typ: 'JWT' }, claims, SECRET) })).status,
      ).toBe(401);
    } finally {
      await t.close();
    }
  });
});
