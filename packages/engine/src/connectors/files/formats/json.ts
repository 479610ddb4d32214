/**
 * NDJSON (one object per line, streamed line by line both ways) and JSON (one top-level array of
 * objects). A JSON file is parsed whole when read, so it must fit in memory: use NDJSON for large
 * data; writing JSON streams.
 *
 * Values are written as JSON: int64 and decimal as bare numbers with all their digits (read back
 * exactly, see json-text.ts), binary as base64 strings, json as nested JSON, NaN and infinities as
 * null (JSON has no spelling for them), dates and times as ISO strings.
 */
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { ConnectorError, jsonTextOf, type CanonicalType, type ColumnSchema, type Value } from '../../../types.js';
import { numberLiteral, parseRows } from '../json-text.js';
import type { FileStore } from '../store.js';
import type { RawRecord, RecordSource } from './text.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function invalid(file: string, where: string, detail: string, cause?: unknown): ConnectorError {
  return new ConnectorError('failed', `${basename(file)}: ${where}: ${detail}`, false, { cause });
}

function parseOrFail(text: string, fieldDepth: number, file: string, where: string): unknown {
  try {
    return parseRows(text, fieldDepth);
  } catch (error) {
    throw invalid(file, where, `invalid JSON (${(error as Error).message})`, error);
  }
}

async function* ndjsonRecords(store: FileStore, file: string): AsyncIterable<RawRecord> {
  const input = store.readStream(file);
  input.setEncoding('utf8');
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    let line = 0;
    for await (const text of lines) {
      line += 1;
      const trimmed = (line === 1 ? text.replace(/^\uFEFF/, '') : text).trim();
      if (!trimmed) continue;
      const value = parseOrFail(trimmed, 1, file, `line ${line}`);
      if (!isObject(value)) throw invalid(file, `line ${line}`, 'not a JSON object');
      yield { object: value };
    }
  } finally {
    lines.close();
    input.destroy();
  }
}

async function* jsonRecords(store: FileStore, file: string): AsyncIterable<RawRecord> {
  const text = (await store.readFile(file)).toString('utf8').replace(/^\uFEFF/, '');
  if (!text.trim()) return;
  const value = parseOrFail(text, 2, file, 'document');
  if (!Array.isArray(value)) throw invalid(file, 'document', 'not a JSON array of objects');
  for (const [i, row] of value.entries()) {
    if (!isObject(row)) throw invalid(file, `element ${i}`, 'not a JSON object');
    yield { object: row };
  }
}

/** One value as JSON text, for a column of `type`. */
export function jsonLiteral(value: Value, type: CanonicalType): string {
  if (value === null || value === undefined) return 'null';
  if (type === 'json') return jsonTextOf(value);
  if (typeof value === 'string')
    return type === 'int64' || type === 'decimal' ? numberLiteral(value) : JSON.stringify(value);
  if (Buffer.isBuffer(value) || value instanceof Uint8Array)
    return JSON.stringify(Buffer.from(value).toString('base64'));
  return JSON.stringify(value) ?? 'null';
}

function objectLines(columns: readonly ColumnSchema[], chunk: Value[][], separator: string): string {
  const keys = columns.map((c) => `${JSON.stringify(c.name)}:`);
  const types = columns.map((c) => c.type);
  return chunk
    .map((row) => `{${row.map((value, i) => keys[i] + jsonLiteral(value, types[i]!)).join(',')}}`)
    .join(separator);
}

function encodeNdjson(columns: readonly ColumnSchema[], chunks: AsyncIterable<Value[][]>): Readable {
  async function* lines() {
    for await (const chunk of chunks) if (chunk.length > 0) yield `${objectLines(columns, chunk, '\n')}\n`;
  }
  return Readable.from(lines());
}

function encodeJsonArray(columns: readonly ColumnSchema[], chunks: AsyncIterable<Value[][]>): Readable {
  async function* parts() {
    let first = true;
    yield '[';
    for await (const chunk of chunks) {
      if (chunk.length === 0) continue;
      yield `${first ? '\n' : ',\n'}${objectLines(columns, chunk, ',\n')}`;
      first = false;
    }
    yield '\n]\n';
  }
  return Readable.from(parts());
}

export const ndjsonSource: RecordSource = { textual: false, records: ndjsonRecords, encode: encodeNdjson };
export const jsonSource: RecordSource = { textual: false, records: jsonRecords, encode: encodeJsonArray };
