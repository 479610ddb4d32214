import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser } from '../support/http.js';
import { createPostgresConnector, query, waitForStatus, type Execution } from '../support/runs.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';

interface ExportRun {
  execution_id: string;
  status: string;
  extracted: number;
  added: number;
  changed: number;
  removed: number;
  delivered: number;
  failed: number;
  files: Array<{ name: string; rows: number; bytes: number }>;
  error: string | null;
}

describe('exports to files', () => {
  let t: TestApp;
  let admin: string;
  let projectId: string;
  let source: TestDatabase;
  let sourceId: string;
  let folder: string;

  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS, worker: true });
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
    folder = path.join(t.config.files.root ?? path.join(t.config.dataDir, 'files'), projectId);
    source = await createTestDatabase();
    sourceId = await createPostgresConnector(t, admin, projectId, 'source', source.name);
    await query(source.url, 'create table customers (id int primary key, name text, tier text, spend numeric(10,2))');
    await query(
      source.url,
      "insert into customers select g, 'customer ' || g, case when g % 2 = 0 then 'gold' else 'silver' end, g * 1.5 from generate_series(1, 50) g",
    );
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
  });

  const create = async (body: Record<string, unknown>) => {
    const created = await api<{ id: string }>(t, 'POST', '/api/v1/exports', {
      token: admin,
      body: { project_id: projectId, name: `export-${Math.random().toString(36).slice(2, 8)}`, ...body },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id;
  };
  const run = async (id: string, options: { fullResync?: boolean } = {}) => {
    const started = await api<Execution & { kind: string }>(
      t,
      'POST',
      `/api/v1/exports/${id}/run${options.fullResync ? '?full_resync=true' : ''}`,
      { token: admin },
    );
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body.kind).toBe('export');
    const execution = await waitForStatus(t, admin, started.body.id, [
      'succeeded',
      'partially_failed',
      'failed',
      'cancelled',
    ]);
    const runs = await api<{ items: ExportRun[] }>(t, 'GET', `/api/v1/exports/${id}/runs`, { token: admin });
    const account = runs.body.items.find((r) => r.execution_id === started.body.id)!;
    return { execution, account };
  };
  const read = (name: string) => readFile(path.join(folder, name));

  it('writes a warehouse query to CSV as the delimiter, header and quoting say, and accounts for every row', async () => {
    const id = await create({
      source: {
        kind: 'warehouse_query',
        query: `select g as id, case when g = 2 then 'semi;colon "quoted"' when g = 3 then e'two\\nlines' else 'plain ' || g end as label,
                       case when g = 4 then null else g * 0.5 end as amount, timestamptz '2024-01-01' + g * interval '1 day' as at
                  from generate_series(1, 1000) g`,
      },
      filter: 'id <= 900',
      destination: { kind: 'files', folder: 'out/csv', file_name: '{export}-{run_time}.{ext}' },
      format: { type: 'csv', delimiter: ';', quote: '"', null_value: 'NULL' },
    });
    const { execution, account } = await run(id);
    expect(execution.status, execution.error ?? '').toBe('succeeded');
    expect(account).toMatchObject({ status: 'succeeded', extracted: 900, added: 900, delivered: 900, failed: 0 });
    expect(account.files).toHaveLength(1);
    const file = account.files[0]!;
    expect(file.name).toMatch(/^out\/csv\/export-[a-z0-9]+-\d{8}T\d{6}Z\.csv$/);
    const text = (await read(file.name)).toString();
    expect(file.bytes).toBe(Buffer.byteLength(text));
    const rows = parse(text, { delimiter: ';', columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(900);
    expect(rows[1]).toEqual({ id: '2', label: 'semi;colon "quoted"', amount: '1.0', at: '2024-01-03 00:00:00+00' });
    expect(rows[2]!.label).toBe('two\nlines');
    expect(rows[3]!.amount).toBe('NULL');
    expect(text.split('\n')[0]).toBe('id;label;amount;at');
    // Nothing half written is left behind, and the run is an execution like any other.
    expect((await readdir(path.join(folder, 'out/csv'))).filter((f) => f.startsWith('.'))).toEqual([]);
    const listed = await api<{ items: Array<{ id: string; kind: string }> }>(
      t,
      'GET',
      `/api/v1/executions?kind=export&project_id=${projectId}`,
      { token: admin },
    );
    expect(listed.body.items.map((e) => e.id)).toContain(account.execution_id);
  });

  it("gives a signed, expiring download link to a file of a run, for the export's project only", async () => {
    const id = await create({
      source: { kind: 'warehouse_query', query: "select g as id, 'row ' || g as label from generate_series(1, 10) g" },
      destination: { kind: 'files', folder: 'out/download' },
    });
    const { account } = await run(id);
    const link = await api<{ url: string; file: string; expires_at: string }>(
      t,
      'POST',
      `/api/v1/exports/${id}/runs/${account.execution_id}/download-link?expires_in_seconds=120`,
      { token: admin },
    );
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    expect(link.body.file).toBe(account.files[0]!.name);
    expect(Date.parse(link.body.expires_at) - Date.now()).toBeGreaterThan(100_000);
    const download = await fetch(`${t.url}${link.body.url}`, { headers: { authorization: `Bearer ${admin}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toContain('text/csv');
    expect(await download.text()).toBe((await read(account.files[0]!.name)).toString());
    // Without a token, with a changed expiry or signature, or for another export: refused.
    expect((await fetch(`${t.url}${link.body.url}`)).status).toBe(401);
    const later = link.body.url.replace(/expires=(\d+)/, (_, e: string) => `expires=${Number(e) + 3600}`);
    expect((await fetch(`${t.url}${later}`, { headers: { authorization: `Bearer ${admin}` } })).status).toBe(403);
    const forged = link.body.url.replace(/signature=[^&]+/, 'signature=AAAA');
    expect((await fetch(`${t.url}${forged}`, { headers: { authorization: `Bearer ${admin}` } })).status).toBe(403);
    const other = await create({
      source: { kind: 'warehouse_query', query: 'select 1 as one' },
      destination: { kind: 'files', folder: 'out/download' },
    });
    const elsewhere = link.body.url.replace(`/exports/${id}/`, `/exports/${other}/`);
    expect((await fetch(`${t.url}${elsewhere}`, { headers: { authorization: `Bearer ${admin}` } })).status).toBe(403);
    // A link past its expiry is refused.
    const short = await api<{ url: string }>(
      t,
      'POST',
      `/api/v1/exports/${id}/runs/${account.execution_id}/download-link?expires_in_seconds=1`,
      { token: admin },
    );
    expect(short.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const expired = await fetch(`${t.url}${short.body.url}`, { headers: { authorization: `Bearer ${admin}` } });
    expect(expired.status).toBe(403);
    expect(JSON.stringify(await expired.json())).toContain('expired');
    // A member of another project only: refused the link and the file.
    const outsider = await createUser(t, admin);
    const otherProject = await createProject(t, admin);
    await api(t, 'PUT', `/api/v1/admin/projects/${otherProject.id}/members/${outsider.id}`, {
      token: admin,
      body: { role: 'owner' },
    });
    const token = outsider.session.accessToken;
    expect((await fetch(`${t.url}${link.body.url}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
      403,
    );
    expect(
      (await api(t, 'POST', `/api/v1/exports/${id}/runs/${account.execution_id}/download-link`, { token })).status,
    ).toBe(403);
  });

  it('writes NDJSON, gzipped, in parts of at most max_rows_per_file rows', async () => {
    const id = await create({
      source: { kind: 'connector', connector_id: sourceId, dataset: 'customers' },
      columns: ['id', 'name', 'spend'],
      destination: { kind: 'files', folder: 'out/json', max_rows_per_file: 20 },
      format: { type: 'ndjson', gzip: true },
    });
    const { execution, account } = await run(id);
    expect(execution.status, execution.error ?? '').toBe('succeeded');
    expect(account.files.map((f) => f.rows)).toEqual([20, 20, 10]);
    expect(account.files.map((f) => path.basename(f.name).replace(/_\d{8}T\d{6}Z_/, '_T_'))).toEqual(
      ['00001', '00002', '00003'].map(
        (part) => `${path.basename(account.files[0]!.name).split('_')[0]}_T_${part}.ndjson.gz`,
      ),
    );
    const records = [];
    for (const file of account.files)
      records.push(
        ...gunzipSync(await read(file.name))
          .toString()
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      );
    expect(records).toHaveLength(50);
    expect(records[6]).toEqual({ id: 7, name: 'customer 7', spend: '10.50' });
  });

  it('writes Parquet with the source types, in parts', async () => {
    const id = await create({
      source: { kind: 'connector', connector_id: sourceId, dataset: 'customers' },
      destination: { kind: 'files', folder: 'out/parquet', max_rows_per_file: 30 },
      format: { type: 'parquet' },
    });
    const { execution, account } = await run(id);
    expect(execution.status, execution.error ?? '').toBe('succeeded');
    expect(account.files.map((f) => [f.rows, f.name.endsWith('.parquet')])).toEqual([
      [30, true],
      [20, true],
    ]);
    const rows = [];
    for (const file of account.files) {
      const bytes = await read(file.name);
      const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
      rows.push(...((await parquetReadObjects({ file: buffer })) as Array<Record<string, unknown>>));
    }
    expect(rows).toHaveLength(50);
    expect(rows[6]).toMatchObject({ id: 7, name: 'customer 7', tier: 'silver' });
    expect(Number(rows[6]!['spend'])).toBe(10.5);
  });

  it('sends only the rows added, changed and removed since the previous run (diff), and everything on a full resync', async () => {
    await query(source.url, 'create table accounts (id int primary key, owner text, balance int)');
    await query(source.url, "insert into accounts select g, 'owner ' || g, g * 10 from generate_series(1, 30) g");
    const id = await create({
      source: { kind: 'connector', connector_id: sourceId, dataset: 'accounts' },
      mode: 'diff',
      key_columns: ['id'],
      destination: { kind: 'files', folder: 'out/diff' },
      format: { type: 'csv' },
    });
    const first = await run(id);
    expect(first.account).toMatchObject({ status: 'succeeded', extracted: 30, added: 30, changed: 0, removed: 0 });
    expect(first.account.delivered).toBe(30);

    await query(source.url, "insert into accounts values (31, 'owner 31', 310)");
    await query(source.url, 'update accounts set balance = 999 where id = 5');
    await query(source.url, 'delete from accounts where id in (7, 8)');
    const second = await run(id);
    expect(second.account).toMatchObject({ extracted: 29, added: 1, changed: 1, removed: 2, delivered: 4, failed: 0 });
    const rows = parse(await read(second.account.files[0]!.name), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => [r['id'], r['_change'], r['balance']]).sort()).toEqual(
      [
        ['31', 'added', '310'],
        ['5', 'changed', '999'],
        ['7', 'removed', ''],
        ['8', 'removed', ''],
      ].sort(),
    );

    const third = await run(id);
    expect(third.account).toMatchObject({ extracted: 29, added: 0, changed: 0, removed: 0, delivered: 0 });

    const resync = await run(id, { fullResync: true });
    expect(resync.account).toMatchObject({ extracted: 29, added: 0, changed: 29, removed: 0, delivered: 29 });
  });

  it('fails fast naming the key values when the source key is not unique', async () => {
    await query(source.url, 'create table visits (customer int, day date)');
    await query(source.url, "insert into visits values (1, '2024-01-01'), (2, '2024-01-01'), (1, '2024-01-02')");
    const id = await create({
      source: { kind: 'connector', connector_id: sourceId, dataset: 'visits' },
      mode: 'diff',
      key_columns: ['customer'],
      destination: { kind: 'files', folder: 'out/dupes' },
    });
    const { execution, account } = await run(id);
    expect(execution.status).toBe('failed');
    expect(execution.attempts).toBe(1);
    expect(execution.error).toContain('the source key (customer) is not unique: [1] appears more than once');
    expect(account.status).toBe('failed');
    expect(await readdir(path.join(folder, 'out/dupes'))).toEqual([]);
  });

  it("exports a pipeline's output: the table its destination holds", async () => {
    const pipeline = await api<{ id: string }>(t, 'POST', '/api/v1/etl/pipelines', {
      token: admin,
      body: {
        project_id: projectId,
        name: `gold-${Math.random().toString(36).slice(2, 8)}`,
        sources: [{ connector_id: sourceId, dataset: 'customers' }],
        transforms: [{ type: 'filter', expression: "tier == 'gold'" }],
        destination: { connector_id: sourceId, table: 'gold_customers', mode: 'overwrite' },
      },
    });
    expect(pipeline.status, JSON.stringify(pipeline.body)).toBe(201);
    const started = await api<Execution>(t, 'POST', `/api/v1/etl/pipelines/${pipeline.body.id}/run`, {
      token: admin,
    });
    const done = await waitForStatus(t, admin, started.body.id, ['succeeded', 'failed']);
    expect(done.status, done.error ?? '').toBe('succeeded');
    const id = await create({
      source: { kind: 'pipeline', pipeline_id: pipeline.body.id },
      columns: ['id', 'tier'],
      destination: { kind: 'files', folder: 'out/pipeline' },
      format: { type: 'ndjson' },
    });
    const { execution, account } = await run(id);
    expect(execution.status, execution.error ?? '').toBe('succeeded');
    expect(account.delivered).toBe(25);
    const records = (await read(account.files[0]!.name))
      .toString()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; tier: string });
    expect(records.every((r) => r.tier === 'gold' && r.id % 2 === 0)).toBe(true);
    expect(records.map((r) => r.id).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => (i + 1) * 2));
    // A pipeline of no project of the caller's, or extra source fields: 422 naming the field.
    const bad = await api<{ errors: Array<{ path: string }> }>(t, 'POST', '/api/v1/exports', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'bad-pipeline-source',
        source: { kind: 'pipeline', pipeline_id: '00000000-0000-4000-8000-000000000000', dataset: 'x' },
        destination: { kind: 'files' },
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e) => e.path).sort()).toEqual(['source.dataset', 'source.pipeline_id']);
  });

  it('sends only the rows past the cursor of the previous run (incremental)', async () => {
    await query(source.url, 'create table events (id int, kind text)');
    await query(source.url, "insert into events select g, 'k' || g from generate_series(1, 10) g");
    const id = await create({
      source: { kind: 'connector', connector_id: sourceId, dataset: 'events' },
      mode: 'incremental',
      cursor_column: 'id',
      destination: { kind: 'files', folder: 'out/incremental' },
      format: { type: 'ndjson' },
    });
    expect((await run(id)).account).toMatchObject({ extracted: 10, delivered: 10 });
    await query(source.url, "insert into events values (11, 'k11'), (12, 'k12')");
    const second = await run(id);
    expect(second.account).toMatchObject({ extracted: 2, delivered: 2 });
    const lines = (await read(second.account.files[0]!.name)).toString().trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { id: number }).id)).toEqual([11, 12]);
  });
});
