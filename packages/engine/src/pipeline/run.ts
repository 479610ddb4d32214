/**
 * Runs a pipeline: source streams -> transform steps -> one destination. Two paths with the same
 * result (the transforms tests prove the equality):
 * - pushdown: one PostgreSQL source and a destination that loads COPY text. The steps become one
 *   SELECT the source runs, streamed as COPY text into the destination without decoding a value.
 * - staged: one other source with a bulk stream of COPY text (MySQL/MariaDB) and a PostgreSQL
 *   destination. The source's rows are copied into a temporary table of the destination, and the
 *   same SELECT runs there over them, in the transaction that writes its rows.
 * - in-process: everything else. Batches are read, conformed to the streams' united columns, run
 *   through the compiled steps and written.
 * Incremental streams return their new cursor; the caller saves it once the write is committed.
 */
import { approximateBytes, compareCursor, countingCopyText } from '../batches.js';
import {
  planTransforms,
  TransformError,
  type MaskMethod,
  type TransformPlan,
  type TransformStep,
} from '../transforms/index.js';
import type {
  ColumnSchema,
  ConnectorHandle,
  DatasetRef,
  ReadRequest,
  RecordBatch,
  Value,
  WriteMode,
} from '../types.js';
import { ConnectorError } from '../types.js';
import { conformer, readRequestOf, sampleSource, uniteColumns, type PipelineSource, type Sample } from './sources.js';

export type { PipelineSource } from './sources.js';

export interface PipelineDestination {
  handle: ConnectorHandle;
  dataset: DatasetRef;
  mode: WriteMode;
  keyColumns?: string[];
}

export interface PipelineCounters {
  rowsRead: number;
  rowsWritten: number;
  bytesRead: number;
  bytesWritten: number;
}

type Log = (level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;

export interface PipelineRunOptions {
  sources: PipelineSource[];
  steps: TransformStep[];
  destination: PipelineDestination;
  /** Identifies the run, so that a retried append does not write twice. */
  runId: string;
  signal: AbortSignal;
  masking?: (column: ColumnSchema) => MaskMethod | undefined;
  /** Counters so far; called per batch (in-process) or about once a second (pushdown). */
  onProgress?: (counters: PipelineCounters) => void;
  log: Log;
}

export interface PipelineRunResult extends PipelineCounters {
  path: 'pushdown' | 'staged' | 'in-process' | 'nothing';
  output: ColumnSchema[];
  /** Stream name -> cursor to save (incremental streams that read something). */
  cursors: Record<string, Value>;
}

/** Rows sampled per stream to learn its columns (and flatten's paths). */
const SAMPLE_ROWS = 1000;

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Samples every stream and plans the steps over their united columns; undefined when every stream is empty. */
export async function planPipeline(
  sources: PipelineSource[],
  steps: TransformStep[],
  options: { sampleRows?: number; masking?: PipelineRunOptions['masking']; signal?: AbortSignal },
) {
  const samples: Sample[] = [];
  for (const source of sources)
    samples.push(await sampleSource(source, options.sampleRows ?? SAMPLE_ROWS, options.signal));
  const united = uniteColumns(samples);
  if (united.length === 0) return { samples, plan: undefined };
  const conform = conformer(united);
  const sampleRows = samples.flatMap((s) => (s.columns ? conform({ columns: s.columns, rows: s.rows }).rows : []));
  const plan = planTransforms(steps, united, { sample: sampleRows, masking: options.masking });
  return { samples, plan };
}

export function canPushDown(sources: PipelineSource[], destination: ConnectorHandle): boolean {
  const [source] = sources;
  return (
    sources.length === 1 &&
    source!.handle.sqlDialect === 'postgres' &&
    !!source!.handle.exportBulk &&
    !!destination.importBulk &&
    !!destination.bulkFormats?.includes('postgres-copy-text')
  );
}

export async function runPipeline(options: PipelineRunOptions): Promise<PipelineRunResult> {
  const { sources, destination, signal, log } = options;
  if (!destination.handle.write) throw new ConnectorError('unsupported', 'the destination cannot be written', false);
  const { samples, plan } = await planPipeline(sources, options.steps, { masking: options.masking, signal });
  if (!plan) {
    log('info', 'every source stream is empty or has nothing new: nothing to write');
    return { path: 'nothing', output: [], cursors: {}, rowsRead: 0, rowsWritten: 0, bytesRead: 0, bytesWritten: 0 };
  }
  const empty = samples.filter((s) => !s.columns).map((s) => s.source.name);
  if (empty.length) log('info', `streams with nothing to read: ${empty.join(', ')}`);
  try {
    if (canPushDown(sources, destination.handle)) return await pushDown(options, plan);
    if (canStage(sources, destination.handle)) {
      const staged = await stageThrough(options, plan);
      if (staged) return staged;
    }
    return await inProcess(options, plan, samples);
  } catch (error) {
    // A value a step cannot compute: both paths name the step and the column.
    // (The destination's writer may have wrapped it: it failed while consuming the transformed batches.)
    const transform = transformErrorIn(error);
    if (transform)
      throw new TransformError(transform.path, `${stepLabel(options.steps, transform.path)}: ${transform.message}`);
    throw error;
  }
}

function transformErrorIn(error: unknown): TransformError | undefined {
  for (let e = error; e instanceof Error; e = e.cause) if (e instanceof TransformError) return e;
  return undefined;
}

/** 'step 2 (derive)' for the path '1.expression'; 'masking' for the masking policies' path. */
function stepLabel(steps: TransformStep[], path: string): string {
  const head = path.split('.')[0]!;
  const index = Number(head);
  return Number.isInteger(index) ? `step ${index + 1} (${steps[index]?.type ?? 'unknown'})` : head;
}

/**
 * The pushed-down SELECT failed on a value the source refused (division by zero, an overflow, a bad
 * cast): the plan's probes find the step and column, reported as the in-process path reports them.
 * Anything else (the destination, the connection) is passed on as it came.
 */
async function locateFailure(
  error: unknown,
  options: PipelineRunOptions,
  plan: TransformPlan,
  upTo: Value | undefined,
): Promise<unknown> {
  if (!(error instanceof ConnectorError) || error.retryable || error.code !== 'failed') return error;
  const source = options.sources[0]!;
  const probes = plan.failureProbes('svc_relation');
  for (const [i, probe] of probes.entries()) {
    const request = readRequestOf(source, { select: (relation) => plan.failureProbes(relation)[i]!.sql });
    if (request.incremental) request.incremental.upTo = upTo;
    try {
      for await (const batch of source.handle.read!(request, options.signal)) void batch;
    } catch (failure) {
      if (options.signal.aborted) return error;
      const column = probe.column ? `column "${probe.column}": ` : '';
      return new TransformError(probe.path, `${column}${(failure as Error).message}`);
    }
  }
  return error;
}

async function pushDown(options: PipelineRunOptions, plan: TransformPlan): Promise<PipelineRunResult> {
  const { signal } = options;
  const source = options.sources[0]!;
  // Incremental: fix the upper bound first, so the cursor saved is exactly what was copied.
  let upTo: Value | undefined;
  if (source.cursorColumn) {
    const request = readRequestOf(source, {
      select: (relation) => `select max(${quoteIdent(source.cursorColumn!)}) as svc_max from ${relation}`,
    });
    for await (const batch of source.handle.read!(request, signal)) upTo = batch.rows[0]?.[0] ?? null;
    if (upTo === null || upTo === undefined) {
      options.log('info', `${source.name}: nothing new past the saved cursor`);
      return {
        path: 'nothing',
        output: plan.output,
        cursors: {},
        rowsRead: 0,
        rowsWritten: 0,
        bytesRead: 0,
        bytesWritten: 0,
      };
    }
  }
  const request = readRequestOf(source, { select: (relation) => plan.toPostgresSql(relation) });
  if (request.incremental) request.incremental.upTo = upTo;
  try {
    return await copyThrough(options, plan, request, upTo);
  } catch (error) {
    throw await locateFailure(error, options, plan, upTo);
  }
}

async function copyThrough(
  options: PipelineRunOptions,
  plan: TransformPlan,
  request: ReadRequest,
  upTo: Value | undefined,
): Promise<PipelineRunResult> {
  const { destination, signal } = options;
  const source = options.sources[0]!;
  const bulk = await source.handle.exportBulk!(request, signal);
  if (!bulk) throw new ConnectorError('unsupported', `stream "${source.name}" offers no bulk stream`, false);
  const counters: PipelineCounters = { rowsRead: 0, rowsWritten: 0, bytesRead: 0, bytesWritten: 0 };
  const counting = countingCopyText((rows, bytes) =>
    options.onProgress?.({ ...counters, rowsRead: rows, bytesRead: bytes }),
  );
  (bulk.stream as NodeJS.ReadableStream).pipe(counting);
  bulk.stream.on('error', (error: Error) => counting.destroy(error));
  // The source may fail before the destination starts reading (it prepares its table first): the
  // error then waits in `counting` for the destination's pipe, which reports it, instead of being
  // thrown as an unheard 'error' event.
  counting.on('error', () => undefined);
  const summary = await destination.handle.importBulk!(
    {
      dataset: destination.dataset,
      mode: destination.mode,
      keyColumns: destination.keyColumns,
      columns: plan.output,
      runId: options.runId,
    },
    { ...bulk, columns: plan.output, stream: counting },
    signal,
  );
  return {
    path: 'pushdown',
    output: plan.output,
    cursors: upTo !== undefined ? { [source.name]: upTo } : {},
    // Rows after the steps: a filter or deduplication in the SELECT drops rows before they are counted.
    rowsRead: counting.rows(),
    bytesRead: counting.bytes(),
    rowsWritten: summary.rowsWritten,
    bytesWritten: summary.bytesWritten ?? 0,
  };
}

export function canStage(sources: PipelineSource[], destination: ConnectorHandle): boolean {
  const [source] = sources;
  return (
    sources.length === 1 &&
    !source!.query &&
    !source!.cursorColumn &&
    !!source!.handle.exportBulk &&
    !!destination.importStaged &&
    !!destination.bulkFormats?.includes('postgres-copy-text')
  );
}

/**
 * The staged path, or undefined when the source offers no COPY text of the stream's columns (the
 * in-process path then runs). A value the SELECT cannot compute rolls the write back and is reported
 * by the in-process path, which names the step and the column.
 */
async function stageThrough(options: PipelineRunOptions, plan: TransformPlan): Promise<PipelineRunResult | undefined> {
  const { destination, signal } = options;
  const source = options.sources[0]!;
  const bulk = await source.handle.exportBulk!(readRequestOf(source), signal);
  if (!bulk) return undefined;
  // The SELECT reads the planned input columns: the bulk stream must hold them, with the same types.
  const matches = plan.input.every((column) =>
    bulk.columns.some((c) => c.name === column.name && c.type === column.type),
  );
  if (bulk.format !== 'postgres-copy-text' || !matches) {
    bulk.stream.destroy();
    return undefined;
  }
  const counting = countingCopyText((rows, bytes) =>
    options.onProgress?.({ rowsRead: rows, bytesRead: bytes, rowsWritten: 0, bytesWritten: 0 }),
  );
  (bulk.stream as NodeJS.ReadableStream).pipe(counting);
  bulk.stream.on('error', (error: Error) => counting.destroy(error));
  counting.on('error', () => undefined);
  let summary: Awaited<ReturnType<NonNullable<ConnectorHandle['importStaged']>>>;
  try {
    summary = await destination.handle.importStaged!(
      {
        dataset: destination.dataset,
        mode: destination.mode,
        keyColumns: destination.keyColumns,
        columns: plan.output,
        runId: options.runId,
      },
      { ...bulk, stream: counting },
      (relation) => plan.toPostgresSql(relation),
      signal,
    );
  } catch (error) {
    if (signal.aborted || !(error instanceof ConnectorError) || error.retryable || error.code !== 'failed') throw error;
    options.log('info', `${source.name}: the staged run stopped on a value (${error.message}); running in process`);
    return undefined;
  }
  return {
    path: 'staged',
    output: plan.output,
    cursors: {},
    rowsRead: summary.rowsStaged,
    bytesRead: counting.bytes(),
    rowsWritten: summary.rowsWritten,
    bytesWritten: summary.bytesWritten ?? 0,
  };
}

async function inProcess(
  options: PipelineRunOptions,
  plan: TransformPlan,
  samples: Sample[],
): Promise<PipelineRunResult> {
  const { destination, signal } = options;
  const counters: PipelineCounters = { rowsRead: 0, rowsWritten: 0, bytesRead: 0, bytesWritten: 0 };
  const cursors: Record<string, Value> = {};
  const conform = conformer(plan.input);
  const runner = plan.createRunner();
  const transformed = async function* (): AsyncIterable<RecordBatch> {
    for (const { source, columns } of samples) {
      if (!columns) continue;
      const cursorIndex = source.cursorColumn ? columns.findIndex((c) => c.name === source.cursorColumn) : -1;
      let max: Value | undefined;
      for await (const batch of source.handle.read!(readRequestOf(source), signal)) {
        if (signal.aborted) throw signal.reason;
        counters.rowsRead += batch.rows.length;
        counters.bytesRead += approximateBytes(batch);
        if (cursorIndex >= 0) {
          for (const row of batch.rows) {
            const value = row[cursorIndex];
            if (value !== null && value !== undefined && (max === undefined || compareCursor(value, max) > 0))
              max = value;
          }
        }
        options.onProgress?.(counters);
        const out = runner.apply(conform(batch));
        if (out.rows.length > 0) yield out;
      }
      if (max !== undefined) cursors[source.name] = max;
    }
    const rest = runner.flush();
    if (rest && rest.rows.length > 0) yield rest;
  };
  const summary = await destination.handle.write!(
    {
      dataset: destination.dataset,
      mode: destination.mode,
      keyColumns: destination.keyColumns,
      columns: plan.output,
      runId: options.runId,
    },
    transformed(),
    signal,
  );
  counters.rowsWritten = summary.rowsWritten;
  counters.bytesWritten = summary.bytesWritten ?? 0;
  return { path: 'in-process', output: plan.output, cursors, ...counters };
}

export interface PipelinePreview {
  input: ColumnSchema[];
  output: ColumnSchema[];
  rows: Value[][];
  streams: Array<{ name: string; rows_sampled: number }>;
  /** Whether a run would push the steps down into the source. */
  pushdown: boolean;
}

/** The steps over the first `limit` rows of each stream; nothing is written anywhere. */
export async function previewPipeline(options: {
  sources: PipelineSource[];
  steps: TransformStep[];
  limit: number;
  destination?: ConnectorHandle;
  masking?: PipelineRunOptions['masking'];
  signal?: AbortSignal;
}): Promise<PipelinePreview> {
  const { samples, plan } = await planPipeline(options.sources, options.steps, {
    sampleRows: options.limit,
    masking: options.masking,
    signal: options.signal,
  });
  const streams = samples.map((s) => ({ name: s.source.name, rows_sampled: s.rows.length }));
  if (!plan) return { input: [], output: [], rows: [], streams, pushdown: false };
  const conform = conformer(plan.input);
  const runner = plan.createRunner();
  const rows: Value[][] = [];
  for (const sample of samples) {
    if (sample.columns) rows.push(...runner.apply(conform({ columns: sample.columns, rows: sample.rows })).rows);
  }
  rows.push(...(runner.flush()?.rows ?? []));
  return {
    input: plan.input,
    output: plan.output,
    rows: rows.slice(0, options.limit),
    streams,
    pushdown: options.destination ? canPushDown(options.sources, options.destination) : false,
  };
}
