/**
 * Writes a dataset. Every file is written under a hidden temporary name in the same directory and
 * renamed into place (FileStore.writeFile), so readers never see half a file and a failed write
 * leaves nothing behind.
 *
 * append: a new file `<dataset>-<runId><ext>` per run. A retry of the same run replaces its own
 *   file instead of adding its rows twice. The base file `<dataset><ext>` is created empty (header
 *   or schema only) when missing, so that the run files list as one dataset (layout.ts).
 * overwrite: `<dataset><ext>` replaced by one rename, then the dataset's run files removed. A reader
 *   between the two steps may see the new rows along with old run files; never a partial file.
 * upsert: unsupported (files have no keys to match on).
 */
import {
  ConnectorError,
  type ColumnSchema,
  type RecordBatch,
  type Value,
  type WriteRequest,
  type WriteSummary,
} from '../../types.js';
import { classify, errorCode } from './errors.js';
import { throwIfAborted, type FileFormat } from './formats/format.js';
import type { DirectoryLayout } from './layout.js';
import { requireDatasetRef } from './read.js';

/** Batches as rows in the order of the request's columns (batches may order them differently). */
async function* inRequestOrder(
  columns: readonly ColumnSchema[],
  batches: AsyncIterable<RecordBatch>,
  counter: { rows: number },
  signal?: AbortSignal,
): AsyncIterable<Value[][]> {
  for await (const batch of batches) {
    throwIfAborted(signal);
    const positions = columns.map((c) => batch.columns.findIndex((b) => b.name === c.name));
    const same = positions.length === batch.columns.length && positions.every((p, i) => p === i);
    counter.rows += batch.rows.length;
    yield same ? batch.rows : batch.rows.map((row) => positions.map((p) => (p < 0 ? null : (row[p] ?? null))));
  }
}

async function* none(): AsyncIterable<Value[][]> {}

/** Creates the empty base file unless one exists (without replacing one another writer just created). */
async function ensureBase(
  layout: DirectoryLayout,
  format: FileFormat,
  name: string,
  columns: readonly ColumnSchema[],
): Promise<void> {
  const base = layout.baseFile(name);
  if (
    await layout.store.stat(base).then(
      () => true,
      () => false,
    )
  )
    return;
  await layout.store.writeFile(base, format.encode(columns, none()), { replace: false });
}

export async function writeDataset(
  layout: DirectoryLayout,
  format: FileFormat,
  request: WriteRequest,
  batches: AsyncIterable<RecordBatch>,
  signal?: AbortSignal,
): Promise<WriteSummary> {
  requireDatasetRef(request.dataset.namespace);
  const name = request.dataset.name;
  if (request.mode !== 'append' && request.mode !== 'overwrite') {
    throw new ConnectorError(
      'unsupported',
      `the files connector cannot ${request.mode}: use append or overwrite`,
      false,
    );
  }
  if (request.columns.length === 0)
    throw new ConnectorError('schema_mismatch', 'a write needs at least one column', false);
  const names = new Set(request.columns.map((c) => c.name));
  if (names.size !== request.columns.length)
    throw new ConnectorError('schema_mismatch', 'the columns of a write must have distinct names', false);

  const counter = { rows: 0 };
  const chunks = inRequestOrder(request.columns, batches, counter, signal);
  try {
    if (request.mode === 'append') {
      const target = layout.runFile(name, request.runId);
      await ensureBase(layout, format, name, request.columns);
      await layout.store.writeFile(target, format.encode(request.columns, chunks));
    } else {
      const target = layout.baseFile(name);
      await layout.store.writeFile(target, format.encode(request.columns, chunks));
      for (const file of await layout.datasetFiles(name)) {
        if (file !== target)
          await layout.store
            .unlink(file)
            .catch((error: unknown) => (errorCode(error) === 'ENOENT' ? undefined : Promise.reject(error)));
      }
    }
  } catch (error) {
    throw classify(error, `writing dataset "${name}"`);
  }
  return { rowsWritten: counter.rows };
}
