/**
 * Canonical types for files that carry none (CSV, TSV, JSON, NDJSON), inferred from a sample, and
 * the conversion of raw cells to those types.
 *
 * Rules, per column over the sampled values (empty and null values only make it nullable):
 * - all integers: int32 within 32 bits, int64 within 64 bits, decimal beyond;
 * - numbers with a fraction or exponent: float64, unless one of them is not held exactly by a
 *   double (more than 15 significant digits that a double cannot reproduce): then decimal;
 * - true/false (any case): boolean;
 * - ISO dates: date; 'HH:MM:SS[.f]': time; ISO date-times: timestamptz with a zone or Z, timestamp without;
 * - JSON objects or arrays (JSON formats): json;
 * - anything else, or a mix of the above: string.
 * In JSON files only JSON numbers are numbers and only JSON booleans booleans; JSON strings can still be
 * dates and times.
 */
import type { CanonicalType, ColumnSchema, JsonValue, Value } from '../../types.js';
import { JsonNumber } from './json-text.js';
import {
  integerWidth,
  isDateText,
  isExactDouble,
  isIntegerText,
  isNumberText,
  isSpecialFloat,
  isTimestampText,
  isTimestamptzText,
  isTimeText,
  formatNumber,
  normalizeTime,
  normalizeTimestamp,
  normalizeTimestamptz,
} from './values.js';

/** A cell as a file gives it: text or null (CSV), or a parsed JSON value. */
export type RawValue = unknown;

export const SAMPLE_ROWS = 1000;

type Kind = 'boolean' | 'number' | 'date' | 'time' | 'timestamp' | 'timestamptz' | 'string' | 'json';

function temporalKind(text: string): Kind | undefined {
  if (isDateText(text)) return 'date';
  if (isTimestamptzText(text)) return 'timestamptz';
  if (isTimestampText(text)) return 'timestamp';
  if (isTimeText(text)) return 'time';
  return undefined;
}

function jsonKind(value: unknown): string {
  if (value instanceof JsonNumber) return 'number';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Folds the sampled values of one column into a canonical type. */
export class ColumnInference {
  private nullable = false;
  private readonly kinds = new Set<Kind>();
  private readonly sourceKinds = new Set<string>();
  private allIntegers = true;
  private widestInteger: 'int32' | 'int64' | 'wider' = 'int32';
  private allExact = true;
  private emptyText = false;

  /** `textual`: cells are text (CSV), where numbers and booleans are spelled out. */
  constructor(private readonly textual: boolean) {}

  /** A column some rows or files lack. */
  markMissing(): void {
    this.nullable = true;
  }

  observe(value: RawValue): void {
    if (value === null || value === undefined) {
      this.nullable = true;
      return;
    }
    if (this.textual && value === '') {
      // A quoted empty field: the empty string in a text column, null in any other.
      this.emptyText = true;
      return;
    }
    if (!this.textual) this.sourceKinds.add(jsonKind(value));
    if (typeof value === 'string') {
      if (this.textual && (isNumberText(value) || isSpecialFloat(value))) return this.observeNumber(value);
      if (this.textual && /^(true|false)$/i.test(value)) return void this.kinds.add('boolean');
      this.kinds.add(temporalKind(value) ?? 'string');
    } else if (typeof value === 'number') {
      this.observeNumber(formatNumber(value));
    } else if (value instanceof JsonNumber) {
      this.observeNumber(value.text);
    } else if (typeof value === 'boolean') {
      this.kinds.add('boolean');
    } else {
      this.kinds.add('json');
    }
  }

  private observeNumber(text: string): void {
    this.kinds.add('number');
    if (isIntegerText(text)) {
      const width = integerWidth(text);
      if (width === 'wider' || (width === 'int64' && this.widestInteger === 'int32')) this.widestInteger = width;
      if (!isExactDouble(text)) this.allExact = false;
      return;
    }
    this.allIntegers = false;
    if (!isSpecialFloat(text) && !isExactDouble(text)) this.allExact = false;
  }

  result(name: string): ColumnSchema {
    const type = this.type();
    const nullable = this.nullable || this.kinds.size === 0 || (this.emptyText && type !== 'string');
    return {
      name,
      type,
      sourceType: this.textual ? 'text' : [...this.sourceKinds].sort().join('|') || 'null',
      nullable,
    };
  }

  private type(): CanonicalType {
    if (this.kinds.has('json')) return 'json'; // every JSON value, scalar or not, is valid json
    if (this.kinds.size !== 1) return 'string'; // nothing but nulls, or a mix
    const [kind] = this.kinds as Set<Kind>;
    if (kind !== 'number') return kind as CanonicalType;
    if (this.allIntegers) return this.widestInteger === 'wider' ? 'decimal' : this.widestInteger;
    return this.allExact ? 'float64' : 'decimal';
  }
}

/** Infers the columns of sampled records, in the order their names first appear. */
export class RecordInference {
  private readonly columns = new Map<string, ColumnInference>();
  private records = 0;

  constructor(private readonly textual: boolean) {}

  /** Names known before any row (a CSV header): they exist even when no row has a value. */
  declare(names: readonly string[]): void {
    for (const name of names) this.column(name);
  }

  observe(keys: readonly string[], values: readonly RawValue[]): void {
    const seen = new Set<string>();
    keys.forEach((key, i) => {
      const column = this.column(key);
      column.observe(values[i]);
      seen.add(key);
    });
    for (const [name, column] of this.columns) if (!seen.has(name)) column.markMissing();
    this.records += 1;
  }

  private column(name: string): ColumnInference {
    let column = this.columns.get(name);
    if (!column) {
      column = new ColumnInference(this.textual);
      if (this.records > 0) column.markMissing(); // earlier records lacked it
      this.columns.set(name, column);
    }
    return column;
  }

  result(): ColumnSchema[] {
    return [...this.columns].map(([name, column]) => column.result(name));
  }
}

/** Returned by convertCell when a value does not fit its column's inferred type. */
export const MISMATCH = Symbol('mismatch');

const asText = (value: RawValue): string | undefined =>
  typeof value === 'string'
    ? value
    : value instanceof JsonNumber
      ? value.text
      : typeof value === 'number'
        ? formatNumber(value)
        : undefined;

/** A number as text, whether it came as text (CSV), a double or a JsonNumber (JSON). */
function numberText(value: RawValue, textual: boolean): string | undefined {
  if (typeof value === 'string') return textual && (isNumberText(value) || isSpecialFloat(value)) ? value : undefined;
  return typeof value === 'number' || value instanceof JsonNumber ? asText(value) : undefined;
}

/** Plain JSON: JsonNumber back to a double (only top-level cells can be one). */
// A raw cell is CSV text or what the JSON parser made of a field: JSON, with JsonNumber only at the top.
const plainJson = (value: RawValue): Value => (value instanceof JsonNumber ? Number(value.text) : (value as JsonValue));

/** A raw cell in the canonical representation of `type`, or MISMATCH. */
export function convertCell(value: RawValue, type: CanonicalType, textual: boolean): Value | typeof MISMATCH {
  if (value === null || value === undefined) return null;
  if (textual && value === '' && type !== 'string') return null;
  switch (type) {
    case 'string': {
      if (typeof value === 'string') return value;
      return asText(value) ?? (typeof value === 'boolean' ? String(value) : JSON.stringify(value));
    }
    case 'json':
      return plainJson(value);
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (textual && typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
      return MISMATCH;
    case 'int16':
    case 'int32': {
      const text = numberText(value, textual);
      return text !== undefined && isIntegerText(text) && integerWidth(text) === 'int32' ? Number(text) : MISMATCH;
    }
    case 'int64': {
      const text = numberText(value, textual);
      return text !== undefined && isIntegerText(text) && integerWidth(text) !== 'wider'
        ? BigInt(text).toString()
        : MISMATCH;
    }
    case 'float32':
    case 'float64': {
      const text = numberText(value, textual);
      return text === undefined ? MISMATCH : Number(text);
    }
    case 'decimal': {
      const text = numberText(value, textual);
      return text === undefined || isSpecialFloat(text) ? MISMATCH : text;
    }
    case 'date':
      return typeof value === 'string' && isDateText(value) ? value : MISMATCH;
    case 'time':
      return typeof value === 'string' && isTimeText(value) ? normalizeTime(value) : MISMATCH;
    case 'timestamp':
      return typeof value === 'string' && isTimestampText(value) ? normalizeTimestamp(value) : MISMATCH;
    case 'timestamptz':
      return typeof value === 'string' && isTimestamptzText(value) ? normalizeTimestamptz(value) : MISMATCH;
    default:
      return typeof value === 'string' ? value : MISMATCH; // uuid and binary are never inferred
  }
}
