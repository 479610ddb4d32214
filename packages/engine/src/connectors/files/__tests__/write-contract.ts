/**
 * What every files-like connector (local directory, SFTP) must do when writing, as one suite that
 * both connector tests run against their own store.
 */
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { batchesOf, col, collect, dataset, rowsOf } from '../../../__tests__/support.js';
import type { ConnectorHandle, RecordBatch } from '../../../types.js';

export function fileWriteContract(
  open: (format: 'csv' | 'ndjson' | 'parquet') => ConnectorHandle,
  directory: () => string,
) {
  describe.each(['csv', 'ndjson', 'parquet'] as const)('writes (%s)', (format) => {
    const columns = [col('id', 'int32'), col('name', 'string')];
    const ext = `.${format}`;

    it('appends one file per run; a retried run replaces its own file instead of adding rows twice', async () => {
      const handle = open(format);
      const target = dataset('people');
      await handle.write!(
        { dataset: target, mode: 'append', columns, runId: 'run1' },
        batchesOf(columns, [
          [1, 'ada'],
          [2, 'bob'],
        ]),
      );
      await handle.write!({ dataset: target, mode: 'append', columns, runId: 'run2' }, batchesOf(columns, [[3, 'cy']]));
      await handle.write!({ dataset: target, mode: 'append', columns, runId: 'run2' }, batchesOf(columns, [[3, 'cy']]));
      expect((await readdir(directory())).sort()).toEqual(
        [`people${ext}`, `people-run1${ext}`, `people-run2${ext}`].sort(),
      );
      const read = rowsOf(await collect(handle.read!({ dataset: target })));
      expect(read.sort((a, b) => (a[0] as number) - (b[0] as number))).toEqual([
        [1, 'ada'],
        [2, 'bob'],
        [3, 'cy'],
      ]);
      const discovered = await handle.discover();
      expect(discovered.map((d) => d.name)).toEqual(['people']);
      if (format === 'parquet') expect(discovered[0]!.rowEstimate).toBe(3);
    });

    it('overwrites atomically: old rows and run files replaced; a failed overwrite leaves the old rows and no stray file', async () => {
      const handle = open(format);
      const target = dataset('people');
      await handle.write!(
        { dataset: target, mode: 'append', columns, runId: 'run1' },
        batchesOf(columns, [[1, 'ada']]),
      );
      await handle.write!(
        { dataset: target, mode: 'append', columns, runId: 'run2' },
        batchesOf(columns, [[2, 'bob']]),
      );
      const wider = [...columns, col('email', 'string')];
      expect(
        await handle.write!(
          { dataset: target, mode: 'overwrite', columns: wider, runId: 'run3' },
          batchesOf(wider, [[9, 'zed', 'z@example.com']]),
        ),
      ).toEqual({ rowsWritten: 1 });
      expect(await readdir(directory())).toEqual([`people${ext}`]);
      expect(rowsOf(await collect(handle.read!({ dataset: target })))).toEqual([[9, 'zed', 'z@example.com']]);

      async function* failing(): AsyncIterable<RecordBatch> {
        yield { columns: wider, rows: [[10, 'half', null]] };
        throw new Error('source went away');
      }
      await expect(
        handle.write!({ dataset: target, mode: 'overwrite', columns: wider, runId: 'run4' }, failing()),
      ).rejects.toThrow('source went away');
      expect(await readdir(directory())).toEqual([`people${ext}`]);
      expect(rowsOf(await collect(handle.read!({ dataset: target })))).toEqual([[9, 'zed', 'z@example.com']]);
    });
  });
}
