/** Lists the datasets of the directory with their columns; a file that cannot be read is skipped with a warning. */
import type { ConnectorContext, DatasetSchema } from '../../types.js';
import { classify } from './errors.js';
import { throwIfAborted, type FileFormat } from './formats/format.js';
import type { DirectoryLayout } from './layout.js';

export async function discoverDatasets(
  layout: DirectoryLayout,
  format: FileFormat,
  context: ConnectorContext,
  signal?: AbortSignal,
): Promise<DatasetSchema[]> {
  let datasets: Map<string, string[]>;
  try {
    datasets = await layout.datasets();
  } catch (error) {
    throw classify(error, layout.dir);
  }
  const schemas: DatasetSchema[] = [];
  for (const [name, files] of datasets) {
    throwIfAborted(signal);
    try {
      const { columns, rowEstimate } = await format.describe(layout.store, files, signal);
      schemas.push({ namespace: null, name, columns, primaryKey: [], rowEstimate });
    } catch (error) {
      if (signal?.aborted) throw error;
      context.log('warn', 'skipping a dataset whose files cannot be read', {
        dataset: name,
        error: classify(error, name).message,
      });
    }
  }
  return schemas;
}
