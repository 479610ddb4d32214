/**
 * A new instance's first run: the `default` project exists with the administrator as its owner
 * (created once, whichever of several processes starts first), and the built-in sample syncs into
 * the built-in warehouse with no database of the user's own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectSchemaName } from '../../src/areas/connectivity/warehouse.js';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api } from '../support/http.js';
import { query, waitForStatus, type Execution } from '../support/runs.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';

describe('first run', () => {
  let database: TestDatabase;
  let apps: TestApp[];
  let admin: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    // Two processes booting together against one empty database.
    const env = { ...NO_RATE_LIMITS, SVC_CREATE_DEFAULT_PROJECT: 'true' };
    apps = await Promise.all([
      startTestApp({ database, env, worker: true }),
      startTestApp({ database, env, worker: false }),
    ]);
    admin = (await adminLogin(apps[0]!)).accessToken;
  });
  afterAll(async () => {
    for (const t of apps ?? []) await t.close();
    await database?.drop();
  });

  const projects = async () =>
    (
      await api<{ items: Array<{ id: string; name: string }> }>(apps[0]!, 'GET', '/api/v1/admin/projects', {
        token: admin,
      })
    ).body.items;

  it('creates the default project once, owned by the seeded administrator', async () => {
    const all = await projects();
    expect(all.map((p) => p.name)).toEqual(['default']);
    const members = await api<{ items: Array<{ username: string; role: string }> }>(
      apps[0]!,
      'GET',
      `/api/v1/admin/projects/${all[0]!.id}/members`,
      { token: admin },
    );
    expect(members.body.items).toEqual([expect.objectContaining({ username: 'admin', role: 'owner' })]);
  });

  it('syncs the built-in sample into the warehouse: a toy shop whose orders add up', async () => {
    const [project] = await projects();
    const connector = async (name: string, kind: string, config: Record<string, unknown>) => {
      const created = await api<{ id: string }>(apps[0]!, 'POST', '/api/v1/data-connectors', {
        token: admin,
        body: { project_id: project!.id, name, kind, config },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.id;
    };
    const sample = await connector('shop', 'sample', {});
    const warehouse = await connector('warehouse', 'warehouse', {});
    const discovered = await api<{ datasets: Array<{ name: string }> }>(
      apps[0]!,
      'POST',
      `/api/v1/data-connectors/${sample}/discover`,
      { token: admin },
    );
    expect(discovered.status).toBe(200);
    const tables = ['customers', 'products', 'orders', 'order_items'];
    const started = await api<Execution>(apps[0]!, 'POST', '/api/v1/executions', {
      token: admin,
      body: {
        kind: 'sync',
        project_id: project!.id,
        source_connector_id: sample,
        destination_connector_id: warehouse,
        streams: tables.map((name) => ({ name, mode: 'overwrite' })),
      },
    });
    expect(started.status).toBe(201);
    const done = await waitForStatus(apps[0]!, admin, started.body.id, ['succeeded', 'failed']);
    expect(done).toMatchObject({ status: 'succeeded', error: null });
    const warehouseUrl = apps[0]!.config.db.url!.replace(/\/([^/?]+)(\?.*)?$/, '/$1_warehouse$2');
    const schema = projectSchemaName(project!.id, 'main');
    const count = async (table: string) =>
      Number((await query(warehouseUrl, `select count(*) as n from "${schema}"."${table}"`)).rows[0].n);
    expect(await count('customers')).toBe(100);
    expect(await count('products')).toBe(50);
    expect(await count('orders')).toBe(1000);
    const lines = await count('order_items');
    expect(lines).toBeGreaterThanOrEqual(1000);
    expect(lines).toBeLessThanOrEqual(4000);
    expect(done.rows_written).toBe(100 + 50 + 1000 + lines);
    // Every order's total is the sum of its lines, and every line names a known order and product.
    const mismatched = await query(
      warehouseUrl,
      `select o.id from "${schema}".orders o
         join "${schema}".order_items i on i.order_id = o.id
         join "${schema}".products p on p.id = i.product_id and p.price = i.unit_price
        group by o.id, o.total having o.total <> sum(i.quantity * i.unit_price)`,
    );
    expect(mismatched.rows).toEqual([]);
    const orphans = await query(
      warehouseUrl,
      `select count(*) as n from "${schema}".order_items i
         left join "${schema}".orders o on o.id = i.order_id
         left join "${schema}".products p on p.id = i.product_id
        where o.id is null or p.id is null`,
    );
    expect(Number(orphans.rows[0].n)).toBe(0);
    const types = await query(
      warehouseUrl,
      `select format_type(atttypid, atttypmod) as type from pg_attribute
        where attrelid = $1::regclass and attname = 'total'`,
      [`"${schema}".orders`],
    );
    expect(types.rows[0].type).toBe('numeric(10,2)');
  });

  it('does not create the project again on a later boot, also when it was deleted', async () => {
    const [project] = await projects();
    const removed = await api(apps[0]!, 'DELETE', `/api/v1/admin/projects/${project!.id}`, { token: admin });
    expect(removed.status).toBe(204);
    const later = await startTestApp({ database, env: { SVC_CREATE_DEFAULT_PROJECT: 'true' } });
    apps.push(later);
    expect(await projects()).toEqual([]);
  });
});
