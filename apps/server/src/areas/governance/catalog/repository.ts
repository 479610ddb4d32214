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
  description: string | null;
  owners: Generated<string[]>;
  tags: Generated<string[]>;
}

/** What users wrote of a column, and the tags the classifier suggested; kept across discoveries by name. */
export interface CatalogColumnNotesTable {
  dataset_id: string;
  column_name: string;
  description: string | null;
  tags: Generated<string[]>;
  suggested_tags: Generated<string[]>;
  dismissed_tags: Generated<string[]>;
  updated_at: Generated<Date>;
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
    catalog_column_notes: CatalogColumnNotesTable;
  }
}

export type DatasetRow = Selectable<CatalogDatasetsTable>;
export type ColumnRow = Selectable<CatalogColumnsTable>;
export type ColumnNoteRow = Selectable<CatalogColumnNotesTable>;

export interface DatasetSearch {
  connectorId?: string;
  projectIds: string[] | null;
  /** In the name, the namespace or the description (case does not matter). */
  text?: string;
  /** On the dataset or on one of its columns. */
  tag?: string;
  /** A column of this name (case does not matter). */
  column?: string;
}

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
    listDatasets: (db: Db, filter: DatasetSearch) => {
      let query = db.selectFrom('catalog_datasets as d').selectAll('d').orderBy('d.namespace').orderBy('d.name');
      if (filter.connectorId) query = query.where('d.connector_id', '=', filter.connectorId);
      if (filter.text) {
        const like = `%${filter.text.replace(/[\\%_]/g, '\\$&')}%`;
        query = query.where((eb) =>
          eb.or([eb('d.name', 'ilike', like), eb('d.namespace', 'ilike', like), eb('d.description', 'ilike', like)]),
        );
      }
      if (filter.tag) {
        const tag = filter.tag;
        query = query.where((eb) =>
          eb.or([
            eb(sql.val(tag), '=', eb.fn.any('d.tags')),
            eb.exists(
              eb
                .selectFrom('catalog_column_notes as n')
                .select(sql.lit(1).as('one'))
                .whereRef('n.dataset_id', '=', 'd.id')
                .where(sql<boolean>`${tag} = any(n.tags)`),
            ),
          ]),
        );
      }
      if (filter.column) {
        const column = filter.column.toLowerCase();
        query = query.where((eb) =>
          eb.exists(
            eb
              .selectFrom('catalog_columns as c')
              .select(sql.lit(1).as('one'))
              .whereRef('c.dataset_id', '=', 'd.id')
              .where(sql<boolean>`lower(c.name) = ${column}`),
          ),
        );
      }
      if (filter.projectIds)
        query = query.where(
          'd.project_id',
          'in',
          filter.projectIds.length ? filter.projectIds : ['00000000-0000-0000-0000-000000000000'],
        );
      return query.execute();
    },
    findDataset: (db: Db, id: string) =>
      db.selectFrom('catalog_datasets').selectAll().where('id', '=', id).executeTakeFirst(),
    setDatasetMeta: (db: Db, id: string, meta: { description?: string | null; owners?: string[]; tags?: string[] }) =>
      db.updateTable('catalog_datasets').set(meta).where('id', '=', id).returningAll().executeTakeFirst(),
    notesOf: (db: Db, datasetId: string) =>
      db.selectFrom('catalog_column_notes').selectAll().where('dataset_id', '=', datasetId).execute(),
    /** Notes of the columns of a connector's dataset, by column name (for masking by tag). */
    tagsOfDataset: (db: Db, connectorId: string, namespace: string | null, name: string) =>
      db
        .selectFrom('catalog_column_notes as n')
        .innerJoin('catalog_datasets as d', 'd.id', 'n.dataset_id')
        .select(['n.column_name', 'n.tags'])
        .where('d.connector_id', '=', connectorId)
        .where(sql<boolean>`coalesce(d.namespace, '') = coalesce(${namespace}, coalesce(d.namespace, ''))`)
        .where('d.name', '=', name)
        .execute(),
    /** The confirmed tags of every column of a project's datasets that has some. */
    tagsOfProject: (db: Db, projectId: string) =>
      db
        .selectFrom('catalog_column_notes as n')
        .innerJoin('catalog_datasets as d', 'd.id', 'n.dataset_id')
        .select(['d.name as dataset', 'n.column_name', 'n.tags'])
        .where('d.project_id', '=', projectId)
        .where(sql<boolean>`cardinality(n.tags) > 0`)
        .execute(),
    upsertNote: (
      db: Db,
      datasetId: string,
      column: string,
      changes: { description?: string | null; tags?: string[]; suggested_tags?: string[]; dismissed_tags?: string[] },
    ) =>
      db
        .insertInto('catalog_column_notes')
        .values({ dataset_id: datasetId, column_name: column, description: null, ...changes })
        .onConflict((oc) =>
          oc.columns(['dataset_id', 'column_name']).doUpdateSet({ ...changes, updated_at: sql`now()` }),
        )
        .returningAll()
        .executeTakeFirstOrThrow(),
    columnsOf: (db: Db, datasetId: string) =>
      db.selectFrom('catalog_columns').selectAll().where('dataset_id', '=', datasetId).orderBy('position').execute(),
  };
}

export type CatalogRepository = ReturnType<typeof createCatalogRepository>;
