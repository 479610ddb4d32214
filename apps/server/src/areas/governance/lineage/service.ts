/** Lineage: the runs of every area record here what fed what (OpenLineage export and the lineage API build on it). */
import type { Db } from '../../../platform/db/index.js';
import { createLineageRepository, type LineageEdge } from './repository.js';

export type LineageService = ReturnType<typeof createLineageService>;
export type { LineageEdge };

export function createLineageService() {
  const repository = createLineageRepository();
  return {
    /** In the transaction that commits the run's results, so that lineage never names a run that did not finish. */
    record: (trx: Db, edges: LineageEdge[]) => repository.insert(trx, edges),
  };
}
