/**
 * From a message's bytes to rows of the destination table: decoding by format, the JSON path to the
 * record(s), the types of new fields, and the check of each value against its column's type.
 *
 * Types of fields, from JSON values: true/false: boolean; integers: int64; other numbers: float64;
 * strings: string; objects and arrays: json; a field seen only as null: string. A value that does
 * not fit its column (a string in a bigint column, a fraction in an integer column) is a type
 * conflict: the message is refused with the field, the value's kind and the column's type.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import type { CanonicalType, ColumnSchema, JsonValue, Value } from '../types.js';

export type MessageFormat = 'json' | 'ndjson' | 'csv' | 'text';

/** Columns svc adds to every stream table. */
export const MESSAGE_ID_COLUMN = '_svc_message_id';
export const RECEIVED_AT_COLUMN = '_svc_received_at';
export const SYSTEM_COLUMNS: ColumnSchema[] = [
  { name: MESSAGE_ID_COLUMN, type: 'string', sourceType: 'text', nullable: false },
  { name: RECEIVED_AT_COLUMN, type: 'timestamptz', sourceType: 'timestamptz', nullable: false },
];

/** A message that cannot be written, and why (what its dead letter says). */
export class MessageRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MessageRejected';
  }
}

/** '$.data.items' or 'data.items' -> ['data', 'items']; '' or '$' -> the whole document. */
export function parsePath(path: string | undefined): string[] {
  const trimmed = (path ?? '').trim().replace(/^\$\.?/, '');
  return trimmed ? trimmed.split('.') : [];
}

function at(document: JsonValue, path: string[]): JsonValue | undefined {
  let current: JsonValue | undefined = document;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = current[key];
  }
  return current;
}

const asRecords = (value: JsonValue | undefined, where: string): Record<string, JsonValue>[] => {
  if (value === undefined) throw new MessageRejected(`${where}: nothing at the record path`);
  // The usual message: one object.
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return [value];
  const items = Array.isArray(value) ? value : [value];
  return items.map((item) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item))
      throw new MessageRejected(`${where}: a record must be a JSON object, got ${kindOf(item)}`);
    return item;
  });
};

/** The records a message carries. Throws MessageRejected when it cannot be read as `format`. */
export function decodeMessage(data: Buffer, format: MessageFormat, path: string[]): Record<string, JsonValue>[] {
  const text = data.toString('utf8');
  switch (format) {
    case 'text':
      return [{ text }];
    case 'json': {
      let document: JsonValue;
      try {
        document = JSON.parse(text) as JsonValue;
      } catch (error) {
        throw new MessageRejected(`not valid JSON: ${(error as Error).message}`);
      }
      return asRecords(at(document, path), 'json');
    }
    case 'ndjson': {
      const records: Record<string, JsonValue>[] = [];
      for (const [index, line] of text.split('\n').entries()) {
        if (!line.trim()) continue;
        let document: JsonValue;
        try {
          document = JSON.parse(line) as JsonValue;
        } catch (error) {
          throw new MessageRejected(`line ${index + 1} is not valid JSON: ${(error as Error).message}`);
        }
        records.push(...asRecords(at(document, path), `line ${index + 1}`));
      }
      return records;
    }
    case 'csv': {
      try {
        return parseCsv(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
      } catch (error) {
        throw new MessageRejected(`not valid CSV: ${(error as Error).message}`);
      }
    }
  }
}

function kindOf(value: JsonValue | undefined): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number with a fraction';
  return `a ${typeof value}`;
}

/** The canonical type of a field first seen with `value` (null when it says nothing: a null). */
export function typeOfValue(value: JsonValue): CanonicalType | null {
  if (value === null) return null;
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  if (typeof value === 'string') return 'string';
  return 'json';
}

const TEXT_TYPES = new Set<CanonicalType>(['string', 'uuid', 'date', 'time', 'timestamp', 'timestamptz', 'decimal']);

/** What `conformValue` answers for a value that does not fit its column. */
const CONFLICT: unique symbol = Symbol('conflict');

const conflictOf = (value: JsonValue, column: ColumnSchema) =>
  `type conflict: field "${column.name}" is ${kindOf(value)}, the column is ${column.type}`;

/** The value as the column's canonical type, or CONFLICT (no allocation per value: this runs for every field). */
function conformValue(value: JsonValue, column: ColumnSchema): Value | typeof CONFLICT {
  if (value === null) return null;
  switch (column.type) {
    case 'json':
      return value;
    case 'string':
      return typeof value === 'string' ? value : CONFLICT;
    case 'int16':
    case 'int32':
    case 'int64':
      return typeof value === 'number' && Number.isInteger(value) ? String(value) : CONFLICT;
    case 'boolean':
      return typeof value === 'boolean' ? value : CONFLICT;
    case 'float32':
    case 'float64':
      return typeof value === 'number' ? value : CONFLICT;
    case 'binary':
      return typeof value === 'string' ? Buffer.from(value, 'utf8') : CONFLICT;
    default:
      if (column.type === 'decimal' && typeof value === 'number') return String(value);
      if (TEXT_TYPES.has(column.type)) return typeof value === 'string' ? value : CONFLICT;
      return CONFLICT;
  }
}

/** The value as the column's canonical type, or the reason it does not fit. */
export function conform(value: JsonValue, column: ColumnSchema): { value: Value } | { conflict: string } {
  const conformed = conformValue(value, column);
  return conformed === CONFLICT ? { conflict: conflictOf(value, column) } : { value: conformed };
}

/**
 * Turns the records of one message into rows of `columns`, adding a column for each new field (in
 * the order first seen). Returns the rows, or the conflict that refuses the whole message. `columns`
 * is extended in place only when the message is accepted.
 */
export function toRows(
  records: Record<string, JsonValue>[],
  columns: ColumnSchema[],
  system: { messageId: string; receivedAt: string },
  /** The positions of `columns` by name, when the caller keeps them (a batch's messages share them). */
  positions?: ReadonlyMap<string, number>,
): { rows: Value[][]; added: ColumnSchema[] } | { conflict: string } {
  const known = positions ?? new Map(columns.map((c, i) => [c.name, i]));
  // The usual message: every field has its column already. One pass, no copy of the positions.
  const fast = knownFieldRows(records, columns, system, known);
  if (fast !== undefined) return fast;
  const index = new Map(known);
  const added: ColumnSchema[] = [];
  const nullOnly = new Set<string>();
  for (const record of records) {
    for (const [field, value] of Object.entries(record)) {
      if (index.has(field)) {
        if (nullOnly.has(field) && value !== null) {
          const type = typeOfValue(value)!;
          const column = added.find((c) => c.name === field)!;
          column.type = type;
          column.sourceType = type;
          nullOnly.delete(field);
        }
        continue;
      }
      if (field === MESSAGE_ID_COLUMN || field === RECEIVED_AT_COLUMN) continue;
      const type = typeOfValue(value);
      if (type === null) nullOnly.add(field);
      const column: ColumnSchema = {
        name: field,
        type: type ?? 'string',
        sourceType: type ?? 'string',
        nullable: true,
      };
      index.set(field, columns.length + added.length);
      added.push(column);
    }
  }
  const all = [...columns, ...added];
  const rows: Value[][] = [];
  for (const record of records) {
    const row: Value[] = all.map(() => null);
    for (const [field, value] of Object.entries(record)) {
      if (field === MESSAGE_ID_COLUMN || field === RECEIVED_AT_COLUMN) continue;
      const i = index.get(field)!;
      const conformed = conformValue(value, all[i]!);
      if (conformed === CONFLICT) return { conflict: conflictOf(value, all[i]!) };
      row[i] = conformed;
    }
    const idAt = index.get(MESSAGE_ID_COLUMN);
    const receivedAt = index.get(RECEIVED_AT_COLUMN);
    if (idAt !== undefined) row[idAt] = system.messageId;
    if (receivedAt !== undefined) row[receivedAt] = system.receivedAt;
    rows.push(row);
  }
  return { rows, added };
}

/** What the usual message adds (shared: never changed). */
const NO_COLUMNS: ColumnSchema[] = [];

/** toRows for records whose fields all have a column; undefined when one does not (the general path). */
function knownFieldRows(
  records: Record<string, JsonValue>[],
  columns: ColumnSchema[],
  system: { messageId: string; receivedAt: string },
  positions: ReadonlyMap<string, number>,
): { rows: Value[][]; added: ColumnSchema[] } | { conflict: string } | undefined {
  const idAt = positions.get(MESSAGE_ID_COLUMN);
  const receivedAt = positions.get(RECEIVED_AT_COLUMN);
  const rows: Value[][] = [];
  for (const record of records) {
    const row: Value[] = new Array<Value>(columns.length).fill(null);
    for (const field in record) {
      const i = positions.get(field);
      if (i === undefined) return undefined;
      if (i === idAt || i === receivedAt) continue;
      const value = record[field]!;
      const conformed = conformValue(value, columns[i]!);
      if (conformed === CONFLICT) return { conflict: conflictOf(value, columns[i]!) };
      row[i] = conformed;
    }
    if (idAt !== undefined) row[idAt] = system.messageId;
    if (receivedAt !== undefined) row[receivedAt] = system.receivedAt;
    rows.push(row);
  }
  return { rows, added: NO_COLUMNS };
}
