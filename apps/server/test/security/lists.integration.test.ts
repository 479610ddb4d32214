import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api } from '../support/http.js';
import { customRole, memberOf, twoProjects, type TwoProjects } from './fixtures.js';

interface OpenApi {
  paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>;
}

/** Lists that are not about project resources: instance catalogues, the caller's own things, public routes. */
const NOT_PROJECT_LISTS = new Set([
  '/health',
  '/metrics',
  '/openapi.json',
  '/api/v1/me',
  '/api/v1/api-tokens',
  '/api/v1/admin/roles',
  '/api/v1/license',
  '/api/v1/data-connectors/kinds',
  '/api/v1/sso/discovery',
  '/api/v1/sso/callback',
  // Queries about one node (required parameters), not lists: their isolation is tested with lineage.
  '/api/v1/lineage/graph',
  '/api/v1/lineage/columns',
]);

describe('lists filter by the same check as their details', () => {
  let t: TestApp;
  let admin: string;
  let fixture: TwoProjects;
  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS });
    admin = (await adminLogin(t)).accessToken;
    fixture = await twoProjects(t, admin);
  });
  afterAll(async () => {
    await t?.close();
    await fixture?.close();
  });

  it('an editor of project B finds nothing of project A in any list of /openapi.json', async () => {
    const document = (await (await fetch(`${t.url}/openapi.json`)).json()) as OpenApi;
    const secrets = Object.values(fixture.a);
    let checked = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      if (path.includes('{') || !item['get'] || NOT_PROJECT_LISTS.has(path)) continue;
      const takesProject = (item['get'].parameters ?? []).some((p) => p.in === 'query' && p.name === 'project_id');
      for (const query of takesProject ? ['', `?project_id=${fixture.a.project}`] : ['']) {
        const result = await api(t, 'GET', `${path}${query}`, { token: fixture.editorB.session.accessToken });
        const text = JSON.stringify(result.body);
        if (query) expect([403, 404], `GET ${path}${query}`).toContain(result.status);
        else expect([200, 403], `GET ${path}`).toContain(result.status);
        // A refusal may name the project the caller asked about; nothing else of A may appear.
        for (const id of secrets)
          if (!(query && id === fixture.a.project)) expect(text, `GET ${path}${query} shows ${id}`).not.toContain(id);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(12);
    // And the owner of A does see them, so the walk above looked at real lists.
    const owner = fixture.ownerA.session.accessToken;
    expect(JSON.stringify((await api(t, 'GET', '/api/v1/executions', { token: owner })).body)).toContain(
      fixture.a.execution,
    );
    expect(JSON.stringify((await api(t, 'GET', '/api/v1/catalog/datasets', { token: owner })).body)).toContain(
      fixture.a.dataset,
    );
  });

  it('a member of A without execution:read sees no executions in the list, as in the detail', async () => {
    const role = await customRole(t, admin, ['project:read', 'connector:read', 'pipeline:read']);
    const member = await memberOf(t, admin, fixture.a.project, role);
    const token = member.session.accessToken;
    const detail = await api(t, 'GET', `/api/v1/executions/${fixture.a.execution}`, { token });
    expect(detail.status).toBe(403);
    expect(detail.body).toMatchObject({ reason: 'missing_capability', required_capability: 'execution:read' });
    const list = await api<{ items: unknown[] }>(t, 'GET', '/api/v1/executions', { token });
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([]);
    expect((await api(t, 'GET', `/api/v1/executions?project_id=${fixture.a.project}`, { token })).status).toBe(403);
    // Nor through the overview or the bulk cancel.
    const overview = await api<{ projects: unknown[] }>(t, 'GET', '/api/v1/overview', { token });
    expect(overview.body.projects).toEqual([]);
  });

  it('a member of A without catalog:read sees no datasets, as in the detail', async () => {
    const role = await customRole(t, admin, ['project:read', 'connector:read']);
    const member = await memberOf(t, admin, fixture.a.project, role);
    const token = member.session.accessToken;
    expect((await api(t, 'GET', `/api/v1/catalog/datasets/${fixture.a.dataset}`, { token })).status).toBe(403);
    const list = await api<{ items: unknown[] }>(t, 'GET', '/api/v1/catalog/datasets', { token });
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([]);
    expect(
      (
        await api<{ items: unknown[] }>(t, 'GET', `/api/v1/catalog/datasets?connector_id=${fixture.a.connector}`, {
          token,
        })
      ).body.items,
    ).toEqual([]);
  });

  it('the overview counts only what the caller may read of each kind', async () => {
    const role = await customRole(t, admin, ['execution:read']);
    const member = await memberOf(t, admin, fixture.a.project, role);
    const overview = await api<{ projects: Array<{ project_id: string; counts: Record<string, number | null> }> }>(
      t,
      'GET',
      '/api/v1/overview',
      { token: member.session.accessToken },
    );
    expect(overview.body.projects).toHaveLength(1);
    expect(overview.body.projects[0]!.counts).toEqual({
      connectors: null,
      pipelines: null,
      cdc_tables: null,
      schedules: null,
    });
    const owner = await api<{ projects: Array<{ project_id: string; counts: Record<string, number | null> }> }>(
      t,
      'GET',
      '/api/v1/overview',
      { token: fixture.ownerA.session.accessToken },
    );
    expect(owner.body.projects[0]!.counts).toEqual({ connectors: 3, pipelines: 1, cdc_tables: 1, schedules: 1 });
  });

  it('a member narrowed to an environment sees in lists only what it may open', async () => {
    const narrowed = await memberOf(t, admin, fixture.a.project, 'viewer', [fixture.a.environment]);
    const token = narrowed.session.accessToken;
    // Project-level resources are outside its environment: refused one by one, absent from lists.
    for (const [detail, list] of [
      [`/api/v1/executions/${fixture.a.execution}`, '/api/v1/executions'],
      [`/api/v1/catalog/datasets/${fixture.a.dataset}`, '/api/v1/catalog/datasets'],
      [`/api/v1/etl/pipelines/${fixture.a.pipeline}`, '/api/v1/etl/pipelines'],
      [`/api/v1/cdc-tables/${fixture.a.cdcTable}`, '/api/v1/cdc-tables'],
      [`/api/v1/streams/${fixture.a.stream}`, '/api/v1/streams'],
      [`/api/v1/file-ingestions/${fixture.a.fileIngestion}`, '/api/v1/file-ingestions'],
      [`/api/v1/inboxes/${fixture.a.inbox}`, '/api/v1/inboxes'],
      [`/api/v1/email-feeds/${fixture.a.emailFeed}`, '/api/v1/email-feeds'],
      [`/api/v1/etl/schedules/${fixture.a.schedule}`, '/api/v1/etl/schedules'],
      [`/api/v1/data-connectors/${fixture.a.connector}`, '/api/v1/data-connectors'],
    ]) {
      expect((await api(t, 'GET', detail!, { token })).status, detail).toBe(403);
      expect(JSON.stringify((await api(t, 'GET', list!, { token })).body), list).not.toContain(fixture.a.project);
    }
  });
});
