import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createApiToken, createProject, createUser } from '../support/http.js';

interface OpenApi {
  paths: Record<string, Record<string, { security?: unknown[] }>>;
}

const FAKE_ID = '3b241101-e2bb-4255-8caf-4136c566a962';

describe('personal API tokens', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS });
    admin = (await adminLogin(t)).accessToken;
  });
  afterAll(async () => t?.close());

  it('returns the value once, lists tokens without it, and authenticates with it', async () => {
    const created = await api<Record<string, unknown>>(t, 'POST', '/api/v1/api-tokens', {
      token: admin,
      body: { name: 'ci', scope: 'write' },
    });
    expect(created.status).toBe(201);
    const value = created.body['token'] as string;
    expect(value).toMatch(/^svc_[A-Za-z0-9_-]{43,}$/);
    expect(created.body['suffix']).toBe(value.slice(-4));

    const list = await api<{ items: Array<Record<string, unknown>> }>(t, 'GET', '/api/v1/api-tokens', { token: admin });
    const listed = list.body.items.find((i) => i['id'] === created.body['id'])!;
    expect(listed).toMatchObject({ name: 'ci', scope: 'write', project_ids: null, suffix: value.slice(-4) });
    expect(JSON.stringify(list.body)).not.toContain(value);
    const one = await api(t, 'GET', `/api/v1/api-tokens/${created.body['id']}`, { token: admin });
    expect(JSON.stringify(one.body)).not.toContain(value);

    const me = await api(t, 'GET', '/api/v1/me', { token: value });
    expect(me.status).toBe(200);
    expect(me.body['username']).toBe('admin');
  });

  it('a read token is refused 403 on every unsafe operation in /openapi.json, whatever the roles', async () => {
    const { token } = await createApiToken(t, admin, { scope: 'read' });
    const document = (await (await fetch(`${t.url}/openapi.json`)).json()) as OpenApi;
    const unsafe = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(
          ([method, op]) =>
            ['post', 'put', 'patch', 'delete'].includes(method) &&
            !(Array.isArray(op.security) && op.security.length === 0),
        )
        .map(([method]) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, FAKE_ID) })),
    );
    expect(unsafe.length).toBeGreaterThan(10);
    for (const { method, path } of unsafe) {
      const result = await api(t, method, path, { token, body: {} });
      expect(result.status, `${method} ${path}`).toBe(403);
      expect(result.body['detail']).toMatch(/read scope/);
    }
    expect((await api(t, 'GET', '/api/v1/me', { token })).status).toBe(200);
  });

  it('a project-scoped token sees only its projects: 404 outside, lists filtered', async () => {
    const inside = await createProject(t, admin);
    const outside = await createProject(t, admin);
    // An owner of both projects: the token, scoped to one, reaches nothing of the other.
    const owner = await createUser(t, admin);
    for (const project of [inside, outside])
      await api(t, 'PUT', `/api/v1/admin/projects/${project.id}/members/${owner.id}`, {
        token: admin,
        body: { role: 'owner' },
      });
    const { token } = await createApiToken(t, owner.session.accessToken, { scope: 'write', project_ids: [inside.id] });
    expect((await api(t, 'GET', `/api/v1/admin/projects/${inside.id}`, { token })).status).toBe(200);
    expect((await api(t, 'GET', `/api/v1/admin/projects/${outside.id}`, { token })).status).toBe(404);
    expect((await api(t, 'GET', `/api/v1/admin/projects/${outside.id}/members`, { token })).status).toBe(404);
    expect(
      (await api(t, 'PATCH', `/api/v1/admin/projects/${outside.id}`, { token, body: { description: 'x' } })).status,
    ).toBe(404);
    expect((await api(t, 'DELETE', `/api/v1/admin/projects/${outside.id}`, { token })).status).toBe(404);
    const list = await api<{ items: Array<{ id: string }> }>(t, 'GET', '/api/v1/admin/projects', { token });
    expect(list.body.items.map((p) => p.id)).toEqual([inside.id]);
  });

  it('a token never mints a wider token', async () => {
    const a = await createProject(t, admin);
    const b = await createProject(t, admin);
    const { token } = await createApiToken(t, admin, { scope: 'write', project_ids: [a.id] });
    expect((await api(t, 'POST', '/api/v1/api-tokens', { token, body: { name: 'x', scope: 'write' } })).status).toBe(
      422,
    );
    expect(
      (
        await api(t, 'POST', '/api/v1/api-tokens', {
          token,
          body: { name: 'x', scope: 'write', project_ids: [a.id, b.id] },
        })
      ).status,
    ).toBe(422);
    expect(
      (await api(t, 'POST', '/api/v1/api-tokens', { token, body: { name: 'x', scope: 'read', project_ids: [a.id] } }))
        .status,
    ).toBe(201);
  });

  it('is refused at once after revocation, and after its expiry', async () => {
    const created = await createApiToken(t, admin, { scope: 'write' });
    expect((await api(t, 'GET', '/api/v1/me', { token: created.token })).status).toBe(200);
    expect((await api(t, 'DELETE', `/api/v1/api-tokens/${created.id}`, { token: admin })).status).toBe(204);
    expect((await api(t, 'GET', '/api/v1/me', { token: created.token })).status).toBe(401);
    expect((await api(t, 'GET', `/api/v1/api-tokens/${created.id}`, { token: admin })).status).toBe(404);

    const soon = await createApiToken(t, admin, {
      scope: 'read',
      expires_at: new Date(Date.now() + 1500).toISOString(),
    });
    expect((await api(t, 'GET', '/api/v1/me', { token: soon.token })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1700));
    expect((await api(t, 'GET', '/api/v1/me', { token: soon.token })).status).toBe(401);
    expect(
      (
        await api(t, 'POST', '/api/v1/api-tokens', {
          token: admin,
          body: { name: 'x', scope: 'read', expires_at: '2001-01-01T00:00:00Z' },
        })
      ).status,
    ).toBe(422);
  });

  it('owners manage their own tokens; administrators manage anyone’s; others get 404', async () => {
    const alice = await createUser(t, admin);
    const bob = await createUser(t, admin);
    const alices = await createApiToken(t, alice.session.accessToken, { scope: 'read' });
    expect((await api(t, 'GET', `/api/v1/api-tokens/${alices.id}`, { token: bob.session.accessToken })).status).toBe(
      404,
    );
    expect((await api(t, 'DELETE', `/api/v1/api-tokens/${alices.id}`, { token: bob.session.accessToken })).status).toBe(
      404,
    );
    expect(
      (await api(t, 'GET', `/api/v1/api-tokens?user_id=${alice.id}`, { token: bob.session.accessToken })).status,
    ).toBe(403);
    const adminView = await api<{ items: Array<{ id: string }> }>(t, 'GET', `/api/v1/api-tokens?user_id=${alice.id}`, {
      token: admin,
    });
    expect(adminView.body.items.map((i) => i.id)).toEqual([alices.id]);
    expect((await api(t, 'DELETE', `/api/v1/api-tokens/${alices.id}`, { token: admin })).status).toBe(204);
  });

  it('the SSE routes take an access token in ?token= but never a personal token', async () => {
    const { token } = await createApiToken(t, admin, { scope: 'read' });
    for (const path of [`/api/v1/cdc-tables/${FAKE_ID}/logs/stream`, `/api/v1/streams/${FAKE_ID}/runs/stream`]) {
      expect((await api(t, 'GET', path)).status).toBe(401);
      expect((await api(t, 'GET', `${path}?token=${token}`)).status).toBe(401);
      expect((await api(t, 'GET', `${path}?token=not-a-token`)).status).toBe(401);
      expect((await api(t, 'GET', `${path}?token=${admin}`)).status).toBe(404); // authenticated; nothing there yet
    }
    // Elsewhere the query parameter is no credential at all.
    expect((await api(t, 'GET', `/api/v1/me?token=${admin}`)).status).toBe(401);
  });
});
