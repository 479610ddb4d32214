/**
 * MySQL/MariaDB <-> canonical types, and the values of each type both ways. Reading relies on the
 * pool options of client.ts (date, decimal, bigint and JSON values arrive as strings) and on the
 * binary protocol (exact floats), so nothing goes through a JS Date or a rounded number.
 */
import { JsonText, jsonTextOf, type CanonicalType, type ColumnSchema, type Value } from '../../types.js';

/** information_schema DATA_TYPE -> canonical type; unlisted types (geometry, inet6, ...) read as 'string'. */
export const MYSQL_TYPES: Record<string, CanonicalType> = {
  tinyint: 'int16',
  smallint: 'int16',
  mediumint: 'int32',
  int: 'int32',
  integer: 'int32',
  bigint: 'int64',
  year: 'int16',
  float: 'float32',
  double: 'float64',
  real: 'float64',
  decimal: 'decimal',
  numeric: 'decimal',
  char: 'string',
  varchar: 'string',
  tinytext: 'string',
  text: 'string',
  mediumtext: 'string',
  longtext: 'string',
  enum: 'string',
  set: 'string',
  uuid: 'uuid',
  date: 'date',
  time: 'time',
  datetime: 'timestamp',
  timestamp: 'timestamptz',
  json: 'json',
  binary: 'binary',
  varbinary: 'binary',
  tinyblob: 'binary',
  blob: 'binary',
  mediumblob: 'binary',
  longblob: 'binary',
  bit: 'binary',
};

/**
 * MySQL has no uuid or zoned timestamp type: the writer marks such columns with this comment prefix
 * (`svc:uuid` on char(36), `svc:timestamptz` on datetime(6)) so that reading them back gives the
 * canonical type that was written.
 */
export const TYPE_HINT_PREFIX = 'svc:';
const HINTABLE: Partial<Record<CanonicalType, { on: CanonicalType }>> = {
  uuid: { on: 'string' },
  timestamptz: { on: 'timestamp' },
};

export interface SourceColumn {
  dataType: string;
  columnType: string;
  precision: number | null;
  scale: number | null;
  comment: string;
  /** MariaDB stores JSON as longtext with a json_valid check; discovery finds that check. */
  isJson: boolean;
}

/** The canonical type of a column (with decimal precision and scale when declared). */
export function canonicalOf(column: SourceColumn): Pick<ColumnSchema, 'type' | 'precision' | 'scale'> {
  const dataType = column.dataType.toLowerCase();
  const columnType = column.columnType.toLowerCase();
  const unsigned = columnType.includes('unsigned');
  if (column.isJson) return { type: 'json' };
  if (columnType === 'tinyint(1)' || columnType === 'bit(1)') return { type: 'boolean' };
  // Unsigned integers take the next wider type; bigint unsigned only fits a decimal.
  if (unsigned && dataType === 'bigint') return { type: 'decimal', precision: 20, scale: 0 };
  if (unsigned && dataType === 'int') return { type: 'int64' };
  if (unsigned && (dataType === 'smallint' || dataType === 'mediumint')) return { type: 'int32' };
  const type = MYSQL_TYPES[dataType] ?? 'string';
  if (type === 'decimal')
    return { type, ...(column.precision !== null ? { precision: column.precision, scale: column.scale ?? 0 } : {}) };
  const hinted = column.comment.startsWith(TYPE_HINT_PREFIX)
    ? (column.comment.slice(TYPE_HINT_PREFIX.length) as CanonicalType)
    : undefined;
  if (hinted && HINTABLE[hinted]?.on === type) return { type: hinted };
  return { type };
}

/** The comment clause marking a created column whose canonical type its MySQL type cannot tell. */
export function typeHintComment(type: CanonicalType): string {
  return HINTABLE[type] ? ` comment '${TYPE_HINT_PREFIX}${type}'` : '';
}

const MAX_PRECISION = 65;
const MAX_SCALE = 30;

/** The column type to create for a canonical column; `key` columns need an indexable type. */
export function ddlType(column: ColumnSchema, key = false): string {
  switch (column.type) {
    case 'boolean':
      return 'tinyint(1)';
    case 'int16':
      return 'smallint';
    case 'int32':
      return 'int';
    case 'int64':
      return 'bigint';
    case 'float32':
      return 'float';
    case 'float64':
      return 'double';
    case 'decimal': {
      // MySQL caps decimals at 65 digits, 30 after the point; an unconstrained decimal gets the widest.
      if (column.precision === undefined) return `decimal(${MAX_PRECISION},${MAX_SCALE})`;
      const scale = Math.min(column.scale ?? 0, MAX_SCALE);
      const precision = Math.max(Math.min(column.precision, MAX_PRECISION), scale, 1);
      return `decimal(${precision},${scale})`;
    }
    case 'string':
      return key ? 'varchar(255)' : 'longtext';
    case 'uuid':
      return 'char(36)';
    case 'date':
      return 'date';
    case 'time':
      return 'time(6)';
    case 'timestamp':
      return 'datetime(6)';
    case 'timestamptz':
      // datetime, not timestamp: timestamp ends in 2038. The value is stored in UTC.
      return 'datetime(6)';
    case 'json':
      return 'json';
    case 'binary':
      return key ? 'varbinary(255)' : 'longblob';
  }
}

const ZERO_DATE = /^0000-00-00/;

/**
 * Fraction digits as the column declares them: a column with fractional seconds always gets six
 * digits ('HH:MM:SS.5' -> 'HH:MM:SS.500000', 'HH:MM:SS' -> 'HH:MM:SS.000000'), one without gets none.
 */
function micros(text: string, withFraction: boolean): string {
  const dot = text.indexOf('.');
  const whole = dot < 0 ? text : text.slice(0, dot);
  if (!withFraction) return whole;
  return `${whole}.${(dot < 0 ? '' : text.slice(dot + 1)).padEnd(6, '0').slice(0, 6)}`;
}

/** Fractional second digits declared by a source type such as 'datetime(6)' or 'time(3)'. */
function fractionDigits(sourceType: string): number {
  return Number(/\((\d+)\)/.exec(sourceType)?.[1] ?? 0);
}

/** The shortest decimal that is the same float32: the server sends 0.1f widened (0.10000000149011612). */
export function shortestFloat32(value: number): number {
  if (!Number.isFinite(value)) return value;
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(value.toPrecision(digits));
    if (Math.fround(candidate) === value) return candidate;
  }
  return value;
}

function asText(raw: unknown): string {
  return Buffer.isBuffer(raw) ? raw.toString('utf8') : String(raw);
}

/** A function turning a raw mysql2 value of this column into its canonical representation. */
export function decoder(column: Pick<ColumnSchema, 'type' | 'sourceType'>): (raw: unknown) => Value {
  const fraction = fractionDigits(column.sourceType) > 0;
  switch (column.type) {
    case 'boolean':
      return (raw) => (raw === null ? null : Buffer.isBuffer(raw) ? raw.some((b) => b !== 0) : Number(raw) !== 0);
    case 'int16':
    case 'int32':
    case 'float64':
      return (raw) => (raw === null || typeof raw === 'number' ? raw : Number(raw));
    case 'float32':
      return (raw) => (raw === null ? null : shortestFloat32(Number(raw)));
    case 'int64':
    case 'decimal':
    case 'string':
    case 'uuid':
      return (raw) => (raw === null ? null : asText(raw));
    case 'date':
      return (raw) => (raw === null || ZERO_DATE.test(String(raw)) ? null : String(raw));
    case 'time':
      return (raw) => (raw === null ? null : micros(String(raw), fraction));
    case 'timestamp':
      return (raw) =>
        raw === null || ZERO_DATE.test(String(raw)) ? null : micros(String(raw).replace(' ', 'T'), fraction);
    case 'timestamptz':
      // Sessions run in UTC (client.ts), so TIMESTAMP values and the UTC datetimes this connector writes arrive in UTC.
      return (raw) =>
        raw === null || ZERO_DATE.test(String(raw)) ? null : `${micros(String(raw).replace(' ', 'T'), true)}Z`;
    case 'json':
      // As text: JSON null is not SQL NULL, and numbers keep every digit.
      return (raw) => (raw === null ? null : new JsonText(asText(raw)));
    case 'binary':
      return (raw) => (raw === null ? null : Buffer.isBuffer(raw) ? raw : Buffer.from(String(raw), 'utf8'));
  }
}

const ZONED = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** An ISO timestamp with any zone as a UTC 'YYYY-MM-DD HH:MM:SS.ffffff' (microseconds kept). */
export function utcDatetime(value: string | Date): string {
  if (value instanceof Date) return value.toISOString().replace('T', ' ').replace('Z', '');
  const m = ZONED.exec(value.trim());
  if (!m) return value; // the server refuses it with a clear error
  const [, y, mo, d, h, mi, s, fraction, zone] = m;
  const fractionText = fraction ? `.${fraction.padEnd(6, '0').slice(0, 6)}` : '';
  if (!zone || zone.toUpperCase() === 'Z' || /^[+-]00:?00$/.test(zone))
    return `${y}-${mo}-${d} ${h}:${mi}:${s}${fractionText}`;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || 0));
  // Date.UTC maps years below 100 to 19xx; setUTCFullYear does not.
  const t = new Date(0);
  t.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  t.setUTCHours(Number(h), Number(mi) - offsetMinutes, Number(s), 0);
  const date = `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
  return `${date} ${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}${fractionText}`;
}

/** What a statement parameter is made of. */
export type Param = string | number | Buffer | null;

/** A canonical value as a statement parameter for a column of this type. */
export function encodeValue(value: Value, type: CanonicalType): Param {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'boolean':
      return typeof value === 'string'
        ? ['true', 't', '1', 'yes'].includes(value.toLowerCase())
          ? 1
          : 0
        : value
          ? 1
          : 0;
    case 'int16':
    case 'int32':
    case 'float32':
    case 'float64':
      return typeof value === 'number' ? value : String(value);
    case 'date':
      return value instanceof Date ? value.toISOString().slice(0, 10) : String(value);
    case 'timestamp':
      return value instanceof Date ? utcDatetime(value) : String(value).replace('T', ' ');
    case 'timestamptz':
      return utcDatetime(value instanceof Date ? value : String(value));
    case 'json':
      return jsonTextOf(value);
    case 'binary':
      return Buffer.isBuffer(value)
        ? value
        : value instanceof Uint8Array
          ? Buffer.from(value)
          : Buffer.from(String(value), 'utf8');
    default:
      // int64 and decimal as their exact digits; strings, uuids and times as they are.
      return typeof value === 'string' ? value : String(value);
  }
}
