/**
 * The capability a route declares (`x-capability` in /openapi.json) is the one its service checks:
 * every GET of one project resource answers a member whose role holds just that capability, and
 * refuses one whose role holds every other read capability, naming the declared one.
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
  ['/api/v1/file-ingestions/{id}', (f) => f.a.fileIngestion],
  ['/api/v1/inboxes/{id}', (f) => f.a.inbox],
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
});
