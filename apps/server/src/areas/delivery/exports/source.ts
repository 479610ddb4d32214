/**
 * Where an export's rows come from: a SELECT over the project's own warehouse schema (run as the
 * project's own role, in a read-only transaction), or a dataset of one of the project's data
 * connectors, read through the engine. Both give record batches; a warehouse query exported whole to
 * CSV or NDJSON also has the fast path, COPY straight to the file.
 */
import { connectorFor, type ConnectorHandle, type Log, type ReadRequest, type Value } from '@svc/engine';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import type { MaskedReads, MaskedViewPlan, ProjectWarehouse } from '../../connectivity/warehouse.js';
import type { CsvFormatConfig, FormatConfig } from './config.js';
import type { ExportRow } from './repository.js';

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Where a pipeline writes: its destination connector and table. */
export interface PipelineOutput {
  project_id: string;
  name: string;
  connector_id: string;
  namespace: string | null;
  table: string;
}

export interface SourceDeps {
  openConnector(id: string, log: Log): Promise<ConnectorHandle>;
  pipelineOutput(id: string): Promise<PipelineOutput | undefined>;
  projectWarehouse(projectId: string, schema?: string): Promise<ProjectWarehouse> | undefined;
  /** Masked views of the project's warehouse for one run (undefined: no warehouse here). */
  maskedReads(projectId: string, plan: MaskedViewPlan): Promise<MaskedReads> | undefined;
}

export class ExportSourceError extends Error {
  constructor(
    message: string,
    readonly retryable = false,
  ) {
    super(message);
  }
}

const warehouseOf = async (deps: SourceDeps, row: ExportRow) => {
  const tenant = await deps.projectWarehouse(row.project_id, row.source.schema ?? 'main');
  if (!tenant) throw new ExportSourceError('the built-in warehouse is unavailable on this instance');
  return tenant;
};

/** Opens the source as a connector handle and the read request for it. */
export async function openSource(
  deps: SourceDeps,
  row: ExportRow,
  log: Log,
  incremental?: ReadRequest['incremental'],
): Promise<{ handle: ConnectorHandle; request: ReadRequest }> {
  const columns = row.columns ?? undefined;
  if (row.source.kind === 'warehouse_query') {
    const tenant = await warehouseOf(deps, row);
    const definition = connectorFor('warehouse');
    if (!definition) throw new ExportSourceError('the warehouse connector is not registered');
    const handle = await definition.open({ schema: row.source.schema ?? 'main', tenant }, { log });
    const filter = row.filter;
    return {
      handle,
      request: {
        dataset: { namespace: null, name: row.name },
        query: row.source.query,
        columns,
        incremental,
        select: filter ? (relation) => `select * from ${relation} where (${filter})` : undefined,
      },
    };
  }
  // A pipeline's output: the table its destination connector holds, as the pipeline is now.
  let { connector_id: connectorId, namespace, dataset } = row.source;
  if (row.source.kind === 'pipeline') {
    const output = await deps.pipelineOutput(row.source.pipeline_id!);
    if (!output || output.project_id !== row.project_id)
      throw new ExportSourceError('the source pipeline no longer exists in this project');
    ({ connector_id: connectorId, namespace, table: dataset } = output);
  }
  const handle = await deps.openConnector(connectorId!, log);
  if (!handle.read) {
    await handle.close();
    throw new ExportSourceError('the source connector cannot be read');
  }
  return {
    handle,
    request: {
      dataset: { namespace: namespace ?? null, name: dataset! },
      columns,
      incremental,
    },
  };
}

const literal = (client: pg.Client, text: string) => client.escapeLiteral(text);

/** The COPY options of a CSV format (PostgreSQL writes it exactly as the format says). */
function copyOptions(client: pg.Client, format: CsvFormatConfig, header: boolean): string {
  const options = [
    'format csv',
    `header ${header ? 'true' : 'false'}`,
    `delimiter ${literal(client, format.delimiter)}`,
    `quote ${literal(client, format.quote)}`,
    `escape ${literal(client, format.quote)}`,
    `null ${literal(client, format.null_value)}`,
  ];
  if (format.quoting === 'all') options.push('force_quote *');
  return options.join(', ');
}

/**
 * The fast path of a warehouse query exported whole to one CSV or NDJSON file: COPY of the query,
 * as the project's role, in a read-only transaction. NDJSON is each row's `row_to_json`, copied as
 * CSV with a quote and a delimiter JSON text never holds raw, so the lines come out as they are.
 */
export async function copyWarehouseQuery(
  deps: SourceDeps,
  row: ExportRow,
  format: FormatConfig,
): Promise<{ stream: NodeJS.ReadableStream & { rowCount: number }; done(): Promise<void> }> {
  const tenant = await warehouseOf(deps, row);
  const { connection } = tenant;
  const client = new pg.Client({
    host: connection.host,
    port: connection.port ?? 5432,
    database: connection.database,
    user: connection.user,
    password: connection.password,
    ssl: connection.ssl ? { rejectUnauthorized: true } : false,
    application_name: 'svc-export',
    options: `-c TimeZone=UTC -c DateStyle=ISO -c search_path=${quoteIdent(tenant.schema).replace(/[\\ ]/g, '\\$&')}`,
  });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const columns = row.columns?.length ? row.columns.map(quoteIdent).join(', ') : '*';
    const where = row.filter ? ` where (${row.filter})` : '';
    const select = `select ${columns} from (${row.source.query}\n) as svc_query${where}`;
    await client.query('begin isolation level repeatable read read only');
    // One statement, checked by the extended protocol; COPY (simple protocol) then gets the same
    // balanced text, so a query cannot close the parentheses and add a statement of its own.
    await client.query({
      text: `select * from (${select}) as svc_export limit 0`,
      queryMode: 'extended',
    } as pg.QueryConfig);
    const copy =
      format.type === 'csv'
        ? `copy (${select}) to stdout with (${copyOptions(client, format, format.header)})`
        : `copy (select row_to_json(svc_row)::text from (${select}) as svc_row) to stdout with (format csv, quote e'\\x01', delimiter e'\\x02')`;
    const stream = client.query(copyStreams.to(copy));
    return {
      stream,
      async done() {
        await client.query('commit').catch(() => undefined);
        await client.end().catch(() => undefined);
      },
    };
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}

/** A value as text for CSV: JSON as JSON, binary as \x hex (PostgreSQL's text form). */
export function textOf(value: Value): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Buffer.isBuffer(value)) return `\\x${value.toString('hex')}`;
  return JSON.stringify(value);
}

/** A value as JSON can carry it: binary as \x hex, everything else as is. */
export const jsonValue = (value: Value): unknown => (Buffer.isBuffer(value) ? `\\x${value.toString('hex')}` : value);
