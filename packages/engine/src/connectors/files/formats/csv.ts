/**
 * CSV and TSV, streamed both ways (csv-parse, csv-stringify). TSV is CSV with a tab delimiter,
 * quotes included. An unquoted empty field is null; a quoted one ("") is the empty string, which is
 * how the writer keeps the two apart.
 *
 * What canonical types become as text: booleans true/false; numbers as JavaScript prints them
 * ('-0', 'NaN', 'Infinity' included); int64 and decimal as their digits; dates, times and timestamps
 * in ISO form; json as JSON text; binary as base64. Read back, types are inferred again (infer.ts),
 * so int16 comes back int32, float32 float64, json, binary and uuid as string.
 */
import { Readable, pipeline } from 'node:stream';
import { parse, type Parser } from 'csv-parse';
import { stringify } from 'csv-stringify';
import type { ColumnSchema, Value } from '../../../types.js';
import type { FileStore } from '../store.js';
import { cellText } from '../values.js';
import type { RawRecord, RecordSource } from './text.js';

export interface CsvOptions {
  delimiter: string;
  header: boolean;
}

/** Header names made usable: blanks get a positional name, repeats a suffix. */
function columnNames(header: readonly unknown[]): string[] {
  const seen = new Set<string>();
  return header.map((raw, i) => {
    const base = typeof raw === 'string' && raw !== '' ? raw : `column_${i + 1}`;
    let name = base;
    for (let n = 2; seen.has(name); n += 1) name = `${base}_${n}`;
    seen.add(name);
    return name;
  });
}

const positional = (length: number): string[] => Array.from({ length }, (_, i) => `column_${i + 1}`);

/**
 * Positions of the fields written as "" in a record's raw text, or undefined when the text does not
 * scan to `count` fields. Needed because csv-parse's per-field cast callback, the only other way to
 * see quoting, costs several times the parse itself.
 */
function quotedEmpties(raw: string, delimiter: string, count: number): Set<number> | undefined {
  const text = raw.replace(/^[\r\n]+/, ''); // raw can start with the line break of a skipped empty line
  const found = new Set<number>();
  let field = 0;
  let at = 0;
  for (;;) {
    if (text[at] === '"') {
      let end = at + 1;
      while (end < text.length && !(text[end] === '"' && text[end + 1] !== '"')) end += text[end] === '"' ? 2 : 1;
      if (end === at + 1) found.add(field);
      at = end + 1;
    }
    const next = text.indexOf(delimiter, at);
    if (next < 0) break;
    at = next + delimiter.length;
    field += 1;
  }
  return field + 1 === count ? found : undefined;
}

async function* csvRecords(
  store: FileStore,
  file: string,
  options: CsvOptions,
  onHeader?: (names: readonly string[]) => void,
): AsyncIterable<RawRecord> {
  const parser: Parser = parse({
    delimiter: options.delimiter,
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    raw: true,
  });
  // pipeline() forwards a read error to the parser and destroys the file stream when we stop early.
  const records = pipeline(store.readStream(file), parser, () => undefined) as Parser;
  let header: string[] | undefined;
  const byLength = new Map<number, string[]>();
  for await (const { record, raw } of records as AsyncIterable<{ record: string[]; raw: string }>) {
    if (options.header && !header) {
      header = columnNames(record);
      onHeader?.(header);
      continue;
    }
    let keys = header;
    if (!keys) {
      keys = byLength.get(record.length) ?? positional(record.length);
      byLength.set(record.length, keys);
    }
    yield { keys, values: withNulls(record, raw, options.delimiter) };
  }
}

/** Unquoted empty fields become null; quoted ones ("") stay the empty string. */
function withNulls(record: string[], raw: string, delimiter: string): (string | null)[] {
  if (!record.includes('')) return record;
  const quoted = quotedEmpties(raw, delimiter, record.length) ?? new Set<number>();
  return record.map((value, i) => (value === '' && !quoted.has(i) ? null : value));
}

function encodeCsv(columns: readonly ColumnSchema[], chunks: AsyncIterable<Value[][]>, options: CsvOptions): Readable {
  const types = columns.map((c) => c.type);
  async function* records() {
    if (options.header) yield columns.map((c) => c.name);
    for await (const chunk of chunks) {
      for (const row of chunk) yield row.map((value, i) => cellText(value, types[i]!));
    }
  }
  // quoted_match quotes '' (and only ''), so that it reads back as '' and not as null.
  const stringifier = stringify({ delimiter: options.delimiter, quoted_match: [/^$/] });
  // pipeline() fails the stringifier when the rows fail, so the store's write fails too.
  return pipeline(Readable.from(records()), stringifier, () => undefined);
}

export function csvSource(options: CsvOptions): RecordSource {
  return {
    textual: true,
    records: (store, file, onHeader) => csvRecords(store, file, options, onHeader),
    encode: (columns, chunks) => encodeCsv(columns, chunks, options),
  };
}
