/**
 * The masking methods, on values of the engine's canonical types. A masked value always keeps its
 * column's type: a method that has no meaning for a type (a partial mask of a number, an e-mail
 * domain of a date) gives that type's constant, as `full` does. docs/masking.md has the table.
 *
 * The same rules are written in SQL for the warehouse's masked views (./warehouse-views.ts); the two
 * give the same values for strings and integers, so a hashed key joins across exit paths.
 */
import { createHmac } from 'node:crypto';
import type { CanonicalType, Value } from '@svc/engine';

export const METHODS = ['null', 'full', 'hash', 'partial', 'email_domain', 'regex_replace'] as const;
export type MaskingMethod = (typeof METHODS)[number];

/** Most restrictive first: where several policies cover one column, the first of these wins. */
export const RESTRICTIVENESS: Record<MaskingMethod, number> = {
  null: 6,
  full: 5,
  hash: 4,
  partial: 3,
  email_domain: 2,
  regex_replace: 1,
};

export interface MethodOptions {
  /** partial: characters kept at the start (default 0). */
  keep_first?: number;
  /** partial: characters kept at the end (default 4). */
  keep_last?: number;
  /** regex_replace: what to replace (every match). */
  pattern?: string;
  /** regex_replace: the literal text put in place of each match (default `****`). */
  replacement?: string;
}

/** What `full` (and every method on a type it has no meaning for) gives, per type. */
export const MASK_TEXT = '****';
const CONSTANTS: Record<CanonicalType, Value> = {
  boolean: false,
  int16: 0,
  int32: 0,
  int64: '0',
  float32: 0,
  float64: 0,
  decimal: '0',
  string: MASK_TEXT,
  uuid: '00000000-0000-0000-0000-000000000000',
  date: '1970-01-01',
  time: '00:00:00',
  timestamp: '1970-01-01T00:00:00',
  timestamptz: '1970-01-01T00:00:00.000000Z',
  json: MASK_TEXT,
  binary: Buffer.alloc(0),
};

export function constantOf(type: CanonicalType): Value {
  const value = CONSTANTS[type] ?? MASK_TEXT;
  return Buffer.isBuffer(value) ? Buffer.alloc(0) : value;
}

const textOf = (value: Value): string | Buffer =>
  Buffer.isBuffer(value) ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);

/** HMAC-SHA-256 of the value's text under the project's key. */
const digestOf = (key: Buffer, value: Value) => createHmac('sha256', key).update(textOf(value)).digest();

/** A non-negative integer from the digest's first bytes: 47 bits, below 2^bits. */
function integerOf(digest: Buffer, bits: number): bigint {
  const n = digest.readBigUInt64BE(0) >> 17n;
  return bits >= 47 ? n : n % (1n << BigInt(bits));
}

function hashOf(key: Buffer, type: CanonicalType, value: Value): Value {
  const digest = digestOf(key, value);
  switch (type) {
    case 'string':
      return digest.toString('hex').slice(0, 32);
    case 'int16':
      return Number(integerOf(digest, 15));
    case 'int32':
      return Number(integerOf(digest, 31));
    case 'float32':
    case 'float64':
      return Number(integerOf(digest, 47));
    case 'int64':
    case 'decimal':
      return integerOf(digest, 47).toString();
    case 'uuid': {
      const hex = digest.toString('hex');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
    }
    case 'binary':
      return digest;
    default:
      return constantOf(type);
  }
}

function partialOf(type: CanonicalType, value: Value, options: MethodOptions): Value {
  if (type !== 'string' || typeof value !== 'string') return constantOf(type);
  const first = options.keep_first ?? 0;
  const last = options.keep_last ?? 4;
  const chars = [...value];
  if (chars.length <= first + last) return '*'.repeat(chars.length);
  return (
    chars.slice(0, first).join('') + '*'.repeat(chars.length - first - last) + chars.slice(chars.length - last).join('')
  );
}

function emailDomainOf(type: CanonicalType, value: Value): Value {
  if (type !== 'string' || typeof value !== 'string') return constantOf(type);
  const at = value.lastIndexOf('@');
  return at < 0 ? MASK_TEXT : `${MASK_TEXT}${value.slice(at)}`;
}

/** A policy's method made into a function of one value; null stays null under every method. */
export type ValueMask = (value: Value) => Value;

export function maskFunction(
  method: MaskingMethod,
  options: MethodOptions,
  type: CanonicalType,
  key: () => Buffer,
): ValueMask {
  switch (method) {
    case 'null':
      return () => null;
    case 'full':
      return (v) => (v === null ? null : constantOf(type));
    case 'hash': {
      const k = key();
      return (v) => (v === null ? null : hashOf(k, type, v));
    }
    case 'partial':
      return (v) => (v === null ? null : partialOf(type, v, options));
    case 'email_domain':
      return (v) => (v === null ? null : emailDomainOf(type, v));
    case 'regex_replace': {
      if (type !== 'string') return (v) => (v === null ? null : constantOf(type));
      const pattern = new RegExp(options.pattern ?? '.+', 'gu');
      const replacement = options.replacement ?? MASK_TEXT;
      return (v) => (typeof v === 'string' ? v.replace(pattern, () => replacement) : v === null ? null : MASK_TEXT);
    }
  }
}

/** Problems with a method's options (paths under `options`), for a 422. */
export function optionProblems(method: MaskingMethod, options: MethodOptions): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const allowed: Record<MaskingMethod, (keyof MethodOptions)[]> = {
    null: [],
    full: [],
    hash: [],
    partial: ['keep_first', 'keep_last'],
    email_domain: [],
    regex_replace: ['pattern', 'replacement'],
  };
  for (const name of Object.keys(options) as (keyof MethodOptions)[])
    if (!allowed[method].includes(name))
      problems.push({ path: `options.${name}`, message: `does not apply to the ${method} method` });
  if (method === 'regex_replace') {
    if (!options.pattern) problems.push({ path: 'options.pattern', message: 'is required for regex_replace' });
    else
      try {
        new RegExp(options.pattern, 'gu');
        if (new RegExp(options.pattern, 'u').test('')) throw new Error('matches the empty string');
      } catch (error) {
        problems.push({ path: 'options.pattern', message: `is not a usable pattern: ${(error as Error).message}` });
      }
  }
  return problems;
}
