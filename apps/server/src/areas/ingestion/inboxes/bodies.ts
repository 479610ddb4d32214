/**
 * What an inbox accepts: JSON (an object, or an array of objects), NDJSON (one object a line) and
 * CSV (a header line, then rows). A body is checked when it arrives, so that an accepted request
 * always loads; the worker turns the bodies of a batch into rows.
 */
import { parse } from 'csv-parse/sync';

export type BodyKind = 'json' | 'ndjson' | 'csv';

export const kindOf = (contentType: string): BodyKind | undefined =>
  contentType === 'application/json'
    ? 'json'
    : contentType === 'application/x-ndjson' || contentType === 'application/ndjson'
      ? 'ndjson'
      : contentType === 'text/csv'
        ? 'csv'
        : undefined;

/** One record: its field names and values (text for CSV, JSON values otherwise). */
export interface BodyRecord {
  keys: string[];
  values: unknown[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);

const fromObject = (object: Record<string, unknown>): BodyRecord => {
  const keys = Object.keys(object);
  return { keys, values: keys.map((k) => object[k]) };
};

/** The records of a body, or throws an Error saying what is wrong with it. */
export function recordsOf(kind: BodyKind, body: Buffer): BodyRecord[] {
  const text = body.toString('utf8');
  if (kind === 'json') {
    const value: unknown = JSON.parse(text);
    if (isObject(value)) return [fromObject(value)];
    if (Array.isArray(value) && value.every(isObject)) return value.map(fromObject);
    throw new Error('a JSON body must be an object or an array of objects');
  }
  if (kind === 'ndjson') {
    const records: BodyRecord[] = [];
    text.split('\n').forEach((line, i) => {
      if (line.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        throw new Error(`line ${i + 1}: ${(error as Error).message}`);
      }
      if (!isObject(value)) throw new Error(`line ${i + 1}: not a JSON object`);
      records.push(fromObject(value));
    });
    return records;
  }
  const rows = parse(text, { bom: true, skip_empty_lines: true }) as string[][];
  const [header, ...data] = rows;
  if (!header) return [];
  return data.map((row) => ({ keys: header, values: row.map((v) => (v === '' ? null : v)) }));
}

/** The value at a dotted path (`$.order.id` or `order.id`) of a JSON object body, as text. */
export function jsonPathValue(body: Buffer, path: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  for (const part of path.replace(/^\$\./, '').split('.')) {
    if (!isObject(value)) return undefined;
    value = value[part];
  }
  if (value === undefined || value === null) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}
