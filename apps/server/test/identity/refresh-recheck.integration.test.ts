/**
 * A refresh re-checks the user and the session: a disabled user, a revoked session (sign-out from
 * another place, or a revoked family) and an expired session answer 401 and issue nothing, even when
 * the refresh token itself is still unconsumed and unexpired.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser, login, type ApiResult } from '../support/http.js';

describe('refresh re-checks the user and the session', () => {
  let t: TestApp;
  let admin: string;
  let projectId: string;
  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS });
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
  });
  afterAll(async () => t?.close());

  const refresh = (cookie: string) => api<{ access_token?: string }>(t, 'POST', '/api/v1/auth/refresh', { cookie });
  /** 401, no access token, and the cookie cleared rather than renewed. */
  const expectNothingIssued = (result: ApiResult<{ access_token?: string }>) => {
    expect(result.status).toBe(401);
    expect(result.body.access_token).toBeUndefined();
    for (const cookie of result.setCookies.filter((c) => c.startsWith('svc_refresh=')))
      expect(cookie).toMatch(/^svc_refresh=;/);
  };
  const memberOfProject = async () => {
    const user = await createUser(t, admin);
    expect(
      (
        await api(t, 'PUT', `/api/v1/admin/projects/${projectId}/members/${user.id}`, {
          token: admin,
          body: { role: 'editor' },
        })
      ).status,
    ).toBe(200);
    return user;
  };

  it('a user disabled by an administrator cannot refresh', async () => {
    const user = await memberOfProject();
    expect((await refresh(user.session.cookie)).status).toBe(200); // the cookie works until then
    const fresh = await login(t, user.username, user.password);
    expect((await api(t, 'PATCH', `/api/v1/users/${user.id}`, { token: admin, body: { disabled: true } })).status).toBe(
      200,
    );
    expectNothingIssued(await refresh(fresh.cookie));
  });

  it('a disabled user cannot refresh even while its session row is still live', async () => {
    // The user was disabled by a path that does not end its sessions in the same transaction (a
    // refresh racing the disable, a direct change): refresh itself must look at the user.
    const user = await memberOfProject();
    await t.platform.framework.db
      .updateTable('users')
      .set({ disabled_at: new Date() })
      .where('id', '=', user.id)
      .execute();
    expectNothingIssued(await refresh(user.session.cookie));
  });

  it('a session signed out elsewhere cannot refresh', async () => {
    const user = await memberOfProject();
    const session = await login(t, user.username, user.password);
    expect((await api(t, 'POST', '/api/v1/auth/logout', { token: session.accessToken })).status).toBe(204);
    expectNothingIssued(await refresh(session.cookie));
    // Another session of the same user is unaffected.
    expect((await refresh(user.session.cookie)).status).toBe(200);
  });

  it('an expired session cannot refresh, though its refresh token has not expired', async () => {
    const user = await memberOfProject();
    const session = await login(t, user.username, user.password);
    await t.platform.framework.db
      .updateTable('sessions')
      .set({ expires_at: sql<Date>`now() - interval '1 minute'` })
      .where('user_id', '=', user.id)
      .where('revoked_at', 'is', null)
      .execute();
    expectNothingIssued(await refresh(session.cookie));
  });
});
