/**
 * Lineage tables, owned by governance; runs record through its service. `lineage_edges` is the
 * connector-level feed (source dataset to destination table per run); the OpenLineage model keeps
 * datasets and jobs per project, what each run read and wrote (with column lineage), and the RunEvents.
 */
import { sql, type Generated, type Selectable } from 'kysely';
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

export interface LineageDatasetsTable {
  id: Generated<string>;
  project_id: string;
  namespace: string;
  name: string;
  connector_id: string | null;
  source_namespace: string | null;
  source_name: string | null;
  created_at: Generated<Date>;
}

export interface LineageJobsTable {
  id: Generated<string>;
  project_id: string;
  namespace: string;
  name: string;
  kind: string;
  item_id: string | null;
  created_at: Generated<Date>;
}

export interface LineageRunIoTable {
  run_id: string;
  project_id: string;
  job_id: string;
  dataset_id: string;
  direction: 'input' | 'output';
  fields: unknown;
  column_lineage: unknown;
  row_count: string | null;
  recorded_at: Generated<Date>;
}

export interface LineageEventsTable {
  id: Generated<string>;
  project_id: string;
  run_id: string;
  job_id: string;
  event_type: string;
  event_time: Date;
  event: unknown;
  forwarded_at: Date | null;
  created_at: Generated<Date>;
}

export interface LineageForwardingTable {
  id: Generated<boolean>;
  enabled: boolean;
  url: string | null;
  api_key: string | null;
  last_error: string | null;
  last_error_at: Date | null;
  last_forwarded_at: Date | null;
  updated_at: Generated<Date>;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    lineage_edges: LineageEdgesTable;
    lineage_datasets: LineageDatasetsTable;
    lineage_jobs: LineageJobsTable;
    lineage_run_io: LineageRunIoTable;
    lineage_events: LineageEventsTable;
    lineage_forwarding: LineageForwardingTable;
  }
}

export type LineageEdge = Omit<LineageEdgesTable, 'id' | 'recorded_at'>;
export type DatasetNodeRow = Selectable<LineageDatasetsTable>;
export type JobNodeRow = Selectable<LineageJobsTable>;
export type RunIoRow = Selectable<LineageRunIoTable>;
export type EventRow = Selectable<LineageEventsTable>;

const NO_PROJECT = ['00000000-0000-0000-0000-000000000000'];
const inProjects = (projectIds: string[] | null) => (projectIds && projectIds.length === 0 ? NO_PROJECT : projectIds);

export function createLineageRepository() {
  return {
    insert: async (db: Db, edges: LineageEdge[]) => {
      if (edges.length > 0) await db.insertInto('lineage_edges').values(edges).execute();
    },
    upsertDataset: (db: Db, d: Omit<LineageDatasetsTable, 'id' | 'created_at'>): Promise<{ id: string }> =>
      db
        .insertInto('lineage_datasets')
        .values(d)
        .onConflict((oc) =>
          oc.columns(['project_id', 'namespace', 'name']).doUpdateSet({
            connector_id: sql`coalesce(excluded.connector_id, lineage_datasets.connector_id)`,
            source_namespace: sql`coalesce(excluded.source_namespace, lineage_datasets.source_namespace)`,
            source_name: sql`coalesce(excluded.source_name, lineage_datasets.source_name)`,
          }),
        )
        .returning('id')
        .executeTakeFirstOrThrow(),
    upsertJob: (db: Db, j: Omit<LineageJobsTable, 'id' | 'created_at'>): Promise<JobNodeRow> =>
      db
        .insertInto('lineage_jobs')
        .values(j)
        .onConflict((oc) => oc.columns(['project_id', 'namespace', 'name']).doUpdateSet({ kind: j.kind }))
        .returningAll()
        .executeTakeFirstOrThrow(),
    insertIo: (db: Db, rows: Omit<LineageRunIoTable, 'recorded_at'>[]) =>
      rows.length === 0
        ? Promise.resolve()
        : db
            .insertInto('lineage_run_io')
            .values(rows.map((r) => ({ ...r, fields: json(r.fields), column_lineage: json(r.column_lineage) })))
            .onConflict((oc) =>
              oc.columns(['run_id', 'dataset_id', 'direction']).doUpdateSet({
                fields: sql`excluded.fields`,
                column_lineage: sql`excluded.column_lineage`,
                row_count: sql`excluded.row_count`,
              }),
            )
            .execute()
            .then(() => undefined),
    ioOfRun: (db: Db, runId: string) =>
      db
        .selectFrom('lineage_run_io as io')
        .innerJoin('lineage_datasets as d', 'd.id', 'io.dataset_id')
        .select([
          'io.direction',
          'io.fields',
          'io.column_lineage',
          'io.row_count',
          'io.job_id',
          'd.id as dataset_id',
          'd.namespace',
          'd.name',
        ])
        .where('io.run_id', '=', runId)
        .orderBy('io.direction')
        .orderBy('d.namespace')
        .orderBy('d.name')
        .execute(),
    jobOfRun: (db: Db, runId: string) =>
      db
        .selectFrom('lineage_events as e')
        .innerJoin('lineage_jobs as j', 'j.id', 'e.job_id')
        .selectAll('j')
        .where('e.run_id', '=', runId)
        .orderBy('e.id')
        .limit(1)
        .executeTakeFirst(),
    insertEvent: (db: Db, e: Omit<LineageEventsTable, 'id' | 'created_at' | 'forwarded_at'>) =>
      db
        .insertInto('lineage_events')
        .values({ ...e, event: json(e.event), forwarded_at: null })
        .returning('id')
        .executeTakeFirstOrThrow(),
    hasEvent: async (db: Db, runId: string, types: string[]) =>
      !!(await db
        .selectFrom('lineage_events')
        .select('id')
        .where('run_id', '=', runId)
        .where('event_type', 'in', types)
        .executeTakeFirst()),
    events: (
      db: Db,
      filter: {
        projectIds: string[] | null;
        runId?: string;
        jobId?: string;
        datasetId?: string;
        eventType?: string;
        afterId?: string;
        limit: number;
      },
    ) => {
      let query = db.selectFrom('lineage_events').selectAll().orderBy('id').limit(filter.limit);
      const projects = inProjects(filter.projectIds);
      if (projects) query = query.where('project_id', 'in', projects);
      if (filter.runId) query = query.where('run_id', '=', filter.runId);
      if (filter.jobId) query = query.where('job_id', '=', filter.jobId);
      if (filter.eventType) query = query.where('event_type', '=', filter.eventType);
      if (filter.afterId) query = query.where('id', '>', filter.afterId);
      if (filter.datasetId)
        query = query.where(({ exists, selectFrom }) =>
          exists(
            selectFrom('lineage_run_io as io')
              .select('io.run_id')
              .whereRef('io.run_id', '=', 'lineage_events.run_id')
              .where('io.dataset_id', '=', filter.datasetId!),
          ),
        );
      return query.execute();
    },
    findDataset: (db: Db, id: string) =>
      db.selectFrom('lineage_datasets').selectAll().where('id', '=', id).executeTakeFirst(),
    findJob: (db: Db, id: string) => db.selectFrom('lineage_jobs').selectAll().where('id', '=', id).executeTakeFirst(),
    jobsOfItem: (db: Db, itemId: string) =>
      db.selectFrom('lineage_jobs').selectAll().where('item_id', '=', itemId).execute(),
    datasetsOfConnector: (db: Db, connectorId: string, sourceNamespace: string | null, sourceName: string) => {
      let query = db
        .selectFrom('lineage_datasets')
        .selectAll()
        .where('connector_id', '=', connectorId)
        .where('source_name', '=', sourceName);
      if (sourceNamespace !== null)
        query = query.where((eb) =>
          eb.or([eb('source_namespace', '=', sourceNamespace), eb('source_namespace', 'is', null)]),
        );
      return query.execute();
    },
    /** Distinct edges touching these nodes: job -> output dataset and input dataset -> job. */
    edgesOf: (db: Db, projectIds: string[] | null, datasetIds: string[], jobIds: string[]) => {
      if (datasetIds.length === 0 && jobIds.length === 0) return Promise.resolve([]);
      let query = db
        .selectFrom('lineage_run_io')
        .select(['job_id', 'dataset_id', 'direction'])
        .distinct()
        .where((eb) =>
          eb.or([
            ...(datasetIds.length ? [eb('dataset_id', 'in', datasetIds)] : []),
            ...(jobIds.length ? [eb('job_id', 'in', jobIds)] : []),
          ]),
        );
      const projects = inProjects(projectIds);
      if (projects) query = query.where('project_id', 'in', projects);
      return query.execute();
    },
    datasets: (db: Db, ids: string[]) =>
      ids.length ? db.selectFrom('lineage_datasets').selectAll().where('id', 'in', ids).execute() : Promise.resolve([]),
    jobs: (db: Db, ids: string[]) =>
      ids.length ? db.selectFrom('lineage_jobs').selectAll().where('id', 'in', ids).execute() : Promise.resolve([]),
    /** The latest column lineage each job wrote into this dataset. */
    latestOutputs: (db: Db, datasetId: string) =>
      db
        .selectFrom('lineage_run_io')
        .select(['job_id', 'column_lineage', 'recorded_at'])
        .distinctOn('job_id')
        .where('dataset_id', '=', datasetId)
        .where('direction', '=', 'output')
        .orderBy('job_id')
        .orderBy('recorded_at', 'desc')
        .execute(),
    datasetByName: (db: Db, projectId: string, namespace: string, name: string) =>
      db
        .selectFrom('lineage_datasets')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('namespace', '=', namespace)
        .where('name', '=', name)
        .executeTakeFirst(),
    /** Last write into each of a connector's datasets: when and how many rows (the catalog's freshness). */
    lastWrites: (db: Db, connectorIds: string[]) =>
      connectorIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('lineage_run_io as io')
            .innerJoin('lineage_datasets as d', 'd.id', 'io.dataset_id')
            .select(['d.connector_id', 'd.source_namespace', 'd.source_name', 'io.recorded_at', 'io.row_count'])
            .distinctOn(['d.connector_id', 'd.source_namespace', 'd.source_name'])
            .where('d.connector_id', 'in', connectorIds)
            .where('io.direction', '=', 'output')
            .orderBy('d.connector_id')
            .orderBy('d.source_namespace')
            .orderBy('d.source_name')
            .orderBy('io.recorded_at', 'desc')
            .execute(),
    forwarding: (db: Db) => db.selectFrom('lineage_forwarding').selectAll().executeTakeFirst(),
    saveForwarding: (db: Db, values: Partial<Omit<LineageForwardingTable, 'id' | 'updated_at'>>) =>
      db
        .insertInto('lineage_forwarding')
        .values({ id: true, enabled: false, url: null, api_key: null, ...values })
        .onConflict((oc) => oc.column('id').doUpdateSet({ ...values, updated_at: sql`now()` }))
        .returningAll()
        .executeTakeFirstOrThrow(),
    /** Events not forwarded yet, oldest first, of transactions that have ended. */
    unforwarded: (db: Db, limit: number) =>
      db
        .selectFrom('lineage_events')
        .select(['id', 'event'])
        .where('forwarded_at', 'is', null)
        .orderBy('id')
        .limit(limit)
        .execute(),
    markForwarded: (db: Db, ids: string[]) =>
      db
        .updateTable('lineage_events')
        .set({ forwarded_at: sql`now()` })
        .where('id', 'in', ids)
        .execute(),
  };
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

export type LineageRepository = ReturnType<typeof createLineageRepository>;
