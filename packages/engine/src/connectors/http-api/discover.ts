/** Datasets are the endpoints; their columns come from the first records of the first page (its first chunk: at most 1,000 records). */
import type { DatasetSchema } from '../../types.js';
import { inferColumns } from './infer.js';
import { fetchPages } from './pagination.js';
import type { ReadContext } from './read.js';

export async function discoverEndpoints(context: ReadContext, signal?: AbortSignal): Promise<DatasetSchema[]> {
  const datasets: DatasetSchema[] = [];
  for (const endpoint of context.config.endpoints) {
    let records: unknown[] = [];
    for await (const page of fetchPages(context.client, context.config, endpoint, context.log, {}, signal)) {
      for await (const chunk of page.records) {
        records = chunk;
        break;
      }
      break;
    }
    const columns = inferColumns(records);
    // An empty first page says nothing: a read infers again from the first records it gets.
    if (columns.length > 0) context.schemas.set(endpoint.name, columns);
    datasets.push({
      namespace: null,
      name: endpoint.name,
      columns,
      primaryKey: endpoint.primaryKey,
      rowEstimate: null,
    });
  }
  return datasets;
}
