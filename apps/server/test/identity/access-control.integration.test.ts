import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser } from '../support/http.js';

interface OpenApi {
  paths: Record<string, Record<string, { security?: unknown[] }>>;
}

const FAKE_ID = '3b241101-e2bb-4255-8caf-4136c566a962';
// The interface document's list, plus the SSO discovery, start and callback routes (refused otherwise: see the SSO tests),
// and an inbox's receive route, guarded by the inbox's own credential instead (see the inboxes tests).
const PUBLIC = [
  'GET /health',
  'GET /metrics',
  'GET /openapi.json',
  'POST /api/v1/auth/login',
  'POST /api/v1/auth/refresh',
  'GET /api/v1/sso/discovery',
  'GET /api/v1/sso/{id}/start',
  'GET /api/v1/sso/callback',
  'POST /api/v1/inboxes/{id}/receive',
];

describe('deny by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { SVC_RATE_LIMIT_PER_MINUTE: '100000' } });
  });
  afterAll(async () => t?.close());

  it('every operation in /openapi.json outside the public list answers 401 without credentials', async () => {
    const document = (await (await fetch(`${t.url}/openapi.json`)).json()) as OpenApi;
    let checked = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const method of Object.keys(item)) {
        const operation = `${method.toUpperCase()} ${path}`;
        if (PUBLIC.includes(operation)) continue;
        const result = await api(t, method.toUpperCase(), path.replace(/\{[^}]+\}/g, FAKE_ID), {
          body: ['post', 'put', 'patch'].includes(method) ? {} : undefined,
        });
        expect(result.status, operation).toBe(401);
        expect(result.headers.get('www-authenticate'), operation).toBe('Bearer');
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(25);
  });
});

describe('RBAC: projects, members, roles', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS });
    admin = (await adminLogin(t)).accessToken;
  });
  afterAll(async () => t?.close());

  async function member(projectId: string, role: string, environmentIds?: string[]) {
    const user = await createUser(t, admin);
    const put = await api(t, 'PUT', `/api/v1/admin/projects/${projectId}/members/${user.id}`, {
      token: admin,
      body: { role, environment_ids: environmentIds },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      user_id: user.id,
      username: user.username,
      role,
    });
    return user;
  }

  it('applies the capabilities of owner, editor, viewer and a custom role; refuses non-members', async () => {
    const project = await createProject(t, admin);
    const owner = await member(project.id, 'owner');
    const editor = await member(project.id, 'editor');
    const viewer = await member(project.id, 'viewer');
    const custom = await api<{ id: string }>(t, 'POST', '/api/v1/admin/roles', {
      token: admin,
      body: { name: `gatekeeper-${project.id.slice(0, 8)}`, capabilities: ['member:read', 'member:write'] },
    });
    expect(custom.status).toBe(201);
    const gatekeeper = await member(project.id, `gatekeeper-${project.id.slice(0, 8)}`);
    const outsider = await createUser(t, admin);
    const target = await createUser(t, admin);
    // A member grants only roles whose capabilities it holds: the gatekeeper holds member:read.
    const granted = `member-reader-${project.id.slice(0, 8)}`;
    expect(
      (
        await api(t, 'POST', '/api/v1/admin/roles', {
          token: admin,
          body: { name: granted, capabilities: ['member:read'] },
        })
      ).status,
    ).toBe(201);

    const cases: Array<[string, string, number, string | null]> = [
      // [who, action, status, reason]
      ['owner', 'read', 200, null],
      ['owner', 'write-members', 200, null],
      ['owner', 'rename', 200, null],
      ['editor', 'read', 200, null],
      ['editor', 'write-members', 403, 'missing_capability'],
      ['editor', 'rename', 403, 'missing_capability'],
      ['viewer', 'read', 200, null],
      ['viewer', 'write-members', 403, 'missing_capability'],
      ['gatekeeper', 'read', 403, 'missing_capability'],
      ['gatekeeper', 'write-members', 200, null],
      ['outsider', 'read', 403, 'not_a_member'],
      ['outsider', 'write-members', 403, 'not_a_member'],
    ];
    const tokens: Record<string, string> = {
      owner: owner.session.accessToken,
      editor: editor.session.accessToken,
      viewer: viewer.session.accessToken,
      gatekeeper: gatekeeper.session.accessToken,
      outsider: outsider.session.accessToken,
    };
    const capabilityOf: Record<string, string> = {
      read: 'project:read',
      'write-members': 'member:write',
      rename: 'project:write',
    };
    for (const [who, action, status, reason] of cases) {
      const token = tokens[who]!;
      const result =
        action === 'read'
          ? await api(t, 'GET', `/api/v1/admin/projects/${project.id}`, { token })
          : action === 'rename'
            ? await api(t, 'PATCH', `/api/v1/admin/projects/${project.id}`, {
                token,
                body: { description: `by ${who}` },
              })
            : await api(t, 'PUT', `/api/v1/admin/projects/${project.id}/members/${target.id}`, {
                token,
                body: { role: granted },
              });
      expect(result.status, `${who} ${action}`).toBe(status);
      if (reason) {
        expect(result.body).toEqual({
          detail: 'permission_denied',
          reason,
          required_capability: capabilityOf[action],
          project_id: project.id,
          environment_id: null,
          request_id: expect.any(String),
        });
      }
    }
  });

  it('lists for a member only the projects it belongs to', async () => {
    const mine = await createProject(t, admin);
    await createProject(t, admin);
    const viewer = await member(mine.id, 'viewer');
    const list = await api<{ items: Array<{ id: string }> }>(t, 'GET', '/api/v1/admin/projects', {
      token: viewer.session.accessToken,
    });
    expect(list.body.items.map((p) => p.id)).toEqual([mine.id]);
  });

  it('narrows a membership to environments', async () => {
    const project = await createProject(t, admin);
    const env = await api<{ id: string }>(t, 'POST', `/api/v1/admin/projects/${project.id}/environments`, {
      token: admin,
      body: { name: 'staging' },
    });
    expect(env.status).toBe(201);
    expect(
      (
        await api(t, 'POST', `/api/v1/admin/projects/${project.id}/environments`, {
          token: admin,
          body: { name: 'Staging' },
        })
      ).status,
    ).toBe(409);
    const environments = await api<{ items: Array<{ id: string; name: string }> }>(
      t,
      'GET',
      `/api/v1/admin/projects/${project.id}/environments`,
      { token: admin },
    );
    expect(environments.body.items).toEqual([
      expect.objectContaining({ id: env.body.id, name: 'staging', project_id: project.id }),
    ]);
    const narrowed = await member(project.id, 'owner', [env.body.id]);
    const refused = await api(t, 'GET', `/api/v1/admin/projects/${project.id}`, {
      token: narrowed.session.accessToken,
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ reason: 'environment_not_allowed', environment_id: null });
    const other = await createProject(t, admin);
    const badEnv = await api(t, 'PUT', `/api/v1/admin/projects/${other.id}/members/${narrowed.id}`, {
      token: admin,
      body: { role: 'viewer', environment_ids: [env.body.id] },
    });
    expect(badEnv.status).toBe(422);
  });

  it('takes effect at once when a membership changes', async () => {
    const project = await createProject(t, admin);
    const user = await member(project.id, 'viewer');
    expect(
      (await api(t, 'GET', `/api/v1/admin/projects/${project.id}/members`, { token: user.session.accessToken })).status,
    ).toBe(200);
    expect(
      (await api(t, 'DELETE', `/api/v1/admin/projects/${project.id}/members/${user.id}`, { token: admin })).status,
    ).toBe(204);
    expect(
      (await api(t, 'GET', `/api/v1/admin/projects/${project.id}/members`, { token: user.session.accessToken })).status,
    ).toBe(403);
  });

  it('keeps instance administration to administrators', async () => {
    const user = await createUser(t, admin);
    const token = user.session.accessToken;
    for (const [method, path, body] of [
      ['POST', '/api/v1/admin/projects', { name: 'nope' }],
      ['POST', '/api/v1/admin/roles', { name: 'nope', capabilities: [] }],
      ['GET', '/api/v1/users', undefined],
      ['POST', '/api/v1/users', { username: 'x', email: 'x@example.com', password: 'long-enough-password' }],
      ['GET', '/api/v1/audit-log', undefined],
    ] as const) {
      const result = await api(t, method, path, { token, body });
      expect(result.status, `${method} ${path}`).toBe(403);
      expect(result.body).toMatchObject({
        detail: 'permission_denied',
        reason: 'admin_required',
        environment_id: null,
      });
    }
  });

  it('validates projects and roles: duplicates 409, unknown capabilities and roles 422, built-ins fixed', async () => {
    const project = await createProject(t, admin);
    expect(
      (await api(t, 'POST', '/api/v1/admin/projects', { token: admin, body: { name: project.name.toUpperCase() } }))
        .status,
    ).toBe(409);
    const bad = await api(t, 'POST', '/api/v1/admin/roles', {
      token: admin,
      body: { name: 'bad', capabilities: ['connector:fly'] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body['errors']).toEqual([expect.objectContaining({ path: 'capabilities' })]);
    const user = await createUser(t, admin);
    expect(
      (
        await api(t, 'PUT', `/api/v1/admin/projects/${project.id}/members/${user.id}`, {
          token: admin,
          body: { role: 'emperor' },
        })
      ).status,
    ).toBe(422);
    const roles = await api<{ items: Array<{ id: string; name: string; built_in: boolean }> }>(
      t,
      'GET',
      '/api/v1/admin/roles',
      { token: admin },
    );
    const owner = roles.body.items.find((r) => r.name === 'owner')!;
    expect(owner.built_in).toBe(true);
    const one = await api<{ name: string; capabilities: string[] }>(t, 'GET', `/api/v1/admin/roles/${owner.id}`, {
      token: admin,
    });
    expect(one.body).toMatchObject({
      name: 'owner',
      capabilities: expect.arrayContaining(['member:write', 'connector:write']),
    });
    expect(
      (await api(t, 'GET', '/api/v1/admin/roles/3b241101-e2bb-4255-8caf-4136c566a962', { token: admin })).status,
    ).toBe(404);
    expect((await api(t, 'DELETE', `/api/v1/admin/roles/${owner.id}`, { token: admin })).status).toBe(409);
    expect(
      (await api(t, 'PATCH', `/api/v1/admin/roles/${owner.id}`, { token: admin, body: { capabilities: [] } })).status,
    ).toBe(409);
    const custom = await api<{ id: string }>(t, 'POST', '/api/v1/admin/roles', {
      token: admin,
      body: { name: `in-use-${project.id.slice(0, 6)}`, capabilities: ['project:read'] },
    });
    await api(t, 'PUT', `/api/v1/admin/projects/${project.id}/members/${user.id}`, {
      token: admin,
      body: { role: `in-use-${project.id.slice(0, 6)}` },
    });
    expect((await api(t, 'DELETE', `/api/v1/admin/roles/${custom.body.id}`, { token: admin })).status).toBe(409);
    // A changed custom role applies at once to its members.
    expect(
      (await api(t, 'GET', `/api/v1/admin/projects/${project.id}`, { token: user.session.accessToken })).status,
    ).toBe(200);
    expect(
      (
        await api(t, 'PATCH', `/api/v1/admin/roles/${custom.body.id}`, {
          token: admin,
          body: { capabilities: ['member:read'] },
        })
      ).status,
    ).toBe(200);
    expect(
      (await api(t, 'GET', `/api/v1/admin/projects/${project.id}`, { token: user.session.accessToken })).status,
    ).toBe(403);
  });
});
