/**
 * What an export's destination and format may be: one TypeBox spec per destination kind and per
 * format, checked field by field (422 naming `destination.<field>` or `format.<field>`), with the
 * defaults filled in. Secret fields (`x-secret`) are kept apart and stored encrypted.
 */
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { Type, type TObject } from 'typebox';
import type { FieldError } from '../../../platform/errors/index.js';
import { schemaFieldErrors } from '../../../platform/sealed-config.js';

export const FilesDestination = Type.Object(
  {
    kind: Type.Literal('files'),
    folder: Type.String({
      maxLength: 500,
      default: 'exports',
      description: "A folder inside the project's folder of the files root (created when missing)",
    }),
    file_name: Type.String({
      minLength: 1,
      maxLength: 300,
      default: '{export}_{run_time}_{part}.{ext}',
      description: 'Placeholders: {export}, {run_time} (UTC, 20250102T030405Z), {run_id}, {part} (00001), {ext}',
    }),
    max_rows_per_file: Type.Optional(
      Type.Integer({ minimum: 1, description: 'Start a new part after this many rows (needs {part})' }),
    ),
  },
  { additionalProperties: false },
);

export const DatabaseDestination = Type.Object(
  {
    kind: Type.Literal('database'),
    engine: Type.Union([Type.Literal('postgres'), Type.Literal('mysql')], {
      description: 'postgres: PostgreSQL; mysql: MySQL or MariaDB',
    }),
    host: Type.String({ minLength: 1, maxLength: 255 }),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
    database: Type.String({ minLength: 1, maxLength: 128 }),
    user: Type.String({ minLength: 1, maxLength: 128 }),
    password: Type.Optional(Type.String({ maxLength: 1000, 'x-secret': true })),
    ssl: Type.Boolean({ default: false, description: 'Require TLS (server certificate verified)' }),
    schema: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'postgres: default public' })),
    table: Type.String({ minLength: 1, maxLength: 128, description: 'An existing table' }),
    write_mode: Type.Union(
      [Type.Literal('insert'), Type.Literal('update'), Type.Literal('upsert'), Type.Literal('mirror')],
      {
        description:
          'Matched on the export key_columns: insert; update (rows that exist); upsert; mirror (upsert, and delete rows gone from the source: needs mode diff)',
      },
    ),
    field_map: Type.Optional(
      Type.Record(Type.String({ minLength: 1 }), Type.String({ minLength: 1, maxLength: 128 }), {
        description: 'Source column -> destination column; when given, only these columns are written',
      }),
    ),
    null_handling: Type.Union([Type.Literal('overwrite'), Type.Literal('skip')], {
      default: 'overwrite',
      description: 'skip: a null from the source leaves the destination value as it is',
    }),
  },
  { additionalProperties: false },
);

export const HttpDestination = Type.Object(
  {
    kind: Type.Literal('http'),
    url: Type.String({
      format: 'uri',
      pattern: '^https?://',
      maxLength: 2000,
      description: 'Where batches are POSTed',
    }),
    auth_header_name: Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '^[A-Za-z0-9-]+$',
      default: 'Authorization',
    }),
    auth_header_value: Type.Optional(
      Type.String({ maxLength: 4000, 'x-secret': true, description: 'e.g. "Bearer <token>" (stored encrypted)' }),
    ),
    hmac_secret: Type.Optional(
      Type.String({
        minLength: 16,
        maxLength: 1000,
        'x-secret': true,
        description: 'Signs each body: <signature_header>: sha256=<hex HMAC-SHA256 of the body>',
      }),
    ),
    signature_header: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9-]+$', default: 'X-Signature' }),
    batch_size: Type.Integer({ minimum: 1, maximum: 10_000, default: 500, description: 'Records per request' }),
    max_attempts: Type.Integer({
      minimum: 1,
      maximum: 20,
      default: 6,
      description: 'Tries of a batch answered 429 or 5xx (exponential backoff, Retry-After honoured)',
    }),
    requests_per_second: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1000 })),
    timeout_seconds: Type.Integer({ minimum: 1, maximum: 600, default: 30 }),
  },
  { additionalProperties: false },
);

export const S3Destination = Type.Object(
  {
    kind: Type.Literal('s3'),
    endpoint: Type.Optional(
      Type.String({
        format: 'uri',
        pattern: '^https?://',
        maxLength: 500,
        description: 'An S3-compatible server; AWS S3 when omitted',
      }),
    ),
    region: Type.String({ minLength: 1, maxLength: 50, default: 'us-east-1' }),
    bucket: Type.String({ minLength: 3, maxLength: 63, pattern: '^[a-z0-9][a-z0-9.-]*[a-z0-9]$' }),
    prefix: Type.String({ maxLength: 500, default: 'exports/', description: 'Put before each object name' }),
    file_name: Type.String({ minLength: 1, maxLength: 300, default: '{export}_{run_time}_{part}.{ext}' }),
    max_rows_per_file: Type.Optional(Type.Integer({ minimum: 1 })),
    access_key_id: Type.String({ minLength: 1, maxLength: 200 }),
    secret_access_key: Type.Optional(Type.String({ maxLength: 500, 'x-secret': true })),
    force_path_style: Type.Boolean({ default: false, description: 'Path-style URLs (most S3-compatible servers)' }),
  },
  { additionalProperties: false },
);

export const SftpDestination = Type.Object(
  {
    kind: Type.Literal('sftp'),
    host: Type.String({ minLength: 1, maxLength: 255 }),
    port: Type.Integer({ minimum: 1, maximum: 65535, default: 22 }),
    username: Type.String({ minLength: 1, maxLength: 128 }),
    password: Type.Optional(Type.String({ maxLength: 1000, 'x-secret': true })),
    private_key: Type.Optional(
      Type.String({ maxLength: 20_000, 'x-secret': true, description: 'PEM or OpenSSH private key' }),
    ),
    passphrase: Type.Optional(Type.String({ maxLength: 1000, 'x-secret': true })),
    host_key_sha256: Type.String({
      pattern: '^SHA256:[A-Za-z0-9+/]{43}=?$',
      description:
        "The server's host key fingerprint as `ssh-keygen -lf` prints it (SHA256:...): any other key is refused",
    }),
    directory: Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'The directory on the server (created when missing)',
    }),
    file_name: Type.String({ minLength: 1, maxLength: 300, default: '{export}_{run_time}_{part}.{ext}' }),
    max_rows_per_file: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);

export const CsvFormat = Type.Object(
  {
    type: Type.Literal('csv'),
    delimiter: Type.String({ minLength: 1, maxLength: 1, default: ',' }),
    header: Type.Boolean({ default: true }),
    quote: Type.String({ minLength: 1, maxLength: 1, default: '"' }),
    quoting: Type.Union([Type.Literal('minimal'), Type.Literal('all')], {
      default: 'minimal',
      description: 'minimal: quote only values that need it; all: quote every non-null value',
    }),
    null_value: Type.String({ maxLength: 20, default: '', description: 'How null is written' }),
    gzip: Type.Boolean({ default: false }),
  },
  { additionalProperties: false },
);

export const NdjsonFormat = Type.Object(
  { type: Type.Literal('ndjson'), gzip: Type.Boolean({ default: false }) },
  { additionalProperties: false },
);

export type FilesDestinationConfig = {
  kind: 'files';
  folder: string;
  file_name: string;
  max_rows_per_file?: number;
};
/** Parquet: columns compressed inside the file (snappy), so no gzip around it. */
export const ParquetFormat = Type.Object({ type: Type.Literal('parquet') }, { additionalProperties: false });

export type CsvFormatConfig = {
  type: 'csv';
  delimiter: string;
  header: boolean;
  quote: string;
  quoting: 'minimal' | 'all';
  null_value: string;
  gzip: boolean;
};
export type NdjsonFormatConfig = { type: 'ndjson'; gzip: boolean };
export type ParquetFormatConfig = { type: 'parquet'; gzip?: undefined };
export type FormatConfig = CsvFormatConfig | NdjsonFormatConfig | ParquetFormatConfig;
export type DatabaseDestinationConfig = {
  kind: 'database';
  engine: 'postgres' | 'mysql';
  host: string;
  port?: number;
  database: string;
  user: string;
  password?: string;
  ssl: boolean;
  schema?: string;
  table: string;
  write_mode: 'insert' | 'update' | 'upsert' | 'mirror';
  field_map?: Record<string, string>;
  null_handling: 'overwrite' | 'skip';
};
export type HttpDestinationConfig = {
  kind: 'http';
  url: string;
  auth_header_name: string;
  auth_header_value?: string;
  hmac_secret?: string;
  signature_header: string;
  batch_size: number;
  max_attempts: number;
  requests_per_second?: number;
  timeout_seconds: number;
};
export type S3DestinationConfig = {
  kind: 's3';
  endpoint?: string;
  region: string;
  bucket: string;
  prefix: string;
  file_name: string;
  max_rows_per_file?: number;
  access_key_id: string;
  secret_access_key?: string;
  force_path_style: boolean;
};
export type SftpDestinationConfig = {
  kind: 'sftp';
  host: string;
  port: number;
  username: string;
  password?: string;
  private_key?: string;
  passphrase?: string;
  host_key_sha256: string;
  directory: string;
  file_name: string;
  max_rows_per_file?: number;
};
export type DestinationConfig =
  | FilesDestinationConfig
  | DatabaseDestinationConfig
  | HttpDestinationConfig
  | S3DestinationConfig
  | SftpDestinationConfig;

const DESTINATIONS: Record<string, TObject> = {
  files: FilesDestination,
  database: DatabaseDestination,
  http: HttpDestination,
  s3: S3Destination,
  sftp: SftpDestination,
};
const FORMATS: Record<string, TObject> = { csv: CsvFormat, ndjson: NdjsonFormat, parquet: ParquetFormat };
/** Destination kinds that write files, and so take a format. */
export const FILE_DESTINATIONS = new Set(['files', 's3', 'sftp']);

export const FILE_NAME_PLACEHOLDERS = ['export', 'run_time', 'run_id', 'part', 'ext'];

const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true });
addFormats.default(ajv);
const compiled = new Map<TObject, ValidateFunction>();
const validatorOf = (spec: TObject) => {
  let validate = compiled.get(spec);
  if (!validate) {
    validate = ajv.compile(spec);
    compiled.set(spec, validate);
  }
  return validate;
};

/** The secret fields of a destination kind (`x-secret` in its spec). */
export const secretFieldsOf = (kind: string): string[] =>
  Object.entries(DESTINATIONS[kind]?.properties ?? {})
    .filter(([, schema]) => (schema as { 'x-secret'?: boolean })['x-secret'] === true)
    .map(([name]) => name);

/** A folder given relative to the project's folder, checked to stay inside it. */
export function folderInside(projectFolder: string, folder: string): string | undefined {
  if (path.isAbsolute(folder)) return undefined;
  const resolved = path.resolve(projectFolder, folder);
  return resolved === projectFolder || resolved.startsWith(`${projectFolder}${path.sep}`) ? resolved : undefined;
}

/**
 * Checks a destination (defaults filled in, in place) and returns every problem naming its field.
 * `secretsSet`: secret fields already stored, which an update may leave out.
 */
export function checkDestination(destination: Record<string, unknown>): FieldError[] {
  const spec = DESTINATIONS[String(destination['kind'])];
  if (!spec) return [{ path: 'destination.kind', message: `must be one of: ${Object.keys(DESTINATIONS).join(', ')}` }];
  const validate = validatorOf(spec);
  if (!validate(destination)) return schemaFieldErrors(validate.errors, 'destination');
  const problems: FieldError[] = [];
  if (FILE_DESTINATIONS.has(String(destination['kind']))) {
    const config = destination as FilesDestinationConfig;
    if (config.kind === 'files' && !folderInside('/project', config.folder))
      problems.push({ path: 'destination.folder', message: "must be a folder inside the project's folder" });
    if (config.file_name.includes('/') || config.file_name.includes('\\') || config.file_name.startsWith('.'))
      problems.push({ path: 'destination.file_name', message: 'must be a file name (no folder, not hidden)' });
    for (const [, name] of config.file_name.matchAll(/\{([^}]*)\}/g))
      if (!FILE_NAME_PLACEHOLDERS.includes(name!))
        problems.push({
          path: 'destination.file_name',
          message: `{${name}} is not a placeholder (${FILE_NAME_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')})`,
        });
    if (config.max_rows_per_file !== undefined && !config.file_name.includes('{part}'))
      problems.push({ path: 'destination.file_name', message: 'needs {part} when max_rows_per_file is set' });
    if (!config.file_name.includes('{run_time}') && !config.file_name.includes('{run_id}'))
      problems.push({
        path: 'destination.file_name',
        message: 'needs {run_time} or {run_id}, so that a run never replaces the file of another',
      });
  }
  return problems;
}

/** Checks a format (defaults filled in, in place) and returns every problem naming its field. */
export function checkFormat(format: Record<string, unknown>): FieldError[] {
  const spec = FORMATS[String(format['type'])];
  if (!spec) return [{ path: 'format.type', message: `must be one of: ${Object.keys(FORMATS).join(', ')}` }];
  const validate = validatorOf(spec);
  if (!validate(format)) return schemaFieldErrors(validate.errors, 'format');
  const problems: FieldError[] = [];
  if (format['type'] === 'csv') {
    const csv = format as CsvFormatConfig;
    if (csv.delimiter === csv.quote) problems.push({ path: 'format.delimiter', message: 'must differ from quote' });
    for (const field of ['delimiter', 'quote'] as const)
      if (/[\r\n]/.test(csv[field])) problems.push({ path: `format.${field}`, message: 'cannot be a line break' });
    if (csv.null_value.includes(csv.delimiter) || /[\r\n]/.test(csv.null_value))
      problems.push({ path: 'format.null_value', message: 'cannot hold the delimiter or a line break' });
  }
  return problems;
}
