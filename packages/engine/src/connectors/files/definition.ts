import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { ConnectorError, type CheckResult, type ConnectorContext, type ConnectorDefinition, type ConnectorHandle } from '../../types.js';
import { discoverDatasets } from './discover.js';
import { classify } from './errors.js';
import { csvSource } from './formats/csv.js';
import type { FileFormat } from './formats/format.js';
import { jsonSource, ndjsonSource } from './formats/json.js';
import { parquetFormat } from './formats/parquet.js';
import { textFormat } from './formats/text.js';
import { DirectoryLayout, FORMATS, type FormatName } from './layout.js';
import { readDataset } from './read.js';
import { writeDataset } from './write.js';

export interface FilesConfig {
  /** The base directory; every dataset is a file in it (not in subdirectories). */
  path: string;
  format: FormatName;
  /** '*' (files with the format's extension), '*.ext', or one literal file name. */
  pattern?: string;
  /** csv/tsv: the first record names the columns (read) and is written (write). */
  header?: boolean;
  /** csv only; tsv is always a tab. */
  delimiter?: string;
}

export const filesSpec = {
  type: 'object',
  required: ['path', 'format'],
  additionalProperties: false,
  properties: {
    path: { type: 'string', minLength: 1, title: 'Directory (absolute path)' },
    format: { type: 'string', enum: [...FORMATS], title: 'Format' },
    pattern: { type: 'string', minLength: 1, default: '*', title: 'File name pattern ("*", "*.ext" or a file name)' },
    header: { type: 'boolean', default: true, title: 'First row is a header (CSV/TSV)' },
    delimiter: { type: 'string', minLength: 1, maxLength: 1, title: 'Delimiter (CSV; default ",")' },
  },
} as const;

function validate(config: FilesConfig): void {
  const invalid = (message: string) => new ConnectorError('invalid_config', message, false);
  if (typeof config.path !== 'string' || !isAbsolute(config.path)) throw invalid('path must be an absolute directory path');
  if (!FORMATS.includes(config.format)) throw invalid(`format must be one of ${FORMATS.join(', ')}`);
  const pattern = config.pattern ?? '*';
  if (typeof pattern !== 'string' || !pattern || /[/\\]/.test(pattern)) throw invalid('pattern must be a file name pattern without directories');
  const delimiter = config.delimiter;
  if (delimiter !== undefined && (delimiter.length !== 1 || /["\r\n]/.test(delimiter))) throw invalid('delimiter must be one character other than a quote or a line break');
}

function formatFor(config: FilesConfig): FileFormat {
  const header = config.header ?? true;
  switch (config.format) {
    case 'csv':
      return textFormat(csvSource({ delimiter: config.delimiter ?? ',', header }));
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

async function checkDirectory(dir: string): Promise<CheckResult> {
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) return { ok: false, code: 'invalid_config', message: `${dir} is not a directory` };
  } catch (error) {
    const e = classify(error, dir);
    return { ok: false, code: e.code, message: e.message };
  }
  const can = (mode: number) => access(dir, mode).then(() => true, () => false);
  if (!(await can(constants.R_OK | constants.X_OK))) return { ok: false, code: 'missing_privilege', message: `${dir} is not readable by the service` };
  if (!(await can(constants.W_OK))) return { ok: false, code: 'missing_privilege', message: `${dir} is not writable by the service` };
  return { ok: true };
}

/** No connection to hold: each call works on the directory as it is then. */
export function openFiles(config: FilesConfig, context: ConnectorContext): ConnectorHandle {
  let invalid: ConnectorError | undefined;
  try {
    validate(config);
  } catch (error) {
    invalid = error as ConnectorError;
  }
  const ready = () => {
    if (invalid) throw invalid;
    return { layout: new DirectoryLayout(config.path, config.format, config.pattern), format: formatFor(config) };
  };
  return {
    async check() {
      if (invalid) return { ok: false, code: invalid.code, message: invalid.message };
      return checkDirectory(config.path);
    },
    async discover(signal) {
      const { layout, format } = ready();
      return discoverDatasets(layout, format, context, signal);
    },
    async *read(request, signal) {
      const { layout, format } = ready();
      yield* readDataset(layout, format, request, signal);
    },
    async write(request, batches, signal) {
      const { layout, format } = ready();
      return writeDataset(layout, format, request, batches, signal);
    },
    async close() {},
  };
}

export const filesConnector: ConnectorDefinition<FilesConfig> = {
  kind: 'files',
  title: 'Files (local directory)',
  version: 1,
  spec: filesSpec as unknown as ConnectorDefinition['spec'],
  capabilities: { read: true, write: true, writeModes: ['append', 'overwrite'] },
  async open(config, context) {
    return openFiles(config, context);
  },
};
