import { mkdtempSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteFile } from 'hyparquet-writer';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectorHandle } from '../../../types.js';
import { filesConnector, openFiles, type FilesConfig } from '../definition.js';
import {
  CANONICAL_COLUMNS,
  CANONICAL_DOC,
  CANONICAL_ROWS,
  batchesOf,
  col,
  collect,
  dataset,
  quiet,
  rowsOf,
} from '../../../__tests__/support.js';
import { connectorContract } from '../../../__tests__/contract.js';
import { fileWriteContract } from './write-contract.js';

// Parquet: the format that keeps every canonical type, so the round trip is exact.
const contractDir = mkdtempSync(join(tmpdir(), 'svc-files-contract-'));
afterAll(() => rm(contractDir, { recursive: true, force: true }));
connectorContract('files', {
  capabilities: filesConnector.capabilities,
  open: () => openFiles({ path: contractDir, format: 'parquet' }, quiet),
  broken: {
    open: () => openFiles({ path: join(contractDir, 'no_such_directory'), format: 'parquet' }, quiet),
    code: 'not_found',
  },
  dataset,
  incremental: true,
});

describe('files connector', () => {
  let dir: string;
  const open = (format: FilesConfig['format'], extra: Partial<FilesConfig> = {}): ConnectorHandle =>
    openFiles({ path: dir, format, ...extra }, quiet);

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-files-'));
  });
  afterEach(async () => {
    await chmod(dir, 0o755).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  it('is registered with its kind, capabilities and spec', async () => {
    expect(filesConnector).toMatchObject({
      kind: 'files',
      title: 'Files (local directory)',
      version: 1,
      capabilities: { read: true, write: true, writeModes: ['append', 'overwrite'] },
    });
    expect(filesConnector.spec.required).toEqual(['path', 'format']);
    expect(filesConnector.spec).toMatchObject({ additionalProperties: false });
    expect(filesConnector.spec.properties['format']!['enum']).toEqual(['csv', 'tsv', 'json', 'ndjson', 'parquet']);
    const handle = await filesConnector.open({ path: dir, format: 'csv' }, quiet);
    expect(await handle.check()).toEqual({ ok: true });
    await handle.close();
  });

  it('checks the directory: ok, missing, not a directory, relative path', async () => {
    expect(await open('csv').check()).toEqual({ ok: true });
    expect(await openFiles({ path: join(dir, 'nope'), format: 'csv' }, quiet).check()).toMatchObject({
      ok: false,
      code: 'not_found',
    });
    await writeFile(join(dir, 'plain.csv'), 'a\n1\n');
    expect(await openFiles({ path: join(dir, 'plain.csv'), format: 'csv' }, quiet).check()).toMatchObject({
      ok: false,
      code: 'invalid_config',
    });
    expect(await openFiles({ path: 'relative/dir', format: 'csv' }, quiet).check()).toMatchObject({
      ok: false,
      code: 'invalid_config',
    });
    await expect(openFiles({ path: join(dir, 'nope'), format: 'csv' }, quiet).discover()).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it.skipIf(process.getuid?.() === 0)('reports a read-only directory as a missing privilege', async () => {
    const readOnly = join(dir, 'ro');
    await mkdir(readOnly);
    await chmod(readOnly, 0o555);
    expect(await openFiles({ path: readOnly, format: 'csv' }, quiet).check()).toMatchObject({
      ok: false,
      code: 'missing_privilege',
    });
    await chmod(readOnly, 0o755);
  });

  it('discovers a CSV with a header: types inferred from the values, quoted text intact', async () => {
    await writeFile(
      join(dir, 'orders.csv'),
      [
        'id,big,price,active,day,seen,local,note,blank,precise',
        '1,9007199254740993,12.50,true,2024-02-29,2024-02-29T12:34:56.789+02:00,2024-02-29 12:34:56,"text, with ""quotes""\nand a newline",,12345678901234.567890',
        '2,-9223372036854775808,0.1,FALSE,2023-01-01,2023-01-01T00:00:00Z,2023-01-01T00:00:00.5,plain,,1.5',
        '3,42,-7,true,2023-12-31,2023-12-31T23:59:59.999999Z,2023-12-31T23:59:59,"",,2',
      ].join('\r\n') + '\r\n',
    );
    await writeFile(join(dir, 'notes.txt'), 'not a dataset');
    const handle = open('csv');
    const [orders, ...others] = await handle.discover();
    expect(others).toEqual([]);
    expect(orders).toEqual({
      namespace: null,
      name: 'orders',
      primaryKey: [],
      rowEstimate: null,
      columns: [
        { name: 'id', type: 'int32', sourceType: 'text', nullable: false },
        { name: 'big', type: 'int64', sourceType: 'text', nullable: false },
        { name: 'price', type: 'float64', sourceType: 'text', nullable: false },
        { name: 'active', type: 'boolean', sourceType: 'text', nullable: false },
        { name: 'day', type: 'date', sourceType: 'text', nullable: false },
        { name: 'seen', type: 'timestamptz', sourceType: 'text', nullable: false },
        { name: 'local', type: 'timestamp', sourceType: 'text', nullable: false },
        { name: 'note', type: 'string', sourceType: 'text', nullable: false },
        { name: 'blank', type: 'string', sourceType: 'text', nullable: true },
        { name: 'precise', type: 'decimal', sourceType: 'text', nullable: false },
      ],
    });
    const rows = rowsOf(await collect(handle.read!({ dataset: dataset('orders') })));
    expect(rows).toEqual([
      [
        1,
        '9007199254740993',
        12.5,
        true,
        '2024-02-29',
        '2024-02-29T10:34:56.789000Z',
        '2024-02-29T12:34:56',
        'text, with "quotes"\nand a newline',
        null,
        '12345678901234.567890',
      ],
      [
        2,
        '-9223372036854775808',
        0.1,
        false,
        '2023-01-01',
        '2023-01-01T00:00:00.000000Z',
        '2023-01-01T00:00:00.5',
        'plain',
        null,
        '1.5',
      ],
      [3, '42', -7, true, '2023-12-31', '2023-12-31T23:59:59.999999Z', '2023-12-31T23:59:59', '', null, '2'],
    ]);
  });

  it('reads TSV and CSV with another delimiter, and CSV without a header', async () => {
    await writeFile(join(dir, 'people.tsv'), 'name\tage\nada, lovelace\t36\n');
    expect(rowsOf(await collect(open('tsv').read!({ dataset: dataset('people') })))).toEqual([['ada, lovelace', 36]]);
    await writeFile(join(dir, 'semi.csv'), 'a;b\n1;x,y\n');
    expect(rowsOf(await collect(open('csv', { delimiter: ';' }).read!({ dataset: dataset('semi') })))).toEqual([
      [1, 'x,y'],
    ]);
    await writeFile(join(dir, 'bare.txt'), '1,one\n2,two\n');
    const headless = open('csv', { header: false, pattern: '*.txt' });
    expect((await headless.discover()).map((d) => [d.name, d.columns.map((c) => `${c.name}:${c.type}`)])).toEqual([
      ['bare', ['column_1:int32', 'column_2:string']],
    ]);
  });

  it('infers int32 up to its exact bounds, int64 past them, and skips an unreadable file with a warning', async () => {
    await writeFile(join(dir, 'bounds.csv'), 'a,b,c\n-2147483648,2147483648,1.5\n2147483647,-2147483649,1e400\n');
    await writeFile(join(dir, 'broken.parquet'), 'not parquet at all');
    await writeFile(join(dir, 'empty.parquet'), '');
    const [bounds] = await open('csv').discover();
    expect(bounds!.columns.map((c) => c.type)).toEqual(['int32', 'int64', 'decimal']);
    const warnings: unknown[] = [];
    const parquet = openFiles(
      { path: dir, format: 'parquet' },
      { log: (level, message, fields) => warnings.push([level, message, fields?.['dataset']]) },
    );
    expect(await parquet.discover()).toEqual([]);
    expect(warnings).toEqual([
      ['warn', 'skipping a dataset whose files cannot be read', 'broken'],
      ['warn', 'skipping a dataset whose files cannot be read', 'empty'],
    ]);
  });

  it('discovers NDJSON with nested objects, missing keys and integers beyond 2^53', async () => {
    await writeFile(
      join(dir, 'events.ndjson'),
      [
        '{"id":1,"user":{"name":"ada","tags":["x",1]},"amount":9223372036854775807,"at":"2024-01-01T10:00:00+01:00","note":null}',
        '',
        '{"id":2,"user":{"name":"bob","tags":[]},"amount":-5,"at":"2024-01-02T00:00:00Z","extra":true}',
      ].join('\n'),
    );
    const [events] = await open('ndjson').discover();
    expect(events!.columns).toEqual([
      { name: 'id', type: 'int32', sourceType: 'number', nullable: false },
      { name: 'user', type: 'json', sourceType: 'object', nullable: false },
      { name: 'amount', type: 'int64', sourceType: 'number', nullable: false },
      { name: 'at', type: 'timestamptz', sourceType: 'string', nullable: false },
      { name: 'note', type: 'string', sourceType: 'null', nullable: true },
      { name: 'extra', type: 'boolean', sourceType: 'boolean', nullable: true },
    ]);
    const rows = rowsOf(await collect(open('ndjson').read!({ dataset: dataset('events') })));
    expect(rows).toEqual([
      [1, { name: 'ada', tags: ['x', 1] }, '9223372036854775807', '2024-01-01T09:00:00.000000Z', null, null],
      [2, { name: 'bob', tags: [] }, '-5', '2024-01-02T00:00:00.000000Z', null, true],
    ]);
  });

  it('maps the types of a Parquet file written elsewhere', async () => {
    parquetWriteFile({
      filename: join(dir, 'foreign.parquet'),
      columnData: [
        { name: 'i32', data: [1, -2] },
        { name: 'i64', data: [9007199254740993n, null] },
        { name: 'price', data: [123456789012345678n, -5n] },
        { name: 'ms', data: [1709210096789n, 0n] },
        { name: 'ns', data: [1709210096789012345n, -1n] },
        { name: 'ratio', data: [0.5, null] },
        { name: 'ok', data: [true, false] },
        { name: 'title', data: ['a', null] },
        { name: 'meta', data: [{ k: [1] }, null] },
        { name: 'day', data: [19782, null] },
        { name: 'blob', data: [new Uint8Array([7, 8]), null] },
      ],
      schema: [
        { name: 'root', num_children: 11 },
        { name: 'i32', type: 'INT32', repetition_type: 'REQUIRED' },
        { name: 'i64', type: 'INT64', repetition_type: 'OPTIONAL' },
        {
          name: 'price',
          type: 'INT64',
          converted_type: 'DECIMAL',
          precision: 18,
          scale: 2,
          repetition_type: 'REQUIRED',
        },
        { name: 'ms', type: 'INT64', converted_type: 'TIMESTAMP_MILLIS', repetition_type: 'REQUIRED' },
        {
          name: 'ns',
          type: 'INT64',
          logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'NANOS' },
          repetition_type: 'REQUIRED',
        },
        { name: 'ratio', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
        { name: 'ok', type: 'BOOLEAN', repetition_type: 'REQUIRED' },
        { name: 'title', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
        { name: 'meta', type: 'BYTE_ARRAY', converted_type: 'JSON', repetition_type: 'OPTIONAL' },
        { name: 'day', type: 'INT32', converted_type: 'DATE', repetition_type: 'OPTIONAL' },
        { name: 'blob', type: 'BYTE_ARRAY', repetition_type: 'OPTIONAL' },
      ],
    });
    const [foreign] = await open('parquet').discover();
    expect(foreign).toMatchObject({ name: 'foreign', rowEstimate: 2, primaryKey: [] });
    expect(foreign!.columns.map((c) => [c.name, c.type, c.nullable])).toEqual([
      ['i32', 'int32', false],
      ['i64', 'int64', true],
      ['price', 'decimal', false],
      ['ms', 'timestamptz', false],
      ['ns', 'timestamp', false],
      ['ratio', 'float64', true],
      ['ok', 'boolean', false],
      ['title', 'string', true],
      ['meta', 'json', true],
      ['day', 'date', true],
      ['blob', 'binary', true],
    ]);
    expect(foreign!.columns[2]).toMatchObject({ precision: 18, scale: 2, sourceType: 'INT64 DECIMAL(18, 2)' });
    expect(rowsOf(await collect(open('parquet').read!({ dataset: dataset('foreign'), batchSize: 1 })))).toEqual([
      [
        1,
        '9007199254740993',
        '1234567890123456.78',
        '2024-02-29T12:34:56.789000Z',
        '2024-02-29T12:34:56.789012',
        0.5,
        true,
        'a',
        { k: [1] },
        '2024-02-29',
        Buffer.from([7, 8]),
      ],
      [
        -2,
        null,
        '-0.05',
        '1970-01-01T00:00:00.000000Z',
        '1969-12-31T23:59:59.999999',
        null,
        false,
        null,
        null,
        null,
        null,
      ],
    ]);
  });

  describe('round trip of every canonical type', () => {
    const columns = CANONICAL_COLUMNS;
    const doc = CANONICAL_DOC;
    const rows = CANONICAL_ROWS;
    const roundTrip = async (format: FilesConfig['format']) => {
      const handle = open(format);
      const summary = await handle.write!(
        { dataset: dataset('all_types'), mode: 'overwrite', columns, runId: 'r1' },
        batchesOf(columns, rows.slice(0, 2), rows.slice(2)),
      );
      expect(summary).toEqual({ rowsWritten: 3 });
      const batches = await collect(handle.read!({ dataset: dataset('all_types') }));
      return { types: batches[0]!.columns.map((c) => c.type), rows: rowsOf(batches), schema: batches[0]!.columns };
    };

    it('parquet keeps every type and value exactly', async () => {
      const back = await roundTrip('parquet');
      expect(back.types).toEqual(columns.map((c) => c.type));
      expect(back.schema.find((c) => c.name === 'money')).toMatchObject({
        precision: 20,
        scale: 6,
        sourceType: 'FIXED_LEN_BYTE_ARRAY(9) DECIMAL(20, 6)',
      });
      expect(back.rows).toEqual(rows);
      const [described] = await open('parquet').discover();
      expect(described).toMatchObject({ name: 'all_types', rowEstimate: 3 });
      expect(described!.columns.map((c) => c.type)).toEqual(columns.map((c) => c.type));
    });

    it('parquet stores a decimal without precision as text and still reads it back as decimal', async () => {
      const handle = open('parquet');
      const cols = [col('amount', 'decimal'), col('n', 'int64')];
      await handle.write!(
        { dataset: dataset('loose'), mode: 'append', columns: cols, runId: 'a' },
        batchesOf(cols, [
          ['123456789012345678901234567890.123456789', '1'],
          [null, null],
        ]),
      );
      const batches = await collect(handle.read!({ dataset: dataset('loose') }));
      expect(batches[0]!.columns.map((c) => c.type)).toEqual(['decimal', 'int64']);
      expect(rowsOf(batches)).toEqual([
        ['123456789012345678901234567890.123456789', '1'],
        [null, null],
      ]);
    });

    it('csv keeps values, with the types text can express: int16 -> int32, float32 -> float64, uuid, json and binary (base64) -> string', async () => {
      const back = await roundTrip('csv');
      expect(back.types).toEqual([
        'int32',
        'boolean',
        'int32',
        'int64',
        'float64',
        'float64',
        'decimal',
        'string',
        'string',
        'date',
        'time',
        'timestamp',
        'timestamptz',
        'string',
        'string',
      ]);
      const text = [
        [...rows[0]!.slice(0, 13), JSON.stringify(doc), 'AAEC/v8='],
        [...rows[1]!.slice(0, 13), '[]', ''],
        rows[2],
      ];
      expect(back.rows).toEqual(text);
      // An empty string and a null stay apart: "" versus nothing.
      expect(await readFile(join(dir, 'all_types.csv'), 'utf8')).toContain('\n3,,,,,,,,,,,,,,\n');
    });

    it.each(['ndjson', 'json'] as const)(
      '%s keeps values; uuid and binary (base64) come back as string, int16/float32 as int32/float64',
      async (format) => {
        const back = await roundTrip(format);
        expect(back.types).toEqual([
          'int32',
          'boolean',
          'int32',
          'int64',
          'float64',
          'float64',
          'decimal',
          'string',
          'string',
          'date',
          'time',
          'timestamp',
          'timestamptz',
          'json',
          'string',
        ]);
        expect(back.rows).toEqual([[...rows[0]!.slice(0, 14), 'AAEC/v8='], [...rows[1]!.slice(0, 14), ''], rows[2]]);
      },
    );
  });

  fileWriteContract(
    (format) => open(format),
    () => dir,
  );

  it('reads a 25,000-row CSV in 3 batches of at most 10,000 rows', async () => {
    const lines = ['id,payload'];
    for (let i = 1; i <= 25_000; i += 1) lines.push(`${i},${'x'.repeat(20)}`);
    await writeFile(join(dir, 'big.csv'), `${lines.join('\n')}\n`);
    const batches = await collect(open('csv').read!({ dataset: dataset('big') }));
    expect(batches.map((b) => b.rows.length)).toEqual([10_000, 10_000, 5_000]);
    expect(batches[2]!.rows.at(-1)).toEqual([25_000, 'xxxxxxxxxxxxxxxxxxxx']);
  });

  it('reads a 25,000-row Parquet file in row ranges of the batch size', async () => {
    const handle = open('parquet');
    const columns = [col('id', 'int64'), col('payload', 'string')];
    const chunk = (from: number) => Array.from({ length: 5_000 }, (_, i) => [String(from + i), `p${from + i}`]);
    await handle.write!(
      { dataset: dataset('big'), mode: 'overwrite', columns, runId: 'r' },
      batchesOf(columns, chunk(1), chunk(5_001), chunk(10_001), chunk(15_001), chunk(20_001)),
    );
    const batches = await collect(handle.read!({ dataset: dataset('big'), batchSize: 10_000 }));
    expect(batches.map((b) => b.rows.length)).toEqual([10_000, 10_000, 5_000]);
    expect(batches[1]!.rows[0]).toEqual(['10001', 'p10001']);
  });

  it('reads incrementally past a cursor (numbers numerically, text lexicographically) and only the requested columns', async () => {
    await writeFile(
      join(dir, 'ticks.csv'),
      ['id,big,at,body', '30,10,2024-01-03,c', '2,9,2024-01-01,a', '26,100,2024-01-02,b', '25,11,2023-12-31,d'].join(
        '\n',
      ),
    );
    const handle = open('csv');
    const byId = await collect(
      handle.read!({ dataset: dataset('ticks'), columns: ['body'], incremental: { cursorColumn: 'id', after: 25 } }),
    );
    expect(byId[0]!.columns.map((c) => c.name)).toEqual(['body']);
    expect(rowsOf(byId)).toEqual([['c'], ['b']]);
    const byBig = await collect(
      open('csv').read!({
        dataset: dataset('ticks'),
        columns: ['body'],
        incremental: { cursorColumn: 'big', after: '10' },
      }),
    );
    expect(rowsOf(byBig)).toEqual([['b'], ['d']]);
    const byDate = await collect(
      open('csv').read!({
        dataset: dataset('ticks'),
        columns: ['at', 'body'],
        incremental: { cursorColumn: 'at', after: '2024-01-01' },
      }),
    );
    expect(rowsOf(byDate)).toEqual([
      ['2024-01-03', 'c'],
      ['2024-01-02', 'b'],
    ]);
    await expect(collect(handle.read!({ dataset: dataset('ticks'), columns: ['nope'] }))).rejects.toMatchObject({
      code: 'schema_mismatch',
    });
  });

  it('refuses dataset names and run ids that leave the directory, and upserts', async () => {
    const handle = open('csv');
    const columns = [col('a', 'int32')];
    await expect(collect(handle.read!({ dataset: dataset('../etc/passwd') }))).rejects.toMatchObject({
      code: 'invalid_config',
    });
    await expect(
      handle.write!({ dataset: dataset('../escape'), mode: 'append', columns, runId: 'r' }, batchesOf(columns, [[1]])),
    ).rejects.toMatchObject({ code: 'invalid_config' });
    await expect(
      handle.write!(
        { dataset: dataset('..\\escape'), mode: 'overwrite', columns, runId: 'r' },
        batchesOf(columns, [[1]]),
      ),
    ).rejects.toMatchObject({ code: 'invalid_config' });
    await expect(
      handle.write!({ dataset: dataset('sub/dir'), mode: 'overwrite', columns, runId: 'r' }, batchesOf(columns, [[1]])),
    ).rejects.toMatchObject({ code: 'invalid_config' });
    await expect(
      handle.write!({ dataset: dataset('.hidden'), mode: 'overwrite', columns, runId: 'r' }, batchesOf(columns, [[1]])),
    ).rejects.toMatchObject({ code: 'invalid_config' });
    await expect(
      handle.write!({ dataset: dataset('fine'), mode: 'append', columns, runId: '../../r' }, batchesOf(columns, [[1]])),
    ).rejects.toMatchObject({ code: 'invalid_config' });
    await expect(
      handle.write!(
        { dataset: dataset('fine'), mode: 'upsert', keyColumns: ['a'], columns, runId: 'r' },
        batchesOf(columns, [[1]]),
      ),
    ).rejects.toMatchObject({ code: 'unsupported' });
    await expect(collect(handle.read!({ dataset: dataset('missing') }))).rejects.toMatchObject({ code: 'not_found' });
    expect(await readdir(dir)).toEqual([]);
    expect(await readdir(join(dir, '..'))).not.toContain('escape.csv');
  });

  it('fails a read whose value past the inference sample does not fit the inferred type', async () => {
    const lines = ['n'];
    for (let i = 0; i < 1_000; i += 1) lines.push(String(i));
    lines.push('not a number');
    await writeFile(join(dir, 'drift.csv'), lines.join('\n'));
    await expect(collect(open('csv').read!({ dataset: dataset('drift') }))).rejects.toMatchObject({
      code: 'schema_mismatch',
    });
  });
});
