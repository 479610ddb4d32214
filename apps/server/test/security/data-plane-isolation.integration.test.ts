/**
 * The data plane's tenant boundary: a project's members reach its own warehouse schemas and its own
 * folder of the files root, as the project's own PostgreSQL role, never the service's login (which
 * on this test server is the superuser `postgres`).
 */
import { mkdir, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectSchemaName } from '../../src/areas/connectivity/warehouse.js';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser } from '../support/http.js';
import { query } from '../support/runs.js';
import { TEST_DATABASE_URL, createTestDatabase, dropWarehouseRoles, uniqueName } from '../support/services.js';

type Preview = { rows: Array<Record<string, unknown>> };

describe('tenant isolation of the data plane', () => {
  let t: TestApp;
  let admin: string;
  let projectA: string;
  let projectB: string;
  let editorA: string;
  let editorB: string;
  let warehouseUrl: string;

  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS });
    admin = (await adminLogin(t)).accessToken;
    projectA = (await createProject(t, admin)).id;
    projectB = (await createProject(t, admin)).id;
    const a = await createUser(t, admin);
    const b = await createUser(t, admin);
    await api(t, 'PUT', `/api/v1/admin/projects/${projectA}/members/${a.id}`, {
      token: admin,
      body: { role: 'editor' },
    });
    await api(t, 'PUT', `/api/v1/admin/projects/${projectB}/members/${b.id}`, {
      token: admin,
      body: { role: 'editor' },
    });
    editorA = a.session.accessToken;
    editorB = b.session.accessToken;
    warehouseUrl = t.config.db.url!.replace(/\/([^/?]+)(\?.*)?$/, '/$1_warehouse$2');
  });
  afterAll(async () => {
    await t?.close();
  });

  const connector = async (token: string, projectId: string, kind: string, config: Record<string, unknown>) => {
    const created = await api<{ id: string }>(t, 'POST', '/api/v1/data-connectors', {
      token,
      body: { project_id: projectId, name: uniqueName(kind), kind, config },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id;
  };
  /** Previews a pipeline whose one source is `sql` on `connectorId`, as `token`. */
  const previewQuery = async (token: string, projectId: string, connectorId: string, sql: string) => {
    const pipeline = await api<{ id: string }>(t, 'POST', '/api/v1/etl/pipelines', {
      token,
      body: {
        project_id: projectId,
        name: uniqueName('probe'),
        sources: [{ name: 'probe', connector_id: connectorId, query: sql }],
        destination: { connector_id: connectorId, table: 'probe_out', mode: 'append' },
      },
    });
    expect(pipeline.status, JSON.stringify(pipeline.body)).toBe(201);
    return api<Preview>(t, 'POST', `/api/v1/etl/pipelines/${pipeline.body.id}/preview`, { token, body: { limit: 10 } });
  };

  it("runs a project's warehouse SQL as the project's own role: no superuser, no server files, no way back to the service's login", async () => {
    expect(
      (await query(TEST_DATABASE_URL, 'select rolsuper from pg_roles where rolname = current_user')).rows[0].rolsuper,
    ).toBe(true); // the service's login here
    const warehouse = await connector(editorA, projectA, 'warehouse', {});
    const framework = new URL(t.config.db.url!).pathname.slice(1);
    const who = await previewQuery(
      editorA,
      projectA,
      warehouse,
      `select current_user as who, (select rolsuper from pg_roles where rolname = current_user) as superuser,
              has_database_privilege(current_user, '${framework}', 'CONNECT') as framework_connect,
              pg_has_role(current_user, 'pg_read_server_files', 'MEMBER') as reads_files,
              current_setting('statement_timeout') as statement_timeout, current_setting('search_path') as search_path`,
    );
    expect(who.status, JSON.stringify(who.body)).toBe(200);
    const row = who.body.rows[0]!;
    expect(row).toMatchObject({
      superuser: false,
      framework_connect: false,
      reads_files: false,
      statement_timeout: '1h',
      search_path: `"${projectSchemaName(projectA, 'main')}"`,
    });
    const role = String(row['who']);
    expect(role).toMatch(/^svc_[0-9a-f]{8}_[0-9a-f]{16}$/);
    const attributes = await query(
      warehouseUrl,
      'select rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls, rolinherit from pg_roles where rolname = $1',
      [role],
    );
    expect(attributes.rows[0]).toEqual({
      rolsuper: false,
      rolcreatedb: false,
      rolcreaterole: false,
      rolreplication: false,
      rolbypassrls: false,
      rolinherit: false,
    });
    // Its password reached the server only as a SCRAM verifier (statements may be logged there).
    expect(
      (await query(warehouseUrl, 'select rolpassword from pg_authid where rolname = $1', [role])).rows[0].rolpassword,
    ).toMatch(/^SCRAM-SHA-256\$4096:/);

    const attacks = [
      `select pg_read_file('/etc/passwd') as x`,
      `select pg_ls_dir('.') as x`,
      `select set_config('role', 'postgres', false) as x`,
      `select set_config('session_authorization', 'postgres', false) as x`,
      `select lo_import('/etc/passwd') as x`,
      `select count(*) as x from pg_read_binary_file('global/pg_control')`,
    ];
    for (const attack of attacks) {
      const refused = await previewQuery(editorA, projectA, warehouse, attack);
      expect(refused.status, `${attack}: ${JSON.stringify(refused.body)}`).toBe(422);
      expect(JSON.stringify(refused.body), attack).toMatch(/permission denied|must be superuser|not permitted/i);
      expect(JSON.stringify(refused.body), attack).not.toMatch(/root:x:0:0/);
    }
  });

  it("keeps each project's warehouse schemas to that project", async () => {
    const warehouseA = await connector(editorA, projectA, 'warehouse', { schema: 'sales' });
    expect((await api(t, 'POST', `/api/v1/data-connectors/${warehouseA}/test`, { token: editorA })).body).toMatchObject(
      { ok: true },
    );
    const schemaA = projectSchemaName(projectA, 'sales');
    const ownerA = (
      await query(warehouseUrl, 'select pg_get_userbyid(nspowner) as owner from pg_namespace where nspname = $1', [
        schemaA,
      ])
    ).rows[0].owner as string;
    await query(
      warehouseUrl,
      `create table "${schemaA}".secrets (id int primary key, secret text); insert into "${schemaA}".secrets values (1, 'only for A'); alter table "${schemaA}".secrets owner to "${ownerA}"`,
    );
    // A reads its own table, by its plain name too (its schema is the search path).
    const own = await previewQuery(editorA, projectA, warehouseA, 'select secret from secrets');
    expect(own.body.rows).toEqual([{ secret: 'only for A' }]);

    // B names A's schema: in SQL, as a dataset's namespace, or in its connector's configuration.
    const warehouseB = await connector(editorB, projectB, 'warehouse', { schema: 'sales' });
    const bySql = await previewQuery(editorB, projectB, warehouseB, `select * from "${schemaA}".secrets`);
    expect(bySql.status).toBe(422);
    expect(JSON.stringify(bySql.body)).toMatch(/permission denied for schema/);
    const byNamespace = await api<{ id: string }>(t, 'POST', '/api/v1/etl/pipelines', {
      token: editorB,
      body: {
        project_id: projectB,
        name: 'namespace',
        sources: [{ connector_id: warehouseB, namespace: schemaA, dataset: 'secrets' }],
        destination: { connector_id: warehouseB, table: 'copied', mode: 'append' },
      },
    });
    const preview = await api(t, 'POST', `/api/v1/etl/pipelines/${byNamespace.body.id}/preview`, {
      token: editorB,
      body: { limit: 10 },
    });
    expect(preview.status).toBe(422);
    expect(JSON.stringify(preview.body)).not.toContain('only for A');
    const renamed = await connector(editorB, projectB, 'warehouse', { schema: schemaA.slice(0, 45) });
    const discovered = await api<{ datasets: Array<{ namespace: string; name: string }> }>(
      t,
      'POST',
      `/api/v1/data-connectors/${renamed}/discover`,
      { token: editorB },
    );
    expect(discovered.status).toBe(200);
    expect(discovered.body.datasets).toEqual([]);
    for (const config of [
      { tenant: { schema: schemaA } },
      { connection: { user: 'postgres' } },
      { schema: 'Sales"; drop' },
    ]) {
      const refused = await api(t, 'POST', '/api/v1/data-connectors', {
        token: editorB,
        body: { project_id: projectB, name: uniqueName('sneaky'), kind: 'warehouse', config },
      });
      expect(refused.status, JSON.stringify(config)).toBe(422);
    }
    // PostgreSQL itself says no: B's role may not even look into A's schema.
    const roleB = (await previewQuery(editorB, projectB, warehouseB, 'select current_user as who')).body.rows[0]![
      'who'
    ] as string;
    expect(
      (await query(warehouseUrl, `select has_schema_privilege($1, $2, 'USAGE') as usable`, [roleB, schemaA])).rows[0]
        .usable,
    ).toBe(false);
    expect(roleB).not.toBe(ownerA);
  });

  it("confines a project's files connectors to the project's own folder, symbolic links included", async () => {
    const root = path.join(t.config.dataDir, 'files');
    const folderA = path.join(root, projectA);
    const folderB = path.join(root, projectB);
    const filesA = await connector(editorA, projectA, 'files', { path: 'exports', format: 'csv' });
    const detail = await api<{ config: { path: string } }>(t, 'GET', `/api/v1/data-connectors/${filesA}`, {
      token: editorA,
    });
    expect(detail.body.config.path).toBe(path.join(folderA, 'exports'));
    await mkdir(path.join(folderA, 'exports'), { recursive: true });
    await writeFile(path.join(folderA, 'exports', 'secret.csv'), 'id,secret\n1,only for A\n');

    for (const target of [`../${projectA}/exports`, path.join(folderA, 'exports'), '/etc', '../..']) {
      const refused = await api<{ errors: Array<{ path: string }> }>(t, 'POST', '/api/v1/data-connectors', {
        token: editorB,
        body: {
          project_id: projectB,
          name: uniqueName('sneaky'),
          kind: 'files',
          config: { path: target, format: 'csv' },
        },
      });
      expect(refused.status, target).toBe(422);
      expect(refused.body.errors).toEqual([expect.objectContaining({ path: 'config.path' })]);
    }

    // A link in B's folder to A's file or folder is neither listed nor read.
    const filesB = await connector(editorB, projectB, 'files', { path: 'inbox', format: 'csv' });
    await mkdir(path.join(folderB, 'inbox'), { recursive: true });
    await writeFile(path.join(folderB, 'inbox', 'mine.csv'), 'id,value\n1,for B\n');
    await symlink(path.join(folderA, 'exports', 'secret.csv'), path.join(folderB, 'inbox', 'secret.csv'));
    const discovered = await api<{ datasets: Array<{ name: string }> }>(
      t,
      'POST',
      `/api/v1/data-connectors/${filesB}/discover`,
      { token: editorB },
    );
    expect(discovered.status, JSON.stringify(discovered.body)).toBe(200);
    expect(discovered.body.datasets.map((d) => d.name)).toEqual(['mine']);
    const pipeline = await api<{ id: string }>(t, 'POST', '/api/v1/etl/pipelines', {
      token: editorB,
      body: {
        project_id: projectB,
        name: 'follow the link',
        sources: [{ connector_id: filesB, dataset: 'secret' }],
        destination: { connector_id: filesB, table: 'out', mode: 'append' },
      },
    });
    const preview = await api(t, 'POST', `/api/v1/etl/pipelines/${pipeline.body.id}/preview`, {
      token: editorB,
      body: { limit: 10 },
    });
    expect(preview.status).toBe(422);
    expect(JSON.stringify(preview.body)).not.toContain('only for A');

    const linkedFolder = await connector(editorB, projectB, 'files', { path: 'linked', format: 'csv' });
    await symlink(path.join(folderA, 'exports'), path.join(folderB, 'linked'));
    const throughLink = await api<{ ok: boolean }>(t, 'POST', `/api/v1/data-connectors/${linkedFolder}/test`, {
      token: editorB,
    });
    expect(throughLink.body.ok).toBe(false);
    const linkedDiscovery = await api(t, 'POST', `/api/v1/data-connectors/${linkedFolder}/discover`, {
      token: editorB,
    });
    expect(linkedDiscovery.status).toBe(422);
    expect(JSON.stringify(linkedDiscovery.body)).not.toContain('secret');

    // A path stored outside the project's folder (before folders were per project) is refused, not followed.
    await query(
      t.config.db.url!,
      `update data_connectors set config = jsonb_set(config, '{path}', to_jsonb($1::text)) where id = $2`,
      [path.join(folderA, 'exports'), filesB],
    );
    const stale = await api<{ ok: boolean; message: string }>(t, 'POST', `/api/v1/data-connectors/${filesB}/test`, {
      token: editorB,
    });
    expect(stale.body).toMatchObject({ ok: false, message: expect.stringMatching(/outside the project's folder/) });
  });

  it("removes a deleted project's warehouse role, schemas and files with it", async () => {
    const doomed = (await createProject(t, admin)).id;
    const warehouse = await connector(admin, doomed, 'warehouse', { schema: 'gone' });
    const role = (await previewQuery(admin, doomed, warehouse, 'select current_user as who')).body.rows[0]![
      'who'
    ] as string;
    await connector(admin, doomed, 'files', { path: 'drop', format: 'csv' });
    const folder = path.join(t.config.dataDir, 'files', doomed);
    await mkdir(path.join(folder, 'drop'), { recursive: true });
    await writeFile(path.join(folder, 'drop', 'a.csv'), 'id\n1\n');
    expect(
      (
        await query(
          warehouseUrl,
          'select count(*)::int as n from pg_namespace where nspowner = (select oid from pg_roles where rolname = $1)',
          [role],
        )
      ).rows[0].n,
    ).toBe(1);

    expect((await api(t, 'DELETE', `/api/v1/admin/projects/${doomed}`, { token: admin })).status).toBe(204);
    expect(
      (await query(warehouseUrl, 'select count(*)::int as n from pg_roles where rolname = $1', [role])).rows[0].n,
    ).toBe(0);
    expect(
      (
        await query(warehouseUrl, `select count(*)::int as n from pg_namespace where starts_with(nspname, $1)`, [
          projectSchemaName(doomed, ''),
        ])
      ).rows[0].n,
    ).toBe(0);
    await expect(stat(folder)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('a service login that cannot create roles', () => {
  it('leaves the warehouse unavailable with a message that says why, and everything else works', async () => {
    const database = await createTestDatabase();
    const login = uniqueName('svc_plain');
    await query(
      TEST_DATABASE_URL,
      `create role ${login} login password 'plain-login-pw' nosuperuser nocreaterole createdb`,
    );
    await query(TEST_DATABASE_URL, `alter database ${database.name} owner to ${login}`);
    const url = new URL(database.url);
    url.username = login;
    url.password = 'plain-login-pw';
    const t = await startTestApp({ env: NO_RATE_LIMITS, database: { ...database, url: url.toString() } });
    try {
      const admin = (await adminLogin(t)).accessToken;
      const project = await createProject(t, admin);
      const refused = await api<{ errors: Array<{ path: string; message: string }> }>(
        t,
        'POST',
        '/api/v1/data-connectors',
        {
          token: admin,
          body: { project_id: project.id, name: 'warehouse', kind: 'warehouse', config: {} },
        },
      );
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual([
        expect.objectContaining({ path: 'kind', message: expect.stringMatching(/unavailable/) }),
      ]);
      expect(t.logText()).toMatch(/may not create roles \(CREATEROLE\)/);
    } finally {
      await t.close();
      await database.drop();
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await dropWarehouseRoles(client, `${database.name}_warehouse`);
      await client.query(`drop role if exists ${login}`);
      await client.end();
    }
  });
});

describe('change capture and the warehouse', () => {
  let t: TestApp;
  let source: Awaited<ReturnType<typeof createTestDatabase>>;
  afterAll(async () => {
    await t?.close();
    await query(
      TEST_DATABASE_URL,
      `select pg_drop_replication_slot(slot_name) from pg_replication_slots where not active and database in ($1, $2)`,
      [source?.name, `${t?.config.db.url ? new URL(t.config.db.url).pathname.slice(1) : ''}_warehouse`],
    ).catch(() => undefined);
    await source?.drop();
  });

  it(
    "applies changes into the warehouse as the project's role, and captures only the project's own warehouse tables",
    { timeout: 120_000 },
    async () => {
      t = await startTestApp({
        env: { ...NO_RATE_LIMITS, SVC_CDC_LEASE_SECONDS: '3', SVC_CDC_SOURCE_HEARTBEAT_SECONDS: '1' },
        worker: true,
      });
      const admin = (await adminLogin(t)).accessToken;
      const project = (await createProject(t, admin)).id;
      const other = (await createProject(t, admin)).id;
      source = await createTestDatabase();
      await query(source.url, 'create table items (id int primary key, label text)');
      await query(source.url, `insert into items select g, 'item ' || g from generate_series(1, 50) g`);
      const sourceUrl = new URL(source.url);
      const create = async (projectId: string, kind: string, config: Record<string, unknown>) =>
        (
          await api<{ id: string }>(t, 'POST', '/api/v1/data-connectors', {
            token: admin,
            body: { project_id: projectId, name: uniqueName(kind), kind, config },
          })
        ).body.id;
      const postgresId = await create(project, 'postgres', {
        host: sourceUrl.hostname,
        port: Number(sourceUrl.port || 5432),
        database: source.name,
        user: 'postgres',
        password: 'unused',
      });
      const warehouseId = await create(project, 'warehouse', {});
      const cdc = async (body: Record<string, unknown>) => {
        const created = await api<{ id: string }>(t, 'POST', '/api/v1/cdc-tables', {
          token: admin,
          body: { project_id: project, name: uniqueName('cdc'), mode: 'mirror', ...body },
        });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        return created.body.id;
      };
      const waitFor = async (id: string, done: (row: { status: string; last_error: string | null }) => boolean) => {
        const deadline = Date.now() + 60_000;
        for (;;) {
          const row = (
            await api<{ status: string; last_error: string | null }>(t, 'GET', `/api/v1/cdc-tables/${id}`, {
              token: admin,
            })
          ).body;
          if (done(row)) return row;
          if (Date.now() > deadline) throw new Error(`CDC table ${id}: ${JSON.stringify(row)}`);
          await new Promise((r) => setTimeout(r, 200));
        }
      };

      const into = await cdc({
        source: { connector_id: postgresId, table: 'items' },
        destination: { connector_id: warehouseId, table: 'items' },
      });
      await waitFor(into, (r) => r.status === 'streaming');
      await query(source.url, `insert into items values (51, 'late')`);
      const schema = projectSchemaName(project, 'main');
      const warehouseUrl = t.config.db.url!.replace(/\/([^/?]+)(\?.*)?$/, '/$1_warehouse$2');
      for (let i = 0; ; i++) {
        const rows = await query(warehouseUrl, `select count(*)::int as n from "${schema}".items`).catch(() => ({
          rows: [{ n: 0 }],
        }));
        if (rows.rows[0].n === 51) break;
        if (i > 300) throw new Error('the change never arrived in the warehouse');
        await new Promise((r) => setTimeout(r, 200));
      }
      const owner = await query(
        warehouseUrl,
        'select tableowner from pg_tables where schemaname = $1 and tablename = $2',
        [schema, 'items'],
      );
      expect(owner.rows[0].tableowner).toMatch(/^svc_[0-9a-f]{8}_[0-9a-f]{16}$/);
      await api(t, 'DELETE', `/api/v1/cdc-tables/${into}`, { token: admin });

      // Capturing a warehouse table needs the service's replication login: confined to the connector's schema.
      const otherWarehouse = await create(other, 'warehouse', {});
      expect((await api(t, 'POST', `/api/v1/data-connectors/${otherWarehouse}/test`, { token: admin })).status).toBe(
        200,
      );
      const otherSchema = projectSchemaName(other, 'main');
      await query(warehouseUrl, `create table "${otherSchema}".private (id int primary key)`);
      const sneaky = await cdc({
        source: { connector_id: warehouseId, namespace: otherSchema, table: 'private' },
        destination: { connector_id: postgresId, table: 'stolen' },
      });
      const failed = await waitFor(sneaky, (r) => r.status === 'failed');
      expect(failed.last_error).toMatch(/not in this warehouse connector's schema/);
      expect((await query(source.url, `select to_regclass('public.stolen') is null as absent`)).rows[0].absent).toBe(
        true,
      );
      await api(t, 'DELETE', `/api/v1/cdc-tables/${sneaky}`, { token: admin });
    },
  );
});
