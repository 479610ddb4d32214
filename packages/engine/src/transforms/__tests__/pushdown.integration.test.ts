/**
 * The same steps in process and pushed down into PostgreSQL must give the same rows and types. The
 * table probes the edges of every type; the rows are read with the PostgreSQL connector's own read
 * path and client configuration, so both sides see canonical values.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnSchema, RecordBatch, Value } from '../../types.js';
import { connect } from '../../connectors/postgres/client.js';
import { readTable } from '../../connectors/postgres/read.js';
import { OID_TYPES } from '../../connectors/postgres/type-mapping.js';
import { collect, parsedRows } from '../../__tests__/support.js';
import { planTransforms, TransformError, type MaskMethod, type TransformPlan, type TransformStep } from '../index.js';

const ADMIN_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const admin = new URL(ADMIN_URL);
const database = `svc_transforms_${randomBytes(5).toString('hex')}`;
const config = {
  host: admin.hostname,
  port: Number(admin.port || 5432),
  database,
  user: decodeURIComponent(admin.username),
  password: decodeURIComponent(admin.password),
};

const TABLE = `
  create table t (
    id int primary key, flag boolean, small smallint, num integer, big bigint, r real, d double precision,
    amount numeric(30, 20), name text, code char(6), tag varchar(20), uid uuid, day date, clock time,
    ts timestamp, tstz timestamptz, doc jsonb, raw json, bin bytea, txt text, txt_bool text, txt_time text
  )`;

// id, flag, small, num, big, r, d, amount, name, code, tag, uid, day, clock, ts, tstz, doc, raw, bin, txt, txt_bool, txt_time
const ROWS: unknown[][] = [
  [
    1,
    true,
    32767,
    2147483647,
    '9223372036854775807',
    1.1,
    0.1 + 0.2,
    '12345678.56789012345678901234',
    'Ünïcödé Straße 😀',
    'ab',
    'alpha',
    '3b241101-e2bb-4255-8caf-4136c566a962',
    '2024-02-29',
    '23:59:59.123456',
    '2024-02-29 12:34:56.789012',
    '2024-02-29 12:34:56.789012+00',
    '{"a": {"b": 1, "c": "x"}, "list": [1, "two", null], "n": 1.5}',
    '{"z": 1, "a": [true, false], "bb": {"k": null}}',
    '\\x0001feff',
    '42',
    'yes',
    '2024-01-31',
  ],
  [
    2,
    false,
    -32768,
    -2147483648,
    '-9223372036854775808',
    -2.25,
    -1.7976931348623157e308,
    '-0.000001',
    '',
    'xyz123',
    'Beta',
    '00000000-0000-0000-0000-000000000000',
    '0001-01-01',
    '00:00:00',
    '1970-01-01 00:00:00',
    '1970-01-01 00:00:00+00',
    '{"a": {"b": 2.5}, "list": [], "n": -3}',
    '[]',
    '\\x',
    ' -7 ',
    'off',
    '1999-12-31 23:59:59',
  ],
  [
    3,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
  ],
  [
    4,
    true,
    0,
    0,
    '0',
    0,
    '-0',
    '0',
    '  padded  ',
    '',
    'gamma',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    'infinity',
    '12:00:00.5',
    'infinity',
    '-infinity',
    'null',
    'null',
    '\\x5c',
    '+0012',
    'T',
    '2024-01-01T10:00',
  ],
  [
    5,
    null,
    5,
    7,
    '9007199254740993',
    3.4028235e38,
    1e300,
    '2.5',
    'tab\there "quoted" back\\slash',
    'q',
    'alpha',
    'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
    '2000-01-01',
    '13:14:15',
    '2000-01-01 10:00:00.5',
    '2000-01-01 10:00:00.5+02',
    '{"a": {"b": 3, "c": "y"}, "n": 2}',
    '{"a": 1}',
    '\\xdeadbeef',
    '1e3',
    'maybe',
    '2000-01-01 10:00:00.5',
  ],
  [
    6,
    false,
    -5,
    -7,
    '-9007199254740993',
    1e-30,
    1e-300,
    '-2.5',
    'ΑΣ İstanbul',
    'ΑΣ',
    'Beta',
    'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A12',
    '2024-01-01',
    '06:30:00',
    '2024-01-01 00:00:00',
    '2023-12-31 23:59:59.999999+00',
    '{"a": {"b": 4}, "list": [1, {"k": "v"}], "n": 100000000000000000000}',
    '{"n": 0.00000015}',
    '\\x00',
    'abc',
    'f',
    'Jan 8 1999',
  ],
  [
    7,
    true,
    1,
    3,
    '123',
    'Infinity',
    'NaN',
    'NaN',
    'z',
    'z',
    'alpha',
    'b0eebc99-9c0b-4ef8-bb6d-6bb9bd380a13',
    '2024-02-29',
    '12:00:00',
    '2024-02-29 00:00:00',
    '2024-02-29 00:00:00+00',
    '"just a string"',
    '"s"',
    '\\x41',
    '1.5',
    '1',
    '2024-02-30',
  ],
  [
    8,
    false,
    2,
    12,
    '-123',
    '-Infinity',
    'Infinity',
    '0.00000000000000000001',
    'abc',
    'abc',
    null,
    'c0eebc99-9c0b-4ef8-bb6d-6bb9bd380a14',
    '1999-12-31',
    '01:02:03.000001',
    '1999-12-31 23:59:59.999999',
    '1999-12-31 23:59:59.999999-05:30',
    '{"a": {"b": 5, "c": null}, "n": 10}',
    '{"x": "y"}',
    '\\x7f80',
    '',
    'no',
    '24:00',
  ],
  [
    9,
    null,
    null,
    null,
    null,
    null,
    1234567890123456.8,
    null,
    '😀 astral',
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
    null,
  ],
];

const GOOD_NUMBERS = 'id == 1 or id == 2 or id == 4'; // rows whose txt and txt_bool parse under the casts tested

describe('transform pushdown into PostgreSQL', () => {
  let client: pg.Client;
  let input: ColumnSchema[];
  let batches: RecordBatch[];
  let rows: Value[][];

  beforeAll(async () => {
    const adminClient = new pg.Client({ connectionString: ADMIN_URL });
    await adminClient.connect();
    await adminClient.query(`create database ${database}`);
    await adminClient.end();
    client = await connect(config);
    await client.query(TABLE);
    for (const row of ROWS)
      await client.query(`insert into t values (${row.map((_, i) => `$${i + 1}`).join(', ')})`, row);
    batches = await collect(readTable(client, { dataset: { namespace: 'public', name: 't' }, batchSize: 3 }, 'public'));
    input = batches[0]!.columns;
    rows = batches.flatMap((batch) => batch.rows);
  });

  afterAll(async () => {
    await client?.end();
    const adminClient = new pg.Client({ connectionString: ADMIN_URL });
    await adminClient.connect();
    await adminClient.query(`drop database if exists ${database} with (force)`);
    await adminClient.end();
  });

  function runInProcess(plan: TransformPlan): Value[][] {
    const runner = plan.createRunner();
    const out: Value[][] = [];
    for (const batch of batches) out.push(...runner.apply(batch).rows);
    out.push(...(runner.flush()?.rows ?? []));
    return out;
  }

  const rowText = (row: Value[]) =>
    JSON.stringify(row, (_, value: unknown) => {
      if (typeof value === 'number' && !Number.isFinite(value)) return `number:${value}`;
      if (Object.is(value, -0)) return 'number:-0';
      if (value && typeof value === 'object' && (value as { type?: string }).type === 'Buffer')
        return `bytes:${Buffer.from((value as { data: number[] }).data).toString('hex')}`;
      return value;
    });
  const sorted = (list: Value[][]) =>
    [...list].sort((a, b) => (rowText(a) < rowText(b) ? -1 : rowText(a) > rowText(b) ? 1 : 0));

  async function pushedDown(plan: TransformPlan) {
    return client.query({ text: plan.toPostgresSql('"public"."t"'), rowMode: 'array' });
  }

  /** Runs both paths and checks they agree on names, types and rows; returns the rows. */
  async function parity(
    steps: TransformStep[],
    options: { masking?: (column: ColumnSchema) => MaskMethod | undefined } = {},
  ): Promise<Value[][]> {
    const plan = planTransforms(steps, input, { sample: rows, ...options });
    const local = runInProcess(plan);
    const remote = await pushedDown(plan);
    expect(remote.fields.map((field) => field.name)).toEqual(plan.output.map((column) => column.name));
    expect(remote.fields.map((field) => OID_TYPES[field.dataTypeID] ?? 'string')).toEqual(
      plan.output.map((column) => column.type),
    );
    // json read from PostgreSQL arrives as its text, json computed in process as a document: compare documents.
    expect(sorted(parsedRows(remote.rows as Value[][]))).toEqual(sorted(parsedRows(local)));
    return local;
  }

  async function bothFail(steps: TransformStep[], local: RegExp, remote: RegExp) {
    const plan = planTransforms(steps, input, { sample: rows });
    expect(() => runInProcess(plan)).toThrow(local);
    expect(() => runInProcess(plan)).toThrow(TransformError);
    await expect(pushedDown(plan)).rejects.toThrow(remote);
  }

  const derive = (expressions: Record<string, string>, keep = ['id']): TransformStep[] => [
    ...Object.entries(expressions).map(([column, expression]): TransformStep => ({
      type: 'derive',
      column,
      expression,
    })),
    { type: 'select', columns: [...keep, ...Object.keys(expressions)] },
  ];

  it('reads the fixture through the connector in several batches', () => {
    expect(batches.length).toBe(3);
    expect(rows).toHaveLength(ROWS.length);
    expect(input.find((column) => column.name === 'code')).toMatchObject({ type: 'string', sourceType: '1042' });
  });

  it('passes every column through unchanged with no steps, and select / drop / rename', async () => {
    expect(await parity([])).toHaveLength(9);
    await parity([{ type: 'select', columns: ['tstz', 'id', 'doc', 'bin'] }]);
    await parity([{ type: 'drop', columns: ['doc', 'raw', 'amount'] }]);
    await parity([{ type: 'rename', columns: { id: 'key', name: 'full name', tag: 'id' } }]);
  });

  it('filters with every comparison type and three-valued logic', async () => {
    const filters = [
      'num > 0',
      'big >= 9007199254740992',
      'big < -9007199254740992 or big == 0',
      'd > 0.5',
      'd == d',
      'd != 1e300',
      'r < 2',
      'amount < 1',
      'amount >= small',
      "name < 'b'",
      "name >= 'Ü'",
      "name > 'ｚ'",
      "code == 'ab    '",
      "tag != 'alpha'",
      "uid > 'b'",
      "uid == 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12'",
      "day >= '2024-01-01'",
      "day < '2000-01-01'",
      "ts < '2000-01-01 10:00:01'",
      "ts > '2000-01-01T10:00:00.5'",
      "tstz > '1999-12-31 23:00:00-05'",
      "tstz <= '2024-02-29T12:34:56.789012Z'",
      "clock > '12:00'",
      'flag == true',
      'not flag',
      'flag or num > 5',
      'flag and num > 5',
      '!(flag and num > 5)',
      'is_null(flag) and not is_null(name)',
      'small + num > big',
    ];
    for (const expression of filters) {
      const kept = await parity([
        { type: 'filter', expression },
        { type: 'select', columns: ['id'] },
      ]);
      expect(kept.length, expression).toBeLessThan(ROWS.length);
      expect(kept.length, expression).toBeGreaterThan(0);
    }
    // Comparing with null is null, never true: no row passes.
    expect(await parity([{ type: 'filter', expression: 'flag == null or null' }])).toHaveLength(0);
  });

  it('computes integer arithmetic exactly, beyond 2^53, and float arithmetic like float8', async () => {
    const bounded: TransformStep = {
      type: 'filter',
      expression: 'big < 9000000000000000000 and big > -9000000000000000000',
    };
    const local = await parity([
      bounded,
      ...derive({
        plus: 'big + 1',
        times: 'big * 2',
        minus: 'big - num',
        mixed: 'small + num * 3',
        rem: 'big % 7',
        rem_negative: 'num % -3',
        negated: '-big',
        half: 'num / 2',
        big_ratio: 'big / 3',
      }),
    ]);
    expect(local.find((row) => row[0] === 5)).toEqual([
      5,
      '9007199254740994',
      '18014398509481986',
      '9007199254740986',
      '26',
      '5',
      '1',
      '-9007199254740993',
      3.5,
      3002399751580330.5,
    ]);
    await parity([
      { type: 'filter', expression: 'id != 2' },
      ...derive({
        double: 'd * 2',
        sum: 'd + r',
        single: 'r * 1',
        money: 'amount * 2',
        money_plus: 'amount + num',
        minus_d: '-d',
        third: 'd / 3',
        ratio: 'num / if(d == 0, 0.5, d)',
      }),
    ]);
  });

  it('evaluates every function the same way', async () => {
    await parity(
      derive({
        lower: 'lower(name)',
        upper: 'upper(name)',
        trim: 'trim(name)',
        length: 'length(name)',
        code_length: 'length(code)',
        everything:
          'concat(flag, small, num, big, r, d, amount, name, code, tag, uid, day, clock, ts, tstz, doc, raw, bin)',
        coalesce_text: "coalesce(tag, name, 'none')",
        coalesce_number: 'coalesce(amount, num, 0)',
        coalesce_float: 'coalesce(d, small)',
        coalesce_day: "coalesce(day, '1900-01-01')",
        substr_from: 'substr(name, 3)',
        substr_range: 'substr(name, 0, 4)',
        substr_negative: 'substr(name, -2, 5)',
        replaced: "replace(name, 'a', '$&!')",
        rounded: 'round(d, 2)',
        rounded_single: 'round(r, 1)',
        rounded_amount: 'round(amount, 3)',
        rounded_int: 'round(num, -1)',
        rounded_plain: 'round(amount)',
        abs_int: 'abs(num)',
        abs_float: 'abs(d)',
        floor_amount: 'floor(amount)',
        ceil_float: 'ceil(r)',
        floor_int: 'floor(small)',
        chosen: 'if(flag, name, tag)',
        chosen_number: 'if(num > 0, num, d)',
        missing: 'is_null(doc)',
        leaf: "json_get(doc, 'a.b')",
        leaf_text: "json_get(doc, 'a.c')",
        leaf_array: "json_get(doc, 'list.1')",
        leaf_last: "json_get(doc, 'list.-1')",
        leaf_object: "json_get(doc, 'a')",
        leaf_number: "json_get(doc, 'n')",
        leaf_raw: "json_get(raw, 'a')",
      }),
    );
  });

  it('casts between types the same way', async () => {
    const good: TransformStep = { type: 'filter', expression: GOOD_NUMBERS };
    await parity([
      {
        type: 'cast',
        columns: {
          flag: 'string',
          small: 'string',
          num: 'string',
          big: 'string',
          r: 'string',
          d: 'string',
          amount: 'string',
          code: 'string',
          uid: 'string',
          day: 'string',
          clock: 'string',
          ts: 'string',
          tstz: 'string',
          doc: 'string',
          raw: 'string',
          bin: 'string',
        },
      },
    ]);
    await parity([good, { type: 'cast', columns: { txt: 'int64', txt_bool: 'boolean' } }]);
    await parity([good, { type: 'cast', columns: { txt: 'decimal' } }]);
    await parity([good, { type: 'cast', columns: { txt: 'float64' } }]);
    await parity([good, { type: 'cast', columns: { txt: 'float32' } }]);
    await parity([
      { type: 'filter', expression: 'id == 1 or id == 4' },
      { type: 'cast', columns: { txt: 'int16', txt_time: 'timestamp' } },
    ]);
    await parity([
      { type: 'filter', expression: 'id == 1 or id == 2 or id == 5' },
      { type: 'cast', columns: { txt_time: 'timestamptz' } },
    ]);
    await parity([
      { type: 'filter', expression: 'id == 1' },
      { type: 'cast', columns: { txt_time: 'date' } },
    ]);
    await parity([
      { type: 'filter', expression: 'id != 5' },
      { type: 'cast', columns: { name: 'binary', doc: 'json' } },
      { type: 'cast', columns: { uid: 'string' } },
      { type: 'cast', columns: { uid: 'uuid' } },
    ]);
    await parity([
      { type: 'filter', expression: 'd > -1e30 and d < 1e30 and (abs(d) > 1e-30 or d == 0)' },
      { type: 'cast', columns: { d: 'float32' } },
    ]);
    await parity([
      { type: 'filter', expression: 'd > -1e10 and d < 1e10' },
      { type: 'cast', columns: { d: 'int64', r: 'decimal', amount: 'int32' } },
    ]);
    await parity([
      { type: 'filter', expression: 'id != 7' },
      { type: 'cast', columns: { amount: 'float64', big: 'float32', num: 'decimal', small: 'float64' } },
    ]);
    await parity([{ type: 'cast', columns: { flag: 'int64', num: 'boolean', small: 'int16', big: 'decimal' } }]);
    await parity([{ type: 'cast', columns: { day: 'timestamptz', ts: 'date', tstz: 'timestamp' } }]);
    await parity([{ type: 'cast', columns: { day: 'timestamp', ts: 'timestamptz', tstz: 'time' } }]);
    await parity([{ type: 'cast', columns: { ts: 'time', tstz: 'date' } }]);
    // Other spellings the text grammars accept, as constants and per row.
    await parity([
      ...derive({
        braced: "if(is_null(uid), null, upper(concat('{', uid, '}')))",
        spaced: "' -Infinity '",
        nan: "'NaN'",
        exponent: "'-1.5E-3'",
        yes: "'  On '",
        zone: "'2024-06-30T23:30:00-02:30'",
      }),
      {
        type: 'cast',
        columns: {
          braced: 'uuid',
          spaced: 'float64',
          nan: 'float32',
          exponent: 'decimal',
          yes: 'boolean',
          zone: 'timestamptz',
        },
      },
    ]);
    await bothFail(
      [...derive({ hex: "'0x1A'" }), { type: 'cast', columns: { hex: 'float64' } }],
      /not a valid float64/,
      /not a valid float64/,
    );
    await bothFail(
      [...derive({ words: "'yesterday'" }), { type: 'cast', columns: { words: 'date' } }],
      /not a valid date/,
      /not a valid date/,
    );
  });

  it('fails the same casts in both paths', async () => {
    await bothFail([{ type: 'cast', columns: { txt: 'int64' } }], /not a valid int64/, /not a valid int64/);
    await bothFail([{ type: 'cast', columns: { txt_bool: 'boolean' } }], /not a valid boolean/, /not a valid boolean/);
    await bothFail(
      [
        { type: 'filter', expression: 'id == 6' },
        { type: 'cast', columns: { txt_time: 'date' } },
      ],
      /not a valid date/,
      /not a valid date/,
    );
    await bothFail(
      [
        { type: 'filter', expression: 'id == 7' },
        { type: 'cast', columns: { txt_time: 'date' } },
      ],
      /out of range/,
      /out of range/,
    );
    await bothFail(
      [
        { type: 'filter', expression: 'id == 8' },
        { type: 'cast', columns: { txt_time: 'time' } },
      ],
      /not a valid time/,
      /not a valid time/,
    );
    await bothFail([{ type: 'cast', columns: { big: 'int32' } }], /integer out of range/, /integer out of range/);
    await bothFail([{ type: 'cast', columns: { d: 'int64' } }], /out of range|NaN/, /out of range|NaN/);
    await bothFail([{ type: 'cast', columns: { d: 'float32' } }], /overflow/, /overflow/);
    await bothFail(
      [
        { type: 'filter', expression: 'id == 6' },
        { type: 'cast', columns: { d: 'float32' } },
      ],
      /underflow/,
      /underflow/,
    );
    await bothFail(
      [
        { type: 'filter', expression: 'id == 5' },
        { type: 'cast', columns: { name: 'binary' } },
      ],
      /bytea/,
      /bytea/,
    );
  });

  it('fails at run time in the same rows: division by zero, overflow', async () => {
    await bothFail(derive({ ratio: 'num / (small - small)' }), /division by zero/, /division by zero/);
    await bothFail(derive({ rest: 'big % (num - num)' }), /division by zero/, /division by zero/);
    await bothFail(derive({ next: 'big + 1' }), /bigint out of range/, /bigint out of range/);
    await bothFail(derive({ huge: 'd * 10' }), /overflow/, /overflow/);
    await bothFail(derive({ tiny: 'd * 1e-300' }), /underflow/, /underflow/);
    // A guard in the same filter runs first in both paths.
    await parity([
      { type: 'filter', expression: 'small != 0 and num / small > 1' },
      { type: 'select', columns: ['id'] },
    ]);
    await parity([{ type: 'filter', expression: 'small != 0' }, ...derive({ ratio: 'num / small' })]);
    // A derived column that a later step drops is computed in neither path.
    await parity([
      { type: 'derive', column: 'ratio', expression: 'num / (small - small)' },
      { type: 'drop', columns: ['ratio'] },
    ]);
    // Steps run in their order although the planner flattens them: a computation before a filter
    // sees every row (and fails), one after it only the rows kept; a later filter never runs first.
    await bothFail(
      [
        { type: 'derive', column: 'ratio', expression: 'num / small' },
        { type: 'rename', columns: { id: 'key' } },
        { type: 'filter', expression: 'small != 0' },
        { type: 'select', columns: ['key', 'ratio'] },
      ],
      /division by zero/,
      /division by zero/,
    );
    await parity([
      { type: 'filter', expression: 'small != 0' },
      { type: 'derive', column: 'ratio', expression: 'num / small' },
      { type: 'filter', expression: 'ratio > 0 or ratio <= 0' },
      { type: 'select', columns: ['id', 'ratio'] },
    ]);
    await parity([
      { type: 'filter', expression: 'small != 0' },
      { type: 'rename', columns: { id: 'key' } },
      { type: 'filter', expression: 'num / small > 1' },
      { type: 'select', columns: ['key'] },
    ]);
  });

  it('masks every type the same way, also through the governance hook', async () => {
    await parity([
      {
        type: 'mask',
        columns: {
          name: 'hash',
          d: 'hash',
          tstz: 'hash',
          doc: 'partial',
          bin: 'partial',
          flag: 'redact',
          big: 'null',
          code: 'partial',
          amount: 'hash',
          uid: 'redact',
        },
      },
    ]);
    await parity([{ type: 'select', columns: ['id', 'name', 'tag', 'ts'] }], {
      masking: (column) => (column.name === 'name' ? 'partial' : column.type === 'timestamp' ? 'hash' : undefined),
    });
  });

  it('flattens json with inferred and with given paths', async () => {
    const inferred = await parity([{ type: 'flatten', column: 'doc' }]);
    expect(inferred[0]!.length).toBe(input.length + 4 - 1);
    await parity([{ type: 'flatten', column: 'raw', separator: '__', keep_original: true }]);
    await parity([{ type: 'flatten', column: 'doc', paths: ['a.b', 'list.0', 'a', 'n'] }]);
    const plan = planTransforms([{ type: 'flatten', column: 'doc' }], input, { sample: rows });
    expect(
      plan.output.filter((column) => column.name.startsWith('doc_')).map((column) => `${column.name}:${column.type}`),
    ).toEqual(['doc_a_b:float64', 'doc_a_c:string', 'doc_list:json', 'doc_n:float64']);
    // A sample where a.b was always an integer, then a row with 2.5: both paths refuse it.
    const integersOnly = rows.filter((row) => row[0] !== 2);
    const strict = planTransforms([{ type: 'flatten', column: 'doc', paths: ['a.b'] }], input, {
      sample: integersOnly,
    });
    expect(strict.output.find((column) => column.name === 'doc_a_b')!.type).toBe('int64');
    expect(() => runInProcess(strict)).toThrow(/column "doc_a_b": not a valid int64/);
    await expect(pushedDown(strict)).rejects.toThrow(/column "doc_a_b": not a valid int64/);
  });

  it('deduplicates keeping the first or last by an order, and by key alone', async () => {
    for (const keep of ['first', 'last'] as const) {
      const kept = await parity([{ type: 'deduplicate', keys: ['tag'], order_by: 'num', keep }]);
      expect(kept).toHaveLength(4);
      await parity([{ type: 'deduplicate', keys: ['tag', 'flag'], order_by: 'd', keep }]);
      await parity([{ type: 'deduplicate', keys: ['flag'], order_by: 'name', keep }]);
      await parity([
        { type: 'deduplicate', keys: ['doc'], order_by: 'tstz', keep },
        { type: 'derive', column: 'after', expression: 'id * 10' },
      ]);
    }
    // Without order_by the kept row is unspecified in SQL: compare the keys only.
    await parity([
      { type: 'deduplicate', keys: ['tag'] },
      { type: 'select', columns: ['tag'] },
    ]);
    await parity([
      { type: 'deduplicate', keys: ['amount', 'flag'] },
      { type: 'select', columns: ['amount', 'flag'] },
    ]);
  });

  it('runs a long pipeline of mixed steps, also as COPY', async () => {
    const steps: TransformStep[] = [
      { type: 'filter', expression: 'not is_null(name) and length(name) > 0' },
      { type: 'derive', column: 'score', expression: 'coalesce(num, 0) * 2 + coalesce(small, 0)' },
      { type: 'rename', columns: { name: 'label' } },
      { type: 'flatten', column: 'doc', paths: ['a.b', 'n'] },
      { type: 'deduplicate', keys: ['tag'], order_by: 'score', keep: 'last' },
      { type: 'derive', column: 'label', expression: "concat(upper(label), ' #', score)" },
      { type: 'cast', columns: { score: 'string' } },
      { type: 'mask', columns: { uid: 'hash' } },
      { type: 'select', columns: ['id', 'label', 'score', 'doc_a_b', 'doc_n', 'uid', 'tag'] },
    ];
    const local = await parity(steps);
    expect(local.length).toBeGreaterThan(0);
    const plan = planTransforms(steps, input, { sample: rows });
    const stream = client.query(copyStreams.to(`COPY (${plan.toPostgresSql('"public"."t"')}) TO STDOUT`));
    let text = '';
    for await (const chunk of stream) text += String(chunk);
    expect(text.trim().split('\n')).toHaveLength(local.length);
  });

  it('keeps hostile names and literals inert', async () => {
    const hostile = `x'); drop table t; --`;
    const local = await parity([
      {
        type: 'derive',
        column: hostile,
        expression: `concat(name, '${"'); drop table t; --".replaceAll("'", "\\'")}', "\\"; select 1")`,
      },
      { type: 'rename', columns: { name: `na"me` } },
      { type: 'filter', expression: `col('${hostile.replaceAll("'", "\\'")}') != 'x\\\\y'` },
      { type: 'select', columns: ['id', hostile, `na"me`] },
    ]);
    expect(local.find((row) => row[0] === 1)![1]).toBe(`Ünïcödé Straße 😀'); drop table t; --"; select 1`);
    expect((await client.query('select count(*)::int as n from t')).rows[0]).toEqual({ n: ROWS.length });
  });
});
