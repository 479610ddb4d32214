/**
 * The IDOR walk: every operation of /openapi.json whose path carries an id is called by an editor of
 * project B with the ids of project A's resources, and must answer 403 or 404 and change nothing.
 * The routes come from the document, so a new route with an id fails here until it is classified.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api } from '../support/http.js';
import { twoProjects, type TwoProjects } from './fixtures.js';

interface Schema {
  type?: string;
  format?: string;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  minProperties?: number;
  items?: Schema;
  minItems?: number;
  minLength?: number;
  minimum?: number;
}
interface Operation {
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}
interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
}

const FAKE_ID = '3b241101-e2bb-4255-8caf-4136c566a962';

/**
 * Operations with an id that are deliberately outside the walk, each with its reason. Everything
 * else with an id must match one of the classes below, or the walk fails.
 */
const OUTSIDE = new Map([
  ['GET /api/v1/sso/{id}/start', 'public: the start of an OIDC sign-in'],
  ['POST /api/v1/inboxes/{id}/receive', "public: guarded by the inbox's own credential (see the inbox tests)"],
  ['GET /api/v1/api-tokens/{id}', "the caller's own tokens (others' are 404: see the token tests)"],
  ['DELETE /api/v1/api-tokens/{id}', "the caller's own tokens (others' are 404: see the token tests)"],
  ['GET /api/v1/admin/roles/{id}', 'the role catalogue is instance-wide and readable by every user'],
]);

type Resources = TwoProjects['a'];

/** How each path's ids are filled in: with project A's resources, or instance objects only administrators touch. */
const CLASSES: Array<{ prefix: string; ids: (f: TwoProjects, method: string) => Record<string, string> }> = [
  // PUT tries to make B's editor a member of A; DELETE tries to remove A's owner.
  {
    prefix: '/api/v1/admin/projects/{id}',
    ids: (f, method) => ({ id: f.a.project, user_id: method === 'PUT' ? f.editorB.id : f.ownerA.id }),
  },
  { prefix: '/api/v1/data-connectors/{id}', ids: (f) => ({ id: f.a.connector }) },
  { prefix: '/api/v1/catalog/datasets/{id}', ids: (f) => ({ id: f.a.dataset, column: 'id' }) },
  { prefix: '/api/v1/executions/{id}', ids: (f) => ({ id: f.a.execution }) },
  { prefix: '/api/v1/etl/pipelines/{id}', ids: (f) => ({ id: f.a.pipeline }) },
  { prefix: '/api/v1/etl/schedules/{id}', ids: (f) => ({ id: f.a.schedule }) },
  { prefix: '/api/v1/cdc-tables/{id}', ids: (f) => ({ id: f.a.cdcTable }) },
  { prefix: '/api/v1/exports/{id}', ids: (f) => ({ id: f.a.export, run: f.a.execution }) },
  { prefix: '/api/v1/dw-models/{id}', ids: (f) => ({ id: f.a.dwModel }) },
  { prefix: '/api/v1/dw-models/runs/{id}', ids: (f) => ({ id: f.a.modelRun }) },
  { prefix: '/api/v1/dw-models/schedules/{id}', ids: (f) => ({ id: f.a.modelSchedule }) },
  { prefix: '/api/v1/ai-providers/{id}', ids: (f) => ({ id: f.a.aiProvider }) },
  { prefix: '/api/v1/streams/{id}', ids: (f) => ({ id: f.a.stream, dead_letter_id: '1' }) },
  { prefix: '/api/v1/notification-configs/{id}', ids: (f) => ({ id: f.a.notificationConfig }) },
  { prefix: '/api/v1/alert-rules/{id}', ids: (f) => ({ id: f.a.alertRule }) },
  // Another user's own setting: not found for the caller.
  { prefix: '/api/v1/notification-settings/{id}', ids: (f) => ({ id: f.a.notificationSetting }) },
  { prefix: '/api/v1/file-ingestions/{id}', ids: (f) => ({ id: f.a.fileIngestion, file_id: f.a.ingestedFile }) },
  { prefix: '/api/v1/inboxes/{id}', ids: (f) => ({ id: f.a.inbox, request_id: f.a.inboxRequest }) },
  { prefix: '/api/v1/email-feeds/{id}', ids: (f) => ({ id: f.a.emailFeed, message_id: FAKE_ID }) },
  { prefix: '/api/v1/retention-policies/{id}', ids: (f) => ({ id: f.a.retentionPolicy }) },
  { prefix: '/api/v1/masking-policies/{id}', ids: (f) => ({ id: f.a.maskingPolicy }) },
  // Instance objects: administrators only, whatever the id.
  { prefix: '/api/v1/users/{id}', ids: (f) => ({ id: f.ownerA.id }) },
  { prefix: '/api/v1/admin/roles/{id}', ids: () => ({ id: FAKE_ID }) },
  { prefix: '/api/v1/sso/providers/{id}', ids: () => ({ id: FAKE_ID }) },
  { prefix: '/api/v1/ldap/providers/{id}', ids: () => ({ id: FAKE_ID }) },
  { prefix: '/api/v1/audit-forwarder-settings/{id}', ids: () => ({ id: FAKE_ID }) },
];

/** A body the route's schema accepts (so the answer is about access, not validation), with a real change in it. */
function sample(schema: Schema | undefined, f: TwoProjects, top = true): unknown {
  if (!schema) return undefined;
  const alternative = schema.anyOf ?? schema.oneOf;
  if (alternative) return sample(alternative.find((s) => s.type !== 'null') ?? alternative[0], f, top);
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case 'object': {
      const properties = schema.properties ?? {};
      const names = new Set(schema.required ?? []);
      if (top) for (const change of ['name', 'description', 'role']) if (properties[change]) names.add(change);
      for (const name of Object.keys(properties)) if (names.size < (schema.minProperties ?? 0)) names.add(name);
      return Object.fromEntries(
        [...names].map((name) => [name, name === 'role' ? 'owner' : sample(properties[name], f, false)]),
      );
    }
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items, f, false));
    case 'string':
      if (schema.format === 'uuid') return f.a.connector;
      if (schema.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
      if (schema.format === 'email') return 'changed-by-b@example.com';
      if (schema.format === 'uri') return 'https://example.com';
      return 'changed by B'.padEnd(schema.minLength ?? 0, '!');
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** Everything the owner of A can see of A's resources, and row counts of the tables they live in. */
async function snapshot(t: TestApp, f: TwoProjects, owner: string): Promise<unknown> {
  const a: Resources = f.a;
  const paths = [
    `/api/v1/admin/projects/${a.project}`,
    `/api/v1/admin/projects/${a.project}/environments`,
    `/api/v1/admin/projects/${a.project}/members`,
    `/api/v1/data-connectors/${a.connector}`,
    `/api/v1/data-connectors/${a.destination}`,
    `/api/v1/catalog/datasets/${a.dataset}`,
    `/api/v1/etl/pipelines/${a.pipeline}`,
    `/api/v1/etl/pipelines/${a.pipeline}/state`,
    `/api/v1/etl/schedules/${a.schedule}`,
    `/api/v1/cdc-tables/${a.cdcTable}`,
    `/api/v1/cdc-tables/${a.cdcTable}/lag-history`,
    `/api/v1/streams/${a.stream}`,
    `/api/v1/streams/${a.stream}/lag-history`,
    `/api/v1/streams/${a.stream}/runs`,
    `/api/v1/streams/${a.stream}/dead-letters`,
    `/api/v1/file-ingestions/${a.fileIngestion}`,
    `/api/v1/file-ingestions/${a.fileIngestion}/files`,
    `/api/v1/inboxes/${a.inbox}`,
    `/api/v1/inboxes/${a.inbox}/requests`,
    `/api/v1/email-feeds/${a.emailFeed}`,
    `/api/v1/email-feeds/${a.emailFeed}/messages`,
    `/api/v1/executions/${a.execution}`,
    `/api/v1/executions/${a.execution}/logs`,
    `/api/v1/exports/${a.export}`,
    `/api/v1/exports/${a.export}/runs`,
    `/api/v1/dw-models/${a.dwModel}`,
    `/api/v1/dw-models/runs/${a.modelRun}`,
    `/api/v1/dw-models/schedules/${a.modelSchedule}`,
    `/api/v1/ai-providers/${a.aiProvider}`,
    `/api/v1/ai-providers/${a.aiProvider}/usage`,
    `/api/v1/notification-configs/${a.notificationConfig}`,
    `/api/v1/alert-rules/${a.alertRule}`,
    `/api/v1/retention-policies/${a.retentionPolicy}`,
    `/api/v1/retention-policies/${a.retentionPolicy}/sweeps`,
    `/api/v1/masking-policies/${a.maskingPolicy}`,
    `/api/v1/users/${f.ownerA.id}`,
  ];
  const views: Record<string, unknown> = {};
  for (const path of paths) {
    const result = await api(t, 'GET', path, { token: owner });
    views[path] = { status: result.status, body: result.body };
  }
  const client = new pg.Client({ connectionString: t.config.db.url! });
  await client.connect();
  try {
    const tables = [
      'projects',
      'project_members',
      'environments',
      'users',
      'roles',
      'api_tokens',
      'data_connectors',
      'catalog_datasets',
      'etl_pipelines',
      'etl_schedules',
      'cdc_tables',
      'exports',
      'file_ingestions',
      'file_ingestion_files',
      'inboxes',
      'inbox_requests',
      'email_feeds',
      'email_feed_messages',
      'executions',
      'jobs',
      'identity_providers',
      'dw_models',
      'dw_model_schedules',
      'catalog_column_notes',
      'ai_providers',
      'ai_usage',
      'retention_policies',
      'retention_sweeps',
      'masking_policies',
    ];
    const counts = await client.query(
      `select ${tables.map((name) => `(select count(*)::int from ${name}) as ${name}`).join(', ')}`,
    );
    views['rows'] = counts.rows[0];
  } finally {
    await client.end();
  }
  return views;
}

describe('the IDOR walk over /openapi.json', () => {
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

  it('an editor of project B gets 403 or 404 on every operation with an id of project A, and nothing changes', async () => {
    const document = (await (await fetch(`${t.url}/openapi.json`)).json()) as OpenApi;
    const owner = fixture.ownerA.session.accessToken;
    const token = fixture.editorB.session.accessToken;
    const unclassified: string[] = [];
    let walked = 0;
    let before = await snapshot(t, fixture, owner);
    for (const [path, item] of Object.entries(document.paths)) {
      if (!path.includes('{')) continue;
      for (const [lower, operation] of Object.entries(item)) {
        const method = lower.toUpperCase();
        const name = `${method} ${path}`;
        if (OUTSIDE.has(name)) continue;
        const kind = CLASSES.find((c) => path === c.prefix || path.startsWith(`${c.prefix}/`));
        if (!kind) {
          unclassified.push(name);
          continue;
        }
        const ids = kind.ids(fixture, method);
        const url = path.replace(/\{([^}]+)\}/g, (_, param: string) => {
          if (!ids[param]) throw new Error(`${name}: no value for {${param}}`);
          return ids[param];
        });
        const body = sample(operation.requestBody?.content?.['application/json']?.schema, fixture);
        const result = await api(t, method, url, { token, body, headers: { accept: 'application/json' } });
        expect([403, 404], `${name} answered ${result.status} ${JSON.stringify(result.body)}`).toContain(result.status);
        const after = await snapshot(t, fixture, owner);
        expect(after, `${name} changed project A`).toEqual(before);
        before = after;
        walked += 1;
      }
    }
    expect(
      unclassified,
      'operations with an id that the walk does not know: classify them in CLASSES or OUTSIDE',
    ).toEqual([]);
    expect(walked).toBeGreaterThan(40);
  });

  it('a request in project B that names project A’s resources in its body is refused, and nothing is created', async () => {
    const token = fixture.editorB.session.accessToken;
    const a = fixture.a;
    const b = fixture.b.project;
    const owner = fixture.ownerA.session.accessToken;
    const before = await snapshot(t, fixture, owner);
    const attempts: Array<[string, string, Record<string, unknown>]> = [
      [
        'POST',
        '/api/v1/etl/pipelines',
        {
          project_id: b,
          name: 'reads A',
          sources: [{ connector_id: a.connector, dataset: 'items' }],
          destination: { connector_id: a.destination, table: 'stolen', mode: 'overwrite' },
        },
      ],
      [
        'POST',
        '/api/v1/executions',
        {
          kind: 'sync',
          project_id: b,
          source_connector_id: a.connector,
          destination_connector_id: a.destination,
          streams: [{ name: 'items', mode: 'append' }],
        },
      ],
      ['POST', '/api/v1/etl/schedules', { pipeline_id: a.pipeline, interval_seconds: 60 }],
      [
        'POST',
        '/api/v1/cdc-tables',
        {
          project_id: b,
          name: 'reads A',
          source: { connector_id: a.connector, table: 'items' },
          destination: { connector_id: a.destination, table: 'stolen' },
          mode: 'mirror',
          start: false,
        },
      ],
      [
        'POST',
        '/api/v1/streams',
        {
          project_id: b,
          name: 'reads A',
          source_connector_id: a.connector,
          source: { name: 'ITEMS' },
          destination_connector_id: a.destination,
          table: 'stolen',
        },
      ],
      [
        'POST',
        '/api/v1/data-connectors',
        {
          project_id: b,
          name: 'in A’s environment',
          kind: 'postgres',
          environment_id: a.environment,
          config: { host: '127.0.0.1', port: 5432, database: 'x', user: 'x', password: 'x' },
        },
      ],
    ];
    for (const [method, path, body] of attempts) {
      const result = await api(t, method, path, { token, body });
      expect([403, 404, 422], `${method} ${path} answered ${result.status} ${JSON.stringify(result.body)}`).toContain(
        result.status,
      );
    }
    expect(await snapshot(t, fixture, owner)).toEqual(before);
    const inB = await api<{ items: unknown[] }>(t, 'GET', `/api/v1/etl/pipelines?project_id=${b}`, { token });
    expect(inB.body.items).toEqual([]);
  });

  it('the walk is not vacuous: the owner of A is allowed what B’s editor is refused', async () => {
    const owner = fixture.ownerA.session.accessToken;
    for (const path of [
      `/api/v1/executions/${fixture.a.execution}`,
      `/api/v1/catalog/datasets/${fixture.a.dataset}`,
      `/api/v1/cdc-tables/${fixture.a.cdcTable}`,
      `/api/v1/streams/${fixture.a.stream}`,
      `/api/v1/etl/schedules/${fixture.a.schedule}`,
    ]) {
      expect((await api(t, 'GET', path, { token: owner })).status, path).toBe(200);
    }
  });
});
