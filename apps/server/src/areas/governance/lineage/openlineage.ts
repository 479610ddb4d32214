/**
 * OpenLineage 2-0-2 RunEvents as we emit them, and how our datasets are named the OpenLineage way
 * (namespace `postgres://host:port`, name `database.schema.table`; `mysql://host:port` with
 * `database.table`; `file://host` with an absolute path; `s3://bucket` with a key; `sftp://host:port`
 * with a path). The facets are the standard schema, columnLineage, outputStatistics, jobType and
 * errorMessage ones, and `svc_run` of our own (docs/lineage.md).
 */
import os from 'node:os';

export const PRODUCER = 'https://github.com/svc-data/svc/tree/main/apps/server';
export const RUN_EVENT_SCHEMA_URL = 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent';
export const FACET_SCHEMAS = {
  schema: 'https://openlineage.io/spec/facets/1-1-1/SchemaDatasetFacet.json#/$defs/SchemaDatasetFacet',
  columnLineage:
    'https://openlineage.io/spec/facets/1-2-0/ColumnLineageDatasetFacet.json#/$defs/ColumnLineageDatasetFacet',
  outputStatistics:
    'https://openlineage.io/spec/facets/1-0-2/OutputStatisticsOutputDatasetFacet.json#/$defs/OutputStatisticsOutputDatasetFacet',
  jobType: 'https://openlineage.io/spec/facets/2-0-3/JobTypeJobFacet.json#/$defs/JobTypeJobFacet',
  errorMessage: 'https://openlineage.io/spec/facets/1-0-1/ErrorMessageRunFacet.json#/$defs/ErrorMessageRunFacet',
  svcRun: 'https://github.com/svc-data/svc/blob/main/docs/lineage.md#svc_run-run-facet',
} as const;

export type RunEventType = 'START' | 'COMPLETE' | 'FAIL' | 'ABORT';

/** Where a connector's data lives, as the lineage service needs it to name datasets. */
export interface ConnectorLocation {
  kind: string;
  config: Record<string, unknown>;
  /** The built-in warehouse: its server, database and the project's schema the connector stands for. */
  warehouse?: { host: string; port: number; database: string; schema: string };
}

export interface OlDataset {
  namespace: string;
  name: string;
}

const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
const hostPort = (config: Record<string, unknown>, defaultPort: number) =>
  `${str(config.host) ?? 'localhost'}:${typeof config.port === 'number' ? config.port : defaultPort}`;
const joinPath = (...parts: Array<string | null | undefined>) =>
  `/${parts
    .filter((p): p is string => !!p)
    .map((p) => p.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/')}`;

/** The OpenLineage name of dataset `name` (in schema/folder `namespace`) of a connector. */
export function datasetOf(location: ConnectorLocation, namespace: string | null, name: string): OlDataset {
  const { config } = location;
  switch (location.kind) {
    case 'postgres':
      return {
        namespace: `postgres://${hostPort(config, 5432)}`,
        name: `${str(config.database) ?? 'postgres'}.${namespace ?? str(config.schema) ?? 'public'}.${name}`,
      };
    case 'warehouse': {
      const w = location.warehouse;
      return w
        ? { namespace: `postgres://${w.host}:${w.port}`, name: `${w.database}.${w.schema}.${name}` }
        : { namespace: 'postgres://warehouse', name: `${namespace ?? str(config.schema) ?? 'main'}.${name}` };
    }
    case 'mysql':
      return { namespace: `mysql://${hostPort(config, 3306)}`, name: `${namespace ?? str(config.database)}.${name}` };
    case 'files':
      return { namespace: `file://${os.hostname()}`, name: joinPath(str(config.path), namespace, name) };
    case 'sftp':
      return { namespace: `sftp://${hostPort(config, 22)}`, name: joinPath(str(config.path), namespace, name) };
    case 'rabbitmq':
      return { namespace: `amqp://${hostPort(config, 5672)}`, name: namespace ? `${namespace}.${name}` : name };
    case 'nats':
      return { namespace: `nats://${urlHost(config, 4222)}`, name };
    case 'mqtt':
      return { namespace: `mqtt://${urlHost(config, 1883)}`, name };
    case 'redis_streams':
      return { namespace: `redis://${urlHost(config, 6379)}`, name };
    case 'http_api': {
      const base = str(config.base_url) ?? str(config.url);
      try {
        const url = new URL(base ?? '');
        return { namespace: `${url.protocol}//${url.host}`, name: joinPath(url.pathname, name) };
      } catch {
        return { namespace: 'https://unknown', name };
      }
    }
    default:
      return {
        namespace: `${location.kind}://${str(config.host) ?? 'local'}`,
        name: namespace ? `${namespace}.${name}` : name,
      };
  }
}

/** host:port from `host`/`port` or from a `url`/`servers` setting. */
function urlHost(config: Record<string, unknown>, defaultPort: number): string {
  if (str(config.host)) return hostPort(config, defaultPort);
  const first = str(config.url) ?? (Array.isArray(config.servers) ? str(config.servers[0]) : str(config.servers));
  if (first)
    try {
      const url = new URL(first.includes('://') ? first : `x://${first}`);
      return `${url.hostname}:${url.port || defaultPort}`;
    } catch {
      // fall through
    }
  return `localhost:${defaultPort}`;
}

export interface SchemaField {
  name: string;
  type?: string;
}

export interface ColumnLineageFacetField {
  inputFields: Array<{
    namespace: string;
    name: string;
    field: string;
    transformations?: Array<{ type: string; subtype?: string; description?: string; masking?: boolean }>;
  }>;
}

const facet = (schemaURL: string) => ({ _producer: PRODUCER, _schemaURL: schemaURL });

export interface EventIo {
  direction: 'input' | 'output';
  namespace: string;
  name: string;
  fields: SchemaField[] | null;
  columnLineage: Record<string, ColumnLineageFacetField> | null;
  rowCount: number | null;
}

/** One RunEvent of the 2-0-2 specification. */
export function runEvent(args: {
  eventType: RunEventType;
  eventTime: Date;
  runId: string;
  job: { namespace: string; name: string; kind: string; streaming: boolean };
  run: { kind: string; status: string; projectId: string; itemId: string | null; error: string | null };
  io: EventIo[];
}) {
  const datasetFacets = (io: EventIo) => {
    const facets: Record<string, unknown> = {};
    if (io.fields?.length)
      facets.schema = {
        ...facet(FACET_SCHEMAS.schema),
        fields: io.fields.map((f) => ({ name: f.name, ...(f.type ? { type: f.type } : {}) })),
      };
    if (io.columnLineage && Object.keys(io.columnLineage).length)
      facets.columnLineage = { ...facet(FACET_SCHEMAS.columnLineage), fields: io.columnLineage };
    return facets;
  };
  const runFacets: Record<string, unknown> = {
    svc_run: {
      ...facet(FACET_SCHEMAS.svcRun),
      kind: args.run.kind,
      status: args.run.status,
      projectId: args.run.projectId,
      ...(args.run.itemId ? { itemId: args.run.itemId } : {}),
    },
  };
  if (args.run.error && (args.eventType === 'FAIL' || args.eventType === 'ABORT'))
    runFacets.errorMessage = {
      ...facet(FACET_SCHEMAS.errorMessage),
      message: args.run.error,
      programmingLanguage: 'TypeScript',
    };
  return {
    eventType: args.eventType,
    eventTime: args.eventTime.toISOString(),
    producer: PRODUCER,
    schemaURL: RUN_EVENT_SCHEMA_URL,
    run: { runId: args.runId, facets: runFacets },
    job: {
      namespace: args.job.namespace,
      name: args.job.name,
      facets: {
        jobType: {
          ...facet(FACET_SCHEMAS.jobType),
          processingType: args.job.streaming ? 'STREAMING' : 'BATCH',
          integration: 'SVC',
          jobType: args.job.kind.toUpperCase(),
        },
      },
    },
    inputs: args.io
      .filter((io) => io.direction === 'input')
      .map((io) => ({ namespace: io.namespace, name: io.name, facets: datasetFacets(io) })),
    outputs: args.io
      .filter((io) => io.direction === 'output')
      .map((io) => ({
        namespace: io.namespace,
        name: io.name,
        facets: datasetFacets(io),
        ...(io.rowCount !== null && args.eventType === 'COMPLETE'
          ? { outputFacets: { outputStatistics: { ...facet(FACET_SCHEMAS.outputStatistics), rowCount: io.rowCount } } }
          : {}),
      })),
  };
}

export type RunEvent = ReturnType<typeof runEvent>;
