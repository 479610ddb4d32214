import { sql, type Generated, type Selectable } from 'kysely';
import type { Db } from '../../../platform/db/index.js';

export interface CatalogDatasetsTable {
  id: Generated<string>;
  connector_id: string;
  project_id: string;
  namespace: string | null;
  name: string;
  primary_key: string[];
  row_estimate: string | null;
  discovered_at: Generated<Date>;
}

export interface CatalogColumnsTable {
  dataset_id: string;
  position: number;
  name: string;
  type: string;
  source_type: string;
  nullable: boolean;
  precision: number | null;
  scale: number | null;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    catalog_datasets: CatalogDatasetsTable;
    catalog_columns: CatalogColumnsTable;
  }
}

export type DatasetRow = Selectable<CatalogDatasetsTable>;
export type ColumnRow = Selectable<CatalogColumnsTable>;

export function createCatalogRepository() {
  return {
    async upsertDataset(
      db: Db,
      d: {
        connector_id: string;
        project_id: string;
        namespace: string | null;
        name: string;
        primary_key: string[];
        row_estimate: number | null;
      },
    ) {
      return db
        .insertInto('catalog_datasets')
        .values({ ...d, row_estimate: d.row_estimate === null ? null : String(d.row_estimate) })
        .onConflict((oc) =>
          oc.expression(sql`connector_id, coalesce(namespace, ''), name`).doUpdateSet({
            primary_key: d.primary_key,
            row_estimate: d.row_estimate === null ? null : String(d.row_estimate),
            discovered_at: sql`now()`,
          }),
        )
        .returning(['id'])
        .executeTakeFirstOrThrow();
    },
    async replaceColumns(db: Db, datasetId: string, columns: Omit<CatalogColumnsTable, 'dataset_id'>[]) {
      await db.deleteFrom('catalog_columns').where('dataset_id', '=', datasetId).execute();
      if (columns.length > 0)
        await db
          .insertInto('catalog_columns')
          .values(columns.map((c) => ({ ...c, dataset_id: datasetId })))
          .execute();
    },
    async deleteDatasetsExcept(db: Db, connectorId: string, keep: string[]) {
      let query = db.deleteFrom('catalog_datasets').where('connector_id', '=', connectorId);
      if (keep.length > 0) query = query.where('id', 'not in', keep);
      await query.execute();
    },
    listDatasets: (db: Db, filter: { connectorId?: string; projectIds: string[] | null }) => {
      let query = db.selectFrom('catalog_datasets').selectAll().orderBy('namespace').orderBy('name');
      if (filter.connectorId) query = query.where('connector_id', '=', filter.connectorId);
      if (filter.projectIds)
        query = query.where(
          'project_id',
          'in',
          filter.projectIds.length ? filter.projectIds : ['00000000-0000-0000-0000-000000000000'],
        );
      return query.execute();
    },
    findDataset: (db: Db, id: string) =>
      db.selectFrom('catalog_datasets').selectAll().where('id', '=', id).executeTakeFirst(),
    columnsOf: (db: Db, datasetId: string) =>
      db.selectFrom('catalog_columns').selectAll().where('dataset_id', '=', datasetId).orderBy('position').execute(),
  };
}

export type CatalogRepository = ReturnType<typeof createCatalogRepository>;
