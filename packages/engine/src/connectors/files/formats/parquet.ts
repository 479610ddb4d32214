/**
 * Parquet through hyparquet (read) and hyparquet-writer (write).
 *
 * Reading goes by row ranges of one batch (hyparquet fetches only the row groups and, with offset
 * indexes, the pages that hold them). hyparquet's own conversions lose precision in two places, so
 * they are bypassed: DECIMAL columns are read as their raw unscaled integers (the annotation is
 * removed from the schema handed to the reader) and timestamps come through parsers that keep the
 * integer instead of making a millisecond Date.
 *
 * Writing: one row group per 10,000 rows (or per batch, if larger). canonical -> Parquet:
 * boolean BOOLEAN; int16 INT32 INT(16); int32 INT32; int64 INT64; float32 FLOAT; float64 DOUBLE;
 * decimal(p, s) FIXED_LEN_BYTE_ARRAY DECIMAL(p, s), and decimal without a declared precision a UTF8
 * string (Parquet needs a fixed scale; this connector reads it back as decimal from a key-value hint);
 * string BYTE_ARRAY STRING; uuid FIXED_LEN_BYTE_ARRAY(16) UUID; date INT32 DATE; time INT64
 * TIME(MICROS); timestamp INT64 TIMESTAMP(MICROS, local); timestamptz INT64 TIMESTAMP_MICROS (UTC);
 * json BYTE_ARRAY JSON; binary BYTE_ARRAY. Every column is OPTIONAL.
 */
import { Readable } from 'node:stream';
// hyparquet and its writer are loaded by the first Parquet file a process reads or writes.
import type { AsyncBuffer, FileMetaData, ParquetParsers, SchemaElement } from 'hyparquet';
import type * as HyparquetWriter from 'hyparquet-writer';
import type { Writer } from 'hyparquet-writer';
import {
  ConnectorError,
  JsonText,
  type CanonicalType,
  type ColumnSchema,
  type JsonValue,
  type Value,
} from '../../../types.js';
import {
  bigintFromBytes,
  cellText,
  dateFromDays,
  daysFromDate,
  decimalAtScale,
  formatDecimal,
  formatNumber,
  timeFromMicros,
  timestampFromMicros,
  timestampToMicros,
  timestamptzFromMicros,
  timestamptzToMicros,
  timeToMicros,
} from '../values.js';
import { asyncBuffer, type FileStore } from '../store.js';
import { throwIfAborted, type DatasetDescription, type FileFormat } from './format.js';

/** Key-value metadata naming canonical types Parquet cannot state (decimal stored as text). */
const TYPES_KEY = 'svc.canonical_types';
const ROW_GROUP_ROWS = 10_000;

type Unit = 'MILLIS' | 'MICROS' | 'NANOS';

/** A temporal value as the file stores it, kept exact until the column's type says how to spell it. */
class Stored {
  constructor(
    readonly unit: Unit | 'DAYS',
    readonly value: bigint,
  ) {}
  micros(): bigint {
    if (this.unit === 'MILLIS') return this.value * 1000n;
    if (this.unit === 'NANOS') return this.value / 1000n - (this.value % 1000n < 0n ? 1n : 0n);
    return this.value;
  }
}

const parsers: Partial<ParquetParsers> = {
  timestampFromMilliseconds: (v) => new Stored('MILLIS', BigInt(v)),
  timestampFromMicroseconds: (v) => new Stored('MICROS', BigInt(v)),
  timestampFromNanoseconds: (v) => new Stored('NANOS', BigInt(v)),
  dateFromDays: (v) => new Stored('DAYS', BigInt(v)),
};

/** A top-level column of a file: its canonical schema and how to turn what hyparquet returns into a canonical value. */
interface FileColumn {
  schema: ColumnSchema;
  /** Leaf with an annotation hyparquet would convert lossily (or not at all): read raw. */
  raw: boolean;
  decode(value: unknown): Value;
}

const isDecimal = (e: SchemaElement) => e.converted_type === 'DECIMAL' || e.logical_type?.type === 'DECIMAL';

/** Precision and scale of a DECIMAL element, from its logical type or its older converted-type fields. */
function decimalOf(e: SchemaElement): { precision?: number; scale: number } {
  const lt = e.logical_type?.type === 'DECIMAL' ? e.logical_type : undefined;
  return { precision: lt?.precision ?? e.precision, scale: lt?.scale ?? e.scale ?? 0 };
}

/** 'INT64 TIMESTAMP(MICROS, UTC)', 'FIXED_LEN_BYTE_ARRAY(9) DECIMAL(20, 6)', 'group LIST' ... */
function sourceType(e: SchemaElement): string {
  const lt = e.logical_type;
  let annotation: string | undefined = e.converted_type;
  if (isDecimal(e)) annotation = `DECIMAL(${decimalOf(e).precision ?? '?'}, ${decimalOf(e).scale})`;
  else if (lt?.type === 'TIMESTAMP' || lt?.type === 'TIME')
    annotation = `${lt.type}(${lt.unit}${lt.isAdjustedToUTC ? ', UTC' : ''})`;
  else if (lt?.type === 'INTEGER') annotation = `INT(${lt.bitWidth}${lt.isSigned ? '' : ', unsigned'})`;
  else if (lt) annotation = lt.type;
  const physical = e.type === 'FIXED_LEN_BYTE_ARRAY' ? `FIXED_LEN_BYTE_ARRAY(${e.type_length})` : (e.type ?? 'group');
  return annotation ? `${physical} ${annotation}` : physical;
}

const toMicros = (value: unknown): bigint =>
  value instanceof Stored ? value.micros() : BigInt(value as number | bigint);

function decimalDecoder(scale: number): (value: unknown) => Value {
  return (value) => {
    if (typeof value === 'string') return value; // decimal stored as text
    const unscaled = value instanceof Uint8Array ? bigintFromBytes(value) : BigInt(value as number | bigint);
    return formatDecimal(unscaled, scale);
  };
}

/** Nested values as plain JSON: exact integers as numbers when they fit, bytes as base64, temporals as ISO text. */
function jsonSafe(value: unknown): JsonValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Stored)
    return value.unit === 'DAYS' ? dateFromDays(Number(value.value)) : timestamptzFromMicros(value.micros());
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<unknown>, jsonSafe);
  if (Array.isArray(value)) return value.map(jsonSafe);
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonSafe(v)]));
  // What is left of a decoded Parquet value is a string, a number or a boolean.
  return value as string | number | boolean;
}

const nullOr =
  (decode: (value: unknown) => Value) =>
  (value: unknown): Value =>
    value === null || value === undefined ? null : decode(value);

/** The canonical type of a Parquet schema element (see the table in the file comment, read in reverse). */
export function fileColumn(e: SchemaElement, hinted?: CanonicalType): FileColumn {
  const nullable = e.repetition_type !== 'REQUIRED';
  const column = (
    type: CanonicalType,
    decode: (value: unknown) => Value,
    raw = false,
    extra: Partial<ColumnSchema> = {},
  ): FileColumn => ({
    schema: { name: e.name, type, sourceType: sourceType(e), nullable, ...extra },
    raw,
    decode: nullOr(decode),
  });
  if (e.num_children !== undefined && e.num_children > 0) return column('json', jsonSafe);
  const lt = e.logical_type;
  const ct = e.converted_type;
  if (isDecimal(e)) {
    const { precision, scale } = decimalOf(e);
    return column('decimal', decimalDecoder(scale), true, precision !== undefined ? { precision, scale } : {});
  }
  const text = (value: unknown): Value =>
    typeof value === 'string' ? value : Buffer.from(value as Uint8Array).toString('utf8');
  const integer = lt?.type === 'INTEGER' ? lt : undefined;
  switch (e.type) {
    case 'BOOLEAN':
      return column('boolean', (v) => v as boolean);
    case 'INT32':
      if (ct === 'DATE' || lt?.type === 'DATE')
        return column('date', (v) => dateFromDays(Number(v instanceof Stored ? v.value : v)));
      if (ct === 'TIME_MILLIS' || lt?.type === 'TIME')
        return column('time', (v) => timeFromMicros(BigInt(v as number) * 1000n));
      if (ct === 'INT_8' || ct === 'INT_16' || (integer?.isSigned && integer.bitWidth <= 16))
        return column('int16', Number);
      if (ct === 'UINT_32' || (integer && !integer.isSigned && integer.bitWidth === 32))
        return column('int64', (v) => String(v));
      return column('int32', Number);
    case 'INT64':
      if (lt?.type === 'TIMESTAMP') {
        const format = lt.isAdjustedToUTC ? timestamptzFromMicros : timestampFromMicros;
        return column(lt.isAdjustedToUTC ? 'timestamptz' : 'timestamp', (v) => format(toMicros(v)));
      }
      if (ct === 'TIMESTAMP_MILLIS' || ct === 'TIMESTAMP_MICROS')
        return column('timestamptz', (v) => timestamptzFromMicros(toMicros(v)));
      if (ct === 'TIME_MICROS' || lt?.type === 'TIME') {
        const unit: Unit = lt?.type === 'TIME' ? lt.unit : 'MICROS';
        return column('time', (v) => timeFromMicros(new Stored(unit, BigInt(v as bigint)).micros()));
      }
      if (ct === 'UINT_64' || (integer && !integer.isSigned))
        return column('decimal', (v) => String(v), false, { precision: 20, scale: 0 });
      return column('int64', (v) => String(v));
    case 'INT96':
      return column('timestamptz', (v) => timestamptzFromMicros(toMicros(v)));
    case 'FLOAT':
      return column('float32', Number);
    case 'DOUBLE':
      return column('float64', Number);
    case 'BYTE_ARRAY':
      // hyparquet parses JSON columns (JSON.parse of the bytes).
      if (ct === 'JSON' || lt?.type === 'JSON') return column('json', (v) => v as JsonValue);
      if (ct === 'UTF8' || ct === 'ENUM' || lt?.type === 'STRING' || lt?.type === 'ENUM') {
        return hinted === 'decimal' ? column('decimal', text) : column('string', text);
      }
      return column('binary', (v) => Buffer.from(v as Uint8Array), ct === 'BSON' || lt?.type === 'BSON');
    case 'FIXED_LEN_BYTE_ARRAY':
      // hyparquet formats UUIDs as text.
      if (lt?.type === 'UUID') return column('uuid', (v) => v as string);
      if (lt?.type === 'FLOAT16') return column('float32', Number);
      return column('binary', (v) => Buffer.from(v as Uint8Array), ct === 'INTERVAL');
    default:
      return column('binary', (v) => Buffer.from(v as Uint8Array));
  }
}

interface OpenedFile {
  buffer: AsyncBuffer;
  metadata: FileMetaData;
  /** The metadata handed to hyparquet: raw columns stripped of their annotations. */
  readMetadata: FileMetaData;
  columns: Map<string, FileColumn>;
}

function typeHints(text: string | undefined): Record<string, CanonicalType> {
  try {
    return text ? (JSON.parse(text) as Record<string, CanonicalType>) : {};
  } catch {
    return {}; // a hint, not a requirement: without it the column reads as string
  }
}

async function openFile(store: FileStore, file: string): Promise<OpenedFile> {
  const buffer = await asyncBuffer(store, file);
  const { parquetMetadataAsync } = await import('hyparquet');
  const metadata = await parquetMetadataAsync(buffer, { parsers });
  const hints = typeHints(metadata.key_value_metadata?.find((kv) => kv.key === TYPES_KEY)?.value);
  const columns = new Map<string, FileColumn>();
  const raw = new Set<SchemaElement>();
  // Top-level columns: children of the root, skipping the descendants of groups.
  for (let i = 1, skip = 0; i < metadata.schema.length; i += 1) {
    const element = metadata.schema[i]!;
    if (skip > 0) {
      skip += (element.num_children ?? 0) - 1;
      continue;
    }
    skip = element.num_children ?? 0;
    const column = fileColumn(element, hints[element.name]);
    columns.set(element.name, column);
    if (column.raw) raw.add(element);
  }
  const readMetadata = {
    ...metadata,
    schema: metadata.schema.map((e) => (raw.has(e) ? { ...e, converted_type: undefined, logical_type: undefined } : e)),
  };
  return { buffer, metadata, readMetadata, columns };
}

const INTEGER_RANK: Partial<Record<CanonicalType, number>> = { int16: 1, int32: 2, int64: 3 };
const FLOATS = new Set<CanonicalType>(['float32', 'float64']);

/** One type for a column that files of the same dataset store differently. */
function widen(a: ColumnSchema, b: ColumnSchema): ColumnSchema {
  const merged: ColumnSchema = { ...a, nullable: a.nullable || b.nullable };
  if (a.sourceType !== b.sourceType) merged.sourceType = `${a.sourceType} | ${b.sourceType}`;
  if (a.type === b.type) {
    if (a.precision !== b.precision || a.scale !== b.scale) {
      delete merged.precision;
      delete merged.scale;
    }
    return merged;
  }
  delete merged.precision;
  delete merged.scale;
  const [ra, rb] = [INTEGER_RANK[a.type], INTEGER_RANK[b.type]];
  if (ra && rb) merged.type = ra > rb ? a.type : b.type;
  else if (FLOATS.has(a.type) && FLOATS.has(b.type)) merged.type = 'float64';
  else if ((FLOATS.has(a.type) && (rb ?? 3) < 3) || (FLOATS.has(b.type) && (ra ?? 3) < 3)) merged.type = 'float64';
  else if ((ra || FLOATS.has(a.type) || a.type === 'decimal') && (rb || FLOATS.has(b.type) || b.type === 'decimal'))
    merged.type = 'decimal';
  else merged.type = 'string';
  return merged;
}

/** A value of a file's column in the (possibly wider) type of the dataset's column. */
function widenValue(value: Value, from: CanonicalType, to: CanonicalType): Value {
  if (value === null || from === to) return value;
  if (to === 'string') return cellText(value, from);
  if (to === 'float64' || to === 'int32') return Number(value);
  return typeof value === 'number' ? formatNumber(value) : value; // int64, decimal: text
}

async function describe(store: FileStore, files: readonly string[], signal?: AbortSignal): Promise<DatasetDescription> {
  const columns = new Map<string, ColumnSchema>();
  let rows = 0;
  for (const [i, file] of files.entries()) {
    throwIfAborted(signal);
    const opened = await openFile(store, file);
    rows += Number(opened.metadata.num_rows);
    for (const [name, { schema }] of opened.columns) {
      const known = columns.get(name);
      columns.set(name, known ? widen(known, schema) : i > 0 ? { ...schema, nullable: true } : schema);
    }
    for (const [name, known] of columns) if (!opened.columns.has(name)) known.nullable = true;
  }
  return { columns: [...columns.values()], rowEstimate: rows };
}

async function* rows(
  store: FileStore,
  file: string,
  columns: readonly ColumnSchema[],
  chunkSize: number,
  signal?: AbortSignal,
): AsyncIterable<Value[][]> {
  const opened = await openFile(store, file);
  const total = Number(opened.metadata.num_rows);
  const present = columns.filter((c) => opened.columns.has(c.name)).map((c) => c.name);
  const decoders = columns.map((c) => {
    const source = opened.columns.get(c.name);
    if (!source) return () => null;
    const from = source.schema.type;
    return (object: Record<string, unknown>) => widenValue(source.decode(object[c.name]), from, c.type);
  });
  for (let start = 0; start < total; start += chunkSize) {
    throwIfAborted(signal);
    const end = Math.min(start + chunkSize, total);
    if (present.length === 0) {
      yield Array.from({ length: end - start }, () => columns.map(() => null));
      continue;
    }
    const { parquetReadObjects } = await import('hyparquet');
    const objects = await parquetReadObjects({
      file: opened.buffer,
      metadata: opened.readMetadata,
      columns: present,
      rowStart: start,
      rowEnd: end,
      utf8: false,
      parsers,
      useOffsetIndex: true,
    });
    yield objects.map((object) => decoders.map((decode) => decode(object)));
  }
}

// --- writing --------------------------------------------------------------------------------

/** Bytes of a two's complement integer that holds every value of `precision` digits. */
function decimalBytes(precision: number): number {
  const max = 10n ** BigInt(precision) - 1n;
  let bytes = 1;
  while (1n << BigInt(bytes * 8 - 1) <= max) bytes += 1;
  return bytes;
}

const hasPrecision = (c: ColumnSchema) =>
  c.type === 'decimal' &&
  c.precision !== undefined &&
  c.precision > 0 &&
  (c.scale ?? 0) >= 0 &&
  (c.scale ?? 0) <= c.precision;

export function schemaElement(c: ColumnSchema): SchemaElement {
  const base = { name: c.name, repetition_type: 'OPTIONAL' } as const;
  const micros = (type: 'TIME' | 'TIMESTAMP', isAdjustedToUTC: boolean) =>
    ({ type, isAdjustedToUTC, unit: 'MICROS' }) as const;
  switch (c.type) {
    case 'boolean':
      return { ...base, type: 'BOOLEAN' };
    case 'int16':
      return {
        ...base,
        type: 'INT32',
        converted_type: 'INT_16',
        logical_type: { type: 'INTEGER', bitWidth: 16, isSigned: true },
      };
    case 'int32':
      return { ...base, type: 'INT32' };
    case 'int64':
      return { ...base, type: 'INT64' };
    case 'float32':
      return { ...base, type: 'FLOAT' };
    case 'float64':
      return { ...base, type: 'DOUBLE' };
    case 'decimal': {
      if (!hasPrecision(c))
        return { ...base, type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } };
      const [precision, scale] = [c.precision!, c.scale ?? 0];
      return {
        ...base,
        type: 'FIXED_LEN_BYTE_ARRAY',
        type_length: decimalBytes(precision),
        converted_type: 'DECIMAL',
        precision,
        scale,
        logical_type: { type: 'DECIMAL', precision, scale },
      };
    }
    case 'string':
      return { ...base, type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } };
    case 'uuid':
      return { ...base, type: 'FIXED_LEN_BYTE_ARRAY', type_length: 16, logical_type: { type: 'UUID' } };
    case 'date':
      return { ...base, type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } };
    case 'time':
      return { ...base, type: 'INT64', logical_type: micros('TIME', false) };
    case 'timestamp':
      return { ...base, type: 'INT64', logical_type: micros('TIMESTAMP', false) };
    case 'timestamptz':
      return { ...base, type: 'INT64', converted_type: 'TIMESTAMP_MICROS', logical_type: micros('TIMESTAMP', true) };
    case 'json':
      return { ...base, type: 'BYTE_ARRAY', converted_type: 'JSON', logical_type: { type: 'JSON' } };
    case 'binary':
      return { ...base, type: 'BYTE_ARRAY' };
  }
}

const INVALID = Symbol('invalid');
const asText = (value: Value): string => (typeof value === 'string' ? value : String(value));
const defined = <T>(value: T | undefined): T | typeof INVALID => (value === undefined ? INVALID : value);
const UUID_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** A canonical value as the writer takes it for the column's Parquet type, or INVALID. */
function encoder(c: ColumnSchema): (value: Value) => unknown {
  switch (c.type) {
    case 'boolean':
      return (v) => (typeof v === 'boolean' ? v : INVALID);
    case 'int16':
    case 'int32':
      return (v) => {
        const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
        return Number.isInteger(n) ? n : INVALID;
      };
    case 'int64':
      return (v) => BigInt(v as string | number | bigint);
    case 'float32':
    case 'float64':
      return (v) => Number(v);
    case 'decimal': {
      if (!hasPrecision(c)) return asText;
      const limit = 10n ** BigInt(c.precision!);
      return (v) => {
        const unscaled = decimalAtScale(asText(v), c.scale ?? 0);
        return unscaled !== undefined && unscaled < limit && unscaled > -limit ? unscaled : INVALID;
      };
    }
    case 'string':
      return (v) => (typeof v === 'string' ? v : cellText(v, 'json'));
    case 'uuid':
      return (v) => (UUID_RE.test(asText(v)) ? asText(v) : INVALID);
    case 'date':
      return (v) => defined(daysFromDate(asText(v)));
    case 'time':
      return (v) => defined(timeToMicros(asText(v)));
    case 'timestamp':
      return (v) => defined(timestampToMicros(asText(v)));
    case 'timestamptz':
      return (v) => (v instanceof Date ? BigInt(v.getTime()) * 1000n : defined(timestamptzToMicros(asText(v))));
    case 'json':
      return (v) => (v instanceof JsonText ? v.parse() : v);
    case 'binary':
      return (v) => (v instanceof Uint8Array ? v : Buffer.from(asText(v), 'utf8'));
  }
}

function columnData(columns: readonly ColumnSchema[], encoders: ((value: Value) => unknown)[], rows: Value[][]) {
  return columns.map((column, i) => {
    const encode = encoders[i]!;
    const data = rows.map((row, r) => {
      const value = row[i];
      if (value === null || value === undefined) return null;
      let encoded: unknown;
      try {
        encoded = encode(value);
      } catch {
        encoded = INVALID;
      }
      if (encoded === INVALID)
        throw new ConnectorError(
          'schema_mismatch',
          `row ${r + 1} of a batch: a value of column "${column.name}" is not a valid ${column.type}`,
          false,
        );
      return encoded;
    });
    // Min/max of arbitrary JSON values mean nothing (and mixed kinds do not compare).
    return { name: column.name, data, statistics: column.type !== 'json' };
  });
}

const FLUSH_BYTES = 1_000_000;

/** A ByteWriter that hands its bytes over (at each row group, and past 1 MB) instead of growing: the file streams out. */
function chunkWriter(ByteWriter: typeof HyparquetWriter.ByteWriter): { writer: Writer; take(): Uint8Array[] } {
  const writer = new ByteWriter() as InstanceType<typeof ByteWriter> & Writer;
  let out: Uint8Array[] = [];
  const flush = () => {
    if (writer.index > 0) out.push(new Uint8Array(writer.buffer.slice(0, writer.index)));
    writer.index = 0; // `offset` keeps counting the bytes of the whole file
  };
  const ensure = writer.ensure.bind(writer);
  writer.ensure = (size: number) => {
    if (writer.index > FLUSH_BYTES) flush();
    ensure(size);
  };
  writer.flush = flush;
  writer.finish = flush;
  return {
    writer,
    take() {
      const taken = out;
      out = [];
      return taken;
    },
  };
}

async function* encodeChunks(
  columns: readonly ColumnSchema[],
  chunks: AsyncIterable<Value[][]>,
): AsyncIterable<Uint8Array> {
  const hints = Object.fromEntries(
    columns.filter((c) => c.type === 'decimal' && !hasPrecision(c)).map((c) => [c.name, c.type]),
  );
  const { ByteWriter, ParquetWriter } = await import('hyparquet-writer');
  const output = chunkWriter(ByteWriter);
  const writer = new ParquetWriter({
    writer: output.writer,
    schema: [{ name: 'root', num_children: columns.length }, ...columns.map(schemaElement)],
    kvMetadata: Object.keys(hints).length > 0 ? [{ key: TYPES_KEY, value: JSON.stringify(hints) }] : undefined,
    createdBy: 'svc files connector',
  });
  const encoders = columns.map(encoder);
  let pending: Value[][] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    await writer.write({ columnData: columnData(columns, encoders, pending), rowGroupSize: pending.length });
    pending = [];
  };
  for await (const chunk of chunks) {
    for (const row of chunk) pending.push(row);
    if (pending.length >= ROW_GROUP_ROWS) {
      await flush();
      yield* output.take();
    }
  }
  await flush();
  await writer.finish();
  yield* output.take();
}

const encode = (columns: readonly ColumnSchema[], chunks: AsyncIterable<Value[][]>): Readable =>
  Readable.from(encodeChunks(columns, chunks), { objectMode: false });

export const parquetFormat: FileFormat = { describe, rows, encode };
