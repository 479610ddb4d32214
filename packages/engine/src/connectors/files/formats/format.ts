/** What each file format provides to the dataset-level read, discover and write. */
import type { Readable } from 'node:stream';
import type { ColumnSchema, Value } from '../../../types.js';
import type { FileStore } from '../store.js';

export interface DatasetDescription {
  columns: ColumnSchema[];
  /** Exact for Parquet (row counts in the footers), null for text formats. */
  rowEstimate: number | null;
}

export interface FileFormat {
  /** Columns of the dataset formed by these files (the union by name, first-seen order). */
  describe(store: FileStore, files: readonly string[], signal?: AbortSignal): Promise<DatasetDescription>;
  /** Rows of one file in chunks, each row aligned on `columns` (from describe) in canonical values. */
  rows(
    store: FileStore,
    file: string,
    columns: readonly ColumnSchema[],
    chunkSize: number,
    signal?: AbortSignal,
  ): AsyncIterable<Value[][]>;
  /** The bytes of a complete file holding these rows; the store writes them (through a temporary name). A failing source fails the stream. */
  encode(columns: readonly ColumnSchema[], chunks: AsyncIterable<Value[][]>): Readable;
}

export function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
}
