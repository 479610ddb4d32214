/**
 * Masking in the warehouse itself: a member without data:read_unmasked reads the project's tables
 * through masked views, as the project's masked reader role, in model previews and warehouse-query
 * exports; per method the values are masked (the same values as the masker of the other exit paths)
 * and keep their column's type; an exempt member reads clear values; naming the base table directly
 * is refused; a changed policy is what the next read sees.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectSchemaName } from '../../src/areas/connectivity/warehouse.js';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser } from '../support/http.js';
import { query, waitForStatus } from '../support/runs.js';

interface Preview {
  columns: Array<{ name: string; type: string }>;
  rows: Array<Record<string, unknown>>;
}

const CLEAR = {
  id: 1,
  email: 'ada.lovelace@example.org',
  full_name: 'Ada Lovelace',
  phone: '+44 20 7946 0958',
  token: 'tok-7f3a9c',
  code: 424242,
  note: 'likes engines',
  address: '12 St James Square, London SW1Y 4JH',
  salary: '1234.50',
};

describe('masking through the warehouse', () => {
  let t: TestApp;
  let admin: string;
  let editor: string;
  let projectId: string;
  let warehouseUrl: string;
  let mainSchema: string;
  let folder: string;
  const policyIds: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS, worker: true });
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
    folder = path.join(t.config.files.root ?? path.join(t.config.dataDir, 'files'), projectId);
    const user = await createUser(t, admin);
    const put = await api(t, 'PUT', `/api/v1/admin/projects/${projectId}/members/${user.id}`, {
      token: admin,
      body: { role: 'editor' },
    });
    expect(put.status, JSON.stringify(put.body)).toBeLessThan(300);
    editor = user.session.accessToken;
    warehouseUrl = t.config.db.url!.replace(/\/([^/?]+)(\?.*)?$/, '/$1_warehouse$2');
    mainSchema = projectSchemaName(projectId, 'main');
    // A first model run makes the project's role; the table then goes to its main schema.
    const first = await model('first', 'select 1 as one');
    const started = await api<{ id: string }>(t, 'POST', '/api/v1/dw-models/run', {
      token: admin,
      body: { project_id: projectId, select: [first] },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect((await waitForStatus(t, admin, started.body.id, ['succeeded', 'failed'])).status).toBe('succeeded');
    const role = (
      await query(warehouseUrl, `select nspowner::regrole::text as role from pg_namespace where nspname = $1`, [
        projectSchemaName(projectId, 'models'),
      ])
    ).rows[0].role as string;
    await query(warehouseUrl, `create schema if not exists ${mainSchema} authorization ${role}`);
    await query(
      warehouseUrl,
      `create table ${mainSchema}.people (id int primary key, email text, full_name varchar(40), phone text, token text,
         code integer, note text, address text, salary numeric(10,2), born date)`,
    );
    await query(
      warehouseUrl,
      `insert into ${mainSchema}.people values (1, $1, $2, $3, $4, $5, $6, $7, $8, '1815-12-10'), (2, null, null, null, null, null, null, null, null, null)`,
      [CLEAR.email, CLEAR.full_name, CLEAR.phone, CLEAR.token, CLEAR.code, CLEAR.note, CLEAR.address, CLEAR.salary],
    );
    await query(warehouseUrl, `alter table ${mainSchema}.people owner to ${role}`);
    for (const [name, method, columns, options] of [
      ['by-domain', 'email_domain', ['email'], undefined],
      ['names', 'full', ['full_name', 'salary', 'born'], undefined],
      ['phones', 'partial', ['phone'], { keep_first: 3, keep_last: 2 }],
      ['tokens', 'hash', ['token', 'code'], undefined],
      ['notes', 'null', ['note'], undefined],
      ['digits', 'regex_replace', ['address'], { pattern: '[0-9]', replacement: '#' }],
    ] as const) {
      const created = await api<{ id: string }>(t, 'POST', '/api/v1/masking-policies', {
        token: admin,
        body: { project_id: projectId, name, method, columns, ...(options ? { options } : {}) },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      policyIds[name] = created.body.id;
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  async function model(name: string, sql: string) {
    const created = await api<{ id: string }>(t, 'POST', '/api/v1/dw-models', {
      token: admin,
      body: { project_id: projectId, name, sql, materialization: 'view' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return name === 'first' ? name : created.body.id;
  }
  let peopleModel: string;
  const preview = async (token: string, sql?: string) =>
    api<Preview & { detail?: string }>(t, 'POST', `/api/v1/dw-models/${peopleModel}/preview`, {
      token,
      body: sql ? { sql } : {},
    });
  /** What the masker of the other exit paths gives the editor for the clear row. */
  const expected = async () => {
    const columns = [
      { name: 'email', type: 'string' },
      { name: 'full_name', type: 'string' },
      { name: 'phone', type: 'string' },
      { name: 'token', type: 'string' },
      { name: 'code', type: 'int32' },
      { name: 'note', type: 'string' },
      { name: 'address', type: 'string' },
      { name: 'salary', type: 'decimal' },
    ];
    const result = await api<{ rows: unknown[][] }>(t, 'POST', '/api/v1/masking-policies/evaluate', {
      token: editor,
      body: { project_id: projectId, columns, rows: [columns.map((c) => CLEAR[c.name as keyof typeof CLEAR])] },
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    return Object.fromEntries(columns.map((c, i) => [c.name, result.body.rows[0]![i]]));
  };

  it('masks every method in a model preview of a member without the exemption, keeping the column types', async () => {
    peopleModel = await model('people_preview', "select * from {{ source('main', 'people') }} order by id");
    const clear = await preview(admin);
    expect(clear.status, JSON.stringify(clear.body)).toBe(200);
    const masked = await preview(editor);
    expect(masked.status, JSON.stringify(masked.body)).toBe(200);
    // Same columns, same types.
    expect(masked.body.columns).toEqual(clear.body.columns);
    expect(Object.fromEntries(masked.body.columns.map((c) => [c.name, c.type]))).toMatchObject({
      email: 'text',
      full_name: 'character varying',
      code: 'integer',
      salary: 'numeric',
      born: 'date',
    });
    expect(clear.body.rows[0]).toMatchObject({ ...CLEAR });
    const row = masked.body.rows[0]!;
    const want = await expected();
    expect(row).toMatchObject({
      id: 1,
      email: '****@example.org',
      full_name: '****',
      phone: '+44***********58',
      note: null,
      address: '## St James Square, London SW#Y #JH',
      salary: '0.00',
    });
    // hash: the same keyed HMAC as every other exit path (joins match across them), not the clear value.
    expect(row.token).toBe(want.token);
    expect(row.token).toMatch(/^[0-9a-f]{32}$/);
    expect(row.code).toBe(want.code);
    expect(row.code).not.toBe(CLEAR.code);
    for (const column of ['email', 'full_name', 'phone', 'address']) expect(row[column], column).toEqual(want[column]);
    expect(String(row.born)).toContain('1970');
    // Null stays null under every method.
    expect(Object.values(masked.body.rows[1]!).filter((v) => v !== null)).toEqual([2]);
  });

  it('refuses a non-exempt member SQL that names the base table, and leaves no masked view behind', async () => {
    const direct = await preview(editor, `select * from ${mainSchema}.people`);
    expect(direct.status, JSON.stringify(direct.body)).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(direct.body)).toMatch(/permission denied/);
    // The exempt member may.
    expect((await preview(admin, `select * from ${mainSchema}.people`)).status).toBe(200);
    const left = await query(warehouseUrl, `select nspname from pg_namespace where nspname like $1`, [
      `m${projectId.replaceAll('-', '').slice(0, 16)}_%`,
    ]);
    expect(left.rows).toEqual([]);
    // The masked reader holds nothing on the project's schemas, and neither it nor the project's role
    // may read the hash keys the views use.
    const role = (
      await query(warehouseUrl, `select nspowner::regrole::text as role from pg_namespace where nspname = $1`, [
        mainSchema,
      ])
    ).rows[0].role as string;
    const rights = await query(
      warehouseUrl,
      `select has_schema_privilege($1, $3, 'usage') as reader_main, has_table_privilege($1, $4, 'select') as reader_table,
              has_schema_privilege($1, 'svc_masking', 'usage') as reader_keys, has_schema_privilege($2, 'svc_masking', 'usage') as role_keys,
              (select rolinherit from pg_roles where rolname = $1) as inherits,
              (select count(*)::int from pg_auth_members m join pg_roles r on r.oid = m.member where r.rolname = $1) as memberships`,
      [`${role}_m`, role, mainSchema, `${mainSchema}.people`],
    );
    expect(rights.rows[0]).toEqual({
      reader_main: false,
      reader_table: false,
      reader_keys: false,
      role_keys: false,
      inherits: false,
      memberships: 0,
    });
  });

  it('masks a warehouse-query export run by a member without the exemption, renamed columns too', async () => {
    const created = await api<{ id: string }>(t, 'POST', '/api/v1/exports', {
      token: editor,
      body: {
        project_id: projectId,
        name: 'people-out',
        source: {
          kind: 'warehouse_query',
          query: 'select id, email, phone as contact, token, code, note, address, salary, born from people order by id',
        },
        destination: { kind: 'files', folder: 'masked' },
        format: { type: 'csv' },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const exported = async (token: string) => {
      const started = await api<{ id: string }>(t, 'POST', `/api/v1/exports/${created.body.id}/run`, { token });
      expect(started.status, JSON.stringify(started.body)).toBe(201);
      const done = await waitForStatus(t, token, started.body.id, ['succeeded', 'failed', 'partially_failed']);
      expect(done.status, done.error ?? '').toBe('succeeded');
      const runs = await api<{ items: Array<{ execution_id: string; files: Array<{ name: string }> }> }>(
        t,
        'GET',
        `/api/v1/exports/${created.body.id}/runs`,
        { token },
      );
      const file = runs.body.items.find((r) => r.execution_id === started.body.id)!.files[0]!;
      const text = (await readFile(path.join(folder, file.name))).toString();
      return { text, rows: parse(text, { columns: true }) as Array<Record<string, string>> };
    };
    const want = await expected();
    const masked = await exported(editor);
    expect(masked.rows[0]).toEqual({
      id: '1',
      email: '****@example.org',
      contact: '+44***********58',
      token: want.token,
      code: String(want.code),
      note: '',
      address: '## St James Square, London SW#Y #JH',
      salary: '0.00',
      born: '1970-01-01',
    });
    for (const value of [CLEAR.email, CLEAR.phone, CLEAR.token, String(CLEAR.code), CLEAR.note, CLEAR.address])
      expect(masked.text).not.toContain(value);
    const clear = await exported(admin);
    expect(clear.rows[0]).toMatchObject({ email: CLEAR.email, contact: CLEAR.phone, born: '1815-12-10' });
  });

  it('refuses a non-exempt export that names the base schema', async () => {
    const created = await api<{ id: string }>(t, 'POST', '/api/v1/exports', {
      token: editor,
      body: {
        project_id: projectId,
        name: 'people-direct',
        source: { kind: 'warehouse_query', query: `select * from ${mainSchema}.people` },
        destination: { kind: 'files', folder: 'direct' },
        format: { type: 'csv' },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const started = await api<{ id: string }>(t, 'POST', `/api/v1/exports/${created.body.id}/run`, { token: editor });
    const done = await waitForStatus(t, editor, started.body.id, ['succeeded', 'failed', 'partially_failed']);
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(/permission denied/);
  });

  it('reads a changed policy in the next read', async () => {
    const changed = await api(t, 'PATCH', `/api/v1/masking-policies/${policyIds['notes']}`, {
      token: admin,
      body: { method: 'full' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const masked = await preview(editor);
    expect(masked.status, JSON.stringify(masked.body)).toBe(200);
    expect(masked.body.rows[0]!.note).toBe('****');
    // Exempt by role now: the editor reads the phone in clear.
    const exempt = await api(t, 'PATCH', `/api/v1/masking-policies/${policyIds['phones']}`, {
      token: admin,
      body: { exempt: { roles: ['editor'] } },
    });
    expect(exempt.status, JSON.stringify(exempt.body)).toBe(200);
    expect((await preview(editor)).body.rows[0]!.phone).toBe(CLEAR.phone);
  });

  it('masks a column by the catalog tag of the project dataset named like the table', async () => {
    // The warehouse's own connector on the main schema, discovered: the catalog lists "people".
    const connector = await api<{ id: string }>(t, 'POST', '/api/v1/data-connectors', {
      token: admin,
      body: { project_id: projectId, name: 'warehouse main', kind: 'warehouse', config: { schema: 'main' } },
    });
    expect(connector.status, JSON.stringify(connector.body)).toBe(201);
    const discovered = await api(t, 'POST', `/api/v1/data-connectors/${connector.body.id}/discover`, { token: admin });
    expect(discovered.status, JSON.stringify(discovered.body)).toBe(200);
    const datasets = await api<{ items: Array<{ id: string; name: string }> }>(
      t,
      'GET',
      `/api/v1/catalog/datasets?project_id=${projectId}`,
      { token: admin },
    );
    const people = datasets.body.items.find((d) => d.name === 'people');
    expect(people, JSON.stringify(datasets.body)).toBeDefined();
    const policy = await api(t, 'POST', '/api/v1/masking-policies', {
      token: admin,
      body: { project_id: projectId, name: 'restricted ids', method: 'null', tags: ['restricted'] },
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    // No column carries the tag yet: the id reads clear.
    expect((await preview(editor)).body.rows[0]!.id).toBe(1);
    const tagged = await api(t, 'PATCH', `/api/v1/catalog/datasets/${people!.id}/columns/id`, {
      token: admin,
      body: { tags: ['restricted'] },
    });
    expect(tagged.status, JSON.stringify(tagged.body)).toBe(200);
    const masked = await preview(editor);
    expect(masked.status, JSON.stringify(masked.body)).toBe(200);
    expect(masked.body.rows.map((r) => r.id)).toEqual([null, null]);
    expect(masked.body.columns.find((c) => c.name === 'id')?.type).toBe('integer');
    // The exempt administrator still reads it.
    expect((await preview(admin)).body.rows[0]!.id).toBe(1);
  });
});
