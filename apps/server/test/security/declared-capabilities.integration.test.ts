/**
 * The capability a route declares (`x-capability` in /openapi.json) is the one its service checks:
 * every GET of one project resource answers a member whose role holds just that capability, and
 * refuses one whose role holds every other read capability, naming the declared one; and every
 * write route of one resource refuses a member who may read everything but lacks the capability the
 * route declares, naming it, before it changes anything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPABILITIES } from '../../src/platform/authz.js';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api } from '../support/http.js';
import { customRole, memberOf, twoProjects, type TwoProjects } from './fixtures.js';

type OpenApi = { paths: Record<string, Record<string, { 'x-capability'?: string }>> };

const PROJECT_CAPABILITIES = new Set<string>(CAPABILITIES);
const READS = CAPABILITIES.filter((c) => c.endsWith(':read'));

/** The id of project A's resource that each kind of detail path reads. */
const RESOURCES: Array<[string, (f: TwoProjects) => string]> = [
  ['/api/v1/admin/projects/{id}', (f) => f.a.project],
  ['/api/v1/data-connectors/{id}', (f) => f.a.connector],
  ['/api/v1/catalog/datasets/{id}', (f) => f.a.dataset],
  ['/api/v1/executions/{id}', (f) => f.a.execution],
  ['/api/v1/etl/pipelines/{id}', (f) => f.a.pipeline],
  ['/api/v1/etl/schedules/{id}', (f) => f.a.schedule],
  ['/api/v1/cdc-tables/{id}', (f) => f.a.cdcTable],
  ['/api/v1/dw-models/runs/{id}', (f) => f.a.modelRun],
  ['/api/v1/dw-models/{id}', (f) => f.a.dwModel],
  ['/api/v1/ai-providers/{id}', (f) => f.a.aiProvider],
  ['/api/v1/streams/{id}', (f) => f.a.stream],
  ['/api/v1/notification-configs/{id}', (f) => f.a.notificationConfig],
  ['/api/v1/alert-rules/{id}', (f) => f.a.alertRule],
  ['/api/v1/file-ingestions/{id}', (f) => f.a.fileIngestion],
  ['/api/v1/inboxes/{id}', (f) => f.a.inbox],
  ['/api/v1/email-feeds/{id}', (f) => f.a.emailFeed],
];

describe('declared capabilities', () => {
  let t: TestApp;
  let admin: string;
  let fixture: TwoProjects;
  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS });
    admin = (await adminLogin(t)).accessToken;
    fixture = await twoProjects(t, admin);
  }, 120_000);
  afterAll(async () => {
    await fixture?.close();
    await t?.close();
  });

  it('are the ones the services check on every GET of a project resource', async () => {
    const document = (await (await fetch(`${t.url}/openapi.json`)).json()) as OpenApi;
    const checked: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      const declared = item['get']?.['x-capability'];
      const resource = RESOURCES.find(([prefix]) => path.startsWith(prefix));
      // Event streams answer with a stream, not a body: their rights are tested with the streams.
      if (!declared || !PROJECT_CAPABILITIES.has(declared) || !resource || path.endsWith('/stream')) continue;
      const url = path.replace('{id}', resource[1](fixture)).replace('{file_id}', fixture.a.ingestedFile);
      const holder = await memberOf(t, admin, fixture.a.project, await customRole(t, admin, [declared]));
      const allowed = await api(t, 'GET', url, { token: holder.session.accessToken });
      expect(allowed.status, `GET ${path} with just ${declared}: ${JSON.stringify(allowed.body)}`).toBe(200);
      const others = READS.filter((c) => c !== declared);
      const lacking = await memberOf(t, admin, fixture.a.project, await customRole(t, admin, others));
      const refused = await api<{ required_capability?: string }>(t, 'GET', url, {
        token: lacking.session.accessToken,
      });
      expect([refused.status, refused.body.required_capability], `GET ${path} without ${declared}`).toEqual([
        403,
        declared,
      ]);
      checked.push(`GET ${path}`);
    }
    expect(checked.length).toBeGreaterThanOrEqual(10);
  });

  it('are the ones the services check on every write to a project resource', async () => {
    const document = (await (await fetch(`${t.url}/openapi.json`)).json()) as OpenApi;
    const reader = await memberOf(t, admin, fixture.a.project, await customRole(t, admin, READS));
    const checked: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      const resource = RESOURCES.find(([prefix]) => path.startsWith(prefix));
      if (!resource || path.includes('/members')) continue;
      for (const method of ['post', 'put', 'patch', 'delete']) {
        const declared = item[method]?.['x-capability'];
        if (!declared || !PROJECT_CAPABILITIES.has(declared) || declared.endsWith(':read')) continue;
        const url = path.replace('{id}', resource[1](fixture));
        const refused = await api<{ required_capability?: string }>(t, method.toUpperCase(), url, {
          token: reader.session.accessToken,
          ...(method === 'delete' ? {} : { body: {} }),
        });
        // A body the schema refuses (`{}` for a create) answers 422 before any right is looked at.
        if (refused.status === 422) continue;
        expect([refused.status, refused.body.required_capability], `${method.toUpperCase()} ${path}`).toEqual([
          403,
          declared,
        ]);
        checked.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(checked.length).toBeGreaterThanOrEqual(12);
    // Nothing was changed or deleted by the refused calls.
    for (const [path, id] of RESOURCES) {
      const still = await api(t, 'GET', path.replace('{id}', id(fixture)), { token: admin });
      expect(still.status, path).toBe(200);
    }
  });
});
