import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ColumnSchema, Value } from '../../types.js';
import { col } from '../../__tests__/support.js';
import {
  planTransforms,
  TRANSFORM_TYPES,
  TransformError,
  validateSteps,
  type MaskMethod,
  type TransformPlan,
  type TransformStep,
} from '../index.js';

const INPUT: ColumnSchema[] = [
  col('id', 'int32'),
  col('name', 'string'),
  col('big', 'int64'),
  col('price', 'decimal'),
  col('ratio', 'float64'),
  col('ok', 'boolean'),
  col('day', 'date'),
  col('doc', 'json'),
];
const ROWS: Value[][] = [
  [1, 'Ada', '9007199254740993', '10.50', 0.5, true, '2024-02-29', { a: { b: 1 }, tags: ['x'] }],
  [2, 'Bob', '-5', '0.25', -1.5, false, '1999-12-31', { a: { b: 2 } }],
  [3, null, null, null, null, null, null, null],
];

function run(
  steps: TransformStep[],
  rows: Value[][] = ROWS,
  options: {
    sample?: Value[][];
    masking?: (column: ColumnSchema) => MaskMethod | undefined;
    input?: ColumnSchema[];
  } = {},
): { plan: TransformPlan; rows: Value[][] } {
  const plan = planTransforms(steps, options.input ?? INPUT, {
    sample: options.sample ?? rows,
    masking: options.masking,
  });
  const runner = plan.createRunner();
  const out = [...runner.apply({ columns: plan.input, rows }).rows, ...(runner.flush()?.rows ?? [])];
  return { plan, rows: out };
}

/** The value of one expression for each row. */
function values(expression: string, rows: Value[][] = ROWS, input?: ColumnSchema[]): Value[] {
  return run(
    [
      { type: 'derive', column: 'out', expression },
      { type: 'select', columns: ['out'] },
    ],
    rows,
    { input },
  ).rows.map((row) => row[0] ?? null);
}

const typeOf = (expression: string) =>
  planTransforms([{ type: 'derive', column: 'out', expression }], INPUT).output.at(-1)!.type;

function planError(steps: TransformStep[], input: ColumnSchema[] = INPUT, sample?: Value[][]): TransformError {
  try {
    planTransforms(steps, input, { sample });
  } catch (error) {
    expect(error).toBeInstanceOf(TransformError);
    return error as TransformError;
  }
  throw new Error('planning succeeded');
}

function runError(steps: TransformStep[], rows: Value[][] = ROWS): TransformError {
  try {
    run(steps, rows);
  } catch (error) {
    expect(error).toBeInstanceOf(TransformError);
    return error as TransformError;
  }
  throw new Error('running succeeded');
}

describe('steps', () => {
  it('lists the step types', () => {
    expect(TRANSFORM_TYPES).toEqual([
      'select',
      'drop',
      'rename',
      'cast',
      'filter',
      'derive',
      'deduplicate',
      'flatten',
      'mask',
    ]);
  });

  it('selects, drops and renames columns', () => {
    const selected = run([{ type: 'select', columns: ['name', 'id'] }]);
    expect(selected.plan.output.map((c) => c.name)).toEqual(['name', 'id']);
    expect(selected.rows).toEqual([
      ['Ada', 1],
      ['Bob', 2],
      [null, 3],
    ]);
    const dropped = run([{ type: 'drop', columns: ['doc', 'day', 'ok', 'ratio', 'price', 'big'] }]);
    expect(dropped.rows).toEqual([
      [1, 'Ada'],
      [2, 'Bob'],
      [3, null],
    ]);
    const renamed = run([
      { type: 'rename', columns: { id: 'name', name: 'id' } },
      { type: 'select', columns: ['id', 'name'] },
    ]);
    expect(renamed.rows[0]).toEqual(['Ada', 1]);
    expect(renamed.plan.output[0]).toMatchObject({ name: 'id', type: 'string' });
  });

  it('does not touch the caller rows', () => {
    const rows = ROWS.map((row) => [...row]);
    run(
      [
        { type: 'derive', column: 'id', expression: 'id * 10' },
        { type: 'mask', columns: { name: 'redact' } },
      ],
      rows,
    );
    expect(rows).toEqual(ROWS);
  });

  it('filters: only true keeps a row, null and false drop it', () => {
    expect(run([{ type: 'filter', expression: 'ok' }]).rows.map((r) => r[0])).toEqual([1]);
    expect(run([{ type: 'filter', expression: 'not ok' }]).rows.map((r) => r[0])).toEqual([2]);
    expect(run([{ type: 'filter', expression: 'price > 1 or ok' }]).rows.map((r) => r[0])).toEqual([1]);
    expect(run([{ type: 'filter', expression: "day < '2000-01-01'" }]).rows.map((r) => r[0])).toEqual([2]);
  });

  it('derives a new column at the end, or replaces one in place', () => {
    const { plan, rows } = run([
      { type: 'derive', column: 'total', expression: 'price * 2' },
      { type: 'derive', column: 'id', expression: 'id + 100' },
    ]);
    expect(plan.output.map((c) => `${c.name}:${c.type}`)).toEqual([
      'id:int64',
      'name:string',
      'big:int64',
      'price:decimal',
      'ratio:float64',
      'ok:boolean',
      'day:date',
      'doc:json',
      'total:float64',
    ]);
    expect(rows.map((r) => [r[0], r.at(-1)])).toEqual([
      ['101', 21],
      ['102', 0.5],
      ['103', null],
    ]);
  });

  it('casts columns', () => {
    const { plan, rows } = run([
      {
        type: 'cast',
        columns: { id: 'string', price: 'int64', ratio: 'decimal', ok: 'int32', day: 'timestamptz', doc: 'string' },
      },
    ]);
    expect(plan.output.map((c) => c.type)).toEqual([
      'string',
      'string',
      'int64',
      'int64',
      'decimal',
      'int32',
      'timestamptz',
      'string',
    ]);
    expect(rows[0]).toEqual([
      '1',
      'Ada',
      '9007199254740993',
      '11',
      '0.5',
      1,
      '2024-02-29T00:00:00.000000Z',
      '{"a": {"b": 1}, "tags": ["x"]}',
    ]);
    expect(rows[1]).toEqual(['2', 'Bob', '-5', '0', '-1.5', 0, '1999-12-31T00:00:00.000000Z', '{"a": {"b": 2}}']);
    expect(rows[2]).toEqual(['3', null, null, null, null, null, null, null]);
  });

  it('casts text with the PostgreSQL spellings, and rejects what PostgreSQL would not read the same way', () => {
    const texts = [col('t', 'string')];
    const cast = (type: string, value: string) =>
      run([{ type: 'cast', columns: { t: type as never } }], [[value]], { input: texts }).rows[0]![0];
    expect(cast('int64', ' -0042 ')).toBe('-42');
    expect(cast('int16', '+7')).toBe(7);
    expect(cast('float64', ' -Infinity')).toBe(-Infinity);
    expect(cast('float64', '1e3')).toBe(1000);
    expect(cast('float32', '1.1')).toBe(1.1);
    expect(cast('decimal', ' 1.50e1 ')).toBe('15.0');
    expect(cast('decimal', '-0.000')).toBe('0.000');
    expect(['t', 'TRUE', ' yes', 'on', '1', 'f', 'No', 'off', '0'].map((value) => cast('boolean', value))).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
    expect(cast('uuid', '{A0EEBC999C0B4EF8BB6D6BB9BD380A11}')).toBe('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11');
    expect(cast('timestamptz', '2024-06-30 23:30:00-02:30')).toBe('2024-07-01T02:00:00.000000Z');
    expect(cast('timestamp', '2024-06-30T23:30:00.500')).toBe('2024-06-30T23:30:00.5');
    expect(cast('time', '07:05')).toBe('07:05:00');
    expect(cast('json', '{"a": [1]}')).toEqual({ a: [1] });
    expect(cast('binary', '\\x00ff')).toEqual(Buffer.from([0, 255]));
    expect(cast('binary', 'a\\\\b\\001')).toEqual(Buffer.from([0x61, 0x5c, 0x62, 1]));
    const failure = (type: string, value: string) => {
      try {
        cast(type, value);
      } catch (error) {
        expect(error).toBeInstanceOf(TransformError);
        expect((error as TransformError).path).toBe('0.columns.t');
        return (error as TransformError).message;
      }
      throw new Error(`${value} was accepted as ${type}`);
    };
    expect(failure('int64', '1.5')).toBe('column "t": not a valid int64: "1.5"');
    expect(failure('int32', '3000000000')).toMatch(/out of range for type integer/);
    expect(failure('float64', '0x1A')).toMatch(/not a valid float64/);
    expect(failure('float64', '1e400')).toMatch(/out of range/);
    expect(failure('boolean', 'o')).toMatch(/not a valid boolean/);
    expect(failure('date', 'yesterday')).toMatch(/not a valid date/);
    expect(failure('date', '2023-02-29')).toMatch(/out of range/);
    expect(failure('time', '24:00')).toMatch(/not a valid time/);
    expect(failure('json', '{oops')).toMatch(/not valid json/);
    expect(failure('binary', '\\x0')).toMatch(/odd number/);
  });

  it('writes the text form PostgreSQL writes for ::text', () => {
    const typed = [
      col('f', 'float64'),
      col('s', 'float32'),
      col('ts', 'timestamp'),
      col('tz', 'timestamptz'),
      col('b', 'binary'),
      col('flag', 'boolean'),
    ];
    const text = (row: Value[]) =>
      run(
        [
          {
            type: 'cast',
            columns: { f: 'string', s: 'string', ts: 'string', tz: 'string', b: 'string', flag: 'string' },
          },
        ],
        [row],
        { input: typed },
      ).rows[0]!;
    expect(
      text([1e15, 1e6, '2024-01-01T10:00:00.5', '2024-01-01T10:00:00.500000Z', Buffer.from([0, 255]), true]),
    ).toEqual(['1e+15', '1e+06', '2024-01-01 10:00:00.5', '2024-01-01 10:00:00.5+00', '\\x00ff', 'true']);
    expect(
      text([123456789012345.6, 12345678, 'infinity', '1970-01-01T00:00:00.000000Z', Buffer.alloc(0), false]),
    ).toEqual(['123456789012345.6', '1.2345678e+07', 'infinity', '1970-01-01 00:00:00+00', '\\x', 'false']);
    expect(text([1e-5, 1.1, null, null, null, null])[0]).toBe('1e-05');
    expect(
      [0.0001, -0, NaN, -Infinity, 1.2345678901234568e17, 0.1 + 0.2].map(
        (f) => text([f, null, null, null, null, null])[0],
      ),
    ).toEqual(['0.0001', '-0', 'NaN', '-Infinity', '1.2345678901234568e+17', '0.30000000000000004']);
    const decimals = run(
      [{ type: 'cast', columns: { f: 'decimal' } }],
      [
        [1.5e-7, null, null, null, null, null],
        [1e20, null, null, null, null, null],
      ],
      { input: typed },
    ).rows.map((row) => row[0]);
    expect(decimals).toEqual(['0.00000015', '100000000000000000000']);
  });

  it('refuses casts it does not support', () => {
    const error = planError([{ type: 'cast', columns: { day: 'boolean' } }]);
    expect(error.path).toBe('0.columns.day');
    expect(error.message).toMatch(/cannot cast column "day" from date to boolean/);
  });

  it('rounds floats and decimals half away from zero when casting to integers, with range errors', () => {
    const numbers = [col('f', 'float64'), col('d', 'decimal')];
    const { rows } = run(
      [{ type: 'cast', columns: { f: 'int64', d: 'int16' } }],
      [
        [2.5, '-2.5'],
        [-0.49999999999999994, '32767.4'],
        [1e20 / 1e5, '0.5'],
      ],
      { input: numbers },
    );
    expect(rows).toEqual([
      ['3', -3],
      ['0', 32767],
      ['1000000000000000', 1],
    ]);
    expect(() => run([{ type: 'cast', columns: { d: 'int16' } }], [[0, '32767.5']], { input: numbers })).toThrow(
      /smallint out of range/,
    );
    expect(() => run([{ type: 'cast', columns: { f: 'int32' } }], [[NaN, '0']], { input: numbers })).toThrow(/NaN/);
  });
});

describe('deduplicate', () => {
  const input = [col('k', 'string'), col('v', 'int32'), col('n', 'int32')];
  const rows: Value[][] = [
    ['a', 5, 1],
    ['b', 1, 2],
    ['a', 3, 3],
    ['a', null, 4],
    ['b', 9, 5],
    [null, 1, 6],
    [null, 2, 7],
  ];

  it('keeps the first row per key while streaming, with state across batches', () => {
    const plan = planTransforms([{ type: 'deduplicate', keys: ['k'] }], input);
    const runner = plan.createRunner();
    expect(runner.apply({ columns: input, rows: rows.slice(0, 3) }).rows.map((r) => r[2])).toEqual([1, 2]);
    expect(runner.apply({ columns: input, rows: rows.slice(3) }).rows.map((r) => r[2])).toEqual([6]);
    expect(runner.flush()).toBeNull();
    // A fresh runner has fresh state.
    expect(plan.createRunner().apply({ columns: input, rows }).rows).toHaveLength(3);
  });

  it('keeps the smallest (first) or largest (last) order value per key; nulls never win', () => {
    const first = run([{ type: 'deduplicate', keys: ['k'], order_by: 'v' }], rows, { input });
    expect(first.rows.map((r) => r[2]).sort()).toEqual([2, 3, 6]);
    const last = run([{ type: 'deduplicate', keys: ['k'], order_by: 'v', keep: 'last' }], rows, { input });
    expect(last.rows.map((r) => r[2]).sort()).toEqual([1, 5, 7]);
  });

  it('emits the buffered rows at flush, through the steps that follow', () => {
    const plan = planTransforms(
      [
        { type: 'deduplicate', keys: ['k'], order_by: 'v', keep: 'last' },
        { type: 'derive', column: 'twice', expression: 'v * 2' },
        { type: 'filter', expression: 'twice > 10' },
      ],
      input,
    );
    const runner = plan.createRunner();
    expect(runner.apply({ columns: input, rows }).rows).toEqual([]);
    expect(runner.flush()!.rows).toEqual([['b', 9, 5, '18']]);
  });

  it('treats equal numbers as one key: 1.50 = 1.5, -0 = 0, NaN = NaN; composite keys', () => {
    const numbers = [col('d', 'decimal'), col('f', 'float64'), col('j', 'json')];
    const { rows: kept } = run(
      [{ type: 'deduplicate', keys: ['d'] }],
      [
        ['1.50', 0, null],
        ['1.5', 1, null],
        ['-0', 2, null],
        ['0.000', 3, null],
      ],
      { input: numbers },
    );
    expect(kept.map((r) => r[1])).toEqual([0, 2]);
    const floats = run(
      [{ type: 'deduplicate', keys: ['f'] }],
      [
        [null, -0, null],
        [null, 0, null],
        [null, NaN, null],
        [null, NaN, null],
      ],
      { input: numbers },
    );
    expect(floats.rows).toHaveLength(2);
    const docs = run(
      [{ type: 'deduplicate', keys: ['j', 'd'] }],
      [
        ['1', 0, { a: 1, b: 2 }],
        ['1', 1, { b: 2, a: 1 }],
        ['2', 2, { b: 2, a: 1 }],
      ],
      { input: numbers },
    );
    expect(docs.rows.map((r) => r[1])).toEqual([0, 2]);
  });
});

describe('flatten', () => {
  const input = [col('id', 'int32'), col('doc', 'json')];
  const rows: Value[][] = [
    [1, { user: { name: 'ada', age: 36, tags: ['a'] }, score: 1.5, active: true }],
    [2, { user: { name: 'bob', age: 41 }, score: 2, extra: { deep: { x: null } } }],
    [3, null],
  ];

  it('finds the leaf paths and their types in the sample, sorted', () => {
    const { plan, rows: out } = run([{ type: 'flatten', column: 'doc' }], rows, { input });
    expect(plan.output.map((c) => `${c.name}:${c.type}`)).toEqual([
      'id:int32',
      'doc_active:boolean',
      'doc_extra_deep_x:string',
      'doc_score:float64',
      'doc_user_age:int64',
      'doc_user_name:string',
      'doc_user_tags:json',
    ]);
    expect(out).toEqual([
      [1, true, null, 1.5, '36', 'ada', ['a']],
      [2, null, null, 2, '41', 'bob', null],
      [3, null, null, null, null, null, null],
    ]);
  });

  it('takes given paths, a separator, and can keep the original', () => {
    const { plan, rows: out } = run(
      [{ type: 'flatten', column: 'doc', paths: ['user.name', 'user.tags.0'], separator: '.', keep_original: true }],
      rows,
      { input },
    );
    expect(plan.output.map((c) => c.name)).toEqual(['id', 'doc', 'doc.user.name', 'doc.user.tags.0']);
    expect(out[0]!.slice(2)).toEqual(['ada', 'a']);
  });

  it('types a path without sample values as string, and fails on a value that does not fit', () => {
    const noSample = planTransforms([{ type: 'flatten', column: 'doc', paths: ['user.age'] }], input);
    expect(noSample.output.at(-1)!.type).toBe('string');
    const strict = planTransforms([{ type: 'flatten', column: 'doc', paths: ['user.age'] }], input, { sample: rows });
    const runner = strict.createRunner();
    expect(() => runner.apply({ columns: input, rows: [[4, { user: { age: 'old' } }]] })).toThrow(
      'column "doc_user_age": not a valid int64: "old"',
    );
    expect(runner.apply({ columns: input, rows: [[5, { user: { age: '7' } }]] }).rows).toEqual([[5, '7']]);
  });

  it('needs paths, or sample rows to find them in', () => {
    expect(planError([{ type: 'flatten', column: 'doc' }], input)).toMatchObject({
      path: '0.column',
      message: expect.stringMatching(/no paths to flatten/),
    });
  });

  it('needs a json column and distinct output names', () => {
    expect(planError([{ type: 'flatten', column: 'id' }], input).path).toBe('0.column');
    const clash = planError(
      [
        { type: 'derive', column: 'doc_a', expression: '1' },
        { type: 'flatten', column: 'doc', paths: ['a'] },
      ],
      input,
    );
    expect(clash).toMatchObject({ path: '1.column', message: expect.stringMatching(/doc_a/) });
  });
});

describe('mask', () => {
  const sha = (text: string) => createHash('sha256').update(text).digest('hex');

  it('hashes, redacts, nulls and partially hides values by their text form', () => {
    const { plan, rows } = run([
      {
        type: 'mask',
        columns: { name: 'hash', big: 'partial', ratio: 'redact', day: 'null', ok: 'hash', id: 'partial' },
      },
    ]);
    expect(plan.output.map((c) => c.type)).toEqual([
      'string',
      'string',
      'string',
      'decimal',
      'string',
      'string',
      'date',
      'json',
    ]);
    expect(rows[0]!.slice(0, 7)).toEqual(['1', sha('Ada'), '************0993', '10.50', '****', sha('true'), null]);
    expect(rows[2]!.slice(0, 7)).toEqual(['3', null, null, null, null, null, null]);
  });

  it('counts characters, not UTF-16 units, in partial masks', () => {
    expect(
      run([{ type: 'mask', columns: { name: 'partial' } }], [[1, '😀😀abcd😀', null, null, null, null, null, null]])
        .rows[0]![1],
    ).toBe('***bcd😀');
  });

  it('applies the masking hook to the final output columns', () => {
    const { plan, rows } = run(
      [
        { type: 'rename', columns: { name: 'person' } },
        { type: 'select', columns: ['id', 'person'] },
      ],
      ROWS,
      {
        masking: (column) => (column.name === 'person' ? 'redact' : undefined),
      },
    );
    expect(plan.output).toEqual([INPUT[0], { name: 'person', type: 'string', sourceType: 'text', nullable: true }]);
    expect(rows).toEqual([
      [1, '****'],
      [2, '****'],
      [3, null],
    ]);
    expect(plan.toPostgresSql('"t"')).toContain(`'****'`);
  });
});

describe('expressions', () => {
  it('types literals and operators', () => {
    expect(typeOf('1')).toBe('int64');
    expect(typeOf('1.0')).toBe('float64');
    expect(typeOf('id * 2')).toBe('int64');
    expect(typeOf('id / 2')).toBe('float64');
    expect(typeOf('price + 1')).toBe('float64');
    expect(typeOf("'x'")).toBe('string');
    expect(typeOf('null')).toBe('string');
    expect(typeOf('id > 1')).toBe('boolean');
    expect(typeOf('coalesce(price, 0)')).toBe('decimal');
    expect(typeOf('coalesce(ratio, id)')).toBe('float64');
    expect(typeOf("if(ok, day, '2000-01-01')")).toBe('date');
    expect(typeOf('abs(id)')).toBe('int64');
    expect(typeOf('floor(ratio)')).toBe('float64');
    expect(typeOf("col('big')")).toBe('int64');
  });

  it('computes int64 exactly beyond 2^53', () => {
    expect(values('big + 1').slice(0, 2)).toEqual(['9007199254740994', '-4']);
    expect(values('big * 1000')[0]).toBe('9007199254740993000');
    expect(values('3037000499 * 3037000499')[0]).toBe('9223372030926249001');
    expect(values('-9223372036854775808')[0]).toBe('-9223372036854775808');
    expect(values('big % 10')[0]).toBe('3');
    expect(values('-big')[0]).toBe('-9007199254740993');
    expect(values('big - big + id')).toEqual(['1', '2', null]);
    expect(values('big == 9007199254740993')).toEqual([true, false, null]);
    expect(values('big > 9007199254740992')).toEqual([true, false, null]);
  });

  it('reports int64 overflow at run time, and in constants at plan time', () => {
    const error = runError([{ type: 'derive', column: 'x', expression: 'big * 1048576' }]);
    expect(error).toMatchObject({ path: '0.expression', message: 'column "x": bigint out of range', retryable: false });
    expect(planError([{ type: 'derive', column: 'x', expression: '9223372036854775807 + 1' }])).toMatchObject({
      path: '0.expression',
    });
    expect(planError([{ type: 'derive', column: 'x', expression: '9223372036854775808' }]).message).toMatch(
      /out of range/,
    );
  });

  it('divides as float8, and division or modulo by zero is an error', () => {
    expect(values('id / 4')).toEqual([0.25, 0.5, 0.75]);
    expect(values('ratio / 0.5')).toEqual([1, -3, null]);
    const error = runError([
      { type: 'filter', expression: 'id > 0' },
      { type: 'derive', column: 'x', expression: 'price / (id - id)' },
    ]);
    expect(error).toMatchObject({ path: '1.expression', message: 'column "x": division by zero' });
    expect(runError([{ type: 'derive', column: 'x', expression: 'id % (id - 1)' }]).message).toMatch(
      /division by zero/,
    );
    expect(planError([{ type: 'filter', expression: 'id > 1 / 0' }])).toMatchObject({
      path: '0.expression',
      message: expect.stringMatching(/division by zero/),
    });
    // A constant error in a branch a constant condition rules out is never evaluated.
    expect(values('if(false, 1 / 0, 2.0)')).toEqual([2, 2, 2]);
  });

  it('follows SQL null semantics and three-valued logic', () => {
    const row = [[1, null, null, null, null, null, null, null]];
    const input = [col('t', 'boolean'), col('f', 'boolean'), col('n', 'boolean')];
    const logic = (expression: string) => values(expression, [[true, false, null]], input)[0];
    expect(['n and f', 'n and t', 'n or t', 'n or f', 'not n', 'f or n', 't and n', 'n == n'].map(logic)).toEqual([
      false,
      null,
      true,
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(values('name == null', row)).toEqual([null]);
    expect(values('big + 1', row)).toEqual([null]);
    expect(values("concat('a', name, big, 'b')", row)).toEqual(['ab']);
    expect(values('is_null(name)', row)).toEqual([true]);
    expect(values("coalesce(name, 'none')", row)).toEqual(['none']);
    expect(values('lower(name)', row)).toEqual([null]);
  });

  it('compares text by code point, numbers across types, dates with string literals', () => {
    const texts = [col('a', 'string'), col('b', 'string')];
    expect(
      values(
        'a < b',
        [
          ['\uffff', '😀'],
          ['B', 'a'],
          ['ab', 'a'],
        ],
        texts,
      ),
    ).toEqual([true, true, false]);
    expect(values('price > ratio')).toEqual([true, true, null]);
    expect(values('id == 1.0')).toEqual([true, false, false]);
    expect(values("day >= '2000-01-01'")).toEqual([true, false, null]);
    expect(() => typeOf("day >= 'soon'")).toThrow(/not a date/);
    const floats = [col('x', 'float64')];
    expect(values('x > 1e308', [[NaN], [Infinity], [1]], floats)).toEqual([true, true, false]);
    expect(values('x == x', [[NaN]], floats)).toEqual([true]);
  });

  it('evaluates the text functions by character', () => {
    const texts = [col('s', 'string')];
    const of = (expression: string, s: string | null) => values(expression, [[s]], texts)[0];
    expect(of('lower(s)', 'ÀÉ İ ΑΣ')).toBe('àé i̇ ας');
    expect(of('upper(s)', 'straße')).toBe('STRASSE');
    expect(of('trim(s)', '  a b \t ')).toBe('a b \t');
    expect(of('length(s)', 'a😀b')).toBe('3');
    expect(of('substr(s, 2)', 'a😀bc')).toBe('😀bc');
    expect(of('substr(s, 0, 3)', 'hello')).toBe('he');
    expect(of('substr(s, -1, 3)', 'hello')).toBe('h');
    expect(of('substr(s, 2, 2)', '😀😀😀')).toBe('😀😀');
    expect(() => of('substr(s, 1, -1)', 'x')).toThrow(/negative substring length/);
    expect(of("replace(s, 'a', '$&')", 'banana')).toBe('b$&n$&n$&');
    expect(of("replace(s, '', 'x')", 'ab')).toBe('ab');
    expect(of("concat(s, 1, 2.5, true, '2024-01-01')", '>')).toBe('>12.5true2024-01-01');
  });

  it('evaluates the numeric functions', () => {
    const numbers = [col('f', 'float64'), col('d', 'decimal'), col('i', 'int32')];
    const of = (expression: string, row: Value[]) => values(expression, [row], numbers)[0];
    expect(of('round(f)', [2.5, null, null])).toBe(3);
    expect(of('round(f)', [-2.5, null, null])).toBe(-3);
    expect(of('round(f, 2)', [2.675, null, null])).toBe(2.68);
    expect(of('round(f, 1)', [0.1 + 0.2, null, null])).toBe(0.3);
    expect(of('round(d, 1)', [null, '-0.25', null])).toBe(-0.3);
    expect(of('round(i, -2)', [null, null, 1250])).toBe(1300);
    expect(of('round(f, 1)', [NaN, null, null])).toBeNaN();
    expect(of('abs(i)', [null, null, -5])).toBe('5');
    expect(of('abs(d)', [null, '-1.5', null])).toBe(1.5);
    expect(of('floor(f)', [-1.5, null, null])).toBe(-2);
    expect(of('ceil(d)', [null, '1.2', null])).toBe(2);
    expect(of('ceil(i)', [null, null, 7])).toBe('7');
    expect(() => of('d * 2', [null, '1e400', null])).toThrow(/overflow/);
    expect(() => of('f * 10', [1e308, null, null])).toThrow(/overflow/);
    expect(() => of('f * f', [1e-300, null, null])).toThrow(/underflow/);
  });

  it('evaluates if, coalesce, is_null and json_get', () => {
    expect(values("if(ok, 'yes', 'no')")).toEqual(['yes', 'no', 'no']);
    expect(values('coalesce(big, id)')).toEqual(['9007199254740993', '-5', '3']);
    expect(values('is_null(doc)')).toEqual([false, false, true]);
    expect(values("json_get(doc, 'a.b')")).toEqual(['1', '2', null]);
    expect(values("json_get(doc, 'tags.-1')")).toEqual(['x', null, null]);
    expect(values("json_get(doc, 'a')")).toEqual(['{"b": 1}', '{"b": 2}', null]);
    expect(values("json_get(doc, 'tags')")).toEqual(['["x"]', null, null]);
  });

  it('refers to any column with col(), and knows and/or/not', () => {
    const odd = [col('unit price', 'float64'), col('and', 'boolean')];
    expect(
      values(
        "col('unit price') * 2 > 1 and not col('and')",
        [
          [1, false],
          [1, true],
          [0.1, false],
        ],
        odd,
      ),
    ).toEqual([true, false, false]);
    expect(values('true or false and false', [[1, false]], odd)).toEqual([true]);
  });

  it('reports unknown columns and wrong operand types with the step path', () => {
    expect(
      planError([
        { type: 'select', columns: ['id'] },
        { type: 'filter', expression: 'name > 1' },
      ]),
    ).toMatchObject({ path: '1.expression', message: 'unknown column "name"' });
    expect(planError([{ type: 'derive', column: 'x', expression: 'name + 1' }])).toMatchObject({
      path: '0.expression',
      message: expect.stringMatching(/expected numbers/),
    });
    expect(planError([{ type: 'derive', column: 'x', expression: 'ratio % 2' }]).message).toMatch(/expected integers/);
    expect(planError([{ type: 'derive', column: 'x', expression: 'day > id' }]).message).toMatch(
      /cannot compare date with int32/,
    );
    expect(planError([{ type: 'derive', column: 'x', expression: 'doc == doc' }]).message).toMatch(
      /cannot compare json/,
    );
    expect(planError([{ type: 'derive', column: 'x', expression: 'lower(id)' }]).message).toMatch(/expected text/);
    expect(planError([{ type: 'derive', column: 'x', expression: 'coalesce(day, id)' }]).message).toMatch(/cannot mix/);
    expect(planError([{ type: 'filter', expression: 'id + 1' }]).message).toMatch(/boolean expression/);
    expect(planError([{ type: 'derive', column: 'x'.repeat(64), expression: '1' }]).path).toBe('0.column');
  });
});

describe('validateSteps', () => {
  const problems = (steps: unknown) => validateSteps(steps);

  it('accepts good steps', () => {
    expect(
      problems([
        { type: 'select', columns: ['a'] },
        { type: 'filter', expression: "a > 1 and not is_null(col('b c'))" },
        { type: 'deduplicate', keys: ['a'], order_by: 'b', keep: 'last' },
        { type: 'flatten', column: 'doc', paths: ['a.b'], separator: '__', keep_original: true },
        { type: 'mask', columns: { a: 'hash' } },
        { type: 'cast', columns: { a: 'timestamptz' } },
        { type: 'rename', columns: { a: 'b' } },
      ]),
    ).toEqual([]);
  });

  it('reports each kind of mistake at its path', () => {
    expect(problems({})).toEqual([{ path: '', message: 'steps must be an array' }]);
    expect(problems([null])).toEqual([{ path: '0', message: 'a step must be an object' }]);
    expect(problems([{ columns: [] }])[0]!.path).toBe('0.type');
    expect(problems([{ type: 'explode' }])).toEqual([
      { path: '0.type', message: expect.stringMatching(/unknown step type "explode"/) },
    ]);
    expect(problems([{ type: 'select' }])).toEqual([{ path: '0.columns', message: 'missing columns' }]);
    expect(problems([{ type: 'select', columns: ['a', 7, 'a'] }])).toEqual([
      { path: '0.columns.1', message: 'must be a non-empty string' },
      { path: '0.columns.2', message: '"a" is listed twice' },
    ]);
    expect(problems([{ type: 'drop', columns: [] }])[0]!.path).toBe('0.columns');
    expect(problems([{ type: 'select', columns: ['a'], where: 'x' }])).toEqual([
      { path: '0.where', message: expect.stringMatching(/unknown field/) },
    ]);
    expect(problems([{ type: 'rename', columns: { a: 'c', b: 'c', d: 3 } }]).map((p) => p.path)).toEqual([
      '0.columns.d',
      '0.columns.b',
    ]);
    expect(problems([{ type: 'cast', columns: { a: 'text' } }])).toEqual([
      { path: '0.columns.a', message: expect.stringMatching(/unknown type "text"/) },
    ]);
    expect(problems([{ type: 'mask', columns: { a: 'scramble' } }])[0]!.path).toBe('0.columns.a');
    expect(problems([{ type: 'deduplicate', keys: ['a'], keep: 'middle' }])[0]!.path).toBe('0.keep');
    expect(
      problems([{ type: 'flatten', column: 'doc', paths: ['a..b'], keep_original: 'yes' }]).map((p) => p.path),
    ).toEqual(['0.paths.0', '0.keep_original']);
    expect(problems([{ type: 'derive', column: '', expression: '1' }])[0]!.path).toBe('0.column');
  });

  it('checks expression syntax, functions and arity without knowing the columns', () => {
    const message = (expression: unknown) => problems([{ type: 'filter', expression }])[0];
    expect(message('a >')).toMatchObject({ path: '0.expression', message: expect.stringMatching(/syntax error/) });
    expect(message('')).toMatchObject({ message: expect.stringMatching(/non-empty/) });
    expect(message(42)).toMatchObject({ message: expect.stringMatching(/non-empty string/) });
    expect(message('evil(a)')!.message).toBe('unknown function evil()');
    expect(message('lower(a, b)')!.message).toBe('lower() takes 1 argument, got 2');
    expect(message('substr(a)')!.message).toBe('substr() takes 2 to 3 arguments, got 1');
    expect(message('concat()')!.message).toBe('concat() takes at least 1 arguments, got 0');
    expect(message('json_get(doc, path)')!.message).toMatch(/string literal/);
    expect(message('col(a)')!.message).toMatch(/col\(\) takes one string literal/);
    expect(message('a === 1')!.message).toMatch(/use ==/);
    expect(message('a ? b : c')!.message).toMatch(/use if/);
    expect(message('a.b')!.message).toMatch(/member access/);
    expect(message('a | b')!.message).toMatch(/unsupported operator \|/);
    expect(message('a b')!.message).toMatch(/one expression/);
    expect(message('this')!.message).toMatch(/unsupported syntax/);
    expect(message('[1, 2]')!.message).toMatch(/unsupported syntax/);
  });

  it('is also what planTransforms checks first', () => {
    expect(planError([{ type: 'filter', expression: 'nope(1)' } as TransformStep])).toMatchObject({
      path: '0.expression',
      message: 'unknown function nope()',
    });
  });
});

describe('pushdown SQL', () => {
  it('quotes identifiers and escapes literals', () => {
    const input = [col('we"ird', 'string')];
    const sql = planTransforms(
      [{ type: 'filter', expression: `col('we"ird') == 'it\\'s \\\\ fine'` }],
      input,
    ).toPostgresSql('"s"."t"');
    expect(sql).toContain('"we""ird"');
    expect(sql).toContain(`E'it''s \\\\ fine'`);
    expect(sql).toMatch(/FROM "s"\."t" WHERE/);
  });

  it('aliases a parenthesised subquery and selects exactly the output columns', () => {
    const plan = planTransforms(
      [
        { type: 'derive', column: 'two', expression: 'id * 2' },
        { type: 'drop', columns: ['doc'] },
      ],
      INPUT,
    );
    const sql = plan.toPostgresSql('(select * from t)');
    expect(sql).toContain('FROM (select * from t) AS svc_source');
    expect(sql.startsWith(`SELECT ${plan.output.map((c) => `"${c.name}"`).join(', ')} FROM`)).toBe(true);
    expect(planTransforms([], INPUT).toPostgresSql('"t"')).toBe(
      `SELECT ${INPUT.map((c) => `"${c.name}"`).join(', ')} FROM "t"`,
    );
  });

  it('does not compute a derived column no later step uses', () => {
    const plan = planTransforms(
      [
        { type: 'derive', column: 'bad', expression: 'id / (id - id)' },
        { type: 'drop', columns: ['bad'] },
      ],
      INPUT,
    );
    expect(plan.toPostgresSql('"t"')).toContain('NULL::double precision AS "bad"');
    expect(plan.createRunner().apply({ columns: INPUT, rows: ROWS }).rows).toHaveLength(3);
  });
});
