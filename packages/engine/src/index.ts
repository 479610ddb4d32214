export * from './types.js';
export { connectorFor, connectors } from './registry.js';
export type { PostgresConfig } from './connectors/postgres/client.js';
