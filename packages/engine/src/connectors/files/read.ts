/**
 * Reads a dataset (its base file and run files, in write order) in batches of `batchSize` rows,
 * holding about one batch in memory (a JSON array file is the exception: it is parsed whole).
 *
 * Incremental reads filter rows whose cursor is greater than `after`: numbers and int64/decimal
 * digits compare as numbers, everything else as strings (ISO dates and UTC timestamps sort as text).
 * Files have no index: every file is scanned fully, and rows come in file order, not cursor order,
 * so the new cursor is the greatest value seen, not the last one.
 */
import {
  ConnectorError,
  type CanonicalType,
  type ColumnSchema,
  type ReadRequest,
  type RecordBatch,
  type Value,
} from '../../types.js';
import { classify } from './errors.js';
import { throwIfAborted, type FileFormat } from './formats/format.js';
import type { DirectoryLayout } from './layout.js';
import { compareDecimal } from './values.js';

const DEFAULT_BATCH = 10_000;

/** Orders two cursor values of a column of `type`; null when they do not compare. */
export function compareCursor(type: CanonicalType, a: Value | undefined, b: Value | undefined): number | null {
  if (a === null || a === undefined || b === null || b === undefined) return null;
  if (type === 'int64' || type === 'decimal') return compareDecimal(String(a), String(b));
  if (typeof a === 'number' || typeof b === 'number') {
    const [x, y] = [Number(a), Number(b)];
    return Number.isNaN(x) || Number.isNaN(y) ? null : x - y;
  }
  const [x, y] = [String(a), String(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

export function requireDatasetRef(namespace: string | null | undefined): void {
  if (namespace !== null && namespace !== undefined && namespace !== '') {
    throw new ConnectorError(
      'invalid_config',
      'the files connector has no namespaces: datasets are the files of one directory',
      false,
    );
  }
}

export async function* readDataset(
  layout: DirectoryLayout,
  format: FileFormat,
  request: ReadRequest,
  signal?: AbortSignal,
): AsyncIterable<RecordBatch> {
  requireDatasetRef(request.dataset.namespace);
  const name = request.dataset.name;
  const batchSize = request.batchSize && request.batchSize > 0 ? request.batchSize : DEFAULT_BATCH;
  let files: string[];
  let columns: ColumnSchema[];
  try {
    files = await layout.datasetFiles(name);
    if (files.length === 0) throw new ConnectorError('not_found', `no dataset "${name}" in ${layout.dir}`, false);
    ({ columns } = await format.describe(layout.store, files, signal));
  } catch (error) {
    throw classify(error, `dataset "${name}"`);
  }

  const byName = new Map(columns.map((c) => [c.name, c]));
  const lookup = (column: string): ColumnSchema => {
    const found = byName.get(column);
    if (!found) throw new ConnectorError('schema_mismatch', `dataset "${name}" has no column "${column}"`, false);
    return found;
  };
  const output = request.columns?.length ? request.columns.map(lookup) : columns;
  const cursor = request.incremental ? lookup(request.incremental.cursorColumn) : undefined;
  const after = request.incremental?.after;
  // Rows are read with the output columns, plus the cursor when it is not one of them.
  const readColumns = cursor && !output.includes(cursor) ? [...output, cursor] : output;
  const cursorAt = cursor ? readColumns.indexOf(cursor) : -1;
  const keep = (row: Value[]): boolean =>
    after === undefined || after === null || !cursor
      ? true
      : (compareCursor(cursor.type, row[cursorAt], after) ?? 0) > 0;
  const project = readColumns === output ? (row: Value[]) => row : (row: Value[]) => row.slice(0, output.length);

  let pending: Value[][] = [];
  for (const file of files) {
    try {
      for await (const chunk of format.rows(layout.store, file, readColumns, batchSize, signal)) {
        for (const row of chunk) if (keep(row)) pending.push(project(row));
        while (pending.length >= batchSize) {
          throwIfAborted(signal);
          yield { columns: output, rows: pending.slice(0, batchSize) };
          pending = pending.slice(batchSize);
        }
      }
    } catch (error) {
      throw classify(error, `dataset "${name}"`);
    }
  }
  if (pending.length > 0) yield { columns: output, rows: pending };
}
