/**
 * PostgreSQL <-> canonical types. Reading maps by the type OID of each result column; values are
 * parsed so that nothing is lost (docs/connectors.md has the table).
 */
import { JsonText, type CanonicalType, type ColumnSchema } from '../../types.js';

/** OID -> canonical type; any other type is read as its text form ('string'). */
export const OID_TYPES: Record<number, CanonicalType> = {
  16: 'boolean',
  21: 'int16',
  23: 'int32',
  20: 'int64',
  700: 'float32',
  701: 'float64',
  1700: 'decimal',
  25: 'string',
  1043: 'string',
  1042: 'string',
  19: 'string',
  2950: 'uuid',
  1082: 'date',
  1083: 'time',
  1114: 'timestamp',
  1184: 'timestamptz',
  114: 'json',
  3802: 'json',
  17: 'binary',
};

/** information_schema udt_name -> canonical type (discovery). */
export const UDT_TYPES: Record<string, CanonicalType> = {
  bool: 'boolean',
  int2: 'int16',
  int4: 'int32',
  int8: 'int64',
  float4: 'float32',
  float8: 'float64',
  numeric: 'decimal',
  text: 'string',
  varchar: 'string',
  bpchar: 'string',
  name: 'string',
  uuid: 'uuid',
  date: 'date',
  time: 'time',
  timestamp: 'timestamp',
  timestamptz: 'timestamptz',
  json: 'json',
  jsonb: 'json',
  bytea: 'binary',
};

const NUMERIC_OID = 1700;
const JSON_OID = 114;

/**
 * A column as the server describes it (a result field, a pgoutput relation column): its canonical
 * type, and numeric(p, s) from the type modifier, ((p << 16) | s) + 4 (-1 when undeclared).
 */
export function columnOfType(name: string, oid: number, modifier: number): ColumnSchema {
  const column: ColumnSchema = { name, type: OID_TYPES[oid] ?? 'string', sourceType: String(oid), nullable: true };
  if (oid !== NUMERIC_OID || modifier < 4) return column;
  return { ...column, precision: ((modifier - 4) >> 16) & 0xffff, scale: (modifier - 4) & 0xffff };
}

export function canonicalOfUdt(udt: string): CanonicalType {
  return UDT_TYPES[udt] ?? 'string';
}

export function ddlType(column: ColumnSchema): string {
  switch (column.type) {
    case 'boolean':
      return 'boolean';
    case 'int16':
      return 'smallint';
    case 'int32':
      return 'integer';
    case 'int64':
      return 'bigint';
    case 'float32':
      return 'real';
    case 'float64':
      return 'double precision';
    case 'decimal':
      return column.precision ? `numeric(${column.precision}, ${column.scale ?? 0})` : 'numeric';
    case 'string':
      return 'text';
    case 'uuid':
      return 'uuid';
    case 'date':
      return 'date';
    case 'time':
      return 'time';
    case 'timestamp':
      return 'timestamp';
    case 'timestamptz':
      return 'timestamptz';
    case 'json':
      // json from a PostgreSQL json column stays json (its key order, duplicate keys and spacing); the rest is jsonb.
      return column.sourceType === 'json' || column.sourceType === String(JSON_OID) ? 'json' : 'jsonb';
    case 'binary':
      return 'bytea';
  }
}

const pad6 = (fraction: string | undefined) => (fraction ?? '').padEnd(6, '0');

/** '2024-01-02 03:04:05.5+00' (session in UTC) -> '2024-01-02T03:04:05.500000Z' */
export function timestamptzText(raw: string): string {
  const match = /^(\d{4,}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d+))?\+00(?::00)?$/.exec(raw);
  if (!match) return raw; // infinity, BC dates: keep PostgreSQL's own spelling
  return `${match[1]}T${match[2]}.${pad6(match[3])}Z`;
}

/** '2024-01-02 03:04:05.5' -> '2024-01-02T03:04:05.5' */
export function timestampText(raw: string): string {
  return raw.replace(' ', 'T');
}

/** Parsers by OID: exact strings for numbers that JS cannot hold and for dates and times. */
export function typeParser(oid: number): ((value: string) => unknown) | undefined {
  switch (oid) {
    case 16:
      return (v) => v === 't';
    case 21:
    case 23:
      return (v) => Number.parseInt(v, 10);
    case 700:
    case 701:
      return (v) => Number.parseFloat(v);
    case 1184:
      return timestamptzText;
    case 1114:
      return timestampText;
    case 114:
    case 3802:
      // As text: JSON null is not SQL NULL, and numbers keep every digit.
      return (v) => new JsonText(v);
    case 17:
      return (v) => Buffer.from(v.slice(2), 'hex'); // bytea hex output: \x...
    default:
      return undefined; // text as is: int8, numeric, date, time, uuid, text and every other type
  }
}
