/**
 * Values the way PostgreSQL sees them: text forms (jsonb output, timestamps in a UTC session),
 * code-point string functions, dates and times, and the input grammars the casts from text accept.
 */
import type { CanonicalType, JsonValue } from '../types.js';
import { floatText, INT64_MAX, INT64_MIN, plainNumber } from './numbers.js';
import { fail } from './steps.js';

const WHITESPACE = '[ \\t\\n\\r\\v\\f]*';
const isInfinite = (x: number) => x === Infinity || x === -Infinity;

// ---------------------------------------------------------------- strings by code point (PostgreSQL counts characters, JS UTF-16 units)

const SURROGATE = /[\uD800-\uDFFF]/;

export function codePointLength(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xdc00 || unit > 0xdfff) count++;
  }
  return count;
}

/** Code point order, which is byte order in UTF-8: COLLATE "C". */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) {
        // Surrogates (astral code points) sort above U+E000..U+FFFF.
        x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
        y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      }
      return x < y ? -1 : 1;
    }
  }
  return a.length < b.length ? -1 : 1;
}

/** PostgreSQL substr: 1-based, start may be before the string, a negative length is an error. */
export function substring(text: string, start: number, length?: number): string {
  if (length !== undefined && length < 0) fail('negative substring length not allowed');
  const from = Math.max(start, 1);
  const end = length === undefined ? Infinity : start + length; // exclusive, 1-based
  if (end <= from) return '';
  if (!SURROGATE.test(text)) return text.slice(from - 1, end === Infinity ? undefined : end - 1);
  const points = Array.from(text);
  return points.slice(from - 1, end === Infinity ? undefined : end - 1).join('');
}

/** The last `count` characters. */
export function lastCharacters(text: string, count: number): string {
  if (!SURROGATE.test(text)) return text.length <= count ? text : text.slice(text.length - count);
  const points = Array.from(text);
  return points.length <= count ? text : points.slice(points.length - count).join('');
}

/** btrim(): spaces only, not tabs or newlines. */
export function trimSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 32) start++;
  while (end > start && text.charCodeAt(end - 1) === 32) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** replace(): literal, non-overlapping, left to right; an empty pattern changes nothing. */
export function replaceAll(text: string, from: string, to: string): string {
  return from === '' ? text : text.split(from).join(to);
}

// ---------------------------------------------------------------- json

/** jsonb's text output: keys by length then bytes, ', ' and ': ' separators, numbers as plain decimals. */
export function jsonbText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return plainNumber(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    default:
      break;
  }
  if (Array.isArray(value)) return `[${value.map(jsonbText).join(', ')}]`;
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object).sort(compareJsonbKeys);
  return `{${keys.map((key) => `${JSON.stringify(key)}: ${jsonbText(object[key])}`).join(', ')}}`;
}

function compareJsonbKeys(a: string, b: string): number {
  const lengthA = Buffer.byteLength(a);
  const lengthB = Buffer.byteLength(b);
  return lengthA !== lengthB ? lengthA - lengthB : compareText(a, b);
}

/** The value at a path the way jsonb `#>` walks it: object keys, array indexes (negative from the end). */
export function jsonAt(value: unknown, path: readonly string[]): JsonValue {
  let current = value;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return null;
    if (Array.isArray(current)) {
      if (!/^-?\d+$/.test(segment)) return null;
      let index = Number(segment);
      if (index < 0) index += current.length;
      current = index >= 0 && index < current.length ? current[index] : null;
    } else {
      current = Object.prototype.hasOwnProperty.call(current, segment)
        ? (current as Record<string, unknown>)[segment]
        : null;
    }
    if (current === undefined) return null;
  }
  // A walk through a JSON document ends on a JSON value.
  return (current ?? null) as JsonValue;
}

/** `#>>`: a JSON value as text, strings unquoted; JSON null is SQL null. */
export function jsonLeafText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  return jsonbText(value);
}

// ---------------------------------------------------------------- dates and times (canonical forms of a UTC session)

const DATE_PART = '([0-9]{4})-([0-9]{2})-([0-9]{2})';
const TIME_PART = '([01][0-9]|2[0-3]):([0-5][0-9])(?::([0-5][0-9])(?:[.]([0-9]{1,6}))?)?';
const ZONE_PART = '([zZ]|[+-][0-9]{2}(?::?[0-9]{2})?)';

/**
 * The input grammars the casts from text accept, identical in both paths: PostgreSQL checks a value
 * against the same pattern before casting, because its own parsers accept far more (hex floats,
 * 'yesterday', 'Jan 8 1999') than we can reproduce. The patterns are valid in both JS and PostgreSQL.
 */
export const TEXT_GRAMMARS: Partial<Record<CanonicalType, { pattern: string; caseInsensitive: boolean }>> = {
  int16: { pattern: `^${WHITESPACE}[+-]?[0-9]+${WHITESPACE}$`, caseInsensitive: false },
  int32: { pattern: `^${WHITESPACE}[+-]?[0-9]+${WHITESPACE}$`, caseInsensitive: false },
  int64: { pattern: `^${WHITESPACE}[+-]?[0-9]+${WHITESPACE}$`, caseInsensitive: false },
  float32: {
    pattern: `^${WHITESPACE}(?:[+-]?(?:[0-9]+[.]?[0-9]*|[.][0-9]+)(?:e[+-]?[0-9]+)?|[+-]?(?:nan|inf|infinity))${WHITESPACE}$`,
    caseInsensitive: true,
  },
  float64: {
    pattern: `^${WHITESPACE}(?:[+-]?(?:[0-9]+[.]?[0-9]*|[.][0-9]+)(?:e[+-]?[0-9]+)?|[+-]?(?:nan|inf|infinity))${WHITESPACE}$`,
    caseInsensitive: true,
  },
  decimal: {
    pattern: `^${WHITESPACE}(?:[+-]?(?:[0-9]+[.]?[0-9]*|[.][0-9]+)(?:e[+-]?[0-9]+)?|nan|[+-]?(?:inf|infinity))${WHITESPACE}$`,
    caseInsensitive: true,
  },
  boolean: {
    pattern: `^${WHITESPACE}(?:t|tr|tru|true|f|fa|fal|fals|false|y|ye|yes|n|no|on|of|off|1|0)${WHITESPACE}$`,
    caseInsensitive: true,
  },
  uuid: { pattern: '^(?:[0-9a-f]{4}-?){7}[0-9a-f]{4}$|^[{](?:[0-9a-f]{4}-?){7}[0-9a-f]{4}[}]$', caseInsensitive: true },
  date: { pattern: `^${DATE_PART}$`, caseInsensitive: false },
  time: { pattern: `^${TIME_PART}$`, caseInsensitive: false },
  timestamp: { pattern: `^${DATE_PART}(?:[ T]${TIME_PART})?$`, caseInsensitive: false },
  timestamptz: { pattern: `^${DATE_PART}(?:[ T]${TIME_PART}${ZONE_PART}?)?$`, caseInsensitive: false },
};

const COMPILED_GRAMMARS = new Map(
  Object.entries(TEXT_GRAMMARS).map(([type, grammar]) => [
    type,
    new RegExp(grammar.pattern, grammar.caseInsensitive ? 'i' : ''),
  ]),
);

export function grammarOf(type: CanonicalType): RegExp | undefined {
  return COMPILED_GRAMMARS.get(type);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function checkedDate(year: string, month: string, day: string): string {
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  if (y < 1 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m))
    fail(`date/time field value out of range: "${year}-${month}-${day}"`);
  return `${year}-${month}-${day}`;
}

const trimFraction = (fraction: string | undefined) => (fraction ? fraction.replace(/0+$/, '') : '');
const timeText = (hours: string, minutes: string, seconds: string | undefined, fraction: string | undefined) => {
  const trimmed = trimFraction(fraction);
  return `${hours}:${minutes}:${seconds ?? '00'}${trimmed ? `.${trimmed}` : ''}`;
};

/** Text already known to match the type's grammar -> canonical value (PostgreSQL's output of it in a UTC session). */
export function parseTemporal(type: 'date' | 'time' | 'timestamp' | 'timestamptz', text: string): string {
  const match = grammarOf(type)!.exec(text);
  if (!match) fail(`invalid input syntax for type ${type}: "${text}"`);
  if (type === 'time') return timeText(match[1]!, match[2]!, match[3], match[4]);
  const date = checkedDate(match[1]!, match[2]!, match[3]!);
  if (type === 'date') return date;
  const hours = match[4] ?? '00';
  const minutes = match[5] ?? '00';
  if (type === 'timestamp') return `${date}T${timeText(hours, minutes, match[6], match[7])}`;
  const zone = match[8];
  const fraction = (match[7] ?? '').padEnd(6, '0');
  let offsetMinutes = 0;
  if (zone && zone !== 'z' && zone !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const zoneHours = Number(digits.slice(0, 2));
    const zoneMinutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
    if (zoneHours > 15 || zoneMinutes > 59) fail(`time zone displacement out of range: "${text}"`);
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (zoneHours * 60 + zoneMinutes);
  }
  const instant = new Date(0);
  instant.setUTCFullYear(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  instant.setUTCHours(Number(hours), Number(minutes) - offsetMinutes, Number(match[6] ?? 0), 0);
  const year = instant.getUTCFullYear();
  if (year < 1) fail(`timestamp before year 1 is not supported: "${text}"`);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${String(year).padStart(4, '0')}-${pad(instant.getUTCMonth() + 1)}-${pad(instant.getUTCDate())}T${pad(instant.getUTCHours())}:${pad(instant.getUTCMinutes())}:${pad(instant.getUTCSeconds())}.${fraction}Z`;
}

const isInfinity = (text: string) => text === 'infinity' || text === '-infinity';

/** Conversions between the temporal types, on canonical values (a UTC session). */
export function convertTemporal(from: CanonicalType, to: CanonicalType, value: string): string | null {
  if (isInfinity(value)) return to === 'time' ? null : value;
  const t = value.indexOf('T');
  if (from === 'date') return to === 'timestamp' ? `${value}T00:00:00` : `${value}T00:00:00.000000Z`;
  const date = value.slice(0, t);
  const time = from === 'timestamptz' ? value.slice(t + 1, -1) : value.slice(t + 1);
  const [clock, fraction] = time.split('.') as [string, string | undefined];
  if (to === 'date') return date;
  if (to === 'time') return timeText(clock.slice(0, 2), clock.slice(3, 5), clock.slice(6, 8), fraction);
  if (to === 'timestamp')
    return `${date}T${timeText(clock.slice(0, 2), clock.slice(3, 5), clock.slice(6, 8), fraction)}`;
  return `${date}T${clock}.${(fraction ?? '').padEnd(6, '0')}Z`;
}

/** Temporal canonical values sort as text, except the infinities. */
export function compareTemporal(a: string, b: string): number {
  if (a === b) return 0;
  const rankA = a === 'infinity' ? 1 : a === '-infinity' ? -1 : 0;
  const rankB = b === 'infinity' ? 1 : b === '-infinity' ? -1 : 0;
  if (rankA !== rankB) return rankA < rankB ? -1 : 1;
  return a < b ? -1 : 1;
}

// ---------------------------------------------------------------- text forms (what `::text` gives in PostgreSQL)

/** '2024-02-29T12:34:56.789000Z' -> '2024-02-29 12:34:56.789+00' */
function timestamptzText(value: string): string {
  if (isInfinity(value)) return value;
  const t = value.indexOf('T');
  const [clock, fraction] = value.slice(t + 1, -1).split('.') as [string, string | undefined];
  const trimmed = trimFraction(fraction);
  return `${value.slice(0, t)} ${clock}${trimmed ? `.${trimmed}` : ''}+00`;
}

/** The canonical text of a value of each type: equal to PostgreSQL's `::text` (json: jsonb formatting). */
export function textFormOf(type: CanonicalType): (value: unknown) => string {
  switch (type) {
    case 'boolean':
      return (value) => (value ? 'true' : 'false');
    case 'float32':
      return (value) => floatText(value as number, true);
    case 'float64':
      return (value) => floatText(value as number);
    case 'timestamp':
      return (value) => (value as string).replace('T', ' ');
    case 'timestamptz':
      return (value) => timestamptzText(value as string);
    case 'json':
      return jsonbText;
    case 'binary':
      return (value) => `\\x${(value as Buffer).toString('hex')}`;
    case 'string':
    case 'decimal':
    case 'uuid':
    case 'date':
    case 'time':
      return (value) => value as string;
    default:
      return (value) => String(value); // integers: number, bigint or canonical digits
  }
}

// ---------------------------------------------------------------- parsing text (after the grammar check)

export function parseIntText(text: string, type: 'int16' | 'int32' | 'int64'): number | string {
  const trimmed = text.trim();
  const value = BigInt(trimmed);
  const [min, max, name] =
    type === 'int16'
      ? [-32768n, 32767n, 'smallint']
      : type === 'int32'
        ? [-2147483648n, 2147483647n, 'integer']
        : [INT64_MIN, INT64_MAX, 'bigint'];
  if (value < min || value > max) fail(`value "${trimmed}" is out of range for type ${name}`);
  return type === 'int64' ? value.toString() : Number(value);
}

export function parseFloatText(text: string): number {
  const trimmed = text.trim().toLowerCase();
  const unsigned = trimmed.replace(/^[+-]/, '');
  if (unsigned === 'nan') return NaN;
  if (unsigned === 'inf' || unsigned === 'infinity') return trimmed.startsWith('-') ? -Infinity : Infinity;
  const value = Number(trimmed);
  if (isInfinite(value)) fail(`"${text}" is out of range for type double precision`);
  if (value === 0 && /[1-9]/.test(trimmed.split('e')[0]!)) fail(`"${text}" is out of range for type double precision`);
  return value;
}

/** parse_bool: unique prefixes of true/false/yes/no, on/off, 1/0. */
export function parseBoolText(text: string): boolean {
  const word = text.trim().toLowerCase();
  if ('true'.startsWith(word) || 'yes'.startsWith(word) || word === 'on' || word === '1') return true;
  return false; // the grammar admits only the spellings of true above or of false
}

export function parseUuidText(text: string): string {
  const hex = text.replace(/[{}-]/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** byteain: '\x' hex (whitespace between bytes) or the escape format. */
export function parseByteaText(text: string): Buffer {
  if (text.startsWith('\\x')) {
    const bytes: number[] = [];
    for (let i = 2; i < text.length;) {
      const c = text[i]!;
      if (c === ' ' || c === '\n' || c === '\t' || c === '\r') {
        i++;
        continue;
      }
      const high = parseInt(c, 16);
      if (Number.isNaN(high)) fail(`invalid hexadecimal digit: "${c}"`);
      if (i + 1 >= text.length) fail('invalid hexadecimal data: odd number of digits');
      const low = parseInt(text[i + 1]!, 16);
      if (Number.isNaN(low)) fail(`invalid hexadecimal digit: "${text[i + 1]}"`);
      bytes.push(high * 16 + low);
      i += 2;
    }
    return Buffer.from(bytes);
  }
  const input = Buffer.from(text, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < input.length;) {
    const byte = input[i]!;
    if (byte !== 0x5c) {
      out.push(byte);
      i++;
    } else if (input[i + 1] === 0x5c) {
      out.push(0x5c);
      i += 2;
    } else if (isOctal(input[i + 1], 0x33) && isOctal(input[i + 2], 0x37) && isOctal(input[i + 3], 0x37)) {
      out.push((input[i + 1]! - 0x30) * 64 + (input[i + 2]! - 0x30) * 8 + (input[i + 3]! - 0x30));
      i += 4;
    } else {
      fail('invalid input syntax for type bytea');
    }
  }
  return Buffer.from(out);
}

const isOctal = (byte: number | undefined, highest: number) => byte !== undefined && byte >= 0x30 && byte <= highest;
