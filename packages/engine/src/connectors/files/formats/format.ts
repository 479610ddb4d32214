/** What each file format provides to the dataset-level read, discover and write. */
import type { ColumnSchema, Value } from '../../../types.js';

export interface DatasetDescription {
  columns: ColumnSchema[];
  /** Exact for Parquet (row counts in the footers), null for text formats. */
  rowEstimate: number | null;
}

export interface FileFormat {
  /** Columns of the dataset formed by these files (the union by name, first-seen order). */
  describe(files: readonly string[], signal?: AbortSignal): Promise<DatasetDescription>;
  /** Rows of one file in chunks, each row aligned on `columns` (from describe) in canonical values. */
  rows(file: string, columns: readonly ColumnSchema[], chunkSize: number, signal?: AbortSignal): AsyncIterable<Value[][]>;
  /** Writes a complete file at `target` (a temporary name: the caller renames it into place). */
  write(target: string, columns: readonly ColumnSchema[], chunks: AsyncIterable<Value[][]>): Promise<void>;
}

export function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw signal.reason ?? new Error('aborted');
}
