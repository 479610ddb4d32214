/**
 * Reads an endpoint page by page, each page in the chunks of records its body streams in: each chunk
 * becomes one batch (or several of at most `batchSize` rows), so memory holds one chunk, not a page. Incremental reads pass the saved cursor to the API when it has a
 * parameter for it, and filter here in any case: not every API filters strictly "after".
 */
import {
  ConnectorError,
  type ColumnSchema,
  type DatasetRef,
  type ReadRequest,
  type RecordBatch,
  type Value,
} from '../../types.js';
import type { ApiClient } from './client.js';
import type { ResolvedConfig, ResolvedEndpoint } from './config.js';
import { inferColumns, isRecord, toCanonical, ValueMismatch } from './infer.js';
import { fetchPages } from './pagination.js';
import { compareCursor, normalizeTimestamptz } from './values.js';

export interface ReadContext {
  client: ApiClient;
  config: ResolvedConfig;
  log: (level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>) => void;
  /** Columns by endpoint, from discover or from the first page a read saw. */
  schemas: Map<string, ColumnSchema[]>;
}

export function endpointFor(config: ResolvedConfig, dataset: DatasetRef): ResolvedEndpoint {
  const endpoint = config.endpoints.find((e) => e.name === dataset.name);
  if (!endpoint || dataset.namespace)
    throw new ConnectorError('not_found', `no endpoint named "${dataset.name}"`, false);
  return endpoint;
}

function recordsOnly(endpoint: ResolvedEndpoint, records: unknown[]): Record<string, unknown>[] {
  const stray = records.find((record) => !isRecord(record));
  if (stray !== undefined) {
    const kind = stray === null ? 'null' : Array.isArray(stray) ? 'array' : typeof stray;
    throw new ConnectorError(
      'schema_mismatch',
      `endpoint "${endpoint.name}": records must be JSON objects, found a ${kind} (check records_path)`,
      false,
    );
  }
  return records as Record<string, unknown>[];
}

function convert(endpoint: ResolvedEndpoint, record: Record<string, unknown>, column: ColumnSchema): Value {
  try {
    return toCanonical(Object.hasOwn(record, column.name) ? record[column.name] : null, column.type);
  } catch (error) {
    if (!(error instanceof ValueMismatch)) throw error;
    throw new ConnectorError(
      'schema_mismatch',
      `endpoint "${endpoint.name}", field "${column.name}": ${error.message}; discover the endpoint again`,
      false,
    );
  }
}

export async function* readEndpoint(
  context: ReadContext,
  request: ReadRequest,
  signal?: AbortSignal,
): AsyncIterable<RecordBatch> {
  const endpoint = endpointFor(context.config, request.dataset);
  const batchSize = request.batchSize && request.batchSize > 0 ? request.batchSize : Infinity;
  const cursorColumn = request.incremental?.cursorColumn;
  let after = request.incremental?.after ?? undefined;
  if (typeof after === 'string') after = normalizeTimestamptz(after) ?? after;

  // The API filters by its cursor parameter only when that parameter is about the requested column.
  const params: Record<string, string> = {};
  if (after !== undefined && endpoint.cursorParam && (!endpoint.cursorField || endpoint.cursorField === cursorColumn)) {
    params[endpoint.cursorParam] = typeof after === 'object' ? JSON.stringify(after) : String(after);
  }

  let schema = context.schemas.get(endpoint.name);
  let selected: ColumnSchema[] | undefined;
  for await (const page of fetchPages(context.client, context.config, endpoint, context.log, params, signal)) {
    for await (const chunk of page.records) {
      signal?.throwIfAborted();
      const records = recordsOnly(endpoint, chunk);
      if (records.length === 0) continue;
      if (!schema) {
        schema = inferColumns(records);
        context.schemas.set(endpoint.name, schema);
      }
      selected ??= select(endpoint, schema, request.columns);
      const cursorSchema =
        cursorColumn === undefined ? undefined : (schema.find((c) => c.name === cursorColumn) ?? null);

      let rows: Value[][] = [];
      for (const record of records) {
        if (after !== undefined && cursorColumn !== undefined) {
          const raw = record[cursorColumn];
          const value = cursorSchema ? convert(endpoint, record, cursorSchema) : (raw ?? null);
          if (value === null || compareCursor(value, after) <= 0) continue;
        }
        rows.push(selected.map((column) => convert(endpoint, record, column)));
        if (rows.length >= batchSize) {
          yield { columns: selected, rows };
          rows = [];
        }
      }
      if (rows.length > 0) yield { columns: selected, rows };
    }
  }
}

function select(endpoint: ResolvedEndpoint, schema: ColumnSchema[], names: string[] | undefined): ColumnSchema[] {
  if (!names?.length) return schema;
  return names.map((name) => {
    const column = schema.find((c) => c.name === name);
    if (!column)
      throw new ConnectorError(
        'schema_mismatch',
        `endpoint "${endpoint.name}" has no field "${name}" in the records sampled`,
        false,
      );
    return column;
  });
}
