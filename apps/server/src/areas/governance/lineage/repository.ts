/** Lineage edges: which source dataset fed which destination table in which run. Owned by governance; runs record through its service. */
import type { Generated } from 'kysely';
import type { Db } from '../../../platform/db/index.js';

export interface LineageEdgesTable {
  id: Generated<string>;
  execution_id: string;
  project_id: string;
  pipeline_id: string | null;
  source_connector_id: string;
  source_namespace: string | null;
  source_name: string;
  destination_connector_id: string;
  destination_namespace: string | null;
  destination_name: string;
  rows_written: string;
  recorded_at: Generated<Date>;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    lineage_edges: LineageEdgesTable;
  }
}

export type LineageEdge = Omit<LineageEdgesTable, 'id' | 'recorded_at'>;

export function createLineageRepository() {
  return {
    insert: async (db: Db, edges: LineageEdge[]) => {
      if (edges.length > 0) await db.insertInto('lineage_edges').values(edges).execute();
    },
  };
}
