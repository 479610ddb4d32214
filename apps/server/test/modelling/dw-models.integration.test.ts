/**
 * Warehouse models against the real warehouse (PostgreSQL): every model is built by a worker, as the
 * project's own role, in the project's own schema.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectSchemaName } from '../../src/areas/connectivity/warehouse.js';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser } from '../support/http.js';
import { query, waitForStatus } from '../support/runs.js';
import { runEventErrors } from '../governance/openlineage-schema.js';

interface Model {
  id: string;
  name: string;
  refs: string[];
  relation: string | null;
}
interface Line {
  model: string;
  status: string;
  rows: number | null;
  error: string | null;
  tests: Array<{ name: string; status: string; failures: number | null }>;
}

interface LineageEvent {
  inputs: Array<{ namespace: string; name: string }>;
  outputs: Array<{
    namespace: string;
    name: string;
    facets: { columnLineage?: { fields: Record<string, { inputFields: Array<{ name: string; field: string }> }> } };
    outputFacets?: { outputStatistics?: { rowCount: number } };
  }>;
}

describe('warehouse models', () => {
  let t: TestApp;
  let admin: string;
  let projectId: string;
  let warehouseUrl: string;
  let modelsSchema: string;
  let rawSchema: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { ...NO_RATE_LIMITS, SVC_MODELS_RUN_CONCURRENCY: '3' }, worker: true });
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
    warehouseUrl = t.config.db.url!.replace(/\/([^/?]+)(\?.*)?$/, '/$1_warehouse$2');
    modelsSchema = projectSchemaName(projectId, 'models');
    rawSchema = projectSchemaName(projectId, 'raw');
    // A first run creates the project's role and models schema; the loaded data then goes to its raw schema.
    await create({ name: 'first', sql: 'select 1 as one', materialization: 'view' });
    expect((await run(['first'])).status).toBe('succeeded');
    const role = (
      await query(warehouseUrl, `select nspowner::regrole::text as role from pg_namespace where nspname = $1`, [
        modelsSchema,
      ])
    ).rows[0].role as string;
    await query(warehouseUrl, `create schema ${rawSchema} authorization ${role}`);
    await query(
      warehouseUrl,
      `create table ${rawSchema}.orders as select g as id, 'customer ' || (g % 10) as customer, (g % 7) * 1.5 as amount,
              case when g % 3 = 0 then 'paid' else 'open' end as status from generate_series(1, 1000) g`,
    );
    await query(warehouseUrl, `alter table ${rawSchema}.orders owner to ${role}`);
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = async (body: Record<string, unknown>, expected = 201) => {
    const result = await api<Model & { detail?: string }>(t, 'POST', '/api/v1/dw-models', {
      token: admin,
      body: { project_id: projectId, ...body },
    });
    expect(result.status, JSON.stringify(result.body)).toBe(expected);
    return result.body;
  };
  const patch = (id: string, body: Record<string, unknown>) =>
    api<Model & { detail?: string }>(t, 'PATCH', `/api/v1/dw-models/${id}`, { token: admin, body });
  async function run(select: string[], options: { fullRefresh?: boolean; token?: string; project?: string } = {}) {
    const started = await api<{ id: string }>(t, 'POST', '/api/v1/dw-models/run', {
      token: options.token ?? admin,
      body: { project_id: options.project ?? projectId, select, full_refresh: options.fullRefresh },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const done = await waitForStatus(t, options.token ?? admin, started.body.id, ['succeeded', 'failed', 'cancelled']);
    const lines = await api<{ results: Line[] }>(t, 'GET', `/api/v1/dw-models/runs/${started.body.id}`, {
      token: options.token ?? admin,
    });
    expect(lines.status).toBe(200);
    const byModel = Object.fromEntries(lines.body.results.map((l) => [l.model, l]));
    return { ...done, lines: byModel, order: lines.body.results.map((l) => l.model) };
  }
  const rowsOf = async (sql: string) => (await query(warehouseUrl, sql)).rows;
  const relation = (name: string) => `${modelsSchema}.${name}`;

  it('reads refs with the PostgreSQL parser: refs in comments and strings do not count', async () => {
    const base = await create({
      name: 'orders_base',
      materialization: 'view',
      sql: "select id, customer, amount, status from {{ source('raw', 'orders') }}",
    });
    expect(base.refs).toEqual([]);
    const baseCompiled = await api<{ column_lineage: Array<{ column: string; inputs: unknown[] }> }>(
      t,
      'POST',
      `/api/v1/dw-models/${base.id}/compile`,
      { token: admin, body: {} },
    );
    expect(baseCompiled.body.column_lineage[2]).toEqual({
      column: 'amount',
      inputs: [{ source: { schema: 'raw', table: 'orders' }, column: 'amount' }],
    });
    const model = await create({
      name: 'ref_probe',
      materialization: 'view',
      sql: `-- {{ ref('not_a_model') }}
select o.id, '{{ ref(''also_not'') }}' as text /* {{ ref("nor_this") }} */
  from {{ ref('orders_base') }} o`,
    });
    expect(model.refs).toEqual(['orders_base']);
    const compiled = await api<{ sql: string }>(t, 'POST', `/api/v1/dw-models/${model.id}/compile`, {
      token: admin,
      body: {},
    });
    expect(compiled.status).toBe(200);
    expect(compiled.body.sql).toContain(`from "${modelsSchema}"."orders_base" o`);
    expect(compiled.body.sql).toContain("'{{ ref(''also_not'') }}'");

    const unknown = await create(
      { name: 'bad_ref', materialization: 'view', sql: "select * from {{ ref('nope') }}" },
      422,
    );
    expect(unknown.detail).toContain("ref('nope') names no model");
    const notSelect = await create({ name: 'bad_stmt', materialization: 'table', sql: 'delete from x' }, 422);
    expect(notSelect.detail).toMatch(/sql must be a SELECT/);
    const two = await create({ name: 'bad_two', materialization: 'table', sql: 'select 1; select 2' }, 422);
    expect(two.detail).toContain('one statement');
    const into = await create({ name: 'bad_into', materialization: 'table', sql: 'select 1 as a into t2' }, 422);
    expect(into.detail).toContain('without INTO');
    const badName = await create({ name: 'Orders Base', materialization: 'view', sql: 'select 1' }, 422);
    expect(badName.detail).toContain('name must be lower-case');
  });

  it('refuses a cycle and names it', async () => {
    const a = await create({ name: 'cyc_a', materialization: 'view', sql: 'select 1 as x' });
    const b = await create({ name: 'cyc_b', materialization: 'view', sql: "select x from {{ ref('cyc_a') }}" });
    await create({ name: 'cyc_c', materialization: 'view', sql: "select x from {{ ref('cyc_b') }}" });
    const closed = await patch(a.id, { sql: "select x from {{ ref('cyc_c') }}" });
    expect(closed.status).toBe(422);
    expect(closed.body.detail).toContain('cyc_a -> cyc_c -> cyc_b -> cyc_a');
    const self = await patch(b.id, { sql: "select x from {{ ref('cyc_b') }}" });
    expect(self.status).toBe(422);
    const graph = await api<{
      nodes: Array<{ id: string; name: string }>;
      edges: Array<{ from: string; to: string }>;
      order: string[];
    }>(t, 'GET', `/api/v1/dw-models/graph?project_id=${projectId}`, { token: admin });
    expect(graph.status).toBe(200);
    const nameOf = new Map(graph.body.nodes.map((n) => [n.id, n.name]));
    const edges = graph.body.edges.map((e) => `${nameOf.get(e.from)} -> ${nameOf.get(e.to)}`);
    expect(edges).toEqual(expect.arrayContaining(['cyc_a -> cyc_b', 'cyc_b -> cyc_c', 'orders_base -> ref_probe']));
    const order = graph.body.order.map((id) => nameOf.get(id));
    expect(order.indexOf('cyc_a')).toBeLessThan(order.indexOf('cyc_b'));
    expect(order.indexOf('cyc_b')).toBeLessThan(order.indexOf('cyc_c'));
  });

  it('builds views, tables and ephemeral models in dependency order, with tests', async () => {
    await create({
      name: 'customers_eph',
      materialization: 'ephemeral',
      sql: "select distinct customer from {{ ref('orders_base') }}",
    });
    await create({
      name: 'customer_totals',
      materialization: 'table',
      tags: ['finance'],
      sql: `select c.customer, sum(o.amount) as total, count(*) as orders
              from {{ ref('customers_eph') }} c join {{ ref('orders_base') }} o using (customer) group by 1`,
      tests: [
        { type: 'not_null', column: 'customer' },
        { type: 'unique', column: 'customer' },
        { type: 'accepted_values', column: 'orders', values: ['100'], severity: 'warn' },
        { type: 'relationships', column: 'customer', to: 'orders_base', field: 'customer' },
        { type: 'custom_sql', name: 'no negative totals', sql: 'select * from {{ this }} where total < 0' },
      ],
    });
    const done = await run(['+customer_totals']);
    expect(done.status, JSON.stringify(done.lines)).toBe('succeeded');
    expect(done.order.indexOf('orders_base')).toBeLessThan(done.order.indexOf('customer_totals'));
    expect(done.lines['customers_eph']).toMatchObject({ status: 'success', rows: null });
    expect(done.lines['customer_totals']).toMatchObject({ status: 'success', rows: 10 });
    expect(done.lines['customer_totals']!.tests.map((x) => [x.name, x.status])).toEqual([
      ['not_null(customer)', 'pass'],
      ['unique(customer)', 'pass'],
      ['accepted_values(orders)', 'pass'],
      ['relationships(customer -> orders_base.customer)', 'pass'],
      ['no negative totals', 'pass'],
    ]);
    expect(await rowsOf(`select relkind from pg_class where oid = '${relation('orders_base')}'::regclass`)).toEqual([
      { relkind: 'v' },
    ]);
    expect(await rowsOf(`select relkind from pg_class where oid = '${relation('customer_totals')}'::regclass`)).toEqual(
      [{ relkind: 'r' }],
    );
    expect(await rowsOf(`select to_regclass('${relation('customers_eph')}') is null as absent`)).toEqual([
      { absent: true },
    ]);
    const total = await rowsOf(
      `select sum(total)::float as s, sum(orders)::int as n from ${relation('customer_totals')}`,
    );
    expect(total).toEqual([
      { s: (await rowsOf(`select sum(amount)::float as s from ${rawSchema}.orders`))[0].s, n: 1000 },
    ]);
    // The ephemeral model is inlined as a CTE.
    const compiled = await api<{ sql: string }>(
      t,
      'POST',
      `/api/v1/dw-models/${(await api<{ items: Model[] }>(t, 'GET', `/api/v1/dw-models?project_id=${projectId}`, { token: admin })).body.items.find((m) => m.name === 'customer_totals')!.id}/compile`,
      { token: admin, body: {} },
    );
    expect(compiled.body.sql).toMatch(/^with "__svc_ephemeral_customers_eph" as \(/);
    // Column-level lineage, as far as the parser can tell.
    expect((compiled.body as unknown as { column_lineage: unknown }).column_lineage).toEqual([
      { column: 'customer', inputs: [{ model: 'customers_eph', column: 'customer' }] },
      { column: 'total', inputs: [{ model: 'orders_base', column: 'amount' }] },
      { column: 'orders', inputs: [] },
    ]);

    // The run's lineage: each model built is an output named as the warehouse's relations are; the
    // ephemeral model is inlined, so what it reads stands for it; column lineage from each SELECT.
    const events = await api<{ items: Array<{ event_type: string; event: LineageEvent }> }>(
      t,
      'GET',
      `/api/v1/lineage/events?run_id=${done.id}`,
      { token: admin },
    );
    expect(events.body.items.map((e) => e.event_type)).toEqual(['START', 'COMPLETE']);
    const complete = events.body.items[1]!.event;
    for (const item of events.body.items) expect(runEventErrors(item.event), JSON.stringify(item.event)).toEqual([]);
    const database = new URL(warehouseUrl).pathname.slice(1);
    const named = (schema: string, table: string) => `${database}.${schema}.${table}`;
    expect(complete.outputs.map((o) => o.name).sort()).toEqual(
      [named(modelsSchema, 'customer_totals'), named(modelsSchema, 'orders_base')].sort(),
    );
    expect(complete.inputs.map((i) => i.name).sort()).toEqual(
      [named(modelsSchema, 'orders_base'), named(rawSchema, 'orders')].sort(),
    );
    expect(new Set(complete.outputs.map((o) => o.namespace))).toEqual(
      new Set([`postgres://${new URL(warehouseUrl).hostname}:${new URL(warehouseUrl).port || 5432}`]),
    );
    const totals = complete.outputs.find((o) => o.name.endsWith('.customer_totals'))!;
    expect(totals.outputFacets?.outputStatistics?.rowCount).toBe(10);
    const fields = totals.facets.columnLineage!.fields;
    expect(fields['total']!.inputFields.map((f) => [f.name, f.field])).toEqual([
      [named(modelsSchema, 'orders_base'), 'amount'],
    ]);
    // customer comes through the ephemeral model: no column lineage for it.
    expect(fields['customer']).toBeUndefined();
    const base = complete.outputs.find((o) => o.name.endsWith('.orders_base'))!;
    expect(base.facets.columnLineage!.fields['amount']!.inputFields.map((f) => [f.name, f.field])).toEqual([
      [named(rawSchema, 'orders'), 'amount'],
    ]);
  });

  it('reports failing tests by severity, and a failed model skips its dependents', async () => {
    await create({
      name: 'status_counts',
      materialization: 'table',
      sql: "select status, count(*) as n from {{ ref('orders_base') }} group by 1",
      tests: [
        { type: 'accepted_values', column: 'status', values: ['paid'], severity: 'warn' },
        { type: 'not_null', column: 'n' },
      ],
    });
    await create({
      name: 'broken',
      materialization: 'table',
      sql: "select id, 1 / (id - id) as boom from {{ ref('orders_base') }}",
    });
    await create({ name: 'after_broken', materialization: 'view', sql: "select * from {{ ref('broken') }}" });
    await create({ name: 'after_after', materialization: 'view', sql: "select * from {{ ref('after_broken') }}" });
    await create({
      name: 'tested_strict',
      materialization: 'table',
      sql: "select id, case when id = 5 then null else id end as maybe from {{ ref('orders_base') }}",
      tests: [{ type: 'not_null', column: 'maybe' }],
    });
    await create({ name: 'after_strict', materialization: 'view', sql: "select * from {{ ref('tested_strict') }}" });
    const done = await run(['status_counts', 'broken+', 'tested_strict+']);
    expect(done.status).toBe('failed');
    expect(done.error).toContain('2 of 6 model(s) failed');
    expect(done.lines['status_counts']).toMatchObject({ status: 'success' });
    expect(done.lines['status_counts']!.tests).toMatchObject([
      { name: 'accepted_values(status)', status: 'warn', failures: 1 },
      { name: 'not_null(n)', status: 'pass', failures: 0 },
    ]);
    expect(done.lines['broken']).toMatchObject({ status: 'error' });
    expect(done.lines['broken']!.error).toContain('division by zero');
    expect(done.lines['after_broken']).toMatchObject({ status: 'skipped' });
    expect(done.lines['after_after']).toMatchObject({ status: 'skipped' });
    expect(done.lines['tested_strict']).toMatchObject({ status: 'error' });
    expect(done.lines['tested_strict']!.tests).toMatchObject([{ status: 'fail', failures: 1 }]);
    expect(done.lines['after_strict']).toMatchObject({ status: 'skipped' });
    expect(await rowsOf(`select to_regclass('${relation('after_broken')}') is null as absent`)).toEqual([
      { absent: true },
    ]);
  });

  it('builds independent models in parallel, at most SVC_MODELS_RUN_CONCURRENCY (3 here) at once', async () => {
    for (let i = 1; i <= 4; i++)
      await create({
        name: `sleepy_${i}`,
        materialization: 'table',
        tags: ['sleepy'],
        sql: 'select 1 as x from (select pg_sleep(0.6)) s',
      });
    const done = await run(['tag:sleepy']);
    expect(done.status).toBe('succeeded');
    const lines = await api<{ results: Array<{ finished_at: string; duration_ms: number }> }>(
      t,
      'GET',
      `/api/v1/dw-models/runs/${done.id}`,
      { token: admin },
    );
    const spans = lines.body.results.map((l) => {
      const end = Date.parse(l.finished_at);
      return [end - l.duration_ms, end] as const;
    });
    const atOnce = Math.max(...spans.map(([start]) => spans.filter(([s, e]) => s <= start && start < e).length));
    expect(atOnce).toBe(3);
  });

  it('selects with name, +name, name+ and tag:x, and refuses an unknown name naming the selector', async () => {
    const selected = async (select: string[]) => {
      const done = await run(select);
      return Object.keys(done.lines).sort();
    };
    expect(await selected(['tag:finance'])).toEqual(['customer_totals']);
    expect(await selected(['+customer_totals'])).toEqual(['customer_totals', 'customers_eph', 'orders_base']);
    expect(await selected(['cyc_b+'])).toEqual(['cyc_b', 'cyc_c']);
    expect(await selected(['cyc_b'])).toEqual(['cyc_b']);
    const unknown = await api<{ detail: string; errors: Array<{ path: string }> }>(t, 'POST', '/api/v1/dw-models/run', {
      token: admin,
      body: { project_id: projectId, select: ['cyc_a', 'missing+'] },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]!.path).toBe('select.1');
  });

  it('merges an incremental model: changed rows updated, new rows added; append and delete_insert too', async () => {
    await query(warehouseUrl, `create table ${rawSchema}.events (id int, v text, updated int)`);
    const owner = (
      await rowsOf(`select nspowner::regrole::text as r from pg_namespace where nspname = '${rawSchema}'`)
    )[0].r as string;
    await query(warehouseUrl, `alter table ${rawSchema}.events owner to ${owner}`);
    await query(warehouseUrl, `insert into ${rawSchema}.events values (1, 'a', 1), (2, 'b', 1), (3, 'c', 1)`);
    const incremental = `select id, v, updated from {{ source('raw', 'events') }}
      {% if is_incremental() %} where updated > (select coalesce(max(updated), 0) from {{ this }}) {% endif %}`;
    for (const strategy of ['merge', 'append', 'delete_insert'])
      await create({
        name: `events_${strategy}`,
        materialization: 'incremental',
        incremental_strategy: strategy,
        unique_key: ['id'],
        sql: incremental,
      });
    const first = await run(['events_merge', 'events_append', 'events_delete_insert']);
    expect(first.status).toBe('succeeded');
    expect(first.lines['events_merge']!.rows).toBe(3);
    await query(warehouseUrl, `update ${rawSchema}.events set v = 'B', updated = 2 where id = 2`);
    await query(warehouseUrl, `insert into ${rawSchema}.events values (4, 'd', 2)`);
    const second = await run(['events_merge', 'events_append', 'events_delete_insert']);
    expect(second.status).toBe('succeeded');
    expect(second.lines['events_merge']!.rows).toBe(2);
    const expected = [
      { id: 1, v: 'a', updated: 1 },
      { id: 2, v: 'B', updated: 2 },
      { id: 3, v: 'c', updated: 1 },
      { id: 4, v: 'd', updated: 2 },
    ];
    expect(await rowsOf(`select * from ${relation('events_merge')} order by id`)).toEqual(expected);
    expect(await rowsOf(`select * from ${relation('events_delete_insert')} order by id`)).toEqual(expected);
    expect(await rowsOf(`select * from ${relation('events_append')} order by id, updated`)).toEqual([
      { id: 1, v: 'a', updated: 1 },
      { id: 2, v: 'b', updated: 1 },
      { id: 2, v: 'B', updated: 2 },
      { id: 3, v: 'c', updated: 1 },
      { id: 4, v: 'd', updated: 2 },
    ]);
    // A full refresh builds it whole again.
    const full = await run(['events_append'], { fullRefresh: true });
    expect(full.lines['events_append']!.rows).toBe(4);
    expect(await rowsOf(`select count(*)::int as n from ${relation('events_append')}`)).toEqual([{ n: 4 }]);
  });

  it('handles every on_schema_change mode of an incremental model', async () => {
    const make = async (mode: string) => {
      const model = await create({
        name: `osc_${mode}`,
        materialization: 'incremental',
        incremental_strategy: 'append',
        on_schema_change: mode,
        sql: 'select 1 as id, 2 as old_col',
      });
      expect((await run([model.name])).status).toBe('succeeded');
      expect((await patch(model.id, { sql: "select 2 as id, 'x'::text as new_col" })).status).toBe(200);
      return run([model.name]);
    };
    const columns = async (name: string) =>
      (
        await rowsOf(
          `select attname from pg_attribute where attrelid = '${relation(name)}'::regclass and attnum > 0 and not attisdropped order by attnum`,
        )
      ).map((r) => r.attname as string);

    const fail = await make('fail');
    expect(fail.lines['osc_fail']).toMatchObject({ status: 'error' });
    expect(fail.lines['osc_fail']!.error).toContain('new columns new_col');
    expect(await columns('osc_fail')).toEqual(['id', 'old_col']);

    expect((await make('ignore')).status).toBe('succeeded');
    expect(await columns('osc_ignore')).toEqual(['id', 'old_col']);
    expect(await rowsOf(`select * from ${relation('osc_ignore')} order by id`)).toEqual([
      { id: 1, old_col: 2 },
      { id: 2, old_col: null },
    ]);

    expect((await make('append_new_columns')).status).toBe('succeeded');
    expect(await columns('osc_append_new_columns')).toEqual(['id', 'old_col', 'new_col']);
    expect(await rowsOf(`select * from ${relation('osc_append_new_columns')} order by id`)).toEqual([
      { id: 1, old_col: 2, new_col: null },
      { id: 2, old_col: null, new_col: 'x' },
    ]);

    expect((await make('sync_all_columns')).status).toBe('succeeded');
    expect(await columns('osc_sync_all_columns')).toEqual(['id', 'new_col']);
    expect(await rowsOf(`select * from ${relation('osc_sync_all_columns')} order by id`)).toEqual([
      { id: 1, new_col: null },
      { id: 2, new_col: 'x' },
    ]);

    expect((await make('full_refresh')).status).toBe('succeeded');
    expect(await columns('osc_full_refresh')).toEqual(['id', 'new_col']);
    expect(await rowsOf(`select * from ${relation('osc_full_refresh')}`)).toEqual([{ id: 2, new_col: 'x' }]);
  });

  it('swaps a rebuilt table in atomically: a concurrent reader never sees it missing or partial, and views over it survive', async () => {
    const big = await create({
      name: 'big',
      materialization: 'table',
      sql: 'select g as id, md5(g::text) as h from generate_series(1, 200000) g',
    });
    await create({ name: 'big_view', materialization: 'view', sql: "select count(*) as n from {{ ref('big') }}" });
    expect((await run(['big+'])).status).toBe('succeeded');
    const reader = new pg.Client({ connectionString: warehouseUrl });
    await reader.connect();
    let stop = false;
    const seen = new Map<string, number>();
    const errors: string[] = [];
    const reading = (async () => {
      while (!stop) {
        try {
          const { rows } = await reader.query(`select count(*)::int as n from ${relation('big')}`);
          const key = String(rows[0].n);
          seen.set(key, (seen.get(key) ?? 0) + 1);
        } catch (error) {
          errors.push((error as Error).message);
        }
      }
    })();
    try {
      for (let i = 0; i < 3; i++) expect((await run(['big'])).status).toBe('succeeded');
      // A changed definition, swapped in the same way: the view over it now counts the new rows.
      expect(
        (await patch(big.id, { sql: 'select g as id, md5(g::text) as h from generate_series(1, 150000) g' })).status,
      ).toBe(200);
      expect((await run(['big'])).status).toBe('succeeded');
    } finally {
      stop = true;
      await reading;
      await reader.end();
    }
    expect(errors).toEqual([]);
    expect([...seen.keys()].sort()).toEqual(['150000', '200000'].filter((k) => seen.has(k)));
    expect(seen.get('200000')).toBeGreaterThan(0);
    expect(await rowsOf(`select n::int from ${relation('big_view')}`)).toEqual([{ n: 150000 }]);
    // No temporary relation is left behind.
    expect(
      await rowsOf(
        `select relname from pg_class c join pg_namespace n on n.oid = c.relnamespace where nspname = '${modelsSchema}' and relname like '%__svc_%'`,
      ),
    ).toEqual([]);
  });

  it('rolls a swap back when a view over the table cannot be created again, naming the view', async () => {
    const wide = await create({ name: 'wide', materialization: 'table', sql: 'select 1 as a, 2 as b' });
    await create({ name: 'uses_b', materialization: 'view', sql: "select b from {{ ref('wide') }}" });
    expect((await run(['wide+'])).status).toBe('succeeded');
    expect((await patch(wide.id, { sql: 'select 10 as a' })).status).toBe(200);
    const done = await run(['wide']);
    expect(done.lines['wide']).toMatchObject({ status: 'error' });
    expect(done.lines['wide']!.error).toContain(`the view ${modelsSchema}.uses_b over it cannot be created again`);
    expect(await rowsOf(`select * from ${relation('wide')}`)).toEqual([{ a: 1, b: 2 }]);
    expect(await rowsOf(`select * from ${relation('uses_b')}`)).toEqual([{ b: 2 }]);
  });

  it("runs as the project's role: no other project's schema, no pg_read_file", async () => {
    const other = (await createProject(t, admin)).id;
    const editor = await createUser(t, admin);
    await api(t, 'PUT', `/api/v1/admin/projects/${other}/members/${editor.id}`, {
      token: admin,
      body: { role: 'editor' },
    });
    const token = editor.session.accessToken;
    const make = async (name: string, sql: string) => {
      const created = await api<Model>(t, 'POST', '/api/v1/dw-models', {
        token,
        body: { project_id: other, name, sql, materialization: 'table' },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body;
    };
    const steal = await make('steal', `select * from "${modelsSchema}"."customer_totals"`);
    const file = await make('file', "select pg_read_file('/etc/hostname') as content");
    const done = await run(['steal', 'file'], { token, project: other });
    expect(done.status).toBe('failed');
    expect(done.lines['steal']!.error).toContain('permission denied for schema');
    expect(done.lines['file']!.error).toContain('permission denied for function pg_read_file');
    const preview = await api<{ detail: string }>(t, 'POST', `/api/v1/dw-models/${steal.id}/preview`, {
      token,
      body: {},
    });
    expect(preview.status).toBe(422);
    expect(preview.body.detail).toContain('permission denied');
    expect(file.relation).toBe(`"${projectSchemaName(other, 'models')}"."file"`);
    // And project A's models are not even visible to B's editor.
    const list = await api<{ items: Model[] }>(t, 'GET', '/api/v1/dw-models', { token });
    expect(list.body.items.map((m) => m.name).sort()).toEqual(['file', 'steal']);
  });

  it('previews the first rows as the project role', async () => {
    const items = (
      await api<{ items: Model[] }>(t, 'GET', `/api/v1/dw-models?project_id=${projectId}`, { token: admin })
    ).body.items;
    const totals = items.find((m) => m.name === 'customer_totals')!;
    const preview = await api<{ columns: Array<{ name: string; type: string }>; rows: unknown[] }>(
      t,
      'POST',
      `/api/v1/dw-models/${totals.id}/preview`,
      { token: admin, body: { limit: 3 } },
    );
    expect(preview.status).toBe(200);
    expect(preview.body.columns).toEqual([
      { name: 'customer', type: 'text' },
      { name: 'total', type: 'numeric' },
      { name: 'orders', type: 'bigint' },
    ]);
    expect(preview.body.rows).toHaveLength(3);
  });

  it('keeps the catalog of a warehouse connector on the models schema current after a run', async () => {
    const connector = await api<{ id: string }>(t, 'POST', '/api/v1/data-connectors', {
      token: admin,
      body: { project_id: projectId, name: 'models', kind: 'warehouse', config: { schema: 'models' } },
    });
    expect(connector.status, JSON.stringify(connector.body)).toBe(201);
    await create({ name: 'catalogued', materialization: 'table', sql: "select 1 as a, 'x'::text as b" });
    const datasets = async () =>
      (
        await api<{ items: Array<{ id: string; name: string }> }>(
          t,
          'GET',
          `/api/v1/catalog/datasets?connector_id=${connector.body.id}`,
          { token: admin },
        )
      ).body.items;
    expect((await datasets()).map((d) => d.name)).not.toContain('catalogued');
    expect((await run(['catalogued'])).status).toBe('succeeded');
    // The refresh follows the run's success: wait for it.
    const deadline = Date.now() + 10_000;
    while (!(await datasets()).some((d) => d.name === 'catalogued') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const entry = (await datasets()).find((d) => d.name === 'catalogued');
    expect(entry).toBeDefined();
    const detail = await api<{ columns: Array<{ name: string; type: string }> }>(
      t,
      'GET',
      `/api/v1/catalog/datasets/${entry!.id}`,
      { token: admin },
    );
    expect(detail.body.columns.map((c) => [c.name, c.type])).toEqual([
      ['a', 'int32'],
      ['b', 'string'],
    ]);
  });
});
