import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser } from '../support/http.js';
import { customRole, memberOf } from './fixtures.js';

describe('a member grants only what it holds', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS });
    admin = (await adminLogin(t)).accessToken;
  });
  afterAll(async () => t?.close());

  const roleOf = async (projectId: string, userId: string) => {
    const members = await api<{ items: Array<{ user_id: string; role: string }> }>(
      t,
      'GET',
      `/api/v1/admin/projects/${projectId}/members`,
      { token: admin },
    );
    return members.body.items.find((m) => m.user_id === userId)?.role ?? null;
  };

  it('a holder of member:write cannot make itself or anyone owner, nor grant a custom role with more', async () => {
    const project = await createProject(t, admin);
    const other = await createProject(t, admin);
    const gatekeeperRole = await customRole(t, admin, ['member:read', 'member:write', 'connector:read']);
    const wider = await customRole(t, admin, ['connector:read', 'connector:write']);
    const narrower = await customRole(t, admin, ['connector:read']);
    const gatekeeper = await memberOf(t, admin, project.id, gatekeeperRole);
    const token = gatekeeper.session.accessToken;
    const someone = await createUser(t, admin);

    const self = await api(t, 'PUT', `/api/v1/admin/projects/${project.id}/members/${gatekeeper.id}`, {
      token,
      body: { role: 'owner' },
    });
    expect(self.status).toBe(403);
    expect(self.body).toEqual({
      detail: 'permission_denied',
      reason: 'capability_not_held',
      required_capability: 'project:read',
      project_id: project.id,
      environment_id: null,
      request_id: expect.any(String),
    });
    expect(await roleOf(project.id, gatekeeper.id)).toBe(gatekeeperRole);

    for (const role of ['owner', 'editor', wider]) {
      const result = await api(t, 'PUT', `/api/v1/admin/projects/${project.id}/members/${someone.id}`, {
        token,
        body: { role },
      });
      expect(result.status, role).toBe(403);
      expect(result.body, role).toMatchObject({ reason: 'capability_not_held' });
    }
    expect(await roleOf(project.id, someone.id)).toBeNull();
    expect(
      (
        await api(t, 'PUT', `/api/v1/admin/projects/${project.id}/members/${someone.id}`, {
          token,
          body: { role: wider },
        })
      ).body,
    ).toMatchObject({ required_capability: 'connector:write' });

    // What it holds, it may grant; an unknown role is still a 422 naming the field.
    expect(
      (
        await api(t, 'PUT', `/api/v1/admin/projects/${project.id}/members/${someone.id}`, {
          token,
          body: { role: narrower },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await api(t, 'PUT', `/api/v1/admin/projects/${project.id}/members/${someone.id}`, {
          token,
          body: { role: 'nobody-has-this-role' },
        })
      ).status,
    ).toBe(422);
    // Rights in one project say nothing of another.
    expect(
      (
        await api(t, 'PUT', `/api/v1/admin/projects/${other.id}/members/${someone.id}`, {
          token,
          body: { role: narrower },
        })
      ).status,
    ).toBe(403);
  });

  it('nor change or remove a member who holds more than it does', async () => {
    const project = await createProject(t, admin);
    const gatekeeperRole = await customRole(t, admin, ['member:read', 'member:write']);
    const gatekeeper = await memberOf(t, admin, project.id, gatekeeperRole);
    const owner = await memberOf(t, admin, project.id, 'owner');
    const token = gatekeeper.session.accessToken;
    const demote = await api(t, 'PUT', `/api/v1/admin/projects/${project.id}/members/${owner.id}`, {
      token,
      body: { role: gatekeeperRole },
    });
    expect(demote.status).toBe(403);
    expect(demote.body).toMatchObject({ reason: 'capability_not_held' });
    const remove = await api(t, 'DELETE', `/api/v1/admin/projects/${project.id}/members/${owner.id}`, { token });
    expect(remove.status).toBe(403);
    expect(await roleOf(project.id, owner.id)).toBe('owner');
    // An owner holds everything, so it may; an administrator may grant anything.
    expect(
      (
        await api(t, 'PUT', `/api/v1/admin/projects/${project.id}/members/${gatekeeper.id}`, {
          token: owner.session.accessToken,
          body: { role: 'editor' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await api(t, 'PUT', `/api/v1/admin/projects/${project.id}/members/${gatekeeper.id}`, {
          token: admin,
          body: { role: 'owner' },
        })
      ).status,
    ).toBe(200);
  });

  it('environment limits cannot be widened: a member narrowed to environments manages no members', async () => {
    const project = await createProject(t, admin);
    const env = await api<{ id: string }>(t, 'POST', `/api/v1/admin/projects/${project.id}/environments`, {
      token: admin,
      body: { name: 'staging' },
    });
    const narrowedOwner = await memberOf(t, admin, project.id, 'owner', [env.body.id]);
    const someone = await createUser(t, admin);
    for (const environment_ids of [undefined, [env.body.id]]) {
      const result = await api(t, 'PUT', `/api/v1/admin/projects/${project.id}/members/${someone.id}`, {
        token: narrowedOwner.session.accessToken,
        body: { role: 'viewer', environment_ids },
      });
      expect(result.status).toBe(403);
      expect(result.body).toMatchObject({ reason: 'environment_not_allowed', required_capability: 'member:write' });
    }
    const self = await api(t, 'PUT', `/api/v1/admin/projects/${project.id}/members/${narrowedOwner.id}`, {
      token: narrowedOwner.session.accessToken,
      body: { role: 'owner', environment_ids: null },
    });
    expect(self.status).toBe(403);
    expect(await roleOf(project.id, someone.id)).toBeNull();
  });
});
