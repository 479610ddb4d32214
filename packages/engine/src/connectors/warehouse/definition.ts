/**
 * The built-in warehouse: a database on the service's own PostgreSQL server, so a new user can load
 * data with nothing else installed. Users choose only a schema; the host passes the connection
 * (never user input) in `connection` when it opens the connector.
 */
import type { ConnectorDefinition } from '../../types.js';
import type { PostgresConfig } from '../postgres/client.js';
import { openPostgres } from '../postgres/definition.js';

export interface WarehouseConfig {
  schema?: string;
  /** Injected by the host: the warehouse database of the framework server. */
  connection?: Omit<PostgresConfig, 'schema'>;
}

export const warehouseConnector: ConnectorDefinition<WarehouseConfig> = {
  kind: 'warehouse',
  title: 'Built-in warehouse',
  version: 1,
  spec: {
    type: 'object',
    additionalProperties: false,
    properties: {
      schema: { type: 'string', minLength: 1, maxLength: 63, pattern: '^[a-z_][a-z0-9_]*$', default: 'public', title: 'Schema' },
    },
  },
  capabilities: { read: true, write: true, writeModes: ['append', 'overwrite', 'upsert'] },
  async open(config) {
    if (!config.connection) throw new Error('the built-in warehouse is not available on this instance');
    return openPostgres({ ...config.connection, schema: config.schema ?? 'public' });
  },
};
