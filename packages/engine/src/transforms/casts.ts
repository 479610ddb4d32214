/**
 * The cast step and masking, each rule written once for both paths: a function over a non-null
 * canonical value and the SQL over the operand (a column in columnSql form).
 */
import { createHash } from 'node:crypto';
import type { CanonicalType, JsonValue, Value } from '../types.js';
import { fail, type MaskMethod } from './steps.js';
import { checkedCastSql, float8Sql, numericSql, pgType, textSql } from './sql.js';
import { decimalToFloat, numericText, plainNumber, roundDecimalText, toFloat4 } from './numbers.js';
import {
  codePointLength,
  convertTemporal,
  grammarOf,
  lastCharacters,
  parseBoolText,
  parseByteaText,
  parseFloatText,
  parseIntText,
  parseTemporal,
  parseUuidText,
  textFormOf,
} from './values.js';

export interface ValueRule {
  /** Applied to non-null values only. */
  js: (value: Value) => Value;
  sql: (operand: string) => string;
}

type IntType = 'int16' | 'int32' | 'int64';
const INT_TYPES = new Set<CanonicalType>(['int16', 'int32', 'int64']);
const FLOAT_TYPES = new Set<CanonicalType>(['float32', 'float64']);
const TEMPORAL_CASTS: Record<string, CanonicalType[]> = {
  date: ['timestamp', 'timestamptz'],
  timestamp: ['date', 'time', 'timestamptz'],
  timestamptz: ['date', 'time', 'timestamp'],
};
const INT_RANGES: Record<IntType, [bigint, bigint, string]> = {
  int16: [-32768n, 32767n, 'smallint'],
  int32: [-2147483648n, 2147483647n, 'integer'],
  int64: [-9223372036854775808n, 9223372036854775807n, 'bigint'],
};

/** An integer (digits, number or bigint) as a value of the integer type, or the range error. */
function toIntType(value: string | number | bigint, type: IntType): number | string {
  const big = typeof value === 'bigint' ? value : BigInt(value);
  const [min, max, name] = INT_RANGES[type];
  if (big < min || big > max) fail(`${name} out of range`);
  return type === 'int64' ? big.toString() : Number(big);
}

/** Half away from zero, like round(x::text::numeric): exact for every float. */
function roundFloat(value: number): string | number {
  if (!Number.isFinite(value)) fail(`cannot convert ${Number.isNaN(value) ? 'NaN' : 'infinity'} to an integer`);
  const rounded = value < 0 ? -Math.round(-value) : Math.round(value);
  return Number.isSafeInteger(rounded) ? rounded + 0 : plainNumber(value);
}

function roundDecimal(text: string): string {
  if (text === 'NaN' || text.endsWith('Infinity')) fail(`cannot convert ${text} to an integer`);
  return roundDecimalText(text, 0);
}

/** From text through the grammar both paths share. */
function fromText(type: CanonicalType): (text: string) => Value {
  switch (type) {
    case 'int16':
    case 'int32':
    case 'int64':
      return (text) => parseIntText(text, type);
    case 'float64':
      return parseFloatText;
    case 'float32':
      return (text) => toFloat4(parseFloatText(text));
    case 'decimal':
      return (text) => numericText(text) ?? fail(`value "${text}" is out of range for type numeric`);
    case 'boolean':
      return parseBoolText;
    case 'uuid':
      return parseUuidText;
    default:
      return (text) => parseTemporal(type as 'date', text);
  }
}

/** Text -> type, rejecting what the grammar does not admit; for casts and flattened JSON leaves. */
export function textToRule(type: CanonicalType, column: string): ValueRule {
  if (type === 'string') return { js: (value) => value, sql: (operand) => operand };
  if (type === 'json') {
    return {
      js: (value) => {
        try {
          return JSON.parse(value as string) as JsonValue;
        } catch {
          return fail(`not valid json: ${JSON.stringify(value)}`);
        }
      },
      sql: (operand) => `(${operand})::jsonb`,
    };
  }
  if (type === 'binary')
    return { js: (value) => parseByteaText(value as string), sql: (operand) => `(${operand})::bytea` };
  const grammar = grammarOf(type)!;
  const parse = fromText(type);
  return {
    js: (value) =>
      grammar.test(value as string) ? parse(value as string) : fail(`not a valid ${type}: ${JSON.stringify(value)}`),
    sql: (operand) => checkedCastSql(operand, type, column),
  };
}

/** The rule of a cast step, or null when the cast is not supported. */
export function castRule(from: CanonicalType, to: CanonicalType, column: string): ValueRule | null {
  if (to === 'string') return { js: textFormOf(from), sql: (operand) => textSql(from, operand) };
  if (from === 'string') return textToRule(to, column);
  const pg = pgType(to);
  if (INT_TYPES.has(from)) {
    const source = from as IntType;
    if (INT_TYPES.has(to))
      return {
        js: (value) => toIntType(value as string | number, to as IntType),
        sql: (operand) => `(${operand})::${pg}`,
      };
    if (to === 'float64') return { js: (value) => Number(value), sql: (operand) => `(${operand})::float8` };
    if (to === 'float32')
      return { js: (value) => toFloat4(Number(value)), sql: (operand) => `(${operand})::float8::real` };
    if (to === 'decimal') return { js: (value) => String(value), sql: (operand) => `(${operand})::numeric` };
    if (to === 'boolean')
      return {
        js: (value) => (source === 'int64' ? value !== '0' : value !== 0),
        sql: (operand) => `((${operand})::bigint <> 0)`,
      };
    return null;
  }
  if (FLOAT_TYPES.has(from)) {
    if (INT_TYPES.has(to))
      return {
        js: (value) => toIntType(roundFloat(value as number), to as IntType),
        sql: (operand) => `(round(${numericSql(from, operand)}))::${pg}`,
      };
    if (to === 'float64') return { js: (value) => value, sql: (operand) => float8Sql(from, operand) };
    if (to === 'float32') return { js: (value) => toFloat4(value as number), sql: (operand) => `(${operand})::real` };
    if (to === 'decimal')
      return {
        js: (value) => (Number.isFinite(value) ? plainNumber(value as number) : String(value)),
        sql: (operand) => numericSql(from, operand),
      };
    return null;
  }
  if (from === 'decimal') {
    if (INT_TYPES.has(to))
      return {
        js: (value) => toIntType(roundDecimal(value as string), to as IntType),
        sql: (operand) => `(round(${operand}))::${pg}`,
      };
    if (to === 'float64')
      return { js: (value) => decimalToFloat(value as string), sql: (operand) => `(${operand})::float8` };
    if (to === 'float32')
      return {
        js: (value) => toFloat4(decimalToFloat(value as string)),
        sql: (operand) => `(${operand})::float8::real`,
      };
    return null;
  }
  if (from === 'boolean' && INT_TYPES.has(to)) {
    return {
      js: (value) => (to === 'int64' ? (value ? '1' : '0') : value ? 1 : 0),
      sql: (operand) => `(${operand})::integer${to === 'int32' ? '' : `::${pg}`}`,
    };
  }
  if (TEMPORAL_CASTS[from]?.includes(to))
    return { js: (value) => convertTemporal(from, to, value as string), sql: (operand) => `(${operand})::${pg}` };
  return null;
}

export interface MaskRule extends ValueRule {
  type: CanonicalType;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

export function maskRule(method: MaskMethod, type: CanonicalType): MaskRule {
  const text = textFormOf(type);
  switch (method) {
    case 'hash':
      return {
        type: 'string',
        js: (value) => sha256(text(value)),
        sql: (operand) => `encode(sha256(convert_to(${textSql(type, operand)}, 'UTF8')), 'hex')`,
      };
    case 'redact':
      return {
        type: 'string',
        js: () => '****',
        sql: (operand) => `(CASE WHEN (${operand}) IS NULL THEN NULL ELSE '****' END)::text`,
      };
    case 'null':
      return { type, js: () => null, sql: () => `NULL::${pgType(type)}` };
    case 'partial':
      return {
        type: 'string',
        js: (value) => {
          const full = text(value);
          const length = codePointLength(full);
          return length <= 4 ? full : '*'.repeat(length - 4) + lastCharacters(full, 4);
        },
        sql: (operand) => {
          const full = textSql(type, operand);
          return `(repeat('*', greatest(char_length(${full}) - 4, 0)) || right(${full}, 4))`;
        },
      };
  }
}
