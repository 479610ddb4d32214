/**
 * What every connector must do, as one suite each connector runs against its real server: check
 * (ok, and a precise failure), discover, read (full, and incremental where supported), write in
 * each write mode it advertises, a round trip of every canonical type it supports, and close after
 * a failure. A new connector adds one `connectorContract(...)` call to its integration test.
 *
 * Every dataset of the suite is named `contract_*` and has an int32 `id` first: rows are compared
 * in id order, whatever order the source returns them in.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  CanonicalType,
  ColumnSchema,
  ConnectorDefinition,
  ConnectorErrorCode,
  ConnectorHandle,
  DatasetRef,
  RecordBatch,
  Value,
  WriteMode,
} from '../types.js';
import { CANONICAL_COLUMNS, CANONICAL_ROWS, batchesOf, col, collect, rowsOf } from './support.js';

export interface ContractSubject {
  /** What the connector advertises decides what is checked: reads, writes, write modes. */
  capabilities: ConnectorDefinition['capabilities'];
  /** A handle on a working configuration; the suite closes every handle it opens. */
  open(): ConnectorHandle | Promise<ConnectorHandle>;
  /** A handle on a configuration that cannot work, and the code its check must answer with. */
  broken: { open(): ConnectorHandle | Promise<ConnectorHandle>; code: ConnectorErrorCode };
  /** How the connector names the dataset `name`. */
  dataset(name: string): DatasetRef;
  /** Read-only connectors: puts rows into the source by the server's own means. Writable ones are seeded by their own write. */
  seed?(name: string, columns: ColumnSchema[], rows: Value[][]): Promise<void>;
  /** Whether reads honour `incremental` (rows past the cursor, in cursor order). */
  incremental: boolean;
  /**
   * Values of every canonical type the connector supports (default: the shared canonical rows), and
   * what reading them back gives when the source cannot keep a type (default: exactly what went in).
   */
  canonical?: { columns: ColumnSchema[]; rows: Value[][]; back?: { types: CanonicalType[]; rows: Value[][] } };
}

/** Names of the datasets the suite reads and writes. */
export const CONTRACT_DATASETS = [
  'contract_people',
  'contract_types',
  'contract_append',
  'contract_overwrite',
  'contract_upsert',
] as const;

const PEOPLE_COLUMNS = [col('id', 'int32'), col('name', 'string')];
/** Enough rows for several batches of 1,000, with text that escapes and a null. */
const PEOPLE_ROWS: Value[][] = Array.from({ length: 2_500 }, (_, i) => [
  i + 1,
  i === 41 ? null : `person ${i + 1}, "quoted"\ttab`,
]);

const byId = (rows: Value[][]) => [...rows].sort((a, b) => Number(a[0]) - Number(b[0]));

export function connectorContract(name: string, subject: ContractSubject) {
  describe(`${name}: the connector contract`, () => {
    const opened: ConnectorHandle[] = [];
    const open = async () => {
      const handle = await subject.open();
      opened.push(handle);
      return handle;
    };
    const readAll = async (
      handle: ConnectorHandle,
      dataset: string,
      extra: { batchSize?: number; after?: Value } = {},
    ) =>
      collect(
        handle.read!({
          dataset: subject.dataset(dataset),
          ...(extra.batchSize ? { batchSize: extra.batchSize } : {}),
          ...(extra.after !== undefined ? { incremental: { cursorColumn: 'id', after: extra.after } } : {}),
        }),
      );
    const seed = async (dataset: string, columns: ColumnSchema[], rows: Value[][]) => {
      if (subject.seed) return subject.seed(dataset, columns, rows);
      const handle = await open();
      await handle.write!(
        { dataset: subject.dataset(dataset), mode: 'overwrite', columns, runId: `seed-${dataset}` },
        batchesOf(columns, rows),
      );
    };
    const write = async (dataset: string, mode: WriteMode, rows: Value[][], runId: string) => {
      const handle = await open();
      const request = {
        dataset: subject.dataset(dataset),
        mode,
        columns: PEOPLE_COLUMNS,
        runId,
        ...(mode === 'upsert' ? { keyColumns: ['id'] } : {}),
      };
      return handle.write!(request, batchesOf(PEOPLE_COLUMNS, rows));
    };

    beforeAll(async () => {
      if (subject.capabilities.read) await seed('contract_people', PEOPLE_COLUMNS, PEOPLE_ROWS);
      return async () => {
        for (const handle of opened) await handle.close();
      };
    });

    it('checks a working configuration as ok', async () => {
      expect(await (await open()).check()).toMatchObject({ ok: true });
    });

    it('names the cause of a failing configuration, and closes after it', async () => {
      const broken = await subject.broken.open();
      const result = await broken.check();
      expect(result).toMatchObject({ ok: false, code: subject.broken.code });
      expect(result.ok === false && result.message.length > 0).toBe(true);
      await expect(broken.close()).resolves.toBeUndefined();
    });

    it.runIf(subject.capabilities.read)('discovers a dataset with its columns in order', async () => {
      const datasets = await (await open()).discover();
      const people = datasets.find((d) => d.name === 'contract_people');
      expect(people, `datasets: ${datasets.map((d) => d.name).join(', ')}`).toBeDefined();
      expect(people!.columns.map((c) => c.name)).toEqual(['id', 'name']);
    });

    it.runIf(subject.capabilities.read)('reads every row, each value as it is in the source', async () => {
      const batches = await readAll(await open(), 'contract_people', { batchSize: 1_000 });
      expect(batches.length).toBeGreaterThan(0);
      expect(batches[0]!.columns.map((c) => [c.name, c.type])).toEqual([
        ['id', 'int32'],
        ['name', 'string'],
      ]);
      for (const batch of batches) for (const row of batch.rows) expect(row).toHaveLength(2);
      expect(byId(rowsOf(batches))).toEqual(PEOPLE_ROWS);
    });

    it.runIf(subject.capabilities.read && subject.incremental)(
      'reads incrementally: only rows past the cursor, in cursor order',
      async () => {
        const rows = rowsOf(await readAll(await open(), 'contract_people', { after: 2_450 }));
        expect(rows).toEqual(PEOPLE_ROWS.slice(2_450));
        expect(rowsOf(await readAll(await open(), 'contract_people', { after: 2_500 }))).toEqual([]);
      },
    );

    it.runIf(subject.capabilities.read)(
      'fails a read of a dataset that does not exist, and closes after it',
      async () => {
        const handle = await subject.open();
        await expect(readAll(handle, 'contract_no_such_dataset')).rejects.toThrow();
        await expect(handle.close()).resolves.toBeUndefined();
      },
    );

    it.runIf(subject.capabilities.writeModes.includes('append'))(
      'appends: rows of each run are added to what is there',
      async () => {
        expect(
          await write(
            'contract_append',
            'append',
            [
              [1, 'ada'],
              [2, 'bob'],
            ],
            'run-1',
          ),
        ).toMatchObject({ rowsWritten: 2 });
        expect(await write('contract_append', 'append', [[3, 'cy']], 'run-2')).toMatchObject({ rowsWritten: 1 });
        expect(byId(rowsOf(await readAll(await open(), 'contract_append')))).toEqual([
          [1, 'ada'],
          [2, 'bob'],
          [3, 'cy'],
        ]);
      },
    );

    it.runIf(subject.capabilities.writeModes.includes('overwrite'))(
      'overwrites: only the new rows remain',
      async () => {
        await write(
          'contract_overwrite',
          'overwrite',
          [
            [1, 'ada'],
            [2, 'bob'],
          ],
          'run-1',
        );
        expect(await write('contract_overwrite', 'overwrite', [[9, 'zed']], 'run-2')).toMatchObject({ rowsWritten: 1 });
        expect(rowsOf(await readAll(await open(), 'contract_overwrite'))).toEqual([[9, 'zed']]);
      },
    );

    it.runIf(subject.capabilities.writeModes.includes('upsert'))(
      'upserts: rows with a known key are replaced, new keys added',
      async () => {
        await write(
          'contract_upsert',
          'upsert',
          [
            [1, 'ada'],
            [2, 'bob'],
          ],
          'run-1',
        );
        expect(
          await write(
            'contract_upsert',
            'upsert',
            [
              [2, 'bobby'],
              [3, 'cy'],
            ],
            'run-2',
          ),
        ).toMatchObject({ rowsWritten: 2 });
        expect(byId(rowsOf(await readAll(await open(), 'contract_upsert')))).toEqual([
          [1, 'ada'],
          [2, 'bobby'],
          [3, 'cy'],
        ]);
      },
    );

    it.runIf(subject.capabilities.write)('closes after a failed write', async () => {
      const handle = await subject.open();
      async function* failing(): AsyncIterable<RecordBatch> {
        yield { columns: PEOPLE_COLUMNS, rows: [[1, 'half']] };
        throw new Error('source went away');
      }
      await expect(
        handle.write!(
          {
            dataset: subject.dataset('contract_failed'),
            mode: subject.capabilities.writeModes[0]!,
            columns: PEOPLE_COLUMNS,
            runId: 'failing',
            keyColumns: ['id'],
          },
          failing(),
        ),
      ).rejects.toThrow('source went away');
      await expect(handle.close()).resolves.toBeUndefined();
    });

    it.runIf(subject.capabilities.read)('round-trips a value of every canonical type it supports', async () => {
      const { columns, rows, back } = subject.canonical ?? { columns: CANONICAL_COLUMNS, rows: CANONICAL_ROWS };
      expect(columns[0]).toMatchObject({ name: 'id' });
      await seed('contract_types', columns, rows);
      const batches = await readAll(await open(), 'contract_types');
      expect(batches[0]!.columns.map((c) => c.name)).toEqual(columns.map((c) => c.name));
      expect(batches[0]!.columns.map((c) => c.type)).toEqual(back?.types ?? columns.map((c) => c.type));
      expect(byId(rowsOf(batches))).toEqual(back?.rows ?? rows);
    });
  });
}
