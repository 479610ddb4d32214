/** The catalog: datasets and columns that discovery found, per connector (richer metadata comes later). */
import type { DatasetSchema } from '@svc/engine';
import type { Principal } from '../../../platform/authn.js';
import { resourceGuard, type Authorize, type VisibleProjects } from '../../../platform/authz.js';
import type { Db } from '../../../platform/db/index.js';
import type { CatalogRepository, ColumnRow, DatasetRow } from './repository.js';
import { DATASET } from '../errors.js';
import type { LineageService } from '../lineage/service.js';

const presentDataset = (d: DatasetRow) => ({
  id: d.id,
  connector_id: d.connector_id,
  project_id: d.project_id,
  namespace: d.namespace,
  name: d.name,
  primary_key: d.primary_key,
  row_estimate: d.row_estimate === null ? null : Number(d.row_estimate),
  discovered_at: d.discovered_at.toISOString(),
});
const presentColumn = (c: ColumnRow) => ({
  position: c.position,
  name: c.name,
  type: c.type,
  source_type: c.source_type,
  nullable: c.nullable,
  precision: c.precision,
  scale: c.scale,
});

export type CatalogService = ReturnType<typeof createCatalogService>;

export function createCatalogService(deps: {
  db: Db;
  repository: CatalogRepository;
  authorize: Authorize;
  visibleProjects: VisibleProjects;
  lineage: LineageService;
}) {
  const { db, repository } = deps;
  // One check for a dataset and the list of datasets.
  const guard = resourceGuard(deps, DATASET, (id) => repository.findDataset(db, id), {
    capabilities: ['catalog:read', 'catalog:write'],
  });
  return {
    /** Replaces what the catalog knows of a connector with a fresh discovery, in one transaction. */
    async recordDiscovery(trx: Db, connector: { id: string; project_id: string }, datasets: DatasetSchema[]) {
      const kept: string[] = [];
      for (const dataset of datasets) {
        const { id } = await repository.upsertDataset(trx, {
          connector_id: connector.id,
          project_id: connector.project_id,
          namespace: dataset.namespace,
          name: dataset.name,
          primary_key: dataset.primaryKey,
          row_estimate: dataset.rowEstimate,
        });
        kept.push(id);
        await repository.replaceColumns(
          trx,
          id,
          dataset.columns.map((c, position) => ({
            position,
            name: c.name,
            type: c.type,
            source_type: c.sourceType,
            nullable: c.nullable,
            precision: c.precision ?? null,
            scale: c.scale ?? null,
          })),
        );
      }
      await repository.deleteDatasetsExcept(trx, connector.id, kept);
    },

    async listDatasets(principal: Principal, filter: { connectorId?: string; projectId?: string }) {
      const projectIds = await guard.scope(principal, 'catalog:read', filter.projectId);
      return (await repository.listDatasets(db, { connectorId: filter.connectorId, projectIds })).map(presentDataset);
    },

    async getDataset(principal: Principal, id: string) {
      const dataset = await guard.find(principal, id, 'catalog:read');
      return { ...presentDataset(dataset), columns: (await repository.columnsOf(db, id)).map(presentColumn) };
    },
  };
}
