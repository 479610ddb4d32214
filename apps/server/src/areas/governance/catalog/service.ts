/**
 * The catalog: datasets and columns that discovery found, per connector, with what users add to them
 * (descriptions, owners and tags on datasets; descriptions and tags on columns), tags a classifier
 * suggests for personal data (by column name at discovery, by a sample of values on request), and
 * each dataset's freshness from the last run that wrote it (lineage).
 */
import type { DatasetSchema, Value } from '@svc/engine';
import type { Principal } from '../../../platform/authn.js';
import { resourceGuard, type Authorize, type VisibleProjects } from '../../../platform/authz.js';
import type { Db } from '../../../platform/db/index.js';
import { validationFailed } from '../../../platform/errors/index.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { AuditService } from '../../audit/service.js';
import { DATASET } from '../errors.js';
import type { LineageService } from '../lineage/service.js';
import { tagsByName, tagsByValues } from './classifier.js';
import type { CatalogRepository, ColumnNoteRow, ColumnRow, DatasetRow, DatasetSearch } from './repository.js';

/** Reads a sample of a connector's dataset (set once connectivity exists: it is created after governance). */
export type Sampler = (
  dataset: { connectorId: string; namespace: string | null; name: string },
  rows: number,
) => Promise<{ columns: string[]; rows: Value[][] }>;

export const SAMPLE_ROWS = 200;

interface Freshness {
  last_written_at: string | null;
  last_row_count: number | null;
}

const presentDataset = (d: DatasetRow, freshness: Freshness) => ({
  id: d.id,
  connector_id: d.connector_id,
  project_id: d.project_id,
  namespace: d.namespace,
  name: d.name,
  primary_key: d.primary_key,
  row_estimate: d.row_estimate === null ? null : Number(d.row_estimate),
  discovered_at: d.discovered_at.toISOString(),
  description: d.description,
  owners: d.owners,
  tags: d.tags,
  ...freshness,
});
const presentColumn = (c: ColumnRow, note: ColumnNoteRow | undefined) => ({
  position: c.position,
  name: c.name,
  type: c.type,
  source_type: c.source_type,
  nullable: c.nullable,
  precision: c.precision,
  scale: c.scale,
  description: note?.description ?? null,
  tags: note?.tags ?? [],
  suggested_tags: note?.suggested_tags ?? [],
});

const unique = (values: string[]) => [...new Set(values)];
const without = (values: string[], gone: string[]) => values.filter((v) => !gone.includes(v));

export interface DatasetPatch {
  description?: string | null;
  owners?: string[];
  tags?: string[];
}
export interface ColumnPatch {
  description?: string | null;
  /** The column's tags (a suggested tag given here is confirmed). */
  tags?: string[];
  /** Suggested tags the user turned down: never suggested again for this column. */
  dismiss?: string[];
}

export type CatalogService = ReturnType<typeof createCatalogService>;

export function createCatalogService(deps: {
  db: Db;
  repository: CatalogRepository;
  authorize: Authorize;
  visibleProjects: VisibleProjects;
  lineage: LineageService;
  audit: AuditService;
}) {
  const { db, repository } = deps;
  let sampler: Sampler | undefined;
  // One check for a dataset and the list of datasets.
  const guard = resourceGuard(deps, DATASET, (id) => repository.findDataset(db, id), {
    capabilities: ['catalog:read', 'catalog:write'],
  });

  const freshnessOf = async (rows: DatasetRow[]) => {
    const writes = await deps.lineage.lastWrites(unique(rows.map((r) => r.connector_id)));
    return (d: DatasetRow): Freshness => {
      // A run names its output as the connector's (schema or folder, or none: the connector's own).
      const write = writes
        .filter(
          (w) =>
            w.connector_id === d.connector_id &&
            w.source_name === d.name &&
            (w.source_namespace === null || w.source_namespace === d.namespace),
        )
        .sort((a, b) => b.recorded_at.getTime() - a.recorded_at.getTime())[0];
      return {
        last_written_at: write?.recorded_at.toISOString() ?? null,
        last_row_count: write?.row_count === null || write?.row_count === undefined ? null : Number(write.row_count),
      };
    };
  };

  /** Adds suggestions to a column's notes, leaving out the tags it has and the ones dismissed. */
  const suggest = async (trx: Db, datasetId: string, column: string, tags: string[], note?: ColumnNoteRow) => {
    if (!tags.length) return;
    const fresh = without(tags, [...(note?.tags ?? []), ...(note?.dismissed_tags ?? [])]);
    const merged = unique([...(note?.suggested_tags ?? []), ...fresh]);
    if (merged.length !== (note?.suggested_tags ?? []).length)
      await repository.upsertNote(trx, datasetId, column, { suggested_tags: merged });
  };

  const detail = async (dataset: DatasetRow) => {
    const [columns, notes, freshness] = await Promise.all([
      repository.columnsOf(db, dataset.id),
      repository.notesOf(db, dataset.id),
      freshnessOf([dataset]),
    ]);
    const byName = new Map(notes.map((n) => [n.column_name, n]));
    return {
      ...presentDataset(dataset, freshness(dataset)),
      columns: columns.map((c) => presentColumn(c, byName.get(c.name))),
    };
  };

  return {
    /** How a sample of a dataset is read (connectivity's): set once, at startup. */
    useSampler(fn: Sampler) {
      sampler = fn;
    },

    /**
     * Replaces what the catalog knows of a connector with a fresh discovery, in one transaction. What
     * users wrote is kept (by dataset and column name); column names that look like personal data
     * get their tags suggested.
     */
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
        const notes = new Map((await repository.notesOf(trx, id)).map((n) => [n.column_name, n]));
        for (const column of dataset.columns)
          await suggest(trx, id, column.name, tagsByName(column.name), notes.get(column.name));
      }
      await repository.deleteDatasetsExcept(trx, connector.id, kept);
    },

    async listDatasets(principal: Principal, filter: Omit<DatasetSearch, 'projectIds'> & { projectId?: string }) {
      const projectIds = await guard.scope(principal, 'catalog:read', filter.projectId);
      const rows = await repository.listDatasets(db, { ...filter, projectIds });
      const freshness = await freshnessOf(rows);
      return rows.map((row) => presentDataset(row, freshness(row)));
    },

    async getDataset(principal: Principal, id: string) {
      return detail(await guard.find(principal, id, 'catalog:read'));
    },

    /** A dataset's description, owners and tags (catalog:write). */
    async updateDataset(principal: Principal, id: string, patch: DatasetPatch, context: RequestContext) {
      const dataset = await guard.find(principal, id, 'catalog:write');
      const changed = await db.transaction().execute(async (trx) => {
        const row = await repository.setDatasetMeta(trx, id, {
          ...(patch.description !== undefined ? { description: patch.description } : {}),
          ...(patch.owners ? { owners: unique(patch.owners) } : {}),
          ...(patch.tags ? { tags: unique(patch.tags) } : {}),
        });
        await deps.audit.record(
          context,
          {
            kind: 'catalog_dataset_updated',
            target: { type: 'catalog_dataset', id },
            details: { fields: Object.keys(patch) },
          },
          trx,
        );
        return row ?? dataset;
      });
      return detail(changed);
    },

    /** A column's description and tags; confirming a suggested tag is giving it in `tags` (catalog:write). */
    async updateColumn(principal: Principal, id: string, column: string, patch: ColumnPatch, context: RequestContext) {
      const dataset = await guard.find(principal, id, 'catalog:write');
      const columns = await repository.columnsOf(db, id);
      if (!columns.some((c) => c.name === column))
        throw validationFailed([{ path: 'column', message: `the dataset has no column "${column}"` }]);
      const note = (await repository.notesOf(db, id)).find((n) => n.column_name === column);
      const tags = patch.tags ? unique(patch.tags) : (note?.tags ?? []);
      const dismissed = unique([...(note?.dismissed_tags ?? []), ...(patch.dismiss ?? [])]);
      await db.transaction().execute(async (trx) => {
        await repository.upsertNote(trx, id, column, {
          ...(patch.description !== undefined ? { description: patch.description } : {}),
          tags,
          dismissed_tags: without(dismissed, tags),
          suggested_tags: without(note?.suggested_tags ?? [], [...tags, ...dismissed]),
        });
        await deps.audit.record(
          context,
          {
            kind: 'catalog_column_updated',
            target: { type: 'catalog_dataset', id },
            details: { column, fields: Object.keys(patch) },
          },
          trx,
        );
      });
      return detail(dataset);
    },

    /**
     * Reads a sample of the dataset (SAMPLE_ROWS rows, through its connector) and suggests tags for
     * the columns whose values look like personal data (catalog:write). The values are not kept.
     */
    async classify(principal: Principal, id: string) {
      const dataset = await guard.find(principal, id, 'catalog:write');
      if (!sampler) throw validationFailed([{ path: 'id', message: 'no sampler is available' }]);
      const sample = await sampler(
        { connectorId: dataset.connector_id, namespace: dataset.namespace, name: dataset.name },
        SAMPLE_ROWS,
      );
      await db.transaction().execute(async (trx) => {
        const notes = new Map((await repository.notesOf(trx, id)).map((n) => [n.column_name, n]));
        for (const [index, column] of sample.columns.entries()) {
          const tags = unique([...tagsByValues(sample.rows.map((row) => row[index])), ...tagsByName(column)]);
          await suggest(trx, id, column, tags, notes.get(column));
        }
      });
      return { ...(await detail(dataset)), sampled_rows: sample.rows.length };
    },

    /**
     * The confirmed tags of all the project's datasets, by dataset name then column name; datasets of
     * the same name (in several connectors or namespaces) add up (masked warehouse views by tag).
     */
    async projectColumnTags(projectId: string): Promise<Map<string, Map<string, string[]>>> {
      const byDataset = new Map<string, Map<string, string[]>>();
      for (const row of await repository.tagsOfProject(db, projectId)) {
        let columns = byDataset.get(row.dataset);
        if (!columns) byDataset.set(row.dataset, (columns = new Map()));
        columns.set(row.column_name, [...new Set([...(columns.get(row.column_name) ?? []), ...row.tags])]);
      }
      return byDataset;
    },

    /** The confirmed tags of a connector dataset's columns, by column name (masking policies by tag). */
    async columnTags(connectorId: string, namespace: string | null, name: string): Promise<Map<string, string[]>> {
      // Without a namespace, every namespace's dataset of that name counts: their tags add up.
      const tags = new Map<string, string[]>();
      for (const row of await repository.tagsOfDataset(db, connectorId, namespace, name))
        if (row.tags.length)
          tags.set(row.column_name, [...new Set([...(tags.get(row.column_name) ?? []), ...row.tags])]);
      return tags;
    },
  };
}
