/**
 * Two projects for tenant-isolation tests: project A holds one of every project resource (created by
 * A's owner), project B has an editor who is not an administrator and no member of A.
 */
import type { TestApp } from '../support/app.js';
import { api, createProject, createUser } from '../support/http.js';
import { createPostgresConnector, query } from '../support/runs.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';

export type User = Awaited<ReturnType<typeof createUser>>;

export async function addMember(
  t: TestApp,
  admin: string,
  projectId: string,
  userId: string,
  role: string,
  environmentIds?: string[],
) {
  const put = await api(t, 'PUT', `/api/v1/admin/projects/${projectId}/members/${userId}`, {
    token: admin,
    body: { role, environment_ids: environmentIds },
  });
  if (put.status !== 200) throw new Error(`membership failed: ${put.status} ${JSON.stringify(put.body)}`);
}

/** A non-admin user holding a role in a project. */
export async function memberOf(
  t: TestApp,
  admin: string,
  projectId: string,
  role: string,
  environmentIds?: string[],
): Promise<User> {
  const user = await createUser(t, admin);
  await addMember(t, admin, projectId, user.id, role, environmentIds);
  return user;
}

/** A custom role with exactly these capabilities. */
export async function customRole(t: TestApp, admin: string, capabilities: string[]): Promise<string> {
  const name = `role-${Math.random().toString(36).slice(2, 10)}`;
  const created = await api(t, 'POST', '/api/v1/admin/roles', { token: admin, body: { name, capabilities } });
  if (created.status !== 201) throw new Error(`role failed: ${created.status} ${JSON.stringify(created.body)}`);
  return name;
}

async function created(t: TestApp, token: string, path: string, body: Record<string, unknown>): Promise<string> {
  const result = await api<{ id: string }>(t, 'POST', path, { token, body });
  if (result.status !== 201) throw new Error(`POST ${path} failed: ${result.status} ${JSON.stringify(result.body)}`);
  return result.body.id;
}

export interface ProjectResources {
  project: string;
  environment: string;
  connector: string;
  destination: string;
  dataset: string;
  pipeline: string;
  schedule: string;
  cdcTable: string;
  stream: string;
  execution: string;
  export: string;
  dwModel: string;
  /** A model run (queued: no worker). */
  modelRun: string;
  modelSchedule: string;
  aiProvider: string;
  notificationConfig: string;
  alertRule: string;
  /** The owner's own notification setting for the project. */
  notificationSetting: string;
  fileIngestion: string;
  ingestedFile: string;
  inbox: string;
  inboxRequest: string;
  emailFeed: string;
  retentionPolicy: string;
  maskingPolicy: string;
}

export interface TwoProjects {
  a: ProjectResources;
  b: { project: string };
  ownerA: User;
  editorB: User;
  database: TestDatabase;
  close(): Promise<void>;
}

/** Project A with one of each resource (no worker runs them: executions stay queued), and project B with an editor. */
export async function twoProjects(t: TestApp, admin: string): Promise<TwoProjects> {
  const projectA = (await createProject(t, admin)).id;
  const projectB = (await createProject(t, admin)).id;
  const ownerA = await memberOf(t, admin, projectA, 'owner');
  const editorB = await memberOf(t, admin, projectB, 'editor');
  const token = ownerA.session.accessToken;

  const database = await createTestDatabase();
  await query(database.url, 'create table items (id bigint primary key, name text)');
  await query(database.url, "insert into items select g, 'item ' || g from generate_series(1, 20) g");

  const environment = await created(t, token, `/api/v1/admin/projects/${projectA}/environments`, {
    name: 'production',
  });
  const connector = await createPostgresConnector(t, token, projectA, 'source of A', database.name);
  const destination = await createPostgresConnector(t, token, projectA, 'destination of A', database.name);
  const discovered = await api(t, 'POST', `/api/v1/data-connectors/${connector}/discover`, { token });
  if (discovered.status !== 200)
    throw new Error(`discover failed: ${discovered.status} ${JSON.stringify(discovered.body)}`);
  const datasets = await api<{ items: Array<{ id: string; name: string }> }>(
    t,
    'GET',
    `/api/v1/catalog/datasets?connector_id=${connector}`,
    { token },
  );
  const dataset = datasets.body.items.find((d) => d.name === 'items')!.id;
  const pipeline = await created(t, token, '/api/v1/etl/pipelines', {
    project_id: projectA,
    name: 'copy items',
    sources: [{ connector_id: connector, dataset: 'items' }],
    destination: { connector_id: destination, table: 'items_copy', mode: 'overwrite' },
  });
  const schedule = await created(t, token, '/api/v1/etl/schedules', {
    pipeline_id: pipeline,
    interval_seconds: 3600,
    paused: true,
  });
  const cdcTable = await created(t, token, '/api/v1/cdc-tables', {
    project_id: projectA,
    name: 'items mirror',
    source: { connector_id: connector, table: 'items' },
    destination: { connector_id: destination, table: 'items_mirror' },
    mode: 'mirror',
    start: false,
  });
  const broker = await created(t, token, '/api/v1/data-connectors', {
    project_id: projectA,
    name: 'broker of A',
    kind: 'nats',
    config: { host: '127.0.0.1' },
  });
  const stream = await created(t, token, '/api/v1/streams', {
    project_id: projectA,
    name: 'items stream',
    source_connector_id: broker,
    source: { name: 'ITEMS' },
    destination_connector_id: destination,
    table: 'items_stream',
  });
  const execution = await created(t, token, '/api/v1/executions', {
    kind: 'sync',
    project_id: projectA,
    source_connector_id: connector,
    destination_connector_id: destination,
    streams: [{ name: 'items', destination_name: 'items_sync', mode: 'append' }],
  });
  const exported = await created(t, token, '/api/v1/exports', {
    project_id: projectA,
    name: 'items to a file',
    source: { kind: 'connector', connector_id: connector, dataset: 'items' },
    destination: { kind: 'files' },
  });
  const dwModel = await created(t, token, '/api/v1/dw-models', {
    project_id: projectA,
    name: 'model_of_a',
    sql: 'select 1 as one',
    materialization: 'view',
  });
  const modelRun = await created(t, token, '/api/v1/dw-models/run', { project_id: projectA, select: ['model_of_a'] });
  const modelSchedule = await created(t, token, '/api/v1/dw-models/schedules', {
    project_id: projectA,
    name: 'nightly of A',
    select: ['model_of_a'],
    cron: '0 2 * * *',
  });
  const aiProvider = await created(t, token, '/api/v1/ai-providers', {
    project_id: projectA,
    name: 'assistant of A',
    type: 'openai_compatible',
    base_url: 'http://127.0.0.1:9/v1',
    model: 'any',
    api_key: 'key-of-project-a',
  });
  const notificationConfig = await created(t, token, '/api/v1/notification-configs', {
    project_id: projectA,
    name: 'alerts of A',
    type: 'webhook',
    config: { url: 'http://127.0.0.1:9/alerts' },
  });
  const alertRule = await created(t, token, '/api/v1/alert-rules', {
    project_id: projectA,
    name: 'failures of A',
    kind: 'run_failed',
    channel_ids: [notificationConfig],
  });
  const notificationSetting = (
    await api<{ id: string }>(t, 'PUT', '/api/v1/notification-settings', { token, body: { project_id: projectA } })
  ).body.id;
  const fileIngestion = await created(t, token, '/api/v1/file-ingestions', {
    project_id: projectA,
    name: 'dropped items',
    source: { kind: 'upload' },
    format: { type: 'csv' },
    destination: { connector_id: destination, table: 'items_dropped', mode: 'append' },
  });
  const form = new FormData();
  form.append('file', new Blob(['id,name\n1,one\n']), 'items.csv');
  const uploaded = await fetch(`${t.url}/api/v1/file-ingestions/${fileIngestion}/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (uploaded.status !== 201) throw new Error(`upload failed: ${uploaded.status} ${await uploaded.text()}`);
  const ingestedFile = ((await uploaded.json()) as { id: string }).id;
  const inboxCreated = await api<{ id: string; secret: string }>(t, 'POST', '/api/v1/inboxes', {
    token,
    body: {
      project_id: projectA,
      name: 'orders inbox',
      auth: { kind: 'bearer' },
      destination: { connector_id: destination, table: 'items_received', mode: 'append' },
    },
  });
  if (inboxCreated.status !== 201) throw new Error(`inbox failed: ${JSON.stringify(inboxCreated.body)}`);
  const inbox = inboxCreated.body.id;
  const received = await fetch(`${t.url}/api/v1/inboxes/${inbox}/receive`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${inboxCreated.body.secret}` },
    body: JSON.stringify({ id: 1 }),
  });
  if (received.status !== 202) throw new Error(`receive failed: ${received.status} ${await received.text()}`);
  const inboxRequest = ((await received.json()) as { id: string }).id;
  // Created without reaching a mailbox (nothing listens on port 9): its runs would only fail.
  const emailFeed = await created(t, token, '/api/v1/email-feeds', {
    project_id: projectA,
    name: 'reports by mail',
    host: '127.0.0.1',
    port: 9,
    tls: false,
    username: 'reports',
    password: 'mail-secret',
    load: { kind: 'attachments' },
    destination: { connector_id: destination, table: 'items_mailed', mode: 'append' },
  });
  const retentionPolicy = await created(t, token, '/api/v1/retention-policies', {
    project_id: projectA,
    name: 'history of A',
    target: { kind: 'execution_history' },
    max_age: '30d',
  });
  const maskingPolicy = await created(t, token, '/api/v1/masking-policies', {
    project_id: projectA,
    name: 'e-mails of A',
    method: 'hash',
    columns: ['email'],
  });
  return {
    a: {
      project: projectA,
      environment,
      connector,
      destination,
      dataset,
      pipeline,
      schedule,
      cdcTable,
      execution,
      export: exported,
      dwModel,
      modelRun,
      modelSchedule,
      aiProvider,
      stream,
      notificationConfig,
      alertRule,
      notificationSetting,
      fileIngestion,
      ingestedFile,
      inbox,
      inboxRequest,
      emailFeed,
      retentionPolicy,
      maskingPolicy,
    },
    b: { project: projectB },
    ownerA,
    editorB,
    database,
    close: () => database.drop(),
  };
}
