import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createApiToken, createProject, createUser } from '../support/http.js';
import { addMember, memberOf } from './fixtures.js';

/** Instance-level operations: each must refuse a token scoped to projects, whoever owns it. */
const INSTANCE_OPERATIONS: Array<[string, string, Record<string, unknown>?]> = [
  ['GET', '/api/v1/users'],
  [
    'POST',
    '/api/v1/users',
    {
      username: 'made-by-scoped-token',
      email: 'scoped@example.com',
      password: 'long-enough-password-1',
      is_admin: true,
    },
  ],
  ['GET', '/api/v1/audit-log'],
  ['POST', '/api/v1/admin/projects', { name: 'made-by-scoped-token' }],
  ['POST', '/api/v1/admin/roles', { name: 'made-by-scoped-token', capabilities: ['project:read'] }],
  ['GET', '/api/v1/sso/providers'],
  ['GET', '/api/v1/ldap/providers'],
];

describe('a personal token scoped to projects never carries instance rights', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS });
    admin = (await adminLogin(t)).accessToken;
  });
  afterAll(async () => t?.close());

  it('an administrator’s project-scoped token is refused on every instance-admin route, and creates no administrator', async () => {
    const project = await createProject(t, admin);
    const administrator = await createUser(t, admin, { isAdmin: true });
    await addMember(t, admin, project.id, administrator.id, 'owner');
    const { token } = await createApiToken(t, administrator.session.accessToken, {
      scope: 'write',
      project_ids: [project.id],
    });

    for (const [method, path, body] of INSTANCE_OPERATIONS) {
      const result = await api(t, method, path, { token, body });
      expect(result.status, `${method} ${path}`).toBe(403);
      expect(result.body, `${method} ${path}`).toMatchObject({
        detail: 'permission_denied',
        reason: 'token_scoped_to_projects',
        environment_id: null,
      });
    }
    const users = await api<{ items: Array<{ username: string }> }>(t, 'GET', '/api/v1/users?limit=500', {
      token: admin,
    });
    expect(users.body.items.map((u) => u.username)).not.toContain('made-by-scoped-token');
    // Other users' tokens are an instance right too.
    expect(
      (await api(t, 'GET', `/api/v1/api-tokens?user_id=${(await createUser(t, admin)).id}`, { token })).body,
    ).toMatchObject({ reason: 'token_scoped_to_projects' });
    // Deleting its own project is an administrator's act: refused as well.
    expect((await api(t, 'DELETE', `/api/v1/admin/projects/${project.id}`, { token })).body).toMatchObject({
      reason: 'token_scoped_to_projects',
    });
    expect((await api(t, 'GET', `/api/v1/admin/projects/${project.id}`, { token: admin })).status).toBe(200);

    // The same administrator, signed in or with an unscoped token, keeps its rights.
    expect((await api(t, 'GET', '/api/v1/users', { token: administrator.session.accessToken })).status).toBe(200);
    const unscoped = await createApiToken(t, administrator.session.accessToken, { scope: 'read' });
    expect((await api(t, 'GET', '/api/v1/audit-log', { token: unscoped.token })).status).toBe(200);
  });

  it('inside its projects the token acts through the owner’s membership, like a non-administrator', async () => {
    const member = await createProject(t, admin);
    const notMember = await createProject(t, admin);
    const administrator = await createUser(t, admin, { isAdmin: true });
    await addMember(t, admin, member.id, administrator.id, 'viewer');
    const { token } = await createApiToken(t, administrator.session.accessToken, {
      scope: 'write',
      project_ids: [member.id, notMember.id],
    });

    // A viewer membership: reads yes, changes no, however much the user may do signed in.
    expect((await api(t, 'GET', `/api/v1/admin/projects/${member.id}`, { token })).status).toBe(200);
    const rename = await api(t, 'PATCH', `/api/v1/admin/projects/${member.id}`, {
      token,
      body: { description: 'by a scoped token' },
    });
    expect(rename.status).toBe(403);
    expect(rename.body).toMatchObject({
      reason: 'missing_capability',
      required_capability: 'project:write',
      project_id: member.id,
    });
    const connector = await api(t, 'POST', '/api/v1/data-connectors', {
      token,
      body: { project_id: member.id, name: 'nope', kind: 'http_api', config: { base_url: 'https://example.com' } },
    });
    expect(connector.status).toBe(403);

    // In its scope but without a membership: refused like any non-member.
    const outside = await api(t, 'GET', `/api/v1/admin/projects/${notMember.id}`, { token });
    expect(outside.status).toBe(403);
    expect(outside.body).toMatchObject({ reason: 'not_a_member', project_id: notMember.id });
    const list = await api<{ items: Array<{ id: string }> }>(t, 'GET', '/api/v1/admin/projects', { token });
    expect(list.body.items.map((p) => p.id)).toEqual([member.id]);
    const connectors = await api<{ items: unknown[] }>(t, 'GET', `/api/v1/data-connectors`, { token });
    expect(connectors.status).toBe(200);
    // Outside its scope: not found, as before.
    const elsewhere = await createProject(t, admin);
    expect((await api(t, 'GET', `/api/v1/admin/projects/${elsewhere.id}`, { token })).status).toBe(404);
  });

  it('a non-administrator’s scoped token is refused with the same reason', async () => {
    const project = await createProject(t, admin);
    const owner = await memberOf(t, admin, project.id, 'owner');
    const { token } = await createApiToken(t, owner.session.accessToken, { scope: 'write', project_ids: [project.id] });
    const result = await api(t, 'GET', '/api/v1/users', { token });
    expect(result.status).toBe(403);
    expect(result.body).toMatchObject({ reason: 'token_scoped_to_projects', required_capability: 'user:read' });
    expect((await api(t, 'GET', `/api/v1/users/${owner.id}`, { token })).status).toBe(200);
  });
});
