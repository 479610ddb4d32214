import { describe, expect, it } from 'vitest';
import { constantOf, maskFunction, optionProblems, type MaskingMethod } from '../methods.js';
import { planMask, winningPolicy, type AppliedPolicy } from '../plan.js';

const key = () => Buffer.alloc(32, 7);
const other = () => Buffer.alloc(32, 8);
const mask = (method: MaskingMethod, type: Parameters<typeof maskFunction>[2], options = {}) =>
  maskFunction(method, options, type, key);

const policy = (name: string, method: MaskingMethod, more: Partial<AppliedPolicy> = {}): AppliedPolicy => ({
  id: name,
  name,
  method,
  options: {},
  columns: ['email'],
  tags: [],
  created_at: new Date(2026, 0, 1),
  ...more,
});

describe('masking methods', () => {
  it('full: a constant of the column type', () => {
    expect(mask('full', 'string')('alice@example.com')).toBe('****');
    expect(mask('full', 'int32')(42)).toBe(0);
    expect(mask('full', 'int64')('9007199254740993')).toBe('0');
    expect(mask('full', 'date')('1990-05-17')).toBe('1970-01-01');
    expect(mask('full', 'timestamptz')('2026-01-01T10:00:00.000000Z')).toBe('1970-01-01T00:00:00.000000Z');
    expect(mask('full', 'boolean')(true)).toBe(false);
    expect(mask('full', 'uuid')('8b0c4b9e-3f0a-4c55-9d5e-3a2f6c1b7e10')).toBe('00000000-0000-0000-0000-000000000000');
    expect(Buffer.isBuffer(mask('full', 'binary')(Buffer.from('secret')))).toBe(true);
    expect(mask('full', 'string')(null)).toBeNull();
    expect(constantOf('decimal')).toBe('0');
  });

  it('partial: keeps the first and last characters asked for, masks the rest with as many stars', () => {
    expect(mask('partial', 'string', { keep_first: 2, keep_last: 2 })('4111111111111111')).toBe('41************11');
    expect(mask('partial', 'string')('4111111111111111')).toBe('************1111');
    expect(mask('partial', 'string', { keep_first: 3, keep_last: 3 })('short')).toBe('*****');
    expect(mask('partial', 'int32')(1234)).toBe(0);
  });

  it('hash: deterministic per key, different under another key, the column type kept', () => {
    const a = mask('hash', 'string')('alice@example.com');
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(mask('hash', 'string')('alice@example.com')).toBe(a);
    expect(maskFunction('hash', {}, 'string', other)('alice@example.com')).not.toBe(a);
    expect(mask('hash', 'string')('bob@example.com')).not.toBe(a);
    const n = mask('hash', 'int32')(42);
    expect(Number.isInteger(n)).toBe(true);
    expect(n as number).toBeLessThan(2 ** 31);
    expect(mask('hash', 'int64')('42')).toMatch(/^\d+$/);
    expect(mask('hash', 'uuid')('8b0c4b9e-3f0a-4c55-9d5e-3a2f6c1b7e10')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect(mask('hash', 'date')('1990-05-17')).toBe('1970-01-01');
  });

  it('null: null whatever the value', () => {
    expect(mask('null', 'string')('alice')).toBeNull();
    expect(mask('null', 'int64')('7')).toBeNull();
  });

  it('regex_replace: every match replaced by literal text', () => {
    const f = mask('regex_replace', 'string', { pattern: '[0-9]', replacement: '#' });
    expect(f('call 555-0100')).toBe('call ###-####');
    expect(mask('regex_replace', 'string', { pattern: '\\d+', replacement: '$1' })('a1')).toBe('a$1');
    expect(mask('regex_replace', 'int32', { pattern: '1' })(1)).toBe(0);
    expect(optionProblems('regex_replace', {}).map((p) => p.path)).toEqual(['options.pattern']);
    expect(optionProblems('regex_replace', { pattern: '(' }).map((p) => p.path)).toEqual(['options.pattern']);
    expect(optionProblems('regex_replace', { pattern: 'x*' }).map((p) => p.path)).toEqual(['options.pattern']);
    expect(optionProblems('full', { keep_first: 1 }).map((p) => p.path)).toEqual(['options.keep_first']);
  });

  it('email_domain: the domain kept, the mailbox masked', () => {
    expect(mask('email_domain', 'string')('alice@example.com')).toBe('****@example.com');
    expect(mask('email_domain', 'string')('not an address')).toBe('****');
    expect(mask('email_domain', 'int32')(5)).toBe(0);
  });
});

describe('precedence', () => {
  it('the most restrictive policy wins, by method, then by what partial keeps, then the oldest', () => {
    const column = { name: 'EMAIL', type: 'string' as const };
    expect(
      winningPolicy([policy('a', 'partial'), policy('b', 'hash'), policy('c', 'email_domain')], column)?.name,
    ).toBe('b');
    expect(winningPolicy([policy('a', 'hash'), policy('b', 'full')], column)?.name).toBe('b');
    expect(winningPolicy([policy('a', 'full'), policy('b', 'null')], column)?.name).toBe('b');
    expect(winningPolicy([policy('a', 'regex_replace'), policy('b', 'email_domain')], column)?.name).toBe('b');
    expect(
      winningPolicy(
        [policy('a', 'partial', { options: { keep_last: 4 } }), policy('b', 'partial', { options: { keep_last: 2 } })],
        column,
      )?.name,
    ).toBe('b');
    expect(
      winningPolicy([policy('late', 'full', { created_at: new Date(2026, 5, 1) }), policy('early', 'full')], column)
        ?.name,
    ).toBe('early');
  });

  it('matches columns by name (any case) or by tag, and leaves other columns alone', () => {
    const plan = planMask(
      [policy('by name', 'full'), policy('by tag', 'null', { columns: [], tags: ['pii.phone'] })],
      [
        { name: 'id', type: 'int32' },
        { name: 'Email', type: 'string' },
        { name: 'mobile', type: 'string', tags: ['PII.phone'] },
      ],
      key,
    );
    expect(plan?.masked).toEqual({
      Email: { policy: 'by name', method: 'full' },
      mobile: { policy: 'by tag', method: 'null' },
    });
    expect(plan?.row([1, 'alice@example.com', '+33 6 12 34 56 78'])).toEqual([1, '****', null]);
    expect(planMask([policy('x', 'full')], [{ name: 'id', type: 'int32' }], key)).toBeNull();
  });
});
