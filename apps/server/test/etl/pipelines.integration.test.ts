import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser } from '../support/http.js';
import { checksum, createPostgresConnector, query, waitForStatus, type Execution } from '../support/runs.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';

interface Pipeline {
  id: string;
  name: string;
  version: number;
  depends_on: string[];
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Every kind of step, in an order where each one matters. */
const EVERY_STEP = [
  { type: 'filter', expression: 'amount > 10 and not is_null(email)' },
  { type: 'derive', column: 'amount_with_tax', expression: 'round(amount * 1.2, 2)' },
  { type: 'derive', column: 'customer_upper', expression: "upper(concat(customer, '-', id % 3))" },
  { type: 'flatten', column: 'meta', paths: ['tier', 'score'] },
  { type: 'rename', columns: { customer: 'customer_name' } },
  { type: 'cast', columns: { meta_score: 'int32' } },
  { type: 'deduplicate', keys: ['email'], order_by: 'id', keep: 'last' },
  { type: 'mask', columns: { email: 'hash' } },
  { type: 'drop', columns: ['placed'] },
  {
    type: 'select',
    columns: ['id', 'customer_name', 'customer_upper', 'email', 'amount_with_tax', 'meta_tier', 'meta_score'],
  },
];

describe('ETL pipelines', () => {
  let t: TestApp;
  let admin: string;
  let source: TestDatabase;
  let destination: TestDatabase;
  let projectId: string;
  let sourceId: string;
  let destinationId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS, worker: true });
    admin = (await adminLogin(t)).accessToken;
    source = await createTestDatabase();
    destination = await createTestDatabase();
    projectId = (await createProject(t, admin)).id;
    sourceId = await createPostgresConnector(t, admin, projectId, 'source', source.name);
    destinationId = await createPostgresConnector(t, admin, projectId, 'warehouse', destination.name);
    await query(
      source.url,
      'create table orders (id bigint primary key, customer text, email text, amount numeric(12,2), placed timestamptz, meta jsonb)',
    );
    await query(
      source.url,
      `insert into orders select g, 'customer ' || (g % 40), case when g % 250 = 0 then null else 'user' || (g % 500) || '@example.com' end, g * 0.01,
              timestamptz '2024-01-01' + g * interval '1 hour', jsonb_build_object('tier', case when g % 3 = 0 then 'gold' else 'silver' end, 'score', g % 7)
         from generate_series(1, 3000) g`,
    );
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
    await destination?.drop();
  });

  const create = (body: Record<string, unknown>) =>
    api<Pipeline>(t, 'POST', '/api/v1/etl/pipelines', { token: admin, body: { project_id: projectId, ...body } });
  const run = async (id: string) => {
    const started = await api<Execution & { trigger: string; pipeline_id: string }>(
      t,
      'POST',
      `/api/v1/etl/pipelines/${id}/run`,
      { token: admin },
    );
    expect(started.status).toBe(201);
    return waitForStatus(t, admin, started.body.id, ['succeeded', 'failed', 'cancelled']);
  };
  const tableExists = async (table: string) =>
    (await query(destination.url, 'select to_regclass($1) is not null as present', [`public.${table}`])).rows[0]
      .present as boolean;

  it('runs every transform on real data into PostgreSQL, pushed down into the source', async () => {
    const created = await create({
      name: 'clean orders',
      sources: [{ connector_id: sourceId, dataset: 'orders' }],
      transforms: EVERY_STEP,
      destination: { connector_id: destinationId, table: 'orders_clean', mode: 'overwrite' },
    });
    expect(created.status).toBe(201);
    const done = await run(created.body.id);
    expect(done).toMatchObject({ status: 'succeeded', error: null });

    // Expected, computed here from the source rows: amount > 10 means id > 1000; one row per email, the highest id.
    const expected = new Map<string, number>();
    for (let g = 1001; g <= 3000; g++) {
      if (g % 250 === 0) continue;
      const email = `user${g % 500}@example.com`;
      expected.set(email, Math.max(expected.get(email) ?? 0, g));
    }
    const { rows } = await query(destination.url, 'select * from orders_clean order by id');
    expect(rows).toHaveLength(expected.size);
    expect(done.rows_written).toBe(expected.size);
    const columns = (
      await query(
        destination.url,
        `select column_name, data_type from information_schema.columns where table_name = 'orders_clean' order by ordinal_position`,
      )
    ).rows;
    expect(columns).toEqual([
      { column_name: 'id', data_type: 'bigint' },
      { column_name: 'customer_name', data_type: 'text' },
      { column_name: 'customer_upper', data_type: 'text' },
      { column_name: 'email', data_type: 'text' },
      { column_name: 'amount_with_tax', data_type: 'double precision' },
      { column_name: 'meta_tier', data_type: 'text' },
      { column_name: 'meta_score', data_type: 'integer' },
    ]);
    const byEmailHash = new Map(rows.map((r) => [r.email as string, r]));
    for (const [email, id] of expected) {
      const row = byEmailHash.get(sha256(email));
      expect(row, email).toBeDefined();
      expect(row).toEqual({
        id: String(id),
        customer_name: `customer ${id % 40}`,
        customer_upper: `CUSTOMER ${id % 40}-${id % 3}`,
        email: sha256(email),
        amount_with_tax: Math.round(id * 0.01 * 1.2 * 100) / 100,
        meta_tier: id % 3 === 0 ? 'gold' : 'silver',
        meta_score: id % 7,
      });
    }
    const logs = await api<{ items: Array<{ message: string }> }>(t, 'GET', `/api/v1/executions/${done.id}/logs`, {
      token: admin,
    });
    expect(logs.body.items.map((l) => l.message)).toContainEqual(expect.stringMatching(/pushed down into the source/));
  });

  it('gives the same result in process (two streams, united) as pushed down', async () => {
    const created = await create({
      name: 'clean orders in process',
      sources: [
        { name: 'first half', connector_id: sourceId, query: 'select * from orders where id <= 1500' },
        { name: 'second half', connector_id: sourceId, query: 'select * from orders where id > 1500' },
      ],
      transforms: EVERY_STEP,
      destination: { connector_id: destinationId, table: 'orders_clean_in_process', mode: 'overwrite' },
    });
    expect(created.status).toBe(201);
    const done = await run(created.body.id);
    expect(done).toMatchObject({ status: 'succeeded', rows_read: 3000 });
    const logs = await api<{ items: Array<{ message: string }> }>(t, 'GET', `/api/v1/executions/${done.id}/logs`, {
      token: admin,
    });
    expect(logs.body.items.map((l) => l.message)).toContainEqual(expect.stringMatching(/written \(in-process\)/));
    expect(await checksum(destination.url, 'orders_clean_in_process')).toEqual(
      await checksum(destination.url, 'orders_clean'),
    );
  });

  it('previews the steps on the first rows with the output schema, and writes nothing', async () => {
    const created = await create({
      name: 'preview only',
      sources: [{ connector_id: sourceId, dataset: 'orders' }],
      transforms: EVERY_STEP,
      destination: { connector_id: destinationId, table: 'never_written', mode: 'append' },
    });
    const preview = await api<{
      columns: Array<{ name: string; type: string }>;
      rows: Array<Record<string, unknown>>;
      streams: unknown[];
      pushdown: boolean;
    }>(t, 'POST', `/api/v1/etl/pipelines/${created.body.id}/preview`, {
      token: admin,
      body: { limit: 1000 },
    });
    expect(preview.status).toBe(200);
    expect(preview.body.columns.map((c) => `${c.name}:${c.type}`)).toEqual([
      'id:int64',
      'customer_name:string',
      'customer_upper:string',
      'email:string',
      'amount_with_tax:float64',
      'meta_tier:string',
      'meta_score:int32',
    ]);
    // The first 1000 rows hold ids 1..1000: none passes amount > 10.
    expect(preview.body.rows).toEqual([]);
    expect(preview.body.streams).toEqual([{ name: 'orders', rows_sampled: 1000 }]);
    expect(preview.body.pushdown).toBe(true);
    // Other steps, tried without saving: the rows come back transformed.
    const tried = await api<{ rows: Array<Record<string, unknown>> }>(
      t,
      'POST',
      `/api/v1/etl/pipelines/${created.body.id}/preview`,
      {
        token: admin,
        body: {
          limit: 3,
          transforms: [
            { type: 'select', columns: ['id', 'email'] },
            { type: 'mask', columns: { email: 'partial' } },
          ],
        },
      },
    );
    expect(tried.body.rows).toEqual([
      { id: '1', email: '*************.com' },
      { id: '2', email: '*************.com' },
      { id: '3', email: '*************.com' },
    ]);
    expect(await tableExists('never_written')).toBe(false);
    expect(
      (await api<Pipeline>(t, 'GET', `/api/v1/etl/pipelines/${created.body.id}`, { token: admin })).body.version,
    ).toBe(1);
  });

  it('refuses bad definitions with 422 naming the step and field, and a taken name with 409', async () => {
    const base = {
      sources: [{ connector_id: sourceId, dataset: 'orders' }],
      destination: { connector_id: destinationId, table: 'x', mode: 'append' },
    };
    const badExpression = await create({
      ...base,
      name: 'bad',
      transforms: [
        { type: 'select', columns: ['id'] },
        { type: 'filter', expression: 'id >' },
      ],
    });
    expect(badExpression.status).toBe(422);
    expect(badExpression.body).toMatchObject({
      errors: [expect.objectContaining({ path: 'transforms.1.expression' })],
    });
    const unknownFunction = await create({
      ...base,
      name: 'bad',
      transforms: [{ type: 'derive', column: 'x', expression: 'system(id)' }],
    });
    expect(unknownFunction.body).toMatchObject({
      errors: [expect.objectContaining({ path: 'transforms.0.expression', message: expect.stringMatching(/system/) })],
    });
    const badCast = await create({
      ...base,
      name: 'bad',
      transforms: [{ type: 'cast', columns: { id: 'integer-ish' } }],
    });
    expect(badCast.status).toBe(422);
    expect(JSON.stringify(badCast.body)).toMatch(/transforms\.0\.columns/);
    const upsertWithoutKeys = await create({
      ...base,
      name: 'bad',
      destination: { connector_id: destinationId, table: 'x', mode: 'upsert' },
    });
    expect(upsertWithoutKeys.body).toMatchObject({
      errors: [expect.objectContaining({ path: 'destination.key_columns' })],
    });
    const neither = await create({ ...base, name: 'bad', sources: [{ connector_id: sourceId }] });
    expect(neither.body).toMatchObject({ errors: [expect.objectContaining({ path: 'sources.0' })] });
    const other = await createProject(t, admin);
    const foreign = await api(t, 'POST', '/api/v1/etl/pipelines', {
      token: admin,
      body: { ...base, project_id: other.id, name: 'foreign' },
    });
    expect(foreign.body).toMatchObject({
      errors: expect.arrayContaining([
        expect.objectContaining({ path: 'sources.0.connector_id' }),
        expect.objectContaining({ path: 'destination.connector_id' }),
      ]),
    });
    expect((await create({ ...base, name: 'twice' })).status).toBe(201);
    expect((await create({ ...base, name: 'twice' })).status).toBe(409);
    // A step that names a column the source does not have is found when the columns are known: at preview (and run).
    const unknownColumn = await create({
      ...base,
      name: 'unknown column',
      transforms: [{ type: 'filter', expression: 'no_such_column > 1' }],
    });
    expect(unknownColumn.status).toBe(201);
    const preview = await api(t, 'POST', `/api/v1/etl/pipelines/${unknownColumn.body.id}/preview`, {
      token: admin,
      body: {},
    });
    expect(preview.status).toBe(422);
    expect(preview.body).toMatchObject({
      errors: [
        expect.objectContaining({ path: 'transforms.0.expression', message: expect.stringMatching(/no_such_column/) }),
      ],
    });
  });

  it('runs dependent pipelines after their upstream succeeds, in DAG order, and refuses a cycle', async () => {
    const step = (name: string, from: string, to: string, dependsOn: string[] = []) =>
      create({
        name,
        sources: [{ connector_id: destinationId, dataset: from }],
        destination: { connector_id: destinationId, table: to, mode: 'overwrite' },
        depends_on: dependsOn,
      });
    await query(destination.url, 'create table dag_input as select g as id from generate_series(1, 100) g');
    const a = (await step('dag a', 'dag_input', 'dag_a')).body;
    const b = (await step('dag b', 'dag_a', 'dag_b', [a.id])).body;
    const c = (await step('dag c', 'dag_b', 'dag_c', [b.id])).body;
    const d = (await step('dag d', 'dag_a', 'dag_d', [a.id, c.id])).body;
    expect(d.depends_on).toEqual([a.id, c.id]);

    const first = await run(a.id);
    expect(first.status).toBe('succeeded');
    const runsOf = async (pipelineId: string) =>
      (
        await api<{
          items: Array<Execution & { trigger: string; dag_run_id: string; started_at: string; finished_at: string }>;
        }>(t, 'GET', `/api/v1/executions?pipeline_id=${pipelineId}`, { token: admin })
      ).body.items;
    const settled = async (pipelineId: string) => {
      for (let i = 0; i < 150; i++) {
        const [latest] = await runsOf(pipelineId);
        if (latest && ['succeeded', 'failed'].includes(latest.status)) return latest;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error(`no finished run of ${pipelineId}`);
    };
    const [runB, runC, runD] = [await settled(b.id), await settled(c.id), await settled(d.id)];
    for (const downstream of [runB, runC, runD])
      expect(downstream).toMatchObject({ status: 'succeeded', trigger: 'dependency', dag_run_id: first.id });
    // Each started after its upstream finished; d waited for c (which waited for b), not only for a.
    expect(Date.parse(runB.started_at)).toBeGreaterThanOrEqual(Date.parse((await runsOf(a.id))[0]!.finished_at));
    expect(Date.parse(runC.started_at)).toBeGreaterThanOrEqual(Date.parse(runB.finished_at));
    expect(Date.parse(runD.started_at)).toBeGreaterThanOrEqual(Date.parse(runC.finished_at));
    expect(await runsOf(d.id)).toHaveLength(1);
    expect((await query(destination.url, 'select count(*)::int as n from dag_d')).rows[0].n).toBe(100);

    const cycle = await api(t, 'PATCH', `/api/v1/etl/pipelines/${a.id}`, {
      token: admin,
      body: { depends_on: [c.id] },
    });
    expect(cycle.status).toBe(422);
    expect(cycle.body).toMatchObject({
      errors: [{ path: 'depends_on', message: expect.stringMatching(/cycle: dag a -> dag c -> dag b -> dag a/) }],
    });
    const self = await api(t, 'PATCH', `/api/v1/etl/pipelines/${a.id}`, { token: admin, body: { depends_on: [a.id] } });
    expect(self.body).toMatchObject({ errors: [expect.objectContaining({ path: 'depends_on.0' })] });
    const inUse = await api(t, 'DELETE', `/api/v1/etl/pipelines/${a.id}`, { token: admin });
    expect(inUse.status).toBe(409);
    expect(JSON.stringify(inUse.body)).toMatch(/dag b/);
  });

  it('never runs one pipeline twice at once', async () => {
    const created = await create({
      name: 'one at a time',
      sources: [{ connector_id: sourceId, dataset: 'orders' }],
      destination: { connector_id: destinationId, table: 'one_at_a_time', mode: 'overwrite' },
    });
    const attempts = await Promise.all(
      [0, 1, 2].map(() => api<Execution>(t, 'POST', `/api/v1/etl/pipelines/${created.body.id}/run`, { token: admin })),
    );
    expect(attempts.map((a) => a.status).sort()).toEqual([201, 409, 409]);
    const started = attempts.find((a) => a.status === 201)!;
    expect(attempts.find((a) => a.status === 409)!.body).toMatchObject({
      detail: expect.stringMatching(/already has a queued or running execution/),
    });
    await waitForStatus(t, admin, started.body.id, ['succeeded']);
    expect((await api(t, 'POST', `/api/v1/etl/pipelines/${created.body.id}/run`, { token: admin })).status).toBe(201);
  });

  it('runs a source query as one read-only statement: no second statement gets in', async () => {
    await query(source.url, 'create table victim (id int)');
    const attacks = [
      'select 1 as id) as q; commit; drop table victim; select (1',
      'select 1 as id) as q to stdout; commit; drop table victim; copy (select 1',
      'select 1 as id; drop table victim',
    ];
    for (const [i, attack] of attacks.entries()) {
      for (const streams of [1, 2]) {
        const created = await create({
          name: `attack ${i} ${streams}`,
          sources: Array.from({ length: streams }, (_, n) => ({
            name: `s${n}`,
            connector_id: sourceId,
            query: attack,
          })),
          destination: { connector_id: destinationId, table: `attack_${i}_${streams}`, mode: 'append' },
        });
        expect(created.status).toBe(201);
        expect((await run(created.body.id)).status, attack).toBe('failed');
      }
    }
    // A trailing comment is plain SQL, not an attack: it runs.
    const commented = await create({
      name: 'commented',
      sources: [{ name: 'c', connector_id: sourceId, query: 'select 1 as id from victim where 1 = 1 -- all rows' }],
      destination: { connector_id: destinationId, table: 'attack_comment', mode: 'append' },
    });
    expect((await run(commented.body.id)).status).toBe('succeeded');
    const writer = await create({
      name: 'writer',
      sources: [{ name: 'w', connector_id: sourceId, query: 'delete from victim returning id' }],
      destination: { connector_id: destinationId, table: 'attack_write', mode: 'append' },
    });
    expect(await run(writer.body.id)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/read-only|syntax/),
    });
    expect(
      (await query(source.url, `select to_regclass('public.victim') is not null as present`)).rows[0].present,
    ).toBe(true);
  });

  it('cancels a running pipeline within seconds', async () => {
    const created = await create({
      name: 'slow',
      sources: [{ name: 'slow', connector_id: sourceId, query: 'select 1 as id from pg_sleep(30)' }],
      destination: { connector_id: destinationId, table: 'slow', mode: 'append' },
    });
    const started = await api<Execution>(t, 'POST', `/api/v1/etl/pipelines/${created.body.id}/run`, { token: admin });
    await waitForStatus(t, admin, started.body.id, ['running']);
    const askedAt = Date.now();
    expect((await api(t, 'POST', `/api/v1/executions/${started.body.id}/cancel`, { token: admin })).status).toBe(200);
    expect(await waitForStatus(t, admin, started.body.id, ['cancelled', 'failed', 'succeeded'], 15_000)).toMatchObject({
      status: 'cancelled',
    });
    expect(Date.now() - askedAt).toBeLessThan(10_000);
    expect(await tableExists('slow')).toBe(false);
  });

  it('estimates a running pipeline from the rows of its last succeeded run', async () => {
    // The first run reads 25 rows at once; the second sleeps before its rows, so it is caught running.
    await query(source.url, 'create table progress_knob (delay int not null); insert into progress_knob values (0)');
    const created = await create({
      name: 'estimated',
      sources: [
        {
          name: 'estimated',
          connector_id: sourceId,
          query: 'select g as id from progress_knob k, pg_sleep(k.delay), generate_series(1, 25) g',
        },
      ],
      destination: { connector_id: destinationId, table: 'estimated', mode: 'append' },
    });
    const first = await run(created.body.id);
    expect(first).toMatchObject({ status: 'succeeded', rows_read: 25 });
    // A finished run has no estimate.
    const finished = await api<Execution>(t, 'GET', `/api/v1/executions/${first.id}`, { token: admin });
    expect(finished.body.progress).toBeUndefined();

    await query(source.url, 'update progress_knob set delay = 30');
    const started = await api<Execution>(t, 'POST', `/api/v1/etl/pipelines/${created.body.id}/run`, { token: admin });
    await waitForStatus(t, admin, started.body.id, ['running']);
    const running = await api<Execution>(t, 'GET', `/api/v1/executions/${started.body.id}`, { token: admin });
    expect(running.body).toMatchObject({
      status: 'running',
      rows_read: 0,
      progress: { rows_expected: 25, rows_per_second: 0, seconds_left: null },
    });
    // Another pipeline that never succeeded has a rate but nothing to estimate from.
    const other = await create({
      name: 'never succeeded',
      sources: [{ name: 'n', connector_id: sourceId, query: 'select 1 as id from pg_sleep(30)' }],
      destination: { connector_id: destinationId, table: 'never_succeeded', mode: 'append' },
    });
    const lone = await api<Execution>(t, 'POST', `/api/v1/etl/pipelines/${other.body.id}/run`, { token: admin });
    await waitForStatus(t, admin, lone.body.id, ['running']);
    expect(
      (await api<Execution>(t, 'GET', `/api/v1/executions/${lone.body.id}`, { token: admin })).body.progress,
    ).toEqual({
      rows_expected: null,
      rows_per_second: 0,
      seconds_left: null,
    });
    for (const id of [started.body.id, lone.body.id]) {
      await api(t, 'POST', `/api/v1/executions/${id}/cancel`, { token: admin });
      await waitForStatus(t, admin, id, ['cancelled', 'failed', 'succeeded'], 15_000);
    }
  });

  it('lets a viewer read pipelines but not change, run or preview them', async () => {
    const viewer = await createUser(t, admin);
    await api(t, 'PUT', `/api/v1/admin/projects/${projectId}/members/${viewer.id}`, {
      token: admin,
      body: { role: 'viewer' },
    });
    const token = viewer.session.accessToken;
    const [some] = (
      await api<{ items: Pipeline[] }>(t, 'GET', `/api/v1/etl/pipelines?project_id=${projectId}`, { token })
    ).body.items;
    expect(some).toBeDefined();
    expect((await api(t, 'GET', `/api/v1/etl/pipelines/${some!.id}/state`, { token })).status).toBe(200);
    for (const [method, path] of [
      ['POST', 'run'],
      ['POST', 'preview'],
      ['DELETE', 'state'],
    ] as const) {
      const refused = await api(t, method, `/api/v1/etl/pipelines/${some!.id}/${path}`, { token });
      expect(refused.status, `${path} ${JSON.stringify(refused.body)}`).toBe(403);
      expect(refused.body).toMatchObject({
        detail: 'permission_denied',
        required_capability: path === 'state' ? 'pipeline:write' : 'pipeline:run',
      });
    }
    expect(
      (await api(t, 'PATCH', `/api/v1/etl/pipelines/${some!.id}`, { token, body: { description: 'x' } })).status,
    ).toBe(403);
    const outsider = await createUser(t, admin);
    expect(
      (await api(t, 'GET', `/api/v1/etl/pipelines/${some!.id}`, { token: outsider.session.accessToken })).status,
    ).toBe(403);
    expect(
      (await api<{ items: unknown[] }>(t, 'GET', '/api/v1/etl/pipelines', { token: outsider.session.accessToken })).body
        .items,
    ).toEqual([]);
  });

  it('keeps incremental state per stream, shows it and resets it', async () => {
    await query(source.url, 'create table events (id bigint primary key, kind text)');
    await query(source.url, `insert into events select g, 'k' || (g % 3) from generate_series(1, 400) g`);
    const created = await create({
      name: 'events incremental',
      sources: [{ connector_id: sourceId, dataset: 'events', cursor_column: 'id' }],
      transforms: [{ type: 'filter', expression: "kind != 'k0'" }],
      destination: { connector_id: destinationId, table: 'events_copy', mode: 'upsert', key_columns: ['id'] },
    });
    const id = created.body.id;
    const state = async () =>
      (
        await api<{ streams: Array<{ stream: string; cursor_column: string; cursor_value: unknown }> }>(
          t,
          'GET',
          `/api/v1/etl/pipelines/${id}/state`,
          { token: admin },
        )
      ).body.streams;
    expect(await state()).toEqual([
      expect.objectContaining({ stream: 'events', cursor_column: 'id', cursor_value: null }),
    ]);
    expect(await run(id)).toMatchObject({ status: 'succeeded', rows_written: 267 });
    expect(await state()).toEqual([expect.objectContaining({ stream: 'events', cursor_value: '400' })]);
    await query(source.url, `insert into events select g, 'k' || (g % 3) from generate_series(401, 430) g`);
    expect(await run(id)).toMatchObject({ status: 'succeeded', rows_written: 20 });
    expect(await state()).toEqual([expect.objectContaining({ cursor_value: '430' })]);
    expect(await run(id)).toMatchObject({ status: 'succeeded', rows_written: 0 });

    const reset = await api<{ streams: Array<{ cursor_value: unknown }> }>(
      t,
      'DELETE',
      `/api/v1/etl/pipelines/${id}/state?stream=events`,
      { token: admin },
    );
    expect(reset.status).toBe(200);
    expect(reset.body.streams[0]!.cursor_value).toBeNull();
    expect(await run(id)).toMatchObject({ status: 'succeeded', rows_written: 287 });
    expect((await query(destination.url, 'select count(*)::int as n from events_copy')).rows[0].n).toBe(287);
    expect((await api(t, 'DELETE', `/api/v1/etl/pipelines/${id}/state?stream=nope`, { token: admin })).status).toBe(
      422,
    );
  });

  it('records lineage: which source datasets fed which destination in each run', async () => {
    const created = await create({
      name: 'lineage',
      sources: [
        { name: 'orders a', connector_id: sourceId, query: 'select id, customer from orders where id <= 10' },
        { connector_id: sourceId, dataset: 'events' },
      ],
      transforms: [{ type: 'select', columns: ['id'] }],
      destination: { connector_id: destinationId, table: 'lineage_target', mode: 'overwrite' },
    });
    const done = await run(created.body.id);
    expect(done.status).toBe('succeeded');
    const edges = await query(
      t.config.db.url!,
      'select source_connector_id, source_name, destination_connector_id, destination_name, pipeline_id, rows_written::int from lineage_edges where execution_id = $1 order by source_name',
      [done.id],
    );
    expect(edges.rows).toEqual([
      {
        source_connector_id: sourceId,
        source_name: 'events',
        destination_connector_id: destinationId,
        destination_name: 'lineage_target',
        pipeline_id: created.body.id,
        rows_written: done.rows_written,
      },
      {
        source_connector_id: sourceId,
        source_name: 'orders a',
        destination_connector_id: destinationId,
        destination_name: 'lineage_target',
        pipeline_id: created.body.id,
        rows_written: done.rows_written,
      },
    ]);
  });
});
