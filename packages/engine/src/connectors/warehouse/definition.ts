/**
 * The built-in warehouse: a database on the service's own PostgreSQL server, so a new user can load
 * data with nothing else installed. Users choose only a schema name; the host turns it into the
 * project's own schema and passes, in `tenant`, how to connect as the project's own role (never user
 * input: the spec refuses any other field). Every dataset is confined to that schema.
 */
import type { ChangeSink, ChangeSource } from '../../cdc/types.js';
import type { MessageSink } from '../../streams/types.js';
import { Type } from 'typebox';
import {
  ConnectorError,
  type ConnectorConfig,
  type ConnectorDefinition,
  type ConnectorHandle,
  type DatasetRef,
} from '../../types.js';
import type { PostgresConfig } from '../postgres/client.js';
import { postgresChangeSource } from '../postgres/cdc.js';
import { openPostgres } from '../postgres/definition.js';

type Connection = Omit<PostgresConfig, 'schema'>;

export const warehouseSpec = Type.Object(
  {
    /** A schema of the project, by the name the project gives it. */
    schema: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 45,
        pattern: '^[a-z_][a-z0-9_]*$',
        default: 'main',
        title: 'Schema',
        description: "A schema of the project's own (created on first use); other projects' schemas cannot be named",
      }),
    ),
  },
  { additionalProperties: false },
);

/** Injected by the host, never by users' configs (the spec refuses it). */
export interface WarehouseHostConfig {
  tenant?: {
    /** The project's own role. */
    connection: Connection;
    /** The PostgreSQL schema `schema` stands for, owned by that role. */
    schema: string;
    /** Change capture needs the REPLICATION attribute, which no project role has: the service's login, confined to `schema`. */
    captureConnection: Connection;
  };
}

export type WarehouseConfig = ConnectorConfig<typeof warehouseSpec, WarehouseHostConfig>;

/** A dataset of this warehouse: in its schema, whatever namespace the request names. */
function confine(schema: string, dataset: DatasetRef): DatasetRef {
  if (dataset.namespace !== null && dataset.namespace !== undefined && dataset.namespace !== schema) {
    throw new ConnectorError(
      'not_found',
      `"${dataset.namespace}"."${dataset.name}" is not in this warehouse connector's schema "${schema}"`,
      false,
    );
  }
  return { ...dataset, namespace: schema };
}

function confinedChangeSource(source: ChangeSource, schema: string): ChangeSource {
  return {
    ...source,
    describe: (table, signal) => source.describe(confine(schema, table), signal),
    snapshot: (table, signal) => source.snapshot(confine(schema, table), signal),
    stream: (table, position, onTransaction, options) =>
      source.stream(confine(schema, table), position, onTransaction, options),
  };
}

function confinedChangeSink(sink: ChangeSink, schema: string): ChangeSink {
  return {
    ...sink,
    loadSnapshot: (captureId, target, mode, snapshot, signal) =>
      sink.loadSnapshot(captureId, confine(schema, target), mode, snapshot, signal),
    apply: (captureId, target, mode, primaryKey, transactions) =>
      sink.apply(captureId, confine(schema, target), mode, primaryKey, transactions),
  };
}

function confinedMessageSink(sink: MessageSink, schema: string): MessageSink {
  return {
    ...sink,
    columns: (target) => sink.columns(confine(schema, target)),
    write: (streamId, request) => sink.write(streamId, { ...request, target: confine(schema, request.target) }),
  };
}

export function openWarehouse(tenant: NonNullable<WarehouseConfig['tenant']>): ConnectorHandle {
  const { schema } = tenant;
  const handle = openPostgres({ ...tenant.connection, schema, searchPath: schema });
  return {
    ...handle,
    read: (request, signal) => handle.read!({ ...request, dataset: confine(schema, request.dataset) }, signal),
    write: (request, batches, signal) =>
      handle.write!({ ...request, dataset: confine(schema, request.dataset) }, batches, signal),
    keyBounds: (dataset, column, signal) => handle.keyBounds!(confine(schema, dataset), column, signal),
    exportBulk: (request, signal) =>
      handle.exportBulk!({ ...request, dataset: confine(schema, request.dataset) }, signal),
    importBulk: (request, bulk, signal) =>
      handle.importBulk!({ ...request, dataset: confine(schema, request.dataset) }, bulk, signal),
    importStaged: (request, bulk, select, signal) =>
      handle.importStaged!({ ...request, dataset: confine(schema, request.dataset) }, bulk, select, signal),
    changeSource: (captureId) =>
      confinedChangeSource(postgresChangeSource({ ...tenant.captureConnection, schema }, schema, captureId), schema),
    changeSink: () => confinedChangeSink(handle.changeSink!(), schema),
    messageSink: () => confinedMessageSink(handle.messageSink!(), schema),
  };
}

export const warehouseConnector: ConnectorDefinition<typeof warehouseSpec, WarehouseHostConfig> = {
  kind: 'warehouse',
  title: 'Built-in warehouse',
  version: 1,
  spec: warehouseSpec,
  capabilities: { read: true, write: true, writeModes: ['append', 'overwrite', 'upsert'] },
  async open(config) {
    if (!config.tenant)
      throw new ConnectorError('invalid_config', 'the built-in warehouse is not available on this instance', false);
    return openWarehouse(config.tenant);
  },
};
