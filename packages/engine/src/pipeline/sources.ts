/**
 * The source side of a pipeline: each stream sampled (its columns and first rows), the streams'
 * columns united by name, and every batch of a stream conformed to that union.
 */
import type {
  CanonicalType,
  ColumnSchema,
  ConnectorHandle,
  DatasetRef,
  ReadRequest,
  RecordBatch,
  Value,
} from '../types.js';
import { ConnectorError, jsonTextOf } from '../types.js';

export interface PipelineSource {
  /** The stream's name, unique in the pipeline: the key of its incremental state. */
  name: string;
  handle: ConnectorHandle;
  dataset: DatasetRef;
  /** SQL sources: a SELECT read instead of the dataset. */
  query?: string;
  /** Incremental: the cursor column and the value saved by the previous run. */
  cursorColumn?: string;
  after?: Value;
}

export interface Sample {
  source: PipelineSource;
  columns: ColumnSchema[] | undefined;
  rows: Value[][];
}

export const readRequestOf = (source: PipelineSource, extra: Partial<ReadRequest> = {}): ReadRequest => ({
  dataset: source.dataset,
  query: source.query,
  incremental: source.cursorColumn
    ? { cursorColumn: source.cursorColumn, after: source.after ?? undefined }
    : undefined,
  ...extra,
});

/** The first `limit` rows of a stream (fewer when it has fewer), and its columns when it has any row. */
export async function sampleSource(source: PipelineSource, limit: number, signal?: AbortSignal): Promise<Sample> {
  if (!source.handle.read)
    throw new ConnectorError('unsupported', `the connector of stream "${source.name}" cannot be read`, false);
  if (source.query && !source.handle.sqlDialect)
    throw new ConnectorError('unsupported', `stream "${source.name}": only SQL connectors take a query`, false);
  for await (const batch of source.handle.read(readRequestOf(source, { batchSize: limit }), signal)) {
    if (source.cursorColumn && !batch.columns.some((c) => c.name === source.cursorColumn)) {
      throw new ConnectorError(
        'schema_mismatch',
        `stream "${source.name}": cursor column "${source.cursorColumn}" is not in the source`,
        false,
      );
    }
    return { source, columns: batch.columns, rows: batch.rows.slice(0, limit) };
  }
  return { source, columns: undefined, rows: [] };
}

const INTEGER: CanonicalType[] = ['int16', 'int32', 'int64'];
const NUMERIC: CanonicalType[] = [...INTEGER, 'float32', 'float64', 'decimal'];

/** The type two streams' columns of one name share: the wider integer, float64 for mixed numbers, else text. */
function widen(a: CanonicalType, b: CanonicalType): CanonicalType {
  if (a === b) return a;
  if (INTEGER.includes(a) && INTEGER.includes(b)) return 'int64';
  if (NUMERIC.includes(a) && NUMERIC.includes(b)) return 'float64';
  return 'string';
}

/** Columns of all streams by name, in the order first seen. */
export function uniteColumns(samples: Sample[]): ColumnSchema[] {
  const united: ColumnSchema[] = [];
  for (const sample of samples) {
    for (const column of sample.columns ?? []) {
      const index = united.findIndex((c) => c.name === column.name);
      if (index < 0) united.push({ ...column });
      else {
        const existing = united[index]!;
        const type = widen(existing.type, column.type);
        united[index] =
          type === existing.type ? existing : { name: existing.name, type, sourceType: type, nullable: true };
      }
    }
  }
  return united;
}

function textOf(value: Value): string {
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return `\\x${value.toString('hex')}`;
  if (typeof value === 'object') return jsonTextOf(value);
  return String(value);
}

function convert(value: Value, from: CanonicalType, to: CanonicalType): Value {
  if (value === null || value === undefined || from === to) return value ?? null;
  if (to === 'int64') return String(value);
  if (to === 'float64') return Number(value);
  return textOf(value);
}

/**
 * A function that turns a batch of one stream into a batch of the united columns: the same arrays
 * when nothing differs (the single-stream case), else reordered, widened, missing columns null.
 */
export function conformer(united: ColumnSchema[]): (batch: RecordBatch) => RecordBatch {
  let lastColumns: ColumnSchema[] | undefined;
  let plan: Array<{ from: number; fromType: CanonicalType }> | undefined;
  let identity = false;
  return (batch) => {
    if (batch.columns !== lastColumns) {
      lastColumns = batch.columns;
      plan = united.map((column) => {
        const from = batch.columns.findIndex((c) => c.name === column.name);
        return { from, fromType: from >= 0 ? batch.columns[from]!.type : column.type };
      });
      identity =
        batch.columns.length === united.length && plan.every((p, i) => p.from === i && p.fromType === united[i]!.type);
    }
    if (identity) return { columns: united, rows: batch.rows };
    const rows = batch.rows.map((row) =>
      plan!.map((p, i) => (p.from < 0 ? null : convert(row[p.from] ?? null, p.fromType, united[i]!.type))),
    );
    return { columns: united, rows };
  };
}
