/**
 * The fast path of a MySQL/MariaDB table into PostgreSQL: the rows of the text protocol written
 * straight into COPY text, each value kept as the bytes the server sent (the driver is asked for raw
 * buffers, `typeCast: false`) and converted only where its text differs from what the batch path
 * (read.ts, then the PostgreSQL writer's COPY text) would send for the same value:
 *
 * - zero dates ('0000-00-00...') become NULL; times and timestamps get the fraction digits their
 *   column declares (six, or none), timestamps a 'T' and timestamptz a 'Z';
 * - tinyint(1) and bit(1) booleans become t/f; binary, blob and bit(n) become bytea hex (`\\x..`);
 * - float columns are read as double (their exact value; the text protocol prints FLOAT with six
 *   digits) and written as the shortest decimal of the same float32, as the batch path does;
 * - text, JSON (kept as written) and every other value are escaped for COPY text (backslash, tab,
 *   newline, carriage return); NULL is `\N`.
 *
 * A chunk that is not valid UTF-8 is decoded as the batch path decodes text (bad bytes become
 * U+FFFD). The connection is paused while the consumer is behind, so memory holds a few chunks
 * whatever the table's size.
 */
import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import type { PoolConnection, Query } from 'mysql2';
import type { BulkStream, CanonicalType, ColumnSchema, ReadRequest } from '../../types.js';
import { ConnectorError } from '../../types.js';
import { type MysqlClient, qualified, quoteIdent } from './client.js';
import { describeTable } from './discover.js';
import { isSpatial, selectColumn } from './read.js';
import { MYSQL_TYPES, shortestFloat32 } from './type-mapping.js';

/** Bytes gathered before a chunk is handed on. */
const CHUNK = 64 * 1024;

const BACKSLASH = 0x5c;
const TAB = 0x09;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
const DOT = 0x2e;
const ZERO = 0x30;
const SPACE = 0x20;
const T = 0x54;
const Z = 0x5a;
const HEX = Buffer.from('0123456789abcdef', 'latin1');

type Kind =
  | 'text' // escaped as it is
  | 'plain' // digits: copied as they are
  | 'unpadded' // digits without the leading zeros of zerofill and year columns
  | 'float64'
  | 'boolean'
  | 'bit-boolean'
  | 'float32'
  | 'binary'
  | 'date'
  | 'time'
  | 'timestamp'
  | 'timestamptz';

interface Plan {
  kind: Kind;
  /** Times and timestamps: whether the column declares fractional seconds (six digits then). */
  fraction: boolean;
}

const KIND: Record<CanonicalType, Kind> = {
  boolean: 'boolean',
  int16: 'plain',
  int32: 'plain',
  int64: 'plain',
  float32: 'float32',
  float64: 'float64',
  decimal: 'plain',
  string: 'text',
  uuid: 'text',
  date: 'date',
  time: 'time',
  timestamp: 'timestamp',
  timestamptz: 'timestamptz',
  json: 'text',
  binary: 'binary',
};

function planOf(column: ColumnSchema): Plan {
  const kind = KIND[column.type];
  const fraction = Number(/\((\d+)\)/.exec(column.sourceType)?.[1] ?? 0) > 0;
  const sourceType = column.sourceType.toLowerCase();
  if (kind === 'boolean' && sourceType.startsWith('bit')) return { kind: 'bit-boolean', fraction };
  if (kind === 'plain' && (sourceType.includes('zerofill') || sourceType.startsWith('year')))
    return { kind: 'unpadded', fraction };
  return { kind, fraction };
}

/** The select list: float columns as double, so the text protocol carries their exact value. */
function selectOf(column: ColumnSchema): string {
  return column.type === 'float32' ? `cast(${quoteIdent(column.name)} as double)` : selectColumn(column);
}

/** COPY text of rows of raw values, written into growing chunks. */
export class CopyTextWriter {
  private out = Buffer.allocUnsafe(CHUNK * 2);
  private pos = 0;

  constructor(private readonly plans: Plan[]) {}

  get size(): number {
    return this.pos;
  }

  /** The bytes written since the last take, valid UTF-8 (see the module's comment). */
  take(): Buffer {
    const chunk = this.out.subarray(0, this.pos);
    this.out = Buffer.allocUnsafe(CHUNK * 2);
    this.pos = 0;
    return isUtf8(chunk) ? chunk : Buffer.from(chunk.toString('utf8'), 'utf8');
  }

  private room(bytes: number): void {
    if (this.pos + bytes <= this.out.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.out.length * 2, this.pos + bytes));
    this.out.copy(bigger, 0, 0, this.pos);
    this.out = bigger;
  }

  row(values: ReadonlyArray<Buffer | null>): void {
    const plans = this.plans;
    for (let i = 0; i < plans.length; i++) {
      if (i > 0) {
        this.room(1);
        this.out[this.pos++] = TAB;
      }
      const value = values[i];
      if (value === null || value === undefined) this.nul();
      else this.value(value, plans[i]!);
    }
    this.room(1);
    this.out[this.pos++] = NEWLINE;
  }

  private nul(): void {
    this.room(2);
    this.out[this.pos++] = BACKSLASH;
    this.out[this.pos++] = 0x4e; // N
  }

  private value(v: Buffer, plan: Plan): void {
    switch (plan.kind) {
      case 'text':
        return this.escaped(v);
      case 'plain':
        return this.copied(v);
      case 'boolean':
        return this.ascii(Number(v.toString('latin1')) !== 0 ? 't' : 'f');
      case 'unpadded':
        return this.unpadded(v);
      case 'float64': {
        // The same double; its shortest text as JavaScript prints it (1e+308 where the server says 1e308).
        const n = Number(v.toString('latin1'));
        return this.ascii(Object.is(n, -0) ? '-0' : String(n));
      }
      case 'bit-boolean':
        return this.ascii(v.some((b) => b !== 0) ? 't' : 'f');
      case 'float32': {
        const n = shortestFloat32(Number(v.toString('latin1')));
        return this.ascii(Object.is(n, -0) ? '-0' : String(n));
      }
      case 'binary':
        return this.hex(v);
      case 'date':
        return zeroDate(v) ? this.nul() : this.copied(v);
      case 'time':
        return this.micros(v, plan.fraction, false, false);
      case 'timestamp':
        return zeroDate(v) ? this.nul() : this.micros(v, plan.fraction, true, false);
      case 'timestamptz':
        return zeroDate(v) ? this.nul() : this.micros(v, true, true, true);
    }
  }

  private copied(v: Buffer): void {
    this.room(v.length);
    const out = this.out;
    let pos = this.pos;
    for (let i = 0; i < v.length; i++) out[pos++] = v[i]!;
    this.pos = pos;
  }

  /** '000042' as '42', '0000' as '0', '-007' as '-7': the number the batch path prints. */
  private unpadded(v: Buffer): void {
    let start = v[0] === 0x2d ? 1 : 0;
    if (start === 1) {
      this.room(1);
      this.out[this.pos++] = 0x2d;
    }
    while (start < v.length - 1 && v[start] === ZERO && v[start + 1] !== DOT) start++;
    this.copied(v.subarray(start));
  }

  private ascii(text: string): void {
    this.room(text.length);
    for (let i = 0; i < text.length; i++) this.out[this.pos++] = text.charCodeAt(i);
  }

  private escaped(v: Buffer): void {
    this.room(v.length * 2);
    const out = this.out;
    let pos = this.pos;
    for (let i = 0; i < v.length; i++) {
      const b = v[i]!;
      if (b === BACKSLASH || b === TAB || b === NEWLINE || b === RETURN) {
        out[pos++] = BACKSLASH;
        out[pos++] = b === BACKSLASH ? BACKSLASH : b === TAB ? 0x74 : b === NEWLINE ? 0x6e : 0x72;
      } else out[pos++] = b;
    }
    this.pos = pos;
  }

  /** bytea's hex input, its backslash escaped for COPY text: `\\x0102`. */
  private hex(v: Buffer): void {
    this.room(3 + v.length * 2);
    const out = this.out;
    let pos = this.pos;
    out[pos++] = BACKSLASH;
    out[pos++] = BACKSLASH;
    out[pos++] = 0x78; // x
    for (let i = 0; i < v.length; i++) {
      const b = v[i]!;
      out[pos++] = HEX[b >> 4]!;
      out[pos++] = HEX[b & 15]!;
    }
    this.pos = pos;
  }

  /**
   * A time or timestamp with six fraction digits when its column declares a fraction, none when not
   * (type-mapping.ts, micros); timestamps with 'T' for the first space, timestamptz with 'Z' after.
   */
  private micros(v: Buffer, fraction: boolean, timestamp: boolean, zone: boolean): void {
    this.room(v.length + 9);
    const out = this.out;
    let pos = this.pos;
    let dot = v.indexOf(DOT);
    if (dot < 0) dot = v.length;
    let spaced = !timestamp;
    for (let i = 0; i < dot; i++) {
      const b = v[i]!;
      if (b === SPACE && !spaced) {
        out[pos++] = T;
        spaced = true;
      } else out[pos++] = b;
    }
    if (fraction) {
      out[pos++] = DOT;
      let digits = 0;
      for (let i = dot + 1; i < v.length && digits < 6; i++, digits++) out[pos++] = v[i]!;
      for (; digits < 6; digits++) out[pos++] = ZERO;
    }
    if (zone) out[pos++] = Z;
    this.pos = pos;
  }
}

/** '0000-00-00...': MySQL's zero date, read as NULL (type-mapping.ts, decoder). */
function zeroDate(v: Buffer): boolean {
  if (v.length < 10) return false;
  for (let i = 0; i < 10; i++) if (v[i] !== (i === 4 || i === 7 ? 0x2d : ZERO)) return false;
  return true;
}

/**
 * Types with a text rule here: those of MYSQL_TYPES, JSON and the spatial types (selected as WKT
 * text). Others (inet6, ...) are read as the batch path reads them.
 */
function known(column: ColumnSchema): boolean {
  const base = /^[a-z0-9_]+/.exec(column.sourceType.toLowerCase())?.[0] ?? '';
  return base === 'json' || base in MYSQL_TYPES || isSpatial(column);
}

/**
 * The table as a COPY text stream; undefined for reads this path does not take (incremental, a
 * query, a column of a type without a text rule). The query starts when the stream is first read: a caller that finds the destination does
 * not take COPY text destroys it unread, which only returns the connection.
 */
export async function exportTable(
  client: MysqlClient,
  request: Omit<ReadRequest, 'batchSize' | 'range'>,
  defaultDatabase: string,
  signal?: AbortSignal,
): Promise<BulkStream | undefined> {
  if (request.incremental || request.query || request.select) return undefined;
  const database = request.dataset.namespace ?? defaultDatabase;
  const table = request.dataset.name;
  const conn = await client.connection();
  let columns: ColumnSchema[];
  try {
    signal?.throwIfAborted();
    const schema = await describeTable(conn, database, table);
    if (!schema) throw new ConnectorError('not_found', `table "${database}"."${table}" does not exist`, false);
    columns = request.columns?.length
      ? request.columns.map((name) => {
          const column = schema.columns.find((c) => c.name === name);
          if (!column)
            throw new ConnectorError('schema_mismatch', `column "${name}" does not exist in table "${table}"`, false);
          return column;
        })
      : schema.columns;
  } catch (error) {
    conn.release();
    throw client.classify(error);
  }
  if (!columns.every(known)) {
    conn.release();
    return undefined;
  }
  const sql = `select ${columns.map(selectOf).join(', ')} from ${qualified(database, table)}`;
  return { format: 'postgres-copy-text', columns, stream: copyTextStream(client, conn, sql, columns, signal) };
}

function copyTextStream(
  client: MysqlClient,
  conn: PoolConnection,
  sql: string,
  columns: ColumnSchema[],
  signal?: AbortSignal,
): Readable {
  const writer = new CopyTextWriter(columns.map(planOf));
  let query: Query | undefined;
  let paused = false;
  let done = false;
  const onAbort = () => stream.destroy(signal?.reason as Error);
  const stream = new Readable({
    highWaterMark: CHUNK * 2,
    read() {
      if (!query) return start();
      if (paused) {
        paused = false;
        conn.resume();
      }
    },
    destroy(error, callback) {
      signal?.removeEventListener('abort', onAbort);
      // A half-read result cannot be abandoned on a live connection.
      if (query && !done) conn.destroy();
      else conn.release();
      done = true;
      callback(error);
    },
  });
  signal?.addEventListener('abort', onAbort, { once: true });
  const start = () => {
    query = conn.query({ sql, rowsAsArray: true, typeCast: false });
    query.on('result', (row) => {
      if (stream.destroyed) return;
      writer.row(row as unknown as Array<Buffer | null>);
      if (writer.size >= CHUNK && !stream.push(writer.take()) && !paused) {
        paused = true;
        conn.pause();
      }
    });
    query.on('error', (error: Error & { sqlState?: string; fatal?: boolean }) => {
      // A server error ends the statement and leaves the connection usable.
      if (error.sqlState !== undefined && error.fatal !== true) done = true;
      stream.destroy(client.classify(error));
    });
    query.on('end', () => {
      if (stream.destroyed) return;
      done = true;
      if (writer.size > 0) stream.push(writer.take());
      stream.push(null);
    });
  };
  return stream;
}
