export * from './types.js';
export { ConnectorRegistry, connectorFor, registry } from './registry.js';
export type { PostgresConfig } from './connectors/postgres/client.js';
export * from './batches.js';
export * from './pipeline/run.js';
export * from './transforms/index.js';
export * from './cdc/types.js';
export * from './cdc/run.js';
export { CaptureThread, type CaptureEndpoint, type ThreadCaptureOptions } from './cdc/thread.js';
export * from './egress.js';
/** HTTP through the egress policy, and Retry-After, for hosts that send HTTP requests of their own (exports). */
export { retryAfterMs } from './connectors/http-api/client.js';
export * from './streams/types.js';
export * from './streams/run.js';
export { MessageRejected, SYSTEM_COLUMNS, decodeMessage, parsePath } from './streams/records.js';
export type { MessageFormat } from './streams/records.js';
export { recordTransform } from './streams/transform.js';
export { RecordInference, convertCell, MISMATCH, SAMPLE_ROWS } from './connectors/files/infer.js';
/** Parquet encoding of canonical batches (the files connector's), for hosts that write files of their own (exports). */
export { parquetFormat } from './connectors/files/formats/parquet.js';
/** SFTP connections (host key pinned, through the egress policy) and an SFTP directory as a file store, for hosts that write files of their own (exports). */
export { connectSftp, type SftpLogin } from './connectors/files/sftp-client.js';
export { SftpStore } from './connectors/files/sftp-store.js';
