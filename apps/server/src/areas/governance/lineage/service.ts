/**
 * Lineage: the runs of every area record here what they read and wrote (with column lineage where
 * their transforms know it), the run recorder reports each run's start and end, and from both the
 * service keeps OpenLineage RunEvents (START, COMPLETE, FAIL, ABORT), answers graph queries and
 * forwards the events to an external OpenLineage endpoint when an administrator configured one.
 */
import { columnLineage as stepsLineage, type EgressPolicy, type TransformStep } from '@svc/engine';
import type { Logger } from 'pino';
import type { Principal } from '../../../platform/authn.js';
import type { Authorize, VisibleProjects } from '../../../platform/authz.js';
import type { Db } from '../../../platform/db/index.js';
import { notFound, validationFailed } from '../../../platform/errors/index.js';
import { describeFailure, postJson } from '../../../platform/outbound-http.js';
import type { SecretBox } from '../../../platform/secrets.js';
import {
  datasetOf,
  runEvent,
  type ColumnLineageFacetField,
  type ConnectorLocation,
  type EventIo,
  type RunEventType,
  type SchemaField,
} from './openlineage.js';
import {
  createLineageRepository,
  type DatasetNodeRow,
  type EventRow,
  type JobNodeRow,
  type LineageEdge,
} from './repository.js';

export type LineageService = ReturnType<typeof createLineageService>;
/** What long-running runs (stream consumers, CDC readers) report. */
export type ContinuousLineage = Pick<LineageService, 'continuousStarted' | 'continuousEnded'>;
export type { LineageEdge };

/** A dataset a run read or wrote: a connector's (named by its schema/folder and name), or one named directly. */
export type RunDataset = (
  { connector_id: string; namespace: string | null; name: string } | { ol: { namespace: string; name: string } }
) & {
  fields?: SchemaField[];
  /** Outputs: rows written. */
  rowCount?: number;
  /** Outputs: a copy of input `copyOf` column by column (its columns as the catalog knows them). */
  copyOf?: number;
  /** Outputs: made from inputs `inputs` (united) by transform `steps`: column lineage from the steps. */
  transformOf?: { inputs: number[]; steps: readonly TransformStep[] };
  /** Outputs: each column's input columns; `dataset` is an index into the run's inputs. */
  columns?: Array<{
    column: string;
    inputs: Array<{ dataset: number; field: string }>;
    transformation?: { type: string; subtype?: string; description?: string; masking?: boolean };
  }>;
};

export interface RunIo {
  runId: string;
  projectId: string;
  /** The run's kind and item, as the run recorder reports them at its start (the job of the run). */
  job: { kind: string; itemId: string | null };
  inputs: RunDataset[];
  outputs: RunDataset[];
}

export interface RunReport {
  runId: string;
  projectId: string;
  kind: string;
  itemId: string | null;
  status: string;
  error: string | null;
  at: Date;
}

export type Locate = (connectorId: string) => Promise<ConnectorLocation | undefined>;

const STREAMING_KINDS = new Set(['stream', 'cdc_table']);
const MAX_DEPTH = 10;
const jobNamespace = (projectId: string) => `svc.${projectId}`;
const jobName = (kind: string, itemId: string | null, runId: string) => `${kind}.${itemId ?? runId}`;
const terminalOf = (status: string): RunEventType | null =>
  status === 'succeeded' || status === 'partially_failed' || status === 'stopped'
    ? 'COMPLETE'
    : status === 'failed'
      ? 'FAIL'
      : status === 'cancelled' || status === 'interrupted'
        ? 'ABORT'
        : null;

export function createLineageService(deps: {
  db: Db;
  authorize: Authorize;
  visibleProjects: VisibleProjects;
  box: SecretBox;
  egress: EgressPolicy;
  logger: Logger;
  forwardTimeoutMs?: number;
  /** SVC_LINEAGE_ENABLED: off, runs record nothing (the feed, run datasets and events). */
  enabled?: boolean;
}) {
  const { db } = deps;
  const enabled = deps.enabled ?? true;
  const repository = createLineageRepository();
  let locate: Locate = async () => undefined;
  const locations = new Map<string, Promise<ConnectorLocation | undefined>>();
  const locateOnce = (id: string) => {
    let found = locations.get(id);
    if (!found) {
      found = locate(id).catch(() => undefined);
      locations.set(id, found);
      setTimeout(() => locations.delete(id), 60_000).unref();
    }
    return found;
  };

  const job = (trx: Db, projectId: string, kind: string, itemId: string | null, runId: string) =>
    repository.upsertJob(trx, {
      project_id: projectId,
      namespace: jobNamespace(projectId),
      name: jobName(kind, itemId, runId),
      kind,
      item_id: itemId,
    });

  const datasetNode = async (trx: Db, projectId: string, d: RunDataset) => {
    if ('ol' in d)
      return {
        ...d.ol,
        ...(await repository.upsertDataset(trx, {
          project_id: projectId,
          ...d.ol,
          connector_id: null,
          source_namespace: null,
          source_name: null,
        })),
      };
    const location = await locateOnce(d.connector_id);
    const named = datasetOf(location ?? { kind: 'unknown', config: {} }, d.namespace, d.name);
    const { id } = await repository.upsertDataset(trx, {
      project_id: projectId,
      ...named,
      connector_id: d.connector_id,
      source_namespace: d.namespace,
      source_name: d.name,
    });
    return { ...named, id };
  };

  /** The columns of a connector's dataset as discovery found them (an empty list when unknown). */
  const catalogColumns = async (trx: Db, d: RunDataset | undefined) => {
    if (!d || 'ol' in d) return [];
    let query = trx
      .selectFrom('catalog_datasets as c')
      .innerJoin('catalog_columns as col', 'col.dataset_id', 'c.id')
      .select(['col.name', 'col.type'])
      .where('c.connector_id', '=', d.connector_id)
      .where('c.name', '=', d.name)
      .orderBy('col.position');
    if (d.namespace !== null) query = query.where('c.namespace', '=', d.namespace);
    return query.execute();
  };
  const copyColumns = async (
    trx: Db,
    input: RunDataset | undefined,
    index: number,
    output: RunDataset,
  ): Promise<RunDataset> => {
    const columns = await catalogColumns(trx, input);
    if (columns.length === 0) return output;
    return {
      ...output,
      fields: output.fields ?? columns.map((c) => ({ name: c.name, type: c.type })),
      columns: columns.map((c) => ({
        column: c.name,
        inputs: [{ dataset: index, field: c.name }],
        transformation: { type: 'DIRECT', subtype: 'IDENTITY' },
      })),
    };
  };

  const transformColumns = async (
    trx: Db,
    inputs: RunDataset[],
    transform: { inputs: number[]; steps: readonly TransformStep[] },
    output: RunDataset,
  ): Promise<RunDataset> => {
    const byColumn = new Map<string, NonNullable<RunDataset['columns']>[number]>();
    for (const index of transform.inputs) {
      const known = await catalogColumns(trx, inputs[index]);
      for (const entry of stepsLineage(known.length ? known.map((c) => c.name) : null, transform.steps)) {
        const column = byColumn.get(entry.column) ?? {
          column: entry.column,
          inputs: [],
          transformation: entry.transformation,
        };
        column.inputs.push(...entry.inputs.map((field) => ({ dataset: index, field })));
        byColumn.set(entry.column, column);
      }
    }
    return {
      ...output,
      columns: [...byColumn.values()],
      fields: output.fields ?? [...byColumn.keys()].map((name) => ({ name })),
    };
  };

  const emit = async (trx: Db, jobRow: JobNodeRow, report: RunReport, type: RunEventType) => {
    const io: EventIo[] = (await repository.ioOfRun(trx, report.runId)).map((row) => ({
      direction: row.direction,
      namespace: row.namespace,
      name: row.name,
      fields: row.fields as SchemaField[] | null,
      columnLineage: row.column_lineage as Record<string, ColumnLineageFacetField> | null,
      rowCount: row.row_count === null ? null : Number(row.row_count),
    }));
    const event = runEvent({
      eventType: type,
      eventTime: report.at,
      runId: report.runId,
      job: {
        namespace: jobRow.namespace,
        name: jobRow.name,
        kind: report.kind,
        streaming: STREAMING_KINDS.has(report.kind),
      },
      run: {
        kind: report.kind,
        status: report.status,
        projectId: report.projectId,
        itemId: report.itemId,
        error: report.error,
      },
      io,
    });
    await repository.insertEvent(trx, {
      project_id: report.projectId,
      run_id: report.runId,
      job_id: jobRow.id,
      event_type: type,
      event_time: report.at,
      event,
    });
  };

  const nodeOfDataset = (d: DatasetNodeRow) => ({
    id: `dataset:${d.id}`,
    type: 'dataset' as const,
    project_id: d.project_id,
    namespace: d.namespace,
    name: d.name,
    connector_id: d.connector_id,
    source_namespace: d.source_namespace,
    source_name: d.source_name,
    kind: null,
    item_id: null,
  });
  const nodeOfJob = (j: JobNodeRow) => ({
    id: `job:${j.id}`,
    type: 'job' as const,
    project_id: j.project_id,
    namespace: j.namespace,
    name: j.name,
    connector_id: null,
    source_namespace: null,
    source_name: null,
    kind: j.kind,
    item_id: j.item_id,
  });
  const presentEvent = (e: EventRow) => ({
    id: e.id,
    project_id: e.project_id,
    run_id: e.run_id,
    event_type: e.event_type,
    event_time: e.event_time.toISOString(),
    event: e.event as Record<string, unknown>,
  });

  /** The start of a graph: a lineage dataset or job, the jobs of an item (pipeline, export...), or a catalog dataset. */
  const resolveNode = async (node: string): Promise<{ projectId: string; datasets: string[]; jobs: string[] }> => {
    const [type, id] = node.split(':', 2) as [string, string | undefined];
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    if (!id || (type !== 'item' && !uuid.test(id)))
      throw validationFailed([{ path: 'node', message: 'node is dataset:<id>, job:<id>, item:<id> or catalog:<id>' }]);
    if (type === 'dataset') {
      const d = await repository.findDataset(db, id);
      if (d) return { projectId: d.project_id, datasets: [d.id], jobs: [] };
    } else if (type === 'job') {
      const j = await repository.findJob(db, id);
      if (j) return { projectId: j.project_id, datasets: [], jobs: [j.id] };
    } else if (type === 'item') {
      const jobs = await repository.jobsOfItem(db, id);
      if (jobs.length) return { projectId: jobs[0]!.project_id, datasets: [], jobs: jobs.map((j) => j.id) };
    } else if (type === 'catalog') {
      const c = await db.selectFrom('catalog_datasets').selectAll().where('id', '=', id).executeTakeFirst();
      if (c) {
        const found = await repository.datasetsOfConnector(db, c.connector_id, c.namespace, c.name);
        return { projectId: c.project_id, datasets: found.map((d) => d.id), jobs: [] };
      }
    } else
      throw validationFailed([{ path: 'node', message: 'node is dataset:<id>, job:<id>, item:<id> or catalog:<id>' }]);
    throw notFound('Lineage node');
  };

  let forwarding = false;
  return {
    /** Names connectors' datasets: set once connectivity exists (it is created after governance). */
    useLocator(fn: Locate) {
      locate = fn;
    },

    /** The connector-level feed, in the transaction that commits the run's results. */
    record: async (trx: Db, edges: LineageEdge[]) => {
      if (enabled) await repository.insert(trx, edges);
    },

    /** What a run read and wrote, in the transaction that commits its results (before it is marked finished). */
    async recordRun(trx: Db, run: RunIo) {
      if (!enabled) return;
      const jobRow =
        (await repository.jobOfRun(trx, run.runId)) ??
        (await job(trx, run.projectId, run.job.kind, run.job.itemId, run.runId));
      const inputs: Array<{ id: string; namespace: string; name: string }> = [];
      const inputFields: Array<SchemaField[] | null> = [];
      for (const input of run.inputs) {
        inputs.push(await datasetNode(trx, run.projectId, input));
        const known = input.fields ? [] : await catalogColumns(trx, input);
        inputFields.push(input.fields ?? (known.length ? known.map((c) => ({ name: c.name, type: c.type })) : null));
      }
      const rows: Array<Parameters<typeof repository.insertIo>[1][number]> = inputs.map((node, i) => ({
        run_id: run.runId,
        project_id: run.projectId,
        job_id: jobRow.id,
        dataset_id: node.id,
        direction: 'input' as const,
        fields: inputFields[i] ?? null,
        column_lineage: null,
        row_count: null,
      }));
      for (const given of run.outputs) {
        const output =
          given.copyOf !== undefined
            ? await copyColumns(trx, run.inputs[given.copyOf], given.copyOf, given)
            : given.transformOf
              ? await transformColumns(trx, run.inputs, given.transformOf, given)
              : given;
        const node = await datasetNode(trx, run.projectId, output);
        let columnLineage: Record<string, ColumnLineageFacetField> | null = null;
        if (output.columns?.length) {
          columnLineage = {};
          for (const c of output.columns) {
            const inputFields = c.inputs
              .filter((i) => inputs[i.dataset])
              .map((i) => ({
                namespace: inputs[i.dataset]!.namespace,
                name: inputs[i.dataset]!.name,
                field: i.field,
                ...(c.transformation ? { transformations: [c.transformation] } : {}),
              }));
            if (inputFields.length) columnLineage[c.column] = { inputFields };
          }
        }
        rows.push({
          run_id: run.runId,
          project_id: run.projectId,
          job_id: jobRow.id,
          dataset_id: node.id,
          direction: 'output',
          fields: output.fields ?? null,
          column_lineage: columnLineage as never,
          row_count: (output.rowCount === undefined ? null : String(output.rowCount)) as never,
        });
      }
      // Two datasets of a run may be named alike (two streams of one table): keep one row each.
      const seen = new Set<string>();
      await repository.insertIo(
        trx,
        rows.filter((r) => {
          const key = `${r.dataset_id}:${r.direction}`;
          if (seen.has(key)) return false;
          seen.add(key);
          return true;
        }),
      );
    },

    /** A run has started (its START event). */
    async runStarted(trx: Db, report: Omit<RunReport, 'status' | 'error'>) {
      if (!enabled) return;
      if (await repository.hasEvent(trx, report.runId, ['START'])) return;
      const jobRow = await job(trx, report.projectId, report.kind, report.itemId, report.runId);
      await emit(trx, jobRow, { ...report, status: 'running', error: null }, 'START');
    },

    /** A run has ended, in the transaction that records its outcome: COMPLETE, FAIL or ABORT (once). */
    async runFinished(trx: Db, report: RunReport) {
      if (!enabled) return;
      const type = terminalOf(report.status);
      if (!type) return;
      if (await repository.hasEvent(trx, report.runId, ['COMPLETE', 'FAIL', 'ABORT'])) return;
      const started = await repository.jobOfRun(trx, report.runId);
      // A run cancelled before it started has no lineage to close.
      if (!started && type === 'ABORT') return;
      const jobRow = started ?? (await job(trx, report.projectId, report.kind, report.itemId, report.runId));
      if (!started) await emit(trx, jobRow, { ...report, status: 'running', error: null }, 'START');
      await emit(trx, jobRow, report, type);
    },

    /**
     * A long-running run (a stream consumer's, a CDC reader's) has started: what it reads and writes
     * and its START event, in one transaction. Its end is `continuousEnded`.
     */
    async continuousStarted(run: RunIo) {
      await db.transaction().execute(async (trx) => {
        await this.recordRun(trx, run);
        await this.runStarted(trx, {
          runId: run.runId,
          projectId: run.projectId,
          kind: run.job.kind,
          itemId: run.job.itemId,
          at: new Date(),
        });
      });
    },
    /** `stopped` is COMPLETE, `failed` FAIL, `interrupted` (another worker takes over) ABORT. */
    async continuousEnded(run: Omit<RunReport, 'at' | 'status'> & { status: 'stopped' | 'failed' | 'interrupted' }) {
      await db.transaction().execute((trx) => this.runFinished(trx, { ...run, at: new Date() }));
    },

    async events(
      principal: Principal,
      filter: {
        projectId?: string;
        runId?: string;
        jobId?: string;
        datasetId?: string;
        eventType?: string;
        after?: string;
        limit?: number;
      },
      scope: (principal: Principal, projectId?: string) => Promise<string[] | null>,
    ) {
      const projectIds = await scope(principal, filter.projectId);
      const rows = await repository.events(db, {
        projectIds,
        runId: filter.runId,
        jobId: filter.jobId,
        datasetId: filter.datasetId,
        eventType: filter.eventType,
        afterId: filter.after,
        limit: Math.min(filter.limit ?? 100, 1000),
      });
      return rows.map(presentEvent);
    },

    /** Nodes and edges reached from `node` within `depth` hops, in the node's project only. */
    async graph(
      principal: Principal,
      query: { node: string; direction: 'upstream' | 'downstream' | 'both'; depth: number },
      check: (principal: Principal, projectId: string) => Promise<void>,
    ) {
      const start = await resolveNode(query.node);
      await check(principal, start.projectId);
      const projectIds = [start.projectId];
      const depth = Math.max(0, Math.min(query.depth, MAX_DEPTH));
      const datasets = new Set(start.datasets);
      const jobs = new Set(start.jobs);
      const edges = new Map<string, { from: string; to: string }>();
      let frontier = { datasets: [...datasets], jobs: [...jobs] };
      for (let hop = 0; hop < depth && (frontier.datasets.length || frontier.jobs.length); hop++) {
        const rows = await repository.edgesOf(db, projectIds, frontier.datasets, frontier.jobs);
        const next = { datasets: [] as string[], jobs: [] as string[] };
        const fromDatasets = new Set(frontier.datasets);
        const fromJobs = new Set(frontier.jobs);
        for (const row of rows) {
          // input: dataset -> job; output: job -> dataset
          const upstreamStep =
            (row.direction === 'output' && fromDatasets.has(row.dataset_id)) ||
            (row.direction === 'input' && fromJobs.has(row.job_id));
          const downstreamStep =
            (row.direction === 'input' && fromDatasets.has(row.dataset_id)) ||
            (row.direction === 'output' && fromJobs.has(row.job_id));
          const wanted =
            (query.direction !== 'downstream' && upstreamStep) || (query.direction !== 'upstream' && downstreamStep);
          if (!wanted) continue;
          const edge =
            row.direction === 'input'
              ? { from: `dataset:${row.dataset_id}`, to: `job:${row.job_id}` }
              : { from: `job:${row.job_id}`, to: `dataset:${row.dataset_id}` };
          edges.set(`${edge.from}>${edge.to}`, edge);
          if (!datasets.has(row.dataset_id)) {
            datasets.add(row.dataset_id);
            next.datasets.push(row.dataset_id);
          }
          if (!jobs.has(row.job_id)) {
            jobs.add(row.job_id);
            next.jobs.push(row.job_id);
          }
        }
        frontier = next;
      }
      const nodes = [
        ...(await repository.datasets(db, [...datasets]))
          .filter((d) => d.project_id === start.projectId)
          .map(nodeOfDataset),
        ...(await repository.jobs(db, [...jobs])).filter((j) => j.project_id === start.projectId).map(nodeOfJob),
      ];
      const ids = new Set(nodes.map((n) => n.id));
      return {
        project_id: start.projectId,
        roots: [...start.datasets.map((d) => `dataset:${d}`), ...start.jobs.map((j) => `job:${j}`)],
        nodes,
        edges: [...edges.values()].filter((e) => ids.has(e.from) && ids.has(e.to)),
      };
    },

    /** Where a column of a dataset came from: its input columns, and theirs, within `depth` levels. */
    async columnLineage(
      principal: Principal,
      query: { dataset: string; column: string; depth: number },
      check: (principal: Principal, projectId: string) => Promise<void>,
    ) {
      const start = await repository.findDataset(db, query.dataset);
      if (!start) throw notFound('Lineage dataset');
      await check(principal, start.project_id);
      const depth = Math.max(1, Math.min(query.depth, MAX_DEPTH));
      const items: Array<{
        dataset_id: string;
        namespace: string;
        name: string;
        field: string;
        level: number;
        inputs: Array<{
          dataset_id: string | null;
          namespace: string;
          name: string;
          field: string;
          transformations: unknown[];
        }>;
      }> = [];
      const visited = new Set<string>();
      let frontier: Array<{ dataset: DatasetNodeRow; field: string }> = [{ dataset: start, field: query.column }];
      for (let level = 0; level < depth && frontier.length; level++) {
        const next: typeof frontier = [];
        for (const { dataset, field } of frontier) {
          const key = `${dataset.id}.${field}`;
          if (visited.has(key)) continue;
          visited.add(key);
          const inputs: (typeof items)[number]['inputs'] = [];
          for (const output of await repository.latestOutputs(db, dataset.id)) {
            const lineage = output.column_lineage as Record<string, ColumnLineageFacetField> | null;
            for (const input of lineage?.[field]?.inputFields ?? []) {
              const node = await repository.datasetByName(db, start.project_id, input.namespace, input.name);
              if (
                inputs.some((i) => i.namespace === input.namespace && i.name === input.name && i.field === input.field)
              )
                continue;
              inputs.push({
                dataset_id: node?.id ?? null,
                namespace: input.namespace,
                name: input.name,
                field: input.field,
                transformations: input.transformations ?? [],
              });
              if (node) next.push({ dataset: node, field: input.field });
            }
          }
          items.push({
            dataset_id: dataset.id,
            namespace: dataset.namespace,
            name: dataset.name,
            field,
            level,
            inputs,
          });
        }
        frontier = next;
      }
      return { items };
    },

    /** Last write into each dataset of these connectors (freshness and rows for the catalog). */
    lastWrites: (connectorIds: string[]) => repository.lastWrites(db, connectorIds),

    async forwardingSettings() {
      const row = await repository.forwarding(db);
      return {
        enabled: row?.enabled ?? false,
        url: row?.url ?? null,
        has_api_key: !!row?.api_key,
        last_forwarded_at: row?.last_forwarded_at?.toISOString() ?? null,
        last_error: row?.last_error ?? null,
        last_error_at: row?.last_error_at?.toISOString() ?? null,
      };
    },

    async saveForwarding(input: { enabled: boolean; url?: string | null; api_key?: string | null }) {
      if (input.enabled && !input.url && !(await repository.forwarding(db))?.url)
        throw validationFailed([{ path: 'url', message: 'url is required to enable forwarding' }]);
      if (input.url) {
        let parsed: URL;
        try {
          parsed = new URL(input.url);
        } catch {
          throw validationFailed([{ path: 'url', message: 'url is not a valid URL' }]);
        }
        if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
          throw validationFailed([{ path: 'url', message: 'url must be http or https' }]);
      }
      await db.transaction().execute(async (trx) => {
        const before = await repository.forwarding(trx);
        await repository.saveForwarding(trx, {
          enabled: input.enabled,
          ...(input.url !== undefined ? { url: input.url } : {}),
          ...(input.api_key !== undefined ? { api_key: input.api_key ? deps.box.encrypt(input.api_key) : null } : {}),
          last_error: null,
          last_error_at: null,
        });
        // Forwarding starts with the events made from now on, not the whole history.
        if (input.enabled && !before?.enabled)
          await trx
            .updateTable('lineage_events')
            .set({ forwarded_at: new Date(0) })
            .where('forwarded_at', 'is', null)
            .execute();
      });
      return this.forwardingSettings();
    },

    /** Sends the events not forwarded yet, in order, one POST each; stops at the first failure (retried next time). */
    async forward() {
      if (forwarding) return;
      forwarding = true;
      try {
        const settings = await repository.forwarding(db);
        if (!settings?.enabled || !settings.url) return;
        const headers: Record<string, string> = settings.api_key
          ? { authorization: `Bearer ${deps.box.decrypt(settings.api_key)}` }
          : {};
        for (;;) {
          const batch = await repository.unforwarded(db, 100);
          if (batch.length === 0) return;
          const sent: string[] = [];
          let failure: string | null = null;
          for (const row of batch) {
            try {
              const answer = await postJson(
                deps.egress,
                settings.url,
                JSON.stringify(row.event),
                headers,
                deps.forwardTimeoutMs ?? 10_000,
              );
              if (!answer.ok) failure = `the endpoint answered ${answer.status}`;
            } catch (error) {
              failure = describeFailure(error);
            }
            if (failure) break;
            sent.push(row.id);
          }
          if (sent.length) {
            await repository.markForwarded(db, sent);
            await repository.saveForwarding(db, { last_forwarded_at: new Date() });
          }
          if (failure) {
            await repository.saveForwarding(db, { last_error: failure, last_error_at: new Date() });
            deps.logger.warn({ error: failure }, 'forwarding lineage events failed');
            return;
          }
        }
      } finally {
        forwarding = false;
      }
    },
  };
}
