/**
 * Columns of an endpoint inferred from sample records, and the conversion of record fields to the
 * canonical representation of those columns.
 *
 * Top-level fields become columns (nothing is flattened), in the order they first appear. Per column:
 * integers within int32 -> int32, other integers (also beyond 2^53) -> int64, integers beyond 64 bits
 * -> decimal, any other number -> float64, booleans -> boolean, ISO date-times with a zone ->
 * timestamptz, ISO dates -> date, objects and arrays -> json, other strings, mixes and all-null ->
 * string. Every column is nullable: an API promises no field on the next page.
 */
import { ConnectorError, type CanonicalType, type ColumnSchema, type Value } from '../../types.js';
import { JsonInteger, toPlain } from './json.js';
import { isDateText, normalizeTimestamptz } from './values.js';

export const SAMPLE_RECORDS = 1000;

const INT32 = 2 ** 31;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

type Kind = 'int32' | 'int64' | 'wide' | 'float' | 'boolean' | 'timestamptz' | 'date' | 'string' | 'json';

function kindOf(value: unknown): Kind | undefined {
  if (value === null || value === undefined) return undefined;
  if (value instanceof JsonInteger) {
    const n = BigInt(value.text);
    return n >= INT64_MIN && n <= INT64_MAX ? 'int64' : 'wide';
  }
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return 'float';
    if (value >= -INT32 && value < INT32) return 'int32';
    return Number.isSafeInteger(value) ? 'int64' : 'float';
  }
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') {
    if (isDateText(value)) return 'date';
    return normalizeTimestamptz(value) !== undefined ? 'timestamptz' : 'string';
  }
  return 'json';
}

/** The JSON Schema-like name of a value, for sourceType. */
function sourceKind(value: unknown): string {
  const kind = kindOf(value);
  if (kind === undefined) return 'null';
  if (kind === 'timestamptz') return 'string (date-time)';
  if (kind === 'date') return 'string (date)';
  if (kind === 'float') return 'number';
  if (kind === 'int32' || kind === 'int64' || kind === 'wide') return 'integer';
  if (kind === 'json') return Array.isArray(value) ? 'array' : 'object';
  return kind;
}

function canonicalOf(kinds: Set<Kind>): CanonicalType {
  if (kinds.size === 0) return 'string';
  if (kinds.has('json')) return 'json';
  const only = (...allowed: Kind[]) => [...kinds].every((kind) => allowed.includes(kind));
  if (only('int32', 'int64', 'wide', 'float')) {
    if (kinds.has('float')) return 'float64';
    if (kinds.has('wide')) return 'decimal';
    return kinds.has('int64') ? 'int64' : 'int32';
  }
  if (only('boolean')) return 'boolean';
  if (only('timestamptz')) return 'timestamptz';
  if (only('date')) return 'date';
  return 'string';
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function inferColumns(records: readonly unknown[]): ColumnSchema[] {
  const seen = new Map<string, { kinds: Set<Kind>; sources: Set<string> }>();
  for (const record of records.slice(0, SAMPLE_RECORDS)) {
    if (!isRecord(record)) continue;
    for (const [name, value] of Object.entries(record)) {
      let column = seen.get(name);
      if (!column) seen.set(name, (column = { kinds: new Set(), sources: new Set() }));
      const kind = kindOf(value);
      if (kind) column.kinds.add(kind);
      column.sources.add(sourceKind(value));
    }
  }
  return [...seen].map(([name, { kinds, sources }]) => ({
    name,
    type: canonicalOf(kinds),
    sourceType: [...sources].join(' | '),
    nullable: true,
  }));
}

/** Why a value does not fit its column; read.ts names the endpoint and field. */
export class ValueMismatch extends Error {}

/** A field's value in the canonical representation of its column's type. */
export function toCanonical(value: unknown, type: CanonicalType): Value {
  if (value === null || value === undefined) return null;
  const kind = kindOf(value);
  const misfit = () => new ValueMismatch(`a ${sourceKind(value)} value does not fit the inferred type ${type}`);
  switch (type) {
    case 'int32':
      if (kind === 'int32') return value as number;
      throw misfit();
    case 'int64':
      if (kind === 'int32' || kind === 'int64')
        return value instanceof JsonInteger ? BigInt(value.text).toString() : String(value);
      throw misfit();
    case 'decimal':
      if (kind === 'int32' || kind === 'int64' || kind === 'wide')
        return value instanceof JsonInteger ? BigInt(value.text).toString() : String(value);
      throw misfit();
    case 'float64':
      if (value instanceof JsonInteger) return Number(value.text);
      if (typeof value === 'number') return value;
      throw misfit();
    case 'boolean':
      if (typeof value === 'boolean') return value;
      throw misfit();
    case 'timestamptz': {
      const normalized = typeof value === 'string' ? normalizeTimestamptz(value) : undefined;
      if (normalized !== undefined) return normalized;
      throw misfit();
    }
    case 'date':
      if (kind === 'date') return value as string;
      throw misfit();
    case 'json':
      return toPlain(value);
    case 'string':
      if (typeof value === 'string') return value;
      if (value instanceof JsonInteger) return value.text;
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      return JSON.stringify(toPlain(value));
    default:
      throw new ConnectorError('unsupported', `column type ${type} is not produced by this connector`, false);
  }
}
