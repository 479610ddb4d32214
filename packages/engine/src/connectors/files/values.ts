/**
 * Exact conversions between the canonical representation (types.ts) and what files hold: numbers as
 * text, decimals as unscaled integers, dates as days, times and timestamps as microseconds.
 * BigInt everywhere a double could lose a digit.
 */
import { jsonTextOf, type CanonicalType, type Value } from '../../types.js';

export const INT32_MIN = -(2 ** 31);
export const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Integers as JSON writes them: no '+', no leading zeros ('007' stays text, like a zip code). */
const INTEGER_RE = /^-?(?:0|[1-9]\d*)$/;
/** The JSON number grammar. */
const NUMBER_RE = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** What this connector writes for doubles JSON cannot spell. */
const SPECIAL_FLOATS = new Set(['NaN', 'Infinity', '-Infinity']);

export const isIntegerText = (text: string): boolean => INTEGER_RE.test(text);
export const isNumberText = (text: string): boolean => NUMBER_RE.test(text);
export const isSpecialFloat = (text: string): boolean => SPECIAL_FLOATS.has(text);

export function integerWidth(text: string): 'int32' | 'int64' | 'wider' {
  if (text.length <= 16) {
    // Up to 15 digits and a sign a double is exact, and always within int64.
    const n = Number(text);
    return n >= INT32_MIN && n <= INT32_MAX ? 'int32' : 'int64';
  }
  const big = BigInt(text);
  return big >= INT64_MIN && big <= INT64_MAX ? 'int64' : 'wider';
}

/** Sign, significant digits and exponent, so that '1.50', '15e-1' and '1.5' compare equal. */
function decimalKey(text: string): string {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return text;
  const whole = match[2] ?? '';
  const fraction = match[3] ?? '';
  let digits = whole + fraction;
  let exponent = whole.length + Number(match[4] ?? 0);
  const leading = /^0*/.exec(digits)![0].length;
  digits = digits.slice(leading).replace(/0+$/, '');
  exponent -= leading;
  if (!digits) return '0';
  return `${match[1] === '-' ? '-' : ''}${digits}e${exponent}`;
}

/** Whether a double holds this number exactly: it does for up to 15 significant digits, and for some longer ones. */
export function isExactDouble(text: string): boolean {
  const n = Number(text);
  return Number.isFinite(n) && decimalKey(text) === decimalKey(String(n));
}

/** '-12.5e1' -> { unscaled: -125n, scale: 0 } ... any scale, exact. */
export function parseDecimal(text: string): { unscaled: bigint; scale: number } | undefined {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!match || (!match[2] && !match[3])) return undefined;
  const fraction = match[3] ?? '';
  let unscaled = BigInt((match[2] || '0') + fraction);
  let scale = fraction.length - Number(match[4] ?? 0);
  if (scale < 0) {
    unscaled *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { unscaled: match[1] === '-' ? -unscaled : unscaled, scale };
}

/** The unscaled integer of `text` at `scale`, or undefined when that would drop a non-zero digit. */
export function decimalAtScale(text: string, scale: number): bigint | undefined {
  const parsed = parseDecimal(text);
  if (!parsed) return undefined;
  if (parsed.scale <= scale) return parsed.unscaled * 10n ** BigInt(scale - parsed.scale);
  const factor = 10n ** BigInt(parsed.scale - scale);
  return parsed.unscaled % factor === 0n ? parsed.unscaled / factor : undefined;
}

/** (-1n, 6) -> '-0.000001': exactly `scale` digits after the point, like PostgreSQL's numeric(p, s). */
export function formatDecimal(unscaled: bigint, scale: number): string {
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString();
  if (scale <= 0) return `${negative ? '-' : ''}${digits}${'0'.repeat(-scale)}`;
  const padded = digits.padStart(scale + 1, '0');
  return `${negative ? '-' : ''}${padded.slice(0, -scale)}.${padded.slice(-scale)}`;
}

export function compareDecimal(a: string, b: string): number {
  const x = parseDecimal(a);
  const y = parseDecimal(b);
  if (!x || !y) return a < b ? -1 : a > b ? 1 : 0;
  const scale = Math.max(x.scale, y.scale);
  const left = x.unscaled * 10n ** BigInt(scale - x.scale);
  const right = y.unscaled * 10n ** BigInt(scale - y.scale);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Big-endian two's complement bytes (Parquet DECIMAL on byte arrays) -> integer. */
export function bigintFromBytes(bytes: Uint8Array): bigint {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  if (bytes.length > 0 && (bytes[0]! & 0x80) !== 0) value -= 1n << BigInt(bytes.length * 8);
  return value;
}

/** JS numbers as text without loss of the sign of zero or of non-finite values. */
export function formatNumber(n: number): string {
  if (Object.is(n, -0)) return '-0';
  return String(n); // NaN, Infinity and -Infinity spell themselves
}

// --- dates and times ------------------------------------------------------------------------

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_RE = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;
const DATETIME_RE = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;
const DAY_MS = 86_400_000;

function utcDate(year: number, month: number, day: number): Date | undefined {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day); // setUTCFullYear, not Date.UTC: years 0-99 stay themselves
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
    ? date
    : undefined;
}

export function isDateText(text: string): boolean {
  const match = DATE_RE.exec(text);
  return !!match && !!utcDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

function parseTime(text: string): { micros: bigint } | undefined {
  const match = TIME_RE.exec(text);
  if (!match) return undefined;
  const [hours, minutes, seconds] = [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  const fraction = BigInt((match[4] ?? '').slice(0, 6).padEnd(6, '0'));
  return { micros: BigInt((hours * 60 + minutes) * 60 + seconds) * 1_000_000n + fraction };
}

export const isTimeText = (text: string): boolean => parseTime(text) !== undefined;

/** 'YYYY-MM-DD[T ]HH:MM[:SS[.f]]' with (zone) or without; undefined when not a valid instant. */
function parseDateTime(text: string): { micros: bigint; zoned: boolean } | undefined {
  const match = DATETIME_RE.exec(text);
  if (!match) return undefined;
  const dayMatch = DATE_RE.exec(match[1]!)!;
  const date = utcDate(Number(dayMatch[1]), Number(dayMatch[2]), Number(dayMatch[3]));
  const time = parseTime(match[2]!);
  if (!date || !time) return undefined;
  let micros = BigInt(date.getTime()) * 1000n + time.micros;
  const zone = match[3];
  if (zone && zone.toUpperCase() !== 'Z') {
    const [, sign, hh, mm] = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
    const offset = BigInt(Number(hh) * 60 + Number(mm ?? 0)) * 60_000_000n;
    micros += sign === '+' ? -offset : offset;
  }
  return { micros, zoned: zone !== undefined };
}

export const isTimestampText = (text: string): boolean => parseDateTime(text)?.zoned === false;
export const isTimestamptzText = (text: string): boolean => parseDateTime(text)?.zoned === true;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const floorDiv = (a: bigint, b: bigint) => (a % b < 0n ? a / b - 1n : a / b);

/** Fraction of a second, trailing zeros dropped, nothing when zero ('.5', '.123456', ''). */
function shortFraction(micros: bigint): string {
  const digits = micros.toString().padStart(6, '0').replace(/0+$/, '');
  return digits ? `.${digits}` : '';
}

function dateParts(epochMicros: bigint): { day: string; clock: string; fraction: bigint } {
  const seconds = floorDiv(epochMicros, 1_000_000n);
  const fraction = epochMicros - seconds * 1_000_000n;
  const date = new Date(Number(seconds) * 1000);
  const day = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  const clock = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
  return { day, clock, fraction };
}

export function daysFromDate(text: string): number | undefined {
  const match = DATE_RE.exec(text);
  const date = match && utcDate(Number(match[1]), Number(match[2]), Number(match[3]));
  return date ? Math.round(date.getTime() / DAY_MS) : undefined;
}

export function dateFromDays(days: number): string {
  return dateParts(BigInt(days) * 86_400_000_000n).day;
}

export const timeToMicros = (text: string): bigint | undefined => parseTime(text)?.micros;

export function timeFromMicros(micros: bigint): string {
  const seconds = Number(micros / 1_000_000n);
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}${shortFraction(micros % 1_000_000n)}`;
}

export function timestampToMicros(text: string): bigint | undefined {
  const parsed = parseDateTime(text);
  return parsed && !parsed.zoned ? parsed.micros : undefined;
}

/** 'YYYY-MM-DDTHH:MM:SS[.ffffff]', no zone. */
export function timestampFromMicros(micros: bigint): string {
  const { day, clock, fraction } = dateParts(micros);
  return `${day}T${clock}${shortFraction(fraction)}`;
}

/** An instant; a value without a zone is taken as UTC. */
export const timestamptzToMicros = (text: string): bigint | undefined => parseDateTime(text)?.micros;

/** 'YYYY-MM-DDTHH:MM:SS.ffffffZ': always UTC, always six fraction digits. */
export function timestamptzFromMicros(micros: bigint): string {
  const { day, clock, fraction } = dateParts(micros);
  return `${day}T${clock}.${fraction.toString().padStart(6, '0')}Z`;
}

/** Canonical spellings of text that passed the matching is*Text check. */
export const normalizeTime = (text: string): string => timeFromMicros(timeToMicros(text)!);
export const normalizeTimestamp = (text: string): string => timestampFromMicros(timestampToMicros(text)!);
export const normalizeTimestamptz = (text: string): string => timestamptzFromMicros(timestamptzToMicros(text)!);

/** A canonical value as text (CSV cells, widened Parquet columns); null stays null. */
export function cellText(value: Value, type: CanonicalType): string | null {
  if (value === null || value === undefined) return null;
  if (type === 'json') return jsonTextOf(value);
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}
