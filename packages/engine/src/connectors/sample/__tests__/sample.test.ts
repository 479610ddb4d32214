import { describe, expect, it } from 'vitest';
import { collect, dataset, quiet, rowsOf } from '../../../__tests__/support.js';
import { sampleConnector } from '../definition.js';

describe('the built-in sample connector', () => {
  const open = (scale?: number) => sampleConnector.open(scale ? { scale } : {}, quiet);

  it('discovers the four tables of the toy shop with their keys', async () => {
    const handle = await open(2);
    const schemas = await handle.discover();
    expect(schemas.map((s) => [s.name, s.primaryKey, s.rowEstimate])).toEqual([
      ['customers', ['id'], 200],
      ['products', ['id'], 50],
      ['orders', ['id'], 2000],
      ['order_items', ['id'], 5000],
    ]);
    expect(await handle.check()).toMatchObject({ ok: true });
  });

  it('gives the same rows on every read, in batches, scaled', async () => {
    const handle = await open(3);
    const first = rowsOf(await collect(handle.read!({ dataset: dataset('orders'), batchSize: 700 })));
    const again = rowsOf(await collect(handle.read!({ dataset: dataset('orders') })));
    expect(first).toHaveLength(3000);
    expect(again).toEqual(first);
    expect(first.map((row) => row[0])).toEqual(Array.from({ length: 3000 }, (_, i) => i + 1));
    // Customer ids point at customers of the same scale.
    expect(Math.max(...first.map((row) => Number(row[1])))).toBeLessThanOrEqual(300);
    expect(first[0]![2]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000000Z$/);
  });

  it('reads incrementally past an id and up to a bound, and only the columns asked for', async () => {
    const handle = await open();
    const all = rowsOf(await collect(handle.read!({ dataset: dataset('customers') })));
    const later = rowsOf(
      await collect(
        handle.read!({
          dataset: dataset('customers'),
          columns: ['email', 'id'],
          incremental: { cursorColumn: 'id', after: 95, upTo: 98 },
        }),
      ),
    );
    expect(later).toEqual(all.slice(95, 98).map((row) => [row[2], row[0]]));
  });

  it('names an unknown dataset, column or cursor', async () => {
    const handle = await open();
    await expect(collect(handle.read!({ dataset: dataset('nope') }))).rejects.toMatchObject({ code: 'not_found' });
    await expect(collect(handle.read!({ dataset: dataset('orders'), columns: ['x'] }))).rejects.toThrow(
      /no column "x"/,
    );
    await expect(
      collect(handle.read!({ dataset: dataset('orders'), incremental: { cursorColumn: 'status', after: 'a' } })),
    ).rejects.toMatchObject({ code: 'unsupported' });
  });
});
