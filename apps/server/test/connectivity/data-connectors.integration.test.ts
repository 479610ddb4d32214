import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectSchemaName } from '../../src/areas/connectivity/warehouse.js';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser } from '../support/http.js';
import { TEST_DATABASE_URL, createTestDatabase, type TestDatabase } from '../support/services.js';

const run = promisify(execFile);
const SECRET = 'a-database-password-that-must-stay-secret';

describe('data connectors', () => {
  let t: TestApp;
  let admin: string;
  let source: TestDatabase;
  let pgConfig: Record<string, unknown>;
  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS });
    admin = (await adminLogin(t)).accessToken;
    source = await createTestDatabase();
    const url = new URL(TEST_DATABASE_URL);
    pgConfig = {
      host: url.hostname,
      port: Number(url.port || 5432),
      database: source.name,
      user: decodeURIComponent(url.username),
      password: SECRET,
    };
    const client = new pg.Client({ connectionString: source.url });
    await client.connect();
    await client.query(
      'create table customers (id bigint primary key, name text not null, balance numeric(12,2), joined timestamptz)',
    );
    await client.query('create table orders (id int primary key, customer_id bigint, total numeric)');
    await client.end();
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
  });

  const create = (body: Record<string, unknown>, token = admin) =>
    api<Record<string, unknown>>(t, 'POST', '/api/v1/data-connectors', { token, body });

  it('lists the kinds with the JSON Schema of their configuration, secrets marked', async () => {
    const kinds = await api<{
      items: Array<{
        kind: string;
        spec: { properties: Record<string, Record<string, unknown>> };
        secret_fields: string[];
      }>;
    }>(t, 'GET', '/api/v1/data-connectors/kinds', { token: admin });
    const postgres = kinds.body.items.find((k) => k.kind === 'postgres')!;
    expect(Object.keys(postgres.spec.properties).sort()).toEqual([
      'database',
      'host',
      'password',
      'port',
      'schema',
      'ssl',
      'user',
    ]);
    expect(postgres.spec.properties['password']!['x-secret']).toBe(true);
    expect(postgres.secret_fields).toEqual(['password']);
  });

  it('creates a connector: secrets write-only, encrypted at rest, never in a response or a log line', async () => {
    const project = await createProject(t, admin);
    const created = await create({
      project_id: project.id,
      name: 'warehouse source',
      kind: 'postgres',
      config: pgConfig,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'warehouse source',
      kind: 'postgres',
      project_id: project.id,
      environment_id: null,
      secrets_set: ['password'],
    });
    expect(created.body['config']).toEqual({
      host: pgConfig['host'],
      port: pgConfig['port'],
      database: source.name,
      user: pgConfig['user'],
      ssl: false,
      schema: 'public',
    });
    const id = created.body['id'] as string;

    const reads = [
      await api(t, 'GET', `/api/v1/data-connectors/${id}`, { token: admin }),
      await api(t, 'GET', '/api/v1/data-connectors', { token: admin }),
      await api(t, 'GET', `/api/v1/data-connectors?project_id=${project.id}`, { token: admin }),
      await api(t, 'PATCH', `/api/v1/data-connectors/${id}`, {
        token: admin,
        body: { config: { host: pgConfig['host'] } },
      }),
      await api(t, 'POST', `/api/v1/data-connectors/${id}/test`, { token: admin }),
    ];
    for (const read of reads) expect(JSON.stringify(read.body)).not.toContain(SECRET);
    expect(t.logText()).not.toContain(SECRET);

    const { stdout: dump } = await run('pg_dump', ['--data-only', '--table=data_connectors', t.config.db.url!]);
    expect(dump).toContain('v1:'); // the sealed value is there
    expect(dump).not.toContain(SECRET);
  });

  it('keeps an omitted secret on PATCH, replaces a given one, and tests with the stored value', async () => {
    const project = await createProject(t, admin);
    const created = await create({ project_id: project.id, name: 'to patch', kind: 'postgres', config: pgConfig });
    const id = created.body['id'] as string;
    const renamed = await api(t, 'PATCH', `/api/v1/data-connectors/${id}`, {
      token: admin,
      body: { name: 'patched', config: { schema: 'public' } },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'patched', secrets_set: ['password'] });
    expect((await api(t, 'POST', `/api/v1/data-connectors/${id}/test`, { token: admin })).body).toMatchObject({
      ok: true,
    });

    // Point it at a role that does not exist: the test names the cause.
    await api(t, 'PATCH', `/api/v1/data-connectors/${id}`, {
      token: admin,
      body: { config: { user: 'no_such_role_here' } },
    });
    const failed = await api(t, 'POST', `/api/v1/data-connectors/${id}/test`, { token: admin });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ ok: false, code: 'auth_failed' });
    await api(t, 'PATCH', `/api/v1/data-connectors/${id}`, {
      token: admin,
      body: { config: { user: pgConfig['user'], port: 1 } },
    });
    expect((await api(t, 'POST', `/api/v1/data-connectors/${id}/test`, { token: admin })).body).toMatchObject({
      ok: false,
      code: 'unreachable',
    });

    const cleared = await api(t, 'PATCH', `/api/v1/data-connectors/${id}`, {
      token: admin,
      body: { config: { password: null } },
    });
    expect(cleared.body['secrets_set']).toEqual([]);
  });

  it('refuses bad configurations with 422 naming the field, duplicates with 409', async () => {
    const project = await createProject(t, admin);
    const missing = await create({
      project_id: project.id,
      name: 'bad',
      kind: 'postgres',
      config: { host: 'db', port: 'five' },
    });
    expect(missing.status).toBe(422);
    expect((missing.body['errors'] as Array<{ path: string }>).map((e) => e.path).sort()).toEqual([
      'config.database',
      'config.port',
      'config.user',
    ]);
    const extra = await create({
      project_id: project.id,
      name: 'bad',
      kind: 'postgres',
      config: { ...pgConfig, colour: 'blue' },
    });
    expect(extra.status).toBe(422);
    expect(extra.body['errors']).toEqual([expect.objectContaining({ path: 'config.colour' })]);
    const kind = await create({ project_id: project.id, name: 'bad', kind: 'oracle', config: {} });
    expect(kind.status).toBe(422);
    expect(kind.body['errors']).toEqual([expect.objectContaining({ path: 'kind' })]);
    expect((await create({ project_id: project.id, name: 'dup', kind: 'postgres', config: pgConfig })).status).toBe(
      201,
    );
    expect((await create({ project_id: project.id, name: 'DUP', kind: 'postgres', config: pgConfig })).status).toBe(
      409,
    );
    const other = await createProject(t, admin);
    expect((await create({ project_id: other.id, name: 'dup', kind: 'postgres', config: pgConfig })).status).toBe(201);
    const env = await api<{ id: string }>(t, 'POST', `/api/v1/admin/projects/${other.id}/environments`, {
      token: admin,
      body: { name: 'prod' },
    });
    expect(
      (
        await create({
          project_id: project.id,
          environment_id: env.body.id,
          name: 'wrong env',
          kind: 'postgres',
          config: pgConfig,
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await create({
          project_id: other.id,
          environment_id: env.body.id,
          name: 'right env',
          kind: 'postgres',
          config: pgConfig,
        })
      ).status,
    ).toBe(201);
  });

  it('discovers datasets into the catalog', async () => {
    const project = await createProject(t, admin);
    const created = await create({ project_id: project.id, name: 'discoverable', kind: 'postgres', config: pgConfig });
    const id = created.body['id'] as string;
    const discovered = await api<{ datasets: Array<{ name: string; columns: number; primary_key: string[] }> }>(
      t,
      'POST',
      `/api/v1/data-connectors/${id}/discover`,
      { token: admin },
    );
    expect(discovered.status).toBe(200);
    expect(discovered.body.datasets.map((d) => d.name).sort()).toEqual(['customers', 'orders']);

    const list = await api<{ items: Array<{ id: string; name: string; primary_key: string[] }> }>(
      t,
      'GET',
      `/api/v1/catalog/datasets?connector_id=${id}`,
      { token: admin },
    );
    const customers = list.body.items.find((d) => d.name === 'customers')!;
    expect(customers.primary_key).toEqual(['id']);
    const detail = await api<{ columns: Array<{ name: string; type: string; source_type: string }> }>(
      t,
      'GET',
      `/api/v1/catalog/datasets/${customers.id}`,
      { token: admin },
    );
    expect(detail.body.columns.map((c) => [c.name, c.type])).toEqual([
      ['id', 'int64'],
      ['name', 'string'],
      ['balance', 'decimal'],
      ['joined', 'timestamptz'],
    ]);

    // A second discovery after the source changed replaces what the catalog knew.
    const client = new pg.Client({ connectionString: source.url });
    await client.connect();
    await client.query('create table refunds (id int primary key)');
    await client.end();
    await api(t, 'POST', `/api/v1/data-connectors/${id}/discover`, { token: admin });
    const again = await api<{ items: Array<{ name: string }> }>(
      t,
      'GET',
      `/api/v1/catalog/datasets?connector_id=${id}`,
      { token: admin },
    );
    expect(again.body.items.map((d) => d.name).sort()).toEqual(['customers', 'orders', 'refunds']);

    await api(t, 'PATCH', `/api/v1/data-connectors/${id}`, { token: admin, body: { config: { port: 1 } } });
    const failing = await api(t, 'POST', `/api/v1/data-connectors/${id}/discover`, { token: admin });
    expect(failing.status).toBe(422);
    expect(failing.body).toMatchObject({ code: 'unreachable' });
  });

  it('offers the built-in warehouse: a database of the framework server, no credentials to give', async () => {
    const project = await createProject(t, admin);
    const created = await create({
      project_id: project.id,
      name: 'warehouse',
      kind: 'warehouse',
      config: { schema: 'analytics' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ kind: 'warehouse', config: { schema: 'analytics' }, secrets_set: [] });
    expect(
      (await create({ project_id: project.id, name: 'bad', kind: 'warehouse', config: { schema: 'Robert"); drop' } }))
        .status,
    ).toBe(422);
    expect(
      (
        await create({
          project_id: project.id,
          name: 'sneaky',
          kind: 'warehouse',
          config: { connection: { host: 'elsewhere' } },
        })
      ).status,
    ).toBe(422);
    const id = created.body['id'] as string;

    // The first use creates the project's own schema "analytics" in the warehouse database, next to the framework database.
    expect((await api(t, 'POST', `/api/v1/data-connectors/${id}/test`, { token: admin })).body).toMatchObject({
      ok: true,
    });
    const schema = projectSchemaName(project.id, 'analytics');
    const client = new pg.Client({
      connectionString: t.config.db.url!.replace(/\/([^/?]+)(\?.*)?$/, '/$1_warehouse$2'),
    });
    await client.connect();
    const owner = (
      await client.query('select pg_get_userbyid(nspowner) as owner from pg_namespace where nspname = $1', [schema])
    ).rows[0].owner as string;
    await client.query(`create table "${schema}".daily_sales (day date primary key, total numeric(14,2))`);
    await client.query(`alter table "${schema}".daily_sales owner to "${owner}"`);
    await client.end();

    const discovered = await api<{ datasets: Array<{ namespace: string; name: string }> }>(
      t,
      'POST',
      `/api/v1/data-connectors/${id}/discover`,
      { token: admin },
    );
    expect(discovered.body.datasets).toEqual([
      expect.objectContaining({ namespace: schema, name: 'daily_sales', primary_key: ['day'] }),
    ]);
  });

  it("confines files connectors to their project's folder of the files root", async () => {
    const project = await createProject(t, admin);
    const outside = await create({
      project_id: project.id,
      name: 'etc',
      kind: 'files',
      config: { path: '/etc', format: 'csv' },
    });
    expect(outside.status).toBe(422);
    expect(outside.body['errors']).toEqual([expect.objectContaining({ path: 'config.path' })]);
    const escaping = await create({
      project_id: project.id,
      name: 'up',
      kind: 'files',
      config: { path: '../..', format: 'csv' },
    });
    expect(escaping.status).toBe(422);
    const inside = await create({
      project_id: project.id,
      name: 'exports',
      kind: 'files',
      config: { path: 'exports', format: 'csv' },
    });
    expect(inside.status).toBe(201);
    expect(inside.body['config']).toMatchObject({
      path: `${t.config.dataDir.replace(/\/$/, '')}/files/${project.id}/exports`,
    });
  });

  it('guards connectors with connector:read and connector:write in their project', async () => {
    const project = await createProject(t, admin);
    const created = await create({ project_id: project.id, name: 'guarded', kind: 'postgres', config: pgConfig });
    const id = created.body['id'] as string;
    const viewer = await createUser(t, admin);
    const outsider = await createUser(t, admin);
    await api(t, 'PUT', `/api/v1/admin/projects/${project.id}/members/${viewer.id}`, {
      token: admin,
      body: { role: 'viewer' },
    });

    expect((await api(t, 'GET', `/api/v1/data-connectors/${id}`, { token: viewer.session.accessToken })).status).toBe(
      200,
    );
    const refused = await api(t, 'PATCH', `/api/v1/data-connectors/${id}`, {
      token: viewer.session.accessToken,
      body: { name: 'x' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      detail: 'permission_denied',
      reason: 'missing_capability',
      required_capability: 'connector:write',
      project_id: project.id,
    });
    expect(
      (
        await create(
          { project_id: project.id, name: 'by viewer', kind: 'postgres', config: pgConfig },
          viewer.session.accessToken,
        )
      ).status,
    ).toBe(403);
    expect(
      (await api(t, 'GET', `/api/v1/data-connectors/${id}`, { token: outsider.session.accessToken })).body,
    ).toMatchObject({ reason: 'not_a_member' });
    const outsiderList = await api<{ items: unknown[] }>(t, 'GET', '/api/v1/data-connectors', {
      token: outsider.session.accessToken,
    });
    expect(outsiderList.body.items).toEqual([]);
    const viewerList = await api<{ items: Array<{ id: string }> }>(t, 'GET', '/api/v1/data-connectors', {
      token: viewer.session.accessToken,
    });
    expect(viewerList.body.items.map((c) => c.id)).toEqual([id]);
    expect((await api(t, 'DELETE', `/api/v1/data-connectors/${id}`, { token: admin })).status).toBe(204);
    expect((await api(t, 'GET', `/api/v1/data-connectors/${id}`, { token: admin })).status).toBe(404);
  });
});
