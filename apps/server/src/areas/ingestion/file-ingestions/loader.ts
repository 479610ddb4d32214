/**
 * Loads one file into a destination table through the engine's write path (for PostgreSQL and the
 * warehouse: one COPY FROM STDIN, fed while the file is still being parsed, in one transaction). The
 * file is streamed: decompressed, decoded and parsed on the fly, in batches, so memory stays flat
 * whatever its size. Rows that cannot be parsed or converted are errors, handled per `on_error`;
 * a file that fails loads nothing (the write's transaction is rolled back).
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import {
  MISMATCH,
  RecordInference,
  SAMPLE_ROWS,
  convertCell,
  type CanonicalType,
  type ColumnSchema,
  type ConnectorHandle,
  type RecordBatch,
  type Value,
  type WriteRequest,
} from '@svc/engine';
import { parse, type CsvError, type Info } from 'csv-parse';
import type { ColumnSpec, DestinationSpec, FirstError, FormatSpec } from './repository.js';

const BATCH_ROWS = 5000;

export interface LoadSpec {
  format: FormatSpec;
  schema_mode: 'infer' | 'fixed';
  columns: ColumnSpec[];
  on_error: 'abort' | 'skip_file' | 'continue';
  error_limit: number;
  destination: DestinationSpec;
}

export interface LoadOutcome {
  status: 'loaded' | 'partially_loaded' | 'failed';
  rowsParsed: number;
  rowsLoaded: number;
  errorCount: number;
  firstError: FirstError | null;
  bytesRead: number;
  bytesWritten: number;
  /** Why the file failed. */
  reason?: string;
}

/** An outcome before any row: nothing parsed, loaded or moved yet. */
export const noRowsYet = (status: LoadOutcome['status']): LoadOutcome => ({
  status,
  rowsParsed: 0,
  rowsLoaded: 0,
  errorCount: 0,
  firstError: null,
  bytesRead: 0,
  bytesWritten: 0,
});

/** One record of a file, as text cells (CSV) or a parsed JSON object (NDJSON), or why it is bad. */
type RawRecord =
  | { line: number; keys: readonly string[]; values: readonly unknown[] }
  | { line: number; error: { column: string | null; message: string } };

/** The rejection of the file by its error policy, thrown through the write to roll it back. */
class FileRejected extends Error {}

export const isGzip = (format: FormatSpec, name: string) =>
  format.compression === 'gzip' || ((format.compression ?? 'auto') === 'auto' && /\.gz$/i.test(name));

/** The file's bytes as text: gunzipped when compressed, decoded from its encoding (UTF-8 passes through as bytes). */
function textStream(
  path: string,
  name: string,
  format: FormatSpec,
  counted: { bytes: number },
  stripBom = false,
): Readable {
  const file = createReadStream(path);
  file.on('data', (chunk: Buffer | string) => (counted.bytes += chunk.length));
  const stages: Array<NodeJS.ReadableStream | NodeJS.WritableStream> = [file];
  if (isGzip(format, name)) stages.push(createGunzip());
  const encoding = (format.encoding ?? 'utf-8').toLowerCase();
  if (['utf-8', 'utf8'].includes(encoding)) {
    if (stripBom) {
      let first = true;
      stages.push(
        new Transform({
          transform(chunk: Buffer, _enc, done) {
            if (first && chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3);
            first = false;
            done(null, chunk);
          },
        }),
      );
    }
  } else {
    const decoder = new TextDecoder(encoding); // throws RangeError for an unknown label (checked at create)
    stages.push(
      new Transform({
        transform(chunk: Buffer, _enc, done) {
          const text = decoder.decode(chunk, { stream: true });
          done(null, stripBom ? text.replace(/^\uFEFF/, '') : text);
          stripBom = false;
        },
        flush(done) {
          done(null, decoder.decode());
        },
      }),
    );
  }
  const out = new PassThrough();
  stages.push(out);
  // Errors (a corrupt gzip, an unreadable file) reach `out`, which the parser reads.
  void pipeline(stages as never).catch((error: Error) => out.destroy(error));
  return out;
}

/** Header names made usable: blanks get a positional name, repeats a suffix. */
function columnNames(header: readonly string[]): string[] {
  const seen = new Set<string>();
  return header.map((raw, i) => {
    const base = raw.trim() !== '' ? raw.trim() : `column_${i + 1}`;
    let name = base;
    for (let n = 2; seen.has(name); n += 1) name = `${base}_${n}`;
    seen.add(name);
    return name;
  });
}

/** `names`: the columns of a file without header, by position (a fixed schema's); default column_1, column_2, ... */
async function* csvRecords(input: Readable, format: FormatSpec, names?: readonly string[]): AsyncIterable<RawRecord> {
  const skipped: RawRecord[] = [];
  const parser = parse({
    delimiter: format.delimiter ?? ',',
    bom: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    info: true,
    // A record csv-parse cannot read (a field count that differs from the header's, a quote left open).
    on_skip: (error: CsvError | undefined) => {
      if (!error) return;
      skipped.push({
        line: Number((error as unknown as { lines?: number }).lines ?? 0),
        error: { column: null, message: error.message },
      });
    },
  });
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  const header = format.header ?? true;
  let keys: string[] | undefined;
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: Info }>) {
    while (skipped.length) yield skipped.shift()!;
    if (!keys) {
      if (header) {
        keys = columnNames(record);
        continue;
      }
      keys = record.map((_, i) => names?.[i] ?? `column_${i + 1}`);
    }
    yield { line: info.lines, keys, values: record.map((v) => (v === '' ? null : v)) };
  }
  while (skipped.length) yield skipped.shift()!;
}

async function* ndjsonRecords(input: Readable): AsyncIterable<RawRecord> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line += 1;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      yield { line, error: { column: null, message: (error as Error).message } };
      continue;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      yield { line, error: { column: null, message: 'is not a JSON object' } };
      continue;
    }
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object);
    yield { line, keys, values: keys.map((k) => object[k]) };
  }
}

/** The write of a file into its destination; `runId` makes it happen once. */
export const writeRequest = (
  destination: Pick<DestinationSpec, 'namespace' | 'table' | 'mode' | 'key_columns'>,
  columns: ColumnSchema[],
  runId: string,
): WriteRequest => ({
  dataset: { namespace: destination.namespace ?? null, name: destination.table },
  mode: destination.mode,
  keyColumns: destination.key_columns,
  columns,
  runId,
});

export interface RunOptions {
  runId: string;
  signal?: AbortSignal;
  onProgress?: (rowsParsed: number, bytesRead: number) => void;
}

/**
 * Loads the file. A CSV file with inferred types into a destination that parses CSV itself
 * (PostgreSQL, the warehouse: COPY ... CSV) takes the fast path: the types are inferred from the
 * first rows, then the file's text goes to COPY as it is, parsed and checked by the server. When
 * the server refuses a row (a bad value, a wrong field count), nothing is loaded by it and the file
 * is loaded again row by row, which finds each bad row, its line and column, and applies on_error.
 */
export async function loadFile(
  handle: ConnectorHandle,
  path: string,
  name: string,
  spec: LoadSpec,
  run: RunOptions,
): Promise<LoadOutcome> {
  if (
    spec.format.type === 'csv' &&
    spec.schema_mode === 'infer' &&
    (spec.format.delimiter ?? ',').length === 1 &&
    handle.importBulk &&
    handle.bulkFormats?.includes('csv')
  ) {
    const fast = await copyCsv(handle, path, name, spec, run);
    if (fast) return fast;
  }
  return loadRows(handle, path, name, spec, run);
}

/** The fast path, or undefined when the file has rows the server refused (or the sample had bad rows). */
async function copyCsv(
  handle: ConnectorHandle,
  path: string,
  name: string,
  spec: LoadSpec,
  run: RunOptions,
): Promise<LoadOutcome | undefined> {
  const sampleInput = textStream(path, name, spec.format, { bytes: 0 });
  const inference = new RecordInference(true);
  let sampled = 0;
  let declared = false;
  try {
    for await (const record of csvRecords(sampleInput, spec.format)) {
      if ('error' in record) return undefined;
      if (!declared) inference.declare(record.keys);
      declared = true;
      inference.observe(record.keys, record.values);
      if (++sampled >= SAMPLE_ROWS) break;
    }
  } finally {
    sampleInput.destroy();
  }
  const columns = inference.result();
  if (columns.length === 0) return undefined;
  const counted = { bytes: 0 };
  const stream = textStream(path, name, spec.format, counted, true);
  try {
    const summary = await handle.importBulk!(
      writeRequest(spec.destination, columns, run.runId),
      {
        format: 'csv',
        csv: { delimiter: spec.format.delimiter ?? ',', header: spec.format.header ?? true },
        columns,
        stream,
      },
      run.signal,
    );
    return {
      status: 'loaded',
      rowsParsed: summary.rowsWritten,
      rowsLoaded: summary.rowsWritten,
      errorCount: 0,
      firstError: null,
      bytesRead: counted.bytes,
      bytesWritten: summary.bytesWritten ?? 0,
    };
  } catch (error) {
    stream.destroy();
    if (run.signal?.aborted) throw error;
    // A value or a line the server refused (SQLSTATE class 22, data exception; 23, a constraint).
    const code = ((error as { cause?: { code?: string } }).cause ?? (error as { code?: string })).code ?? '';
    if (code.startsWith('22') || code.startsWith('23')) return undefined;
    throw error;
  }
}

async function loadRows(
  handle: ConnectorHandle,
  path: string,
  name: string,
  spec: LoadSpec,
  run: RunOptions,
): Promise<LoadOutcome> {
  const counted = { bytes: 0 };
  const textual = spec.format.type === 'csv';
  const outcome = noRowsYet('loaded');
  let rejected: string | undefined;
  const fail = (line: number, column: string | null, message: string) => {
    outcome.errorCount += 1;
    if (!outcome.firstError || line < outcome.firstError.line) outcome.firstError = { line, column, message };
    if (spec.on_error !== 'continue')
      rejected = `line ${line}${column ? `, column ${column}` : ''}: ${message} (on_error ${spec.on_error})`;
    else if (outcome.errorCount > spec.error_limit)
      rejected = `more than ${spec.error_limit} bad rows (error_limit); the first at line ${outcome.firstError.line}`;
    if (rejected) throw new FileRejected(rejected);
  };

  const input = textStream(path, name, spec.format, counted);
  const positional = spec.schema_mode === 'fixed' ? spec.columns.map((c) => c.name) : undefined;
  const records = (textual ? csvRecords(input, spec.format, positional) : ndjsonRecords(input))[Symbol.asyncIterator]();

  // The columns: declared (fixed), or inferred from the first rows, which are held back meanwhile.
  const held: Array<Extract<RawRecord, { keys: readonly string[] }>> = [];
  let columns: ColumnSchema[];
  let exhausted = false;
  try {
    if (spec.schema_mode === 'fixed') {
      columns = spec.columns.map((c) => ({
        name: c.name,
        type: c.type as CanonicalType,
        sourceType: 'declared',
        nullable: c.nullable ?? true,
      }));
    } else {
      const inference = new RecordInference(textual);
      let declared = false;
      while (held.length < SAMPLE_ROWS) {
        const next = await records.next();
        if (next.done) {
          exhausted = true;
          break;
        }
        const record = next.value;
        if ('error' in record) {
          fail(record.line, record.error.column, record.error.message);
          continue;
        }
        if (textual && !declared) {
          inference.declare(record.keys);
          declared = true;
        }
        inference.observe(record.keys, record.values);
        held.push(record);
      }
      columns = inference.result();
    }
  } catch (error) {
    input.destroy();
    if (!(error instanceof FileRejected)) throw error;
    return { ...outcome, status: 'failed', reason: rejected, bytesRead: counted.bytes };
  }
  if (columns.length === 0) {
    input.destroy();
    return { ...outcome, bytesRead: counted.bytes };
  }

  const positionsByKeys = new Map<readonly string[], number[]>();
  const positions = (keys: readonly string[]) => {
    let found = positionsByKeys.get(keys);
    if (!found) {
      found = columns.map((c) => keys.indexOf(c.name));
      if (textual) positionsByKeys.set(keys, found); // CSV records share one keys array
    }
    return found;
  };
  const types = columns.map((c) => c.type);
  const convert = (record: Extract<RawRecord, { keys: readonly string[] }>): Value[] | undefined => {
    const at = positions(record.keys);
    const row: Value[] = new Array(columns.length);
    for (let i = 0; i < columns.length; i++) {
      const raw = at[i]! < 0 ? null : record.values[at[i]!];
      const value = convertCell(raw, types[i]!, textual);
      if (value === MISMATCH) {
        fail(record.line, columns[i]!.name, `${JSON.stringify(raw)} is not a ${types[i]}`);
        return undefined;
      }
      if (value === null && !columns[i]!.nullable && spec.schema_mode === 'fixed') {
        fail(record.line, columns[i]!.name, 'is empty in a column declared not nullable');
        return undefined;
      }
      row[i] = value;
    }
    return row;
  };

  let lastProgress = 0;
  async function* batches(): AsyncIterable<RecordBatch> {
    let rows: Value[][] = [];
    const take = (record: RawRecord) => {
      if ('error' in record) return fail(record.line, record.error.column, record.error.message);
      outcome.rowsParsed += 1;
      const row = convert(record);
      if (row) rows.push(row);
    };
    for (const record of held.splice(0)) take(record);
    while (!exhausted) {
      const next = await records.next();
      if (next.done) break;
      take(next.value);
      if (rows.length >= BATCH_ROWS) {
        outcome.rowsLoaded += rows.length;
        yield { columns, rows };
        rows = [];
        if (run.onProgress && Date.now() - lastProgress > 1000) {
          lastProgress = Date.now();
          run.onProgress(outcome.rowsParsed, counted.bytes);
        }
      }
    }
    if (rows.length) {
      outcome.rowsLoaded += rows.length;
      yield { columns, rows };
    }
  }

  try {
    const summary = await handle.write!(writeRequest(spec.destination, columns, run.runId), batches(), run.signal);
    outcome.bytesWritten = summary.bytesWritten ?? 0;
  } catch (error) {
    input.destroy();
    if (!rejected) throw error;
    return { ...outcome, rowsLoaded: 0, status: 'failed', reason: rejected, bytesRead: counted.bytes };
  }
  outcome.bytesRead = counted.bytes;
  outcome.status = outcome.errorCount > 0 ? 'partially_loaded' : 'loaded';
  return outcome;
}
