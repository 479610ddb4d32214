/**
 * The fast path of a CSV or TSV dataset: the file's own bytes, streamed as they are to a destination
 * that parses CSV itself (PostgreSQL's `COPY ... FROM STDIN (FORMAT csv, DELIMITER .., HEADER)`),
 * which checks every value against the inferred columns; no value is decoded in process.
 *
 * Taken only when the destination's parse gives the values the batch path gives. It is declined
 * (undefined: the caller reads batches instead) for a dataset of several files (each has its own
 * header), a file without a header, a single column (COPY reads a blank line as a null row, the
 * batch path skips it), and when the sampled rows hold something the two parsers treat apart:
 * a record with another number of fields, a quoted empty field in a non-text column (null in
 * process, an error in COPY), a time with more than six fraction digits (truncated in process,
 * rounded by PostgreSQL). A value past the sample that the server refuses fails the COPY with its
 * line number; the caller may then read batches.
 */
import type { BulkStream, ColumnSchema, ReadRequest } from '../../types.js';
import { SAMPLE_ROWS } from './infer.js';
import { csvSource } from './formats/csv.js';
import type { FileFormat } from './formats/format.js';
import type { DirectoryLayout } from './layout.js';
import { requireDatasetRef } from './read.js';

const TEMPORAL = new Set(['time', 'timestamp', 'timestamptz']);
const LONG_FRACTION = /\.\d{7,}/;

export async function exportCsv(
  layout: DirectoryLayout,
  format: FileFormat,
  csv: { delimiter: string; header: boolean },
  request: Omit<ReadRequest, 'batchSize' | 'range'>,
  signal?: AbortSignal,
): Promise<BulkStream | undefined> {
  requireDatasetRef(request.dataset.namespace);
  if (!csv.header || request.columns?.length || request.incremental || request.query || request.select)
    return undefined;
  const files = await layout.datasetFiles(request.dataset.name);
  if (files.length !== 1) return undefined;
  const file = files[0]!;
  const { columns } = await format.describe(layout.store, files, signal);
  if (columns.length < 2 || !(await sampleAgrees(layout, file, csv, columns))) return undefined;
  return { format: 'csv', csv, columns, stream: layout.store.readStream(file) };
}

async function sampleAgrees(
  layout: DirectoryLayout,
  file: string,
  csv: { delimiter: string; header: boolean },
  columns: ColumnSchema[],
): Promise<boolean> {
  let header: readonly string[] | undefined;
  let sampled = 0;
  for await (const record of csvSource(csv).records(layout.store, file, (names) => (header = names))) {
    if ('object' in record) return false;
    if (record.values.length !== columns.length || record.keys !== header) return false;
    for (let i = 0; i < columns.length; i++) {
      const value = record.values[i];
      const { type } = columns[i]!;
      if (value === '' && type !== 'string') return false;
      if (TEMPORAL.has(type) && typeof value === 'string' && LONG_FRACTION.test(value)) return false;
    }
    if (++sampled >= SAMPLE_ROWS) break;
  }
  // Columns in the header's order: COPY fills them by position.
  return !!header && header.length === columns.length && header.every((name, i) => name === columns[i]!.name);
}
