export * from './types.js';
export { ConnectorRegistry, connectorFor, registry } from './registry.js';
export type { PostgresConfig } from './connectors/postgres/client.js';
export * from './batches.js';
export * from './pipeline/run.js';
export * from './transforms/index.js';
export * from './cdc/types.js';
export * from './cdc/run.js';
export * from './egress.js';
/** HTTP through the egress policy, and Retry-After, for hosts that send HTTP requests of their own (exports). */
export { egressAgent, retryAfterMs } from './connectors/http-api/client.js';
/** Parquet encoding of canonical batches (the files connector's), for hosts that write files of their own (exports). */
export { parquetFormat } from './connectors/files/formats/parquet.js';
