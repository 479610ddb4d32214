/**
 * Masking policies against the real service: the rules and their 422s, project isolation, who is
 * exempt (the data:read_unmasked capability, an exempt role, administrators), precedence between
 * policies, and the key of `hash` (stored encrypted, deterministic within a project, different across
 * projects).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser } from '../support/http.js';

interface ErrorBody {
  detail: string;
  errors?: Array<{ path: string; message: string }>;
}
interface Evaluated {
  masked: Record<string, { policy: string; method: string }>;
  rows: unknown[][];
}

describe('masking policies', () => {
  let t: TestApp;
  let admin: string;
  let project: string;
  let other: string;
  let editor: string;
  let unmasked: string;
  let auditor: string;
  let outsider: string;
  let auditorRole: string;

  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS });
    admin = (await adminLogin(t)).accessToken;
    project = (await createProject(t, admin)).id;
    other = (await createProject(t, admin)).id;
    const suffix = project.slice(0, 8);
    const reader = await api(t, 'POST', '/api/v1/admin/roles', {
      token: admin,
      body: { name: `unmasked-${suffix}`, capabilities: ['policy:read', 'data:read_unmasked'] },
    });
    expect(reader.status, JSON.stringify(reader.body)).toBe(201);
    auditorRole = `auditor-${suffix}`;
    const audit = await api(t, 'POST', '/api/v1/admin/roles', {
      token: admin,
      body: { name: auditorRole, capabilities: ['policy:read'] },
    });
    expect(audit.status).toBe(201);
    for (const [projectId, role, assign] of [
      [project, 'editor', (s: string) => (editor = s)],
      [project, `unmasked-${suffix}`, (s: string) => (unmasked = s)],
      [project, auditorRole, (s: string) => (auditor = s)],
      [other, 'editor', (s: string) => (outsider = s)],
    ] as const) {
      const user = await createUser(t, admin);
      const put = await api(t, 'PUT', `/api/v1/admin/projects/${projectId}/members/${user.id}`, {
        token: admin,
        body: { role },
      });
      expect(put.status, JSON.stringify(put.body)).toBeLessThan(300);
      assign(user.session.accessToken);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (token: string, body: Record<string, unknown>) =>
    api<Record<string, unknown> & ErrorBody & { id: string }>(t, 'POST', '/api/v1/masking-policies', { token, body });
  const evaluate = async (token: string, projectId: string, columns: object[], rows: unknown[][]) => {
    const result = await api<Evaluated>(t, 'POST', '/api/v1/masking-policies/evaluate', {
      token,
      body: { project_id: projectId, columns, rows },
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    return result.body;
  };

  it('answers 422 naming the field for a bad policy', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ project_id: project, name: 'x', method: 'sha1', columns: ['a'] }, 'method'],
      [{ project_id: project, name: 'x', method: 'full' }, 'columns'],
      [{ project_id: project, name: 'x', method: 'regex_replace', columns: ['a'] }, 'options.pattern'],
      [
        { project_id: project, name: 'x', method: 'regex_replace', columns: ['a'], options: { pattern: '(' } },
        'options.pattern',
      ],
      [
        { project_id: project, name: 'x', method: 'full', columns: ['a'], options: { keep_last: 2 } },
        'options.keep_last',
      ],
      [
        {
          project_id: project,
          name: 'x',
          method: 'full',
          columns: ['a'],
          exempt: { capabilities: ['data:everything'] },
        },
        'exempt.capabilities.0',
      ],
    ];
    for (const [body, path] of cases) {
      const result = await create(editor, body);
      expect(result.status, JSON.stringify(result.body)).toBe(422);
      expect(JSON.stringify(result.body.errors ?? result.body), JSON.stringify(body)).toContain(path);
    }
  });

  it('keeps a project’s policies to its members, and names unique in a project', async () => {
    const created = await create(editor, { project_id: project, name: 'cards', method: 'partial', columns: ['card'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      method: 'partial',
      columns: ['card'],
      exempt: { capabilities: ['data:read_unmasked'], roles: [] },
    });
    expect((await create(editor, { project_id: project, name: 'cards', method: 'full', columns: ['x'] })).status).toBe(
      409,
    );
    expect([403, 404]).toContain(
      (await api(t, 'GET', `/api/v1/masking-policies/${created.body.id}`, { token: outsider })).status,
    );
    expect((await create(outsider, { project_id: project, name: 'mine', method: 'full', columns: ['x'] })).status).toBe(
      403,
    );
    const listed = await api<{ items: { id: string }[] }>(t, 'GET', '/api/v1/masking-policies', { token: outsider });
    expect(listed.body.items.map((p) => p.id)).not.toContain(created.body.id);
    const changed = await api<{ options: Record<string, number> }>(
      t,
      'PATCH',
      `/api/v1/masking-policies/${created.body.id}`,
      {
        token: editor,
        body: { options: { keep_first: 0, keep_last: 4 } },
      },
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.options).toEqual({ keep_first: 0, keep_last: 4 });
    const card = await evaluate(editor, project, [{ name: 'card', type: 'string' }], [['4111111111111111']]);
    expect(card.rows).toEqual([['************1111']]);
    expect((await api(t, 'DELETE', `/api/v1/masking-policies/${created.body.id}`, { token: editor })).status).toBe(204);
  });

  it('masks for a member without the exemption; data:read_unmasked, an exempt role and administrators see clear values', async () => {
    const email = await create(editor, {
      project_id: project,
      name: 'e-mails',
      method: 'email_domain',
      columns: ['email'],
    });
    expect(email.status).toBe(201);
    const phones = await create(editor, {
      project_id: project,
      name: 'phones',
      method: 'full',
      columns: ['phone'],
      exempt: { capabilities: [], roles: [auditorRole] },
    });
    expect(phones.status).toBe(201);
    const columns = [
      { name: 'id', type: 'int32' },
      { name: 'email', type: 'string' },
      { name: 'phone', type: 'string' },
    ];
    const rows = [[1, 'alice@example.com', '+33 6 12 34 56 78']];
    expect((await evaluate(editor, project, columns, rows)).rows).toEqual([[1, '****@example.com', '****']]);
    // data:read_unmasked exempts from the first; the second exempts a role only.
    expect((await evaluate(unmasked, project, columns, rows)).rows).toEqual([[1, 'alice@example.com', '****']]);
    expect((await evaluate(auditor, project, columns, rows)).rows).toEqual([
      [1, '****@example.com', '+33 6 12 34 56 78'],
    ]);
    // An administrator holds every capability: exempt from the first, not from a role-only exemption.
    expect((await evaluate(admin, project, columns, rows)).rows).toEqual([[1, 'alice@example.com', '****']]);
    for (const id of [email.body.id, phones.body.id])
      await api(t, 'DELETE', `/api/v1/masking-policies/${id}`, { token: editor });
  });

  it('the most restrictive policy wins where several cover one column', async () => {
    const ids: string[] = [];
    for (const [name, method] of [
      ['regex', 'regex_replace'],
      ['domain', 'email_domain'],
      ['hashed', 'hash'],
    ] as const) {
      const created = await create(editor, {
        project_id: project,
        name,
        method,
        columns: ['email'],
        ...(method === 'regex_replace' ? { options: { pattern: '[a-z]', replacement: 'x' } } : {}),
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      ids.push(created.body.id);
    }
    const result = await evaluate(editor, project, [{ name: 'email', type: 'string' }], [['alice@example.com']]);
    expect(result.masked).toEqual({ email: { policy: 'hashed', method: 'hash' } });
    expect(result.rows[0]?.[0]).toMatch(/^[0-9a-f]{32}$/);
    for (const id of ids) await api(t, 'DELETE', `/api/v1/masking-policies/${id}`, { token: editor });
  });

  it('hash is deterministic in a project, differs across projects, and its key is stored encrypted', async () => {
    const here = await create(editor, { project_id: project, name: 'ids', method: 'hash', columns: ['customer'] });
    const there = await create(admin, { project_id: other, name: 'ids', method: 'hash', columns: ['customer'] });
    expect([here.status, there.status]).toEqual([201, 201]);
    const columns = [{ name: 'customer', type: 'string' }];
    const a = await evaluate(editor, project, columns, [['C-1001'], ['C-1001'], ['C-1002']]);
    expect(a.rows[0]).toEqual(a.rows[1]);
    expect(a.rows[0]).not.toEqual(a.rows[2]);
    const b = await evaluate(outsider, other, columns, [['C-1001']]);
    expect(b.rows[0]).not.toEqual(a.rows[0]);
    const client = new pg.Client({ connectionString: t.config.db.url! });
    await client.connect();
    try {
      const keys = await client.query('select key_ciphertext from masking_keys where project_id = $1', [project]);
      expect(keys.rows).toHaveLength(1);
      expect(keys.rows[0].key_ciphertext).toMatch(/^v1:/);
    } finally {
      await client.end();
    }
    const shown = await api(t, 'GET', `/api/v1/masking-policies/${here.body.id}`, { token: editor });
    expect(JSON.stringify(shown.body)).not.toMatch(/key/i);
    await api(t, 'DELETE', `/api/v1/masking-policies/${here.body.id}`, { token: editor });
    await api(t, 'DELETE', `/api/v1/masking-policies/${there.body.id}`, { token: admin });
  });
});
