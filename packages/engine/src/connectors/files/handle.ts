/**
 * The connector handle both kinds share (local directory, SFTP): the same formats and dataset
 * layout over a FileStore. Only where the store comes from differs.
 */
import { Type, type Static, type TObject } from 'typebox';
import { ConnectorError, type CheckResult, type ConnectorContext, type ConnectorHandle } from '../../types.js';
import { exportCsv } from './bulk.js';
import { discoverDatasets } from './discover.js';
import { classify } from './errors.js';
import { csvSource } from './formats/csv.js';
import type { FileFormat } from './formats/format.js';
import { jsonSource, ndjsonSource } from './formats/json.js';
import { parquetFormat } from './formats/parquet.js';
import { textFormat } from './formats/text.js';
import { DirectoryLayout, FORMATS } from './layout.js';
import { readDataset } from './read.js';
import type { FileStore } from './store.js';
import { writeDataset } from './write.js';

/** The spec properties of the file format, shared by the files and sftp connectors. */
export const formatProperties = {
  format: Type.Enum([...FORMATS], { type: 'string', title: 'Format' }),
  /** '*' (files with the format's extension), '*.ext', or one literal file name. */
  pattern: Type.Optional(
    Type.String({ minLength: 1, default: '*', title: 'File name pattern ("*", "*.ext" or a file name)' }),
  ),
  /** csv/tsv: the first record names the columns (read) and is written (write). */
  header: Type.Optional(Type.Boolean({ default: true, title: 'First row is a header (CSV/TSV)' })),
  /** csv only; tsv is always a tab. */
  delimiter: Type.Optional(Type.String({ minLength: 1, maxLength: 1, title: 'Delimiter (CSV; default ",")' })),
};

export type FormatOptions = Static<TObject<typeof formatProperties>>;

export const invalidConfig = (message: string) => new ConnectorError('invalid_config', message, false);

export function validateFormatOptions(options: FormatOptions): void {
  if (!FORMATS.includes(options.format)) throw invalidConfig(`format must be one of ${FORMATS.join(', ')}`);
  const pattern = options.pattern ?? '*';
  if (typeof pattern !== 'string' || !pattern || /[/\\]/.test(pattern))
    throw invalidConfig('pattern must be a file name pattern without directories');
  const delimiter = options.delimiter;
  if (delimiter !== undefined && (delimiter.length !== 1 || /["\r\n]/.test(delimiter)))
    throw invalidConfig('delimiter must be one character other than a quote or a line break');
}

function formatFor(options: FormatOptions): FileFormat {
  const header = options.header ?? true;
  switch (options.format) {
    case 'csv':
      return textFormat(csvSource({ delimiter: options.delimiter ?? ',', header }));
    case 'tsv':
      return textFormat(csvSource({ delimiter: '\t', header }));
    case 'json':
      return textFormat(jsonSource);
    case 'ndjson':
      return textFormat(ndjsonSource);
    case 'parquet':
      return parquetFormat;
  }
}

async function checkDirectory(store: FileStore, dir: string): Promise<CheckResult> {
  try {
    const info = await store.stat(dir);
    if (!info.isDirectory) return { ok: false, code: 'invalid_config', message: `${dir} is not a directory` };
    const { readable, writable } = await store.access(dir);
    if (!readable) return { ok: false, code: 'missing_privilege', message: `${dir} is not readable by the service` };
    if (!writable) return { ok: false, code: 'missing_privilege', message: `${dir} is not writable by the service` };
    return { ok: true };
  } catch (error) {
    const e = classify(error, dir);
    return { ok: false, code: e.code, message: e.message };
  }
}

export interface DirectoryHandleOptions {
  dir: string;
  options: FormatOptions;
  context: ConnectorContext;
  /** Throws the configuration's first problem, if any: reported by check(), thrown by the rest. */
  validate(): void;
  /** The store, connected; called once per handle (again after a failure). */
  connect(): Promise<FileStore>;
}

export function openDirectoryHandle({
  dir,
  options,
  context,
  validate,
  connect,
}: DirectoryHandleOptions): ConnectorHandle {
  let invalid: ConnectorError | undefined;
  try {
    validate();
  } catch (error) {
    invalid = error instanceof ConnectorError ? error : invalidConfig(String(error));
  }
  let store: Promise<FileStore> | undefined;
  const connected = (): Promise<FileStore> => {
    store ??= connect().catch((error: unknown) => {
      store = undefined; // a later call tries again
      throw error;
    });
    return store;
  };
  const ready = async () => {
    if (invalid) throw invalid;
    return {
      layout: new DirectoryLayout(await connected(), dir, options.format, options.pattern),
      format: formatFor(options),
    };
  };
  return {
    async check() {
      if (invalid) return { ok: false, code: invalid.code, message: invalid.message };
      let opened: FileStore;
      try {
        opened = await connected();
      } catch (error) {
        const e = classify(error, dir);
        return { ok: false, code: e.code, message: e.message };
      }
      return checkDirectory(opened, dir);
    },
    async discover(signal) {
      const { layout, format } = await ready();
      return discoverDatasets(layout, format, context, signal);
    },
    async *read(request, signal) {
      const { layout, format } = await ready();
      yield* readDataset(layout, format, request, signal);
    },
    async write(request, batches, signal) {
      const { layout, format } = await ready();
      return writeDataset(layout, format, request, batches, signal);
    },
    async exportBulk(request, signal) {
      if (options.format !== 'csv' && options.format !== 'tsv') return undefined;
      const { layout, format } = await ready();
      const csv = {
        delimiter: options.format === 'tsv' ? '\t' : (options.delimiter ?? ','),
        header: options.header ?? true,
      };
      try {
        return await exportCsv(layout, format, csv, request, signal);
      } catch (error) {
        throw classify(error, `dataset "${request.dataset.name}"`);
      }
    },
    async close() {
      const pending = store;
      store = undefined;
      const opened = await pending?.catch(() => undefined);
      await opened?.close();
    },
  };
}
