import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createApiToken, createUser } from '../support/http.js';
import { createTestDatabase, uniqueName, type TestDatabase } from '../support/services.js';

describe('revocations across API processes', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    database = await createTestDatabase();
    const redisKeyPrefix = uniqueName('svcshared');
    // Processes of one instance share the signing secret (as they must in production).
    const env = { SVC_JWT_SECRET: 'shared-secret-of-the-instance-0123456789' };
    a = await startTestApp({ database, redisKeyPrefix, env });
    b = await startTestApp({ database, redisKeyPrefix, env });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it('a logout, a revoked personal token and a disabled user are refused at once by the other process', async () => {
    const admin = await adminLogin(a);
    const session = await adminLogin(a);
    const token = await createApiToken(a, admin.accessToken, { scope: 'read' });
    const user = await createUser(a, admin.accessToken);
    // Warm B's caches so that a stale cache would show.
    for (const credential of [session.accessToken, token.token, user.session.accessToken]) {
      expect((await api(b, 'GET', '/api/v1/me', { token: credential })).status).toBe(200);
    }

    expect((await api(a, 'POST', '/api/v1/auth/logout', { token: session.accessToken })).status).toBe(204);
    expect((await api(a, 'DELETE', `/api/v1/api-tokens/${token.id}`, { token: admin.accessToken })).status).toBe(204);
    expect(
      (await api(a, 'PATCH', `/api/v1/users/${user.id}`, { token: admin.accessToken, body: { disabled: true } }))
        .status,
    ).toBe(200);

    // Pub/sub delivery is asynchronous: allow it a moment, far below the periodic sync interval.
    await new Promise((r) => setTimeout(r, 150));
    expect((await api(b, 'GET', '/api/v1/me', { token: session.accessToken })).status).toBe(401);
    expect((await api(b, 'GET', '/api/v1/me', { token: token.token })).status).toBe(401);
    expect((await api(b, 'GET', '/api/v1/me', { token: user.session.accessToken })).status).toBe(401);
  });
});
