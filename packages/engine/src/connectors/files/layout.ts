/**
 * Which files of the base directory form which dataset.
 *
 * A file matching the pattern is `<stem><ext>`; the dataset `<name>` is `<name><ext>` plus the run
 * files `<name>-<anything><ext>` that appends write. In a listing, a stem joins the shortest other
 * stem it extends with '-' (so `orders-run1` joins `orders` when `orders.csv` exists; appends
 * always create that base file, empty if need be). Reading `<name>` takes `<name><ext>` and every
 * `<name>-*<ext>`, which is the same grouping. The flip side: a file `orders-2023.csv` next to
 * `orders.csv` is read as part of `orders`.
 *
 * Names never leave the directory: no separators, no '..', nothing hidden.
 */
import { extname } from 'node:path';
import { ConnectorError } from '../../types.js';
import type { FileStore } from './store.js';

export type FormatName = 'csv' | 'tsv' | 'json' | 'ndjson' | 'parquet';
export const FORMATS: readonly FormatName[] = ['csv', 'tsv', 'json', 'ndjson', 'parquet'];

/** Rejects a dataset name or run id that could point outside the directory or hide a file. */
export function checkName(name: string, what: 'dataset name' | 'run id'): void {
  if (
    !name ||
    name.includes('/') ||
    name.includes('\\') ||
    name.includes('..') ||
    name.includes('\0') ||
    name.startsWith('.')
  ) {
    throw new ConnectorError(
      'invalid_config',
      `invalid ${what} "${name}": it must not be empty, start with '.', or contain '/', '\\' or '..'`,
      false,
    );
  }
}

function globToRegExp(pattern: string): RegExp {
  const source = pattern
    .split('')
    .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[\\^$.+()[\]{}|]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

export interface DataFile {
  name: string;
  path: string;
  stem: string;
  mtimeMs: number;
}

export class DirectoryLayout {
  /** The extension written files get: the pattern's when it names one, else the format's. */
  readonly extension: string;
  private readonly matcher: RegExp;

  constructor(
    readonly store: FileStore,
    readonly dir: string,
    format: FormatName,
    pattern = '*',
  ) {
    const effective = pattern === '*' ? `*.${format}` : pattern;
    const ext = extname(effective);
    this.extension = ext && !/[*?]/.test(ext) ? ext : `.${format}`;
    this.matcher = globToRegExp(effective);
  }

  matches(fileName: string): boolean {
    return !fileName.startsWith('.') && this.matcher.test(fileName);
  }

  private stemOf(fileName: string): string {
    const ext = extname(fileName);
    return ext ? fileName.slice(0, -ext.length) : fileName;
  }

  /**
   * Matching regular files, oldest first (then by name), so appended runs read in the order they
   * were written. SFTP times have whole seconds: runs written within one second go by name.
   */
  async files(): Promise<DataFile[]> {
    const entries = await this.store.list(this.dir, (name) => this.matches(name));
    const files: DataFile[] = entries
      .filter((entry) => entry.isFile)
      .map((entry) => ({
        name: entry.name,
        path: this.store.join(this.dir, entry.name),
        stem: this.stemOf(entry.name),
        mtimeMs: entry.mtimeMs,
      }));
    return files.sort((a, b) => a.mtimeMs - b.mtimeMs || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Every dataset and its files: the base file first, then run files in write order. */
  async datasets(): Promise<Map<string, string[]>> {
    const files = await this.files();
    const stems = new Set(files.map((f) => f.stem));
    const owner = (stem: string): string => {
      for (let at = stem.indexOf('-'); at > 0; at = stem.indexOf('-', at + 1)) {
        if (stems.has(stem.slice(0, at))) return stem.slice(0, at);
      }
      return stem;
    };
    const datasets = new Map<string, DataFile[]>();
    for (const file of files) {
      const name = owner(file.stem);
      datasets.set(name, [...(datasets.get(name) ?? []), file]);
    }
    return new Map(
      [...datasets].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, group]) => [name, ordered(name, group)]),
    );
  }

  /** The files of one dataset; empty when it has none. */
  async datasetFiles(name: string): Promise<string[]> {
    checkName(name, 'dataset name');
    return ordered(
      name,
      (await this.files()).filter((f) => f.stem === name || f.stem.startsWith(`${name}-`)),
    );
  }

  baseFile(name: string): string {
    checkName(name, 'dataset name');
    return this.inside(`${name}${this.extension}`);
  }

  runFile(name: string, runId: string): string {
    checkName(name, 'dataset name');
    checkName(runId, 'run id');
    return this.inside(`${name}-${runId}${this.extension}`);
  }

  private inside(fileName: string): string {
    if (!this.matches(fileName)) {
      throw new ConnectorError(
        'invalid_config',
        `the file name "${fileName}" does not match the pattern of this connector, so it could not be read back`,
        false,
      );
    }
    return this.store.join(this.dir, fileName);
  }
}

function ordered(name: string, files: DataFile[]): string[] {
  return [...files.filter((f) => f.stem === name), ...files.filter((f) => f.stem !== name)].map((f) => f.path);
}
