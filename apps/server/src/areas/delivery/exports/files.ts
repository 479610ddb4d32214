/**
 * Files of an export in the project's folder of the files root. Each part is written under a hidden
 * temporary name in the same folder and renamed to its final name only when whole (a rename within a
 * folder is atomic), so a reader never sees half a file; an attempt that dies leaves only hidden
 * temporary files, which the next attempt of the run removes.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Transform, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { parquetFormat, type ColumnSchema, type Value } from '@svc/engine';
import type { CsvFormatConfig, FilesDestinationConfig, FormatConfig } from './config.js';
import type { ExportFileRecord } from './repository.js';
import { jsonValue, textOf } from './source.js';

/** 2025-01-02T03:04:05.678Z -> 20250102T030405Z */
export const runTimeText = (time: Date) => time.toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');

export interface FileNaming {
  exportName: string;
  runTime: Date;
  runId: string;
}

const extensionOf = (format: FormatConfig) => `${format.type}${format.gzip ? '.gz' : ''}`;

/** A name safe as a file name: letters, digits, dot, dash and underscore. */
const safe = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, '_');

export function fileName(template: string, naming: FileNaming, format: FormatConfig, part: number): string {
  const values: Record<string, string> = {
    export: safe(naming.exportName),
    run_time: runTimeText(naming.runTime),
    run_id: naming.runId,
    part: String(part).padStart(5, '0'),
    ext: extensionOf(format),
  };
  return template.replace(/\{([a-z_]+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** Formats rows as lines of CSV (PostgreSQL's rules: null as null_value, an empty string quoted when null is empty) or NDJSON. */
export function lineFormatter(format: FormatConfig, columns: ColumnSchema[]): (row: Value[]) => string {
  if (format.type !== 'csv') {
    const names = columns.map((c) => c.name);
    return (row) => {
      const record: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i += 1) record[names[i]!] = jsonValue(row[i] ?? null);
      return `${JSON.stringify(record)}\n`;
    };
  }
  const field = csvField(format);
  return (row) => `${row.map((value) => field(value ?? null)).join(format.delimiter)}\n`;
}

function csvField(format: CsvFormatConfig): (value: Value) => string {
  const { delimiter, quote, null_value: nullValue } = format;
  const doubled = quote + quote;
  const special = (text: string) =>
    text.includes(delimiter) || text.includes(quote) || text.includes('\n') || text.includes('\r');
  return (value) => {
    if (value === null) return nullValue;
    const text = textOf(value);
    if (format.quoting === 'all' || special(text) || text === nullValue || text === '\\.')
      return `${quote}${text.replaceAll(quote, doubled)}${quote}`;
    return text;
  };
}

export const headerLine = (format: FormatConfig, columns: ColumnSchema[]) =>
  format.type === 'csv' && format.header ? lineFormatter(format, [])(columns.map((c) => c.name)) : '';

interface OpenPart {
  part: number;
  temp: string;
  final: string;
  rows: number;
  file: WriteStream;
  /** What lines are written to: the gzip stream in front of the file, or the file (Parquet: the encoder's input). */
  sink: Writable;
  /** Parquet: the encoder's pipeline into the file. */
  done?: Promise<void>;
}

/** Writes the parts of one run's files: rows in, whole files out (see the module comment). */
export class ExportFiles {
  private current: OpenPart | undefined;
  private next = 1;
  readonly files: ExportFileRecord[] = [];

  /**
   * `folder`: where parts are written (the destination folder, or a staging folder for a remote
   * destination); `deliver`: what makes a whole part visible (default: the rename in `folder`).
   */
  constructor(
    private readonly folder: string,
    private readonly destination: Pick<FilesDestinationConfig, 'file_name' | 'max_rows_per_file'>,
    private readonly format: FormatConfig,
    private readonly naming: FileNaming,
    private readonly projectFolder: string,
    private readonly deliver?: (temp: string, finalName: string) => Promise<{ name: string; bytes: number }>,
    /** Ends what `deliver` holds open (a connection), once the run's files are whole or abandoned. */
    private readonly release?: () => Promise<void>,
  ) {}

  private tempPrefix = () => `.${this.naming.runId}.`;

  /** Creates the folder and removes what an earlier attempt of this run left half written. */
  async prepare(): Promise<void> {
    await mkdir(this.folder, { recursive: true });
    for (const entry of await readdir(this.folder))
      if (entry.startsWith(this.tempPrefix())) await rm(path.join(this.folder, entry), { force: true });
  }

  private open(): OpenPart {
    const part = this.next;
    this.next += 1;
    const final = fileName(this.destination.file_name, this.naming, this.format, part);
    const temp = path.join(this.folder, `${this.tempPrefix()}${part}.partial`);
    const file = createWriteStream(temp);
    let sink: Writable = file;
    if (this.format.gzip) {
      const gzip = createGzip();
      gzip.pipe(file);
      sink = gzip;
    }
    this.current = { part, temp, final, rows: 0, file, sink };
    return this.current;
  }

  /** Streams a whole file's bytes (the COPY fast path) into the next part and closes it. */
  async writeStream(source: Readable | NodeJS.ReadableStream, rows: () => number): Promise<void> {
    const current = this.open();
    this.current = undefined;
    // COPY sends a message per row: gathered into large writes before the file (or gzip) sees them.
    if (this.format.gzip) await pipeline(source, coalesce(), createGzip(), current.file);
    else await pipeline(source, coalesce(), current.file);
    current.rows = rows();
    try {
      await this.publish(current);
    } finally {
      await this.release?.();
    }
  }

  /** Writes lines (one per row), starting a new part at max_rows_per_file. */
  async writeLines(lines: string[], header: string): Promise<void> {
    let index = 0;
    const max = this.destination.max_rows_per_file ?? Number.POSITIVE_INFINITY;
    while (index < lines.length) {
      let current = this.current;
      if (!current) {
        current = this.open();
        if (header) await write(current.sink, header);
      }
      const take = Math.min(lines.length - index, max - current.rows);
      await write(current.sink, lines.slice(index, index + take).join(''));
      current.rows += take;
      index += take;
      if (current.rows >= max) await this.close();
    }
  }

  /** A Parquet part: the encoder reads the rows from an object stream and writes the file as row groups fill. */
  private openParquet(columns: ColumnSchema[]): OpenPart {
    const current = this.open();
    const input = new PassThrough({ objectMode: true, highWaterMark: 2 });
    current.sink = input;
    current.done = pipeline(parquetFormat.encode(columns, input as AsyncIterable<Value[][]>), current.file);
    current.done.catch(() => undefined);
    return current;
  }

  /** Writes rows to Parquet parts (one encoder per part), starting a new part at max_rows_per_file. */
  async writeRows(columns: ColumnSchema[], rows: Value[][]): Promise<void> {
    let index = 0;
    const max = this.destination.max_rows_per_file ?? Number.POSITIVE_INFINITY;
    while (index < rows.length) {
      const current = this.current ?? this.openParquet(columns);
      const take = Math.min(rows.length - index, max - current.rows);
      await writeObject(current.sink, rows.slice(index, index + take));
      current.rows += take;
      index += take;
      if (current.rows >= max) await this.close();
    }
  }

  /** Closes the open part (if any) and gives it its final name. */
  async close(): Promise<void> {
    const current = this.current;
    if (!current) return;
    this.current = undefined;
    if (current.done) {
      current.sink.end();
      await current.done;
    } else
      await new Promise<void>((resolve, reject) => {
        current.file.once('error', reject);
        current.file.once('close', resolve);
        current.sink.end();
      });
    await this.publish(current);
  }

  /** An export of no rows still writes one (empty, or header only) file, so a reader sees the run happened. */
  async finish(header: string, columns: ColumnSchema[] = []): Promise<ExportFileRecord[]> {
    if (this.files.length === 0 && !this.current) {
      // No rows: an empty file (Parquet: with the columns, when the source told them).
      if (this.format.type === 'parquet') this.openParquet(columns);
      else await write(this.open().sink, header);
    }
    try {
      await this.close();
    } finally {
      await this.release?.();
    }
    return this.files;
  }

  /** Abandons the open part: its temporary file goes. */
  async abort(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    await this.release?.();
    if (!current) return;
    current.sink.destroy();
    current.file.destroy();
    await rm(current.temp, { force: true });
  }

  private async publish(part: OpenPart): Promise<void> {
    if (this.deliver) {
      const delivered = await this.deliver(part.temp, part.final);
      await rm(part.temp, { force: true });
      this.files.push({ ...delivered, rows: part.rows });
      return;
    }
    const target = path.join(this.folder, part.final);
    await rename(part.temp, target);
    const { size } = await stat(target);
    this.files.push({ name: path.relative(this.projectFolder, target), rows: part.rows, bytes: size });
  }
}

/** Gathers small chunks into writes of about 256 KB. */
function coalesce(size = 256 * 1024): Transform {
  let chunks: Buffer[] = [];
  let length = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= size) {
        const whole = Buffer.concat(chunks, length);
        chunks = [];
        length = 0;
        done(null, whole);
      } else done();
    },
    flush(done) {
      done(null, length ? Buffer.concat(chunks, length) : undefined);
    },
  });
}

async function writeObject(sink: Writable, value: unknown): Promise<void> {
  if (!sink.write(value)) await new Promise<void>((resolve) => sink.once('drain', resolve));
}

async function write(sink: Writable, text: string): Promise<void> {
  if (text === '') return;
  if (!sink.write(text))
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error) => {
        sink.off('drain', onDrain);
        reject(error);
      };
      const onDrain = () => {
        sink.off('error', onError);
        resolve();
      };
      sink.once('drain', onDrain);
      sink.once('error', onError);
    });
}
