/**
 * The connector contract of the data plane. Connectors read and write record batches in canonical
 * types; the engine moves batches between them. Nothing here knows HTTP, users or the framework
 * database.
 */
import { Type, type Static, type TObject } from 'typebox';
import type { ChangeSink, ChangeSource } from './cdc/types.js';
import type { MessageSink, MessageSource, MessageSourceOptions, StartPosition } from './streams/types.js';

/** Canonical types every connector maps its own types to and from (docs/connectors.md has the tables). */
export const CANONICAL_TYPES = [
  'boolean',
  'int16',
  'int32',
  'int64',
  'float32',
  'float64',
  'decimal',
  'string',
  'uuid',
  'date',
  'time',
  'timestamp',
  'timestamptz',
  'json',
  'binary',
] as const;
export type CanonicalType = (typeof CANONICAL_TYPES)[number];

/**
 * How a value of each canonical type travels in a batch: JS values chosen so that nothing is lost.
 * int64 and decimal as strings (exact digits), date as 'YYYY-MM-DD', time as 'HH:MM:SS[.ffffff]',
 * timestamp as 'YYYY-MM-DDTHH:MM:SS[.ffffff]' (no zone), timestamptz as an ISO string in UTC with
 * microseconds, json as the parsed value or, from SQL sources, as its text (JsonText: exact), binary
 * as a Buffer, null (SQL NULL) as null.
 */
export type Value = null | boolean | number | string | Buffer | JsonArray | JsonObject | JsonText;

/**
 * A JSON document as the source wrote it. SQL sources deliver json columns this way, so that JSON
 * `null` stays distinct from SQL NULL and numbers keep every digit (30-digit integers, 1e400): the
 * text is written as it came, and parsed only where a transform looks inside (lossy for numbers a
 * double cannot hold, and there only).
 */
export class JsonText {
  constructor(readonly text: string) {}
  /** The parsed document (numbers as doubles). */
  parse(): JsonValue {
    return JSON.parse(this.text) as JsonValue;
  }
  /** Inside a JSON.stringify of something else (an API response): the parsed document. */
  toJSON(): JsonValue {
    return this.parse();
  }
  toString(): string {
    return this.text;
  }
}

/** The JSON text of a json value, exact when it is a JsonText. */
export function jsonTextOf(value: unknown): string {
  if (value instanceof JsonText) return value.text;
  return JSON.stringify(value) ?? 'null';
}

/** A json value as transforms see it: parsed, JSON null as SQL null (as PostgreSQL's `nullif(.., 'null')`). */
export function jsonOperand(value: unknown): unknown {
  return value instanceof JsonText ? value.parse() : value;
}

/** A parsed JSON document (the `json` canonical type): what JSON.parse returns, nothing else. */
export type JsonValue = null | boolean | number | string | JsonArray | JsonObject;
export type JsonArray = JsonValue[];
export interface JsonObject {
  [key: string]: JsonValue;
}

export interface ColumnSchema {
  name: string;
  type: CanonicalType;
  /** The connector's own type name, as discovered. */
  sourceType: string;
  nullable: boolean;
  /** decimal: digits in total and after the point, when the source declares them. */
  precision?: number;
  scale?: number;
}

export interface DatasetRef {
  /** Schema (PostgreSQL), database (MySQL), folder (files); null where the source has none. */
  namespace: string | null;
  name: string;
}

export interface DatasetSchema extends DatasetRef {
  columns: ColumnSchema[];
  primaryKey: string[];
  /** The source's own estimate, null when it has none. */
  rowEstimate: number | null;
}

export interface RecordBatch {
  columns: ColumnSchema[];
  /** Row-major: each row has one value per column, in the order of `columns`. */
  rows: Value[][];
}

export type WriteMode = 'append' | 'overwrite' | 'upsert';

export interface ReadRequest {
  dataset: DatasetRef;
  /**
   * SQL connectors only (`sqlDialect`): read the result of this SELECT instead of `dataset` (which
   * then only names the stream). Run in a read-only transaction.
   */
  query?: string;
  /**
   * SQL connectors only: wraps the relation read (the table, or the query, with the incremental bounds
   * applied) in a SELECT of the caller's: how transforms are pushed down into the source.
   */
  select?: (relation: string) => string;
  /** Columns to read; all when omitted. */
  columns?: string[];
  /**
   * Incremental read: only rows whose cursor column is greater than `after` (and, where given, at most
   * `upTo`: connectors with `sqlDialect` honour it), in cursor order.
   */
  incremental?: { cursorColumn: string; after?: Value; upTo?: Value };
  /** One key range of a parallel read: `from` <= column < `to` (null: unbounded on that side). */
  range?: { column: string; from: Value; to: Value };
  batchSize?: number;
}

export interface WriteRequest {
  dataset: DatasetRef;
  mode: WriteMode;
  /** Required for upsert. */
  keyColumns?: string[];
  /** The columns of the batches that will arrive; the target table is created or widened to hold them. */
  columns: ColumnSchema[];
  /** Identifies the run, so a retried write of the same run does not write twice. */
  runId: string;
}

export interface WriteSummary {
  rowsWritten: number;
  /** Bytes sent to the destination, when the connector knows them. */
  bytesWritten?: number;
}

export type ConnectorErrorCode =
  | 'auth_failed'
  | 'unreachable'
  | 'timeout'
  | 'missing_privilege'
  | 'not_found'
  | 'schema_mismatch'
  | 'invalid_config'
  | 'unsupported'
  | 'failed';

/** A failure with a code the API and the retry policy understand; bad credentials are not retryable. */
export class ConnectorError extends Error {
  constructor(
    readonly code: ConnectorErrorCode,
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ConnectorError';
  }
}

export type CheckResult = { ok: true; detail?: string } | { ok: false; code: ConnectorErrorCode; message: string };

/** Where a connection may go: the address a connector connects to, chosen and checked by the host. */
export interface EgressPolicy {
  /**
   * Resolves `host` (a name or an IP literal) and checks every address against the host's rules for
   * `port`. The connector connects to the returned address, not to the name again, so that what was
   * checked is what is reached (no DNS rebinding between the check and the connection); the name stays
   * the one TLS verifies. Throws a ConnectorError whose message says "not allowed by the egress policy".
   */
  resolve(host: string, port: number): Promise<{ address: string; family: 4 | 6 }>;
}

/** Where a run's or a connector's log lines go. Never pass secrets. */
export type Log = (
  level: 'debug' | 'info' | 'warn' | 'error',
  message: string,
  fields?: Record<string, unknown>,
) => void;

export interface ConnectorContext {
  /** Where log lines of this connector go (the run's log, the API's log). Never pass secrets. */
  log: Log;
  /**
   * Checks every connection a connector opens to a host named in its configuration. Absent: every
   * such connection is refused, so a host must choose (egress.ts has a policy without limits for
   * hosts and tests that want one).
   */
  egress?: EgressPolicy;
  /** Bytes one HTTP response may have; a larger one fails the request. Default: 50 MB. */
  maxResponseBytes?: number;
}

/**
 * A bulk stream in a format two connectors both speak, moved without decoding a single value (the
 * fast path between PostgreSQL servers: COPY text out of one, into the other).
 */
export interface BulkStream {
  /**
   * `postgres-copy-text`: PostgreSQL's COPY text format. `csv`: CSV text (UTF-8) in the order of
   * `columns`, parsed and type-checked by the destination (PostgreSQL's COPY ... CSV): how a CSV
   * file is loaded without decoding it in process.
   */
  format: 'postgres-copy-text' | 'csv';
  /** csv: its delimiter and whether its first line is a header to skip. */
  csv?: { delimiter: string; header: boolean };
  columns: ColumnSchema[];
  stream: NodeJS.ReadableStream & { destroy(error?: Error): void };
}

export interface ConnectorHandle {
  /** Set when the source runs SQL in this dialect: it accepts `query` and `select` in read requests. */
  sqlDialect?: 'postgres';
  check(signal?: AbortSignal): Promise<CheckResult>;
  discover(signal?: AbortSignal): Promise<DatasetSchema[]>;
  read?(request: ReadRequest, signal?: AbortSignal): AsyncIterable<RecordBatch>;
  write?(request: WriteRequest, batches: AsyncIterable<RecordBatch>, signal?: AbortSignal): Promise<WriteSummary>;
  /** Smallest and largest value of a column (null for an empty dataset): how parallel reads split a table. */
  keyBounds?(dataset: DatasetRef, column: string, signal?: AbortSignal): Promise<{ min: Value; max: Value } | null>;
  /**
   * Optional fast path, full reads only: the dataset as a bulk stream; undefined when this dataset
   * or request has none (the caller reads batches instead).
   */
  exportBulk?(request: Omit<ReadRequest, 'batchSize' | 'range'>, signal?: AbortSignal): Promise<BulkStream | undefined>;
  /** Optional fast path: loads a bulk stream of a format this connector accepts (see `bulkFormats`). */
  importBulk?(request: WriteRequest, bulk: BulkStream, signal?: AbortSignal): Promise<WriteSummary>;
  /** Bulk formats importBulk accepts. */
  bulkFormats?: BulkStream['format'][];
  /**
   * Optional: rows computed in this database (PostgreSQL dialect). `bulk` (another connector's rows, of
   * `bulk.columns`) is staged in a temporary table, and the rows of `select(relation)` over it are
   * written as `request` says (its columns are the SELECT's), all in one transaction.
   */
  importStaged?(
    request: WriteRequest,
    bulk: BulkStream,
    select: (relation: string) => string,
    signal?: AbortSignal,
  ): Promise<WriteSummary & { rowsStaged: number }>;
  /** Change capture of a table (docs/cdc.md); `captureId` names what it creates at the source (slot, publication). */
  changeSource?(captureId: string): ChangeSource;
  /** Applies captured changes to a table here. */
  changeSink?(): ChangeSink;
  /** Message brokers: consumes a subject, queue, topic or stream key (docs/streams.md). */
  messageSource?(options: MessageSourceOptions): MessageSource;
  /** Writes consumed messages here, each exactly once (a ledger of message ids in the same transaction). */
  messageSink?(): MessageSink;
  /** Always called, also after a failure. */
  close(): Promise<void>;
}

/**
 * The configuration users set, declared once with TypeBox: it is both the JSON Schema hosts serve and
 * validate with (a property with `"x-secret": true` is a secret: write-only, encrypted) and, through
 * `Static`, the connector's TypeScript type.
 */
export type ConfigSpec = TObject;

/**
 * A connector at one version. `Spec` is what users may set (the spec refuses anything else);
 * `Host` is what the host adds at open (never user input: a warehouse's tenant, a folder to stay in).
 */
export interface ConnectorDefinition<Spec extends ConfigSpec = ConfigSpec, Host extends object = object> {
  /** Stable id stored with each data connector, e.g. 'postgres'. */
  kind: string;
  title: string;
  /** A breaking configuration change means a new version; old versions stay registered (registry.ts). */
  version: number;
  spec: Spec;
  capabilities: {
    read: boolean;
    write: boolean;
    writeModes: WriteMode[];
    /** Message brokers: the start positions a new consumer may take (docs/streams.md). */
    stream?: { starts: StartPosition[] };
  };
  open(config: ConnectorConfig<Spec, Host>, context: ConnectorContext): Promise<ConnectorHandle>;
}

/** What `open` receives: the user's configuration (validated against the spec) and the host's part. */
export type ConnectorConfig<Spec extends ConfigSpec, Host extends object = object> = Static<Spec> & Host;

/** Names of the secret fields of a spec. */
export function secretFields(spec: ConfigSpec): string[] {
  return Object.entries(spec.properties)
    .filter(([, property]) => (property as Record<string, unknown>)['x-secret'] === true)
    .map(([name]) => name);
}

/** A secret text field of a spec: write-only, encrypted at rest, never returned. */
export const Secret = (title: string) => Type.Optional(Type.String({ title, 'x-secret': true }));
