/** Recognising ISO dates and times in JSON strings, and their canonical form. */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339 / ISO 8601 date-time with a zone; seconds optional, any number of fraction digits.
const TIMESTAMPTZ =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)$/;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Milliseconds of a valid calendar date at midnight UTC; undefined for 2024-02-30. Years below 100 stay as they are. */
function utcDate(year: number, month: number, day: number): number | undefined {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return date.getTime();
}

export function isDateText(text: string): boolean {
  const match = DATE.exec(text);
  return !!match && utcDate(Number(match[1]), Number(match[2]), Number(match[3])) !== undefined;
}

/** An ISO date-time with a zone as 'YYYY-MM-DDTHH:MM:SS.ffffffZ' in UTC (fraction cut to microseconds); undefined for anything else. */
export function normalizeTimestamptz(text: string): string | undefined {
  const match = TIMESTAMPTZ.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hours, minutes, seconds, fraction, zone] = match as unknown as string[];
  const midnight = utcDate(Number(year), Number(month), Number(day));
  const [h, m, s] = [Number(hours), Number(minutes), Number(seconds ?? 0)];
  if (midnight === undefined || h > 23 || m > 59 || s > 59) return undefined;
  let offsetMinutes = 0;
  if (zone !== undefined && !/^[Zz]$/.test(zone)) {
    const digits = zone.slice(1).replace(':', '');
    const [zh, zm] = [Number(digits.slice(0, 2)), Number(digits.slice(2) || 0)];
    if (zh > 23 || zm > 59) return undefined;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (zh * 60 + zm);
  }
  const utc = new Date(midnight + ((h * 60 + m - offsetMinutes) * 60 + s) * 1000);
  const utcYear = utc.getUTCFullYear();
  if (utcYear < 1 || utcYear > 9999) return undefined;
  const micros = (fraction ?? '').slice(0, 6).padEnd(6, '0');
  return (
    `${pad(utcYear, 4)}-${pad(utc.getUTCMonth() + 1)}-${pad(utc.getUTCDate())}` +
    `T${pad(utc.getUTCHours())}:${pad(utc.getUTCMinutes())}:${pad(utc.getUTCSeconds())}.${micros}Z`
  );
}

export const isTimestamptzText = (text: string): boolean => normalizeTimestamptz(text) !== undefined;

const INTEGER_TEXT = /^-?\d+$/;
const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

/**
 * Orders two cursor values: numbers numerically (integer text exactly, as BigInt), everything else
 * as text; canonical timestamps (UTC, fixed width) sort correctly as text. The same order the sync
 * job uses to pick the cursor it saves.
 */
export function compareCursor(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const [x, y] = [String(a), String(b)];
  if (INTEGER_TEXT.test(x) && INTEGER_TEXT.test(y)) {
    const d = BigInt(x) - BigInt(y);
    return d > 0n ? 1 : d < 0n ? -1 : 0;
  }
  if (DECIMAL_TEXT.test(x) && DECIMAL_TEXT.test(y)) return Number(x) - Number(y);
  return x < y ? -1 : x > y ? 1 : 0;
}
