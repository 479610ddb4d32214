import { CANONICAL_TYPES } from '@svc/engine';
import { Type } from 'typebox';
import { NullableTimestamp, NullableUuid, Timestamp, Uuid } from '../../../platform/schemas.js';

/** The canonical types a fixed schema may declare (binary is not read from text files). */
const CANONICAL = CANONICAL_TYPES.filter((t) => t !== 'binary');

export const Source = Type.Union([
  Type.Object(
    { kind: Type.Literal('upload', { description: 'Files uploaded with POST /file-ingestions/{id}/files' }) },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('folder', { description: "A folder of the project's own folder of the files root" }),
      path: Type.String({
        minLength: 1,
        maxLength: 1000,
        description: "Relative to the project's folder of the files root (SVC_FILES_ROOT/<project id>)",
      }),
      glob: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Default: *' })),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('s3', { description: 'A bucket prefix of S3 or an S3-compatible store' }),
      endpoint: Type.Optional(
        Type.String({
          format: 'uri',
          pattern: '^https?://',
          description: 'An S3-compatible store; AWS when omitted',
        }),
      ),
      region: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
      bucket: Type.String({ minLength: 1, maxLength: 255 }),
      prefix: Type.Optional(Type.String({ maxLength: 1000 })),
      glob: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Default: *' })),
      force_path_style: Type.Optional(
        Type.Boolean({ description: 'Bucket in the path (default when an endpoint is given)' }),
      ),
      access_key_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      secret_access_key: Type.Optional(
        Type.String({ minLength: 1, maxLength: 500, 'x-secret': true, description: 'Write-only; kept encrypted' }),
      ),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('sftp', { description: 'A directory on an SSH server, through an sftp data connector' }),
      connector_id: Type.String({
        format: 'uuid',
        description: 'An sftp data connector of the project: its host, login (kept encrypted) and host key are used',
      }),
      path: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 1000,
          description:
            "The remote directory, relative to the connector's directory (or absolute); default: that directory",
        }),
      ),
      glob: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Default: *' })),
    },
    { additionalProperties: false },
  ),
]);

export const Format = Type.Object(
  {
    type: Type.Union(
      [
        Type.Literal('csv'),
        Type.Literal('ndjson'),
        Type.Literal('json'),
        Type.Literal('xlsx'),
        Type.Literal('parquet'),
      ],
      {
        description:
          'json (an array of objects, or one), xlsx (the first worksheet, its first row naming the columns) and parquet are read whole, not streamed',
      },
    ),
    delimiter: Type.Optional(Type.String({ minLength: 1, maxLength: 4, description: 'CSV: default ,' })),
    header: Type.Optional(Type.Boolean({ description: 'CSV: the first line names the columns (default true)' })),
    encoding: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 40,
        description: 'A WHATWG encoding label: utf-8 (default), latin1, windows-1252, utf-16le, ...',
      }),
    ),
    compression: Type.Optional(
      Type.Union([Type.Literal('none'), Type.Literal('gzip'), Type.Literal('zip'), Type.Literal('auto')], {
        description:
          'auto (default): gzip when the name ends in .gz, a zip archive when it ends in .zip. A zip archive is expanded and each member matching archive_members is loaded as its own file',
      }),
    ),
    archive_members: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description:
          "Zip archives: the members to load, a glob matched against each member's path and its base name (default: by the format's extension, e.g. *.{csv,csv.gz} for csv)",
      }),
    ),
  },
  { additionalProperties: false },
);

export const Column = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 63 }),
    type: Type.Union(CANONICAL.map((t) => Type.Literal(t))),
    nullable: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const Destination = Type.Object(
  {
    connector_id: Uuid,
    namespace: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
    table: Type.String({ minLength: 1, maxLength: 63 }),
    mode: Type.Union([Type.Literal('append'), Type.Literal('overwrite'), Type.Literal('upsert')]),
    key_columns: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 32 })),
  },
  { additionalProperties: false },
);

const OnError = Type.Union([Type.Literal('abort'), Type.Literal('skip_file'), Type.Literal('continue')], {
  description:
    'abort: the first bad row fails the file and stops the run; skip_file: the file fails, the run goes on; continue: bad rows are left out, up to error_limit',
});
const PostAction = Type.Union([Type.Literal('archive'), Type.Literal('delete'), Type.Literal('none')]);

const definition = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  source: Source,
  format: Format,
  schema_mode: Type.Optional(Type.Union([Type.Literal('infer'), Type.Literal('fixed')])),
  columns: Type.Optional(Type.Array(Column, { maxItems: 1000, description: 'Required with schema_mode fixed' })),
  on_error: Type.Optional(OnError),
  error_limit: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 1_000_000_000, description: 'continue: most bad rows a file may have' }),
  ),
  post_action: Type.Optional(PostAction),
  archive_path: Type.Optional(
    Type.Union([Type.String({ minLength: 1, maxLength: 1000 }), Type.Null()], {
      description:
        "archive: a folder of the project's folder of the files root, or an S3 prefix (default: <source path or prefix>/archive)",
    }),
  ),
  destination: Destination,
  poll_interval_seconds: Type.Optional(
    Type.Union([Type.Integer({ minimum: 10, maximum: 604_800 }), Type.Null()], {
      description: 'folder sources: look for new files this often (none: only on request)',
    }),
  ),
};

export const FileIngestionBody = Type.Object({ project_id: Uuid, ...definition }, { additionalProperties: false });
export const FileIngestionPatch = Type.Partial(Type.Object(definition, { additionalProperties: false }), {
  additionalProperties: false,
});

export const FileIngestion = Type.Object({
  id: Uuid,
  project_id: Uuid,
  name: Type.String(),
  source: Type.Object({ kind: Type.String() }, { additionalProperties: true }),
  format: Type.Object({}, { additionalProperties: true }),
  schema_mode: Type.String(),
  columns: Type.Array(Type.Object({}, { additionalProperties: true })),
  on_error: Type.String(),
  error_limit: Type.Integer(),
  post_action: Type.String(),
  archive_path: Type.Union([Type.String(), Type.Null()]),
  destination: Type.Object({}, { additionalProperties: true }),
  poll_interval_seconds: Type.Union([Type.Integer(), Type.Null()]),
  next_poll_at: NullableTimestamp,
  created_by: NullableUuid,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const FileStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('loading'),
  Type.Literal('loaded'),
  Type.Literal('failed'),
  Type.Literal('partially_loaded'),
  Type.Literal('skipped_duplicate'),
]);

export const FileRecord = Type.Object({
  id: Uuid,
  ingestion_id: Uuid,
  name: Type.String(),
  size: Type.Integer(),
  checksum: Type.String({ description: 'sha256 of the file as received, hex' }),
  status: FileStatus,
  forced: Type.Boolean(),
  reload_of: NullableUuid,
  rows_parsed: Type.Integer(),
  rows_loaded: Type.Integer(),
  error_count: Type.Integer(),
  first_error: Type.Union([
    Type.Object({
      line: Type.Integer(),
      column: Type.Union([Type.String(), Type.Null()]),
      message: Type.String(),
    }),
    Type.Null(),
  ]),
  available: Type.Boolean({ description: 'Whether the file is still kept, so that it can be reloaded' }),
  archive_id: Type.Union([Uuid, Type.Null()], {
    description: 'A member of a zip archive: the history row of the archive it was expanded from',
  }),
  archive_member: Type.Union([Type.String(), Type.Null()], {
    description: "A member of a zip archive: its path in the archive (the row's name is <archive name>/<member path>)",
  }),
  execution_id: NullableUuid,
  created_at: Timestamp,
  finished_at: NullableTimestamp,
});

export const UploadQuery = Type.Object(
  {
    force: Type.Optional(
      Type.Boolean({ description: 'Load even when a file of the same name and checksum was loaded already' }),
    ),
  },
  { additionalProperties: false },
);

export const FileParams = Type.Object({ id: Uuid, file_id: Uuid });

export const FilesQuery = Type.Object(
  {
    status: Type.Optional(FileStatus),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  },
  { additionalProperties: false },
);

export const RunQuery = Type.Object(
  { force: Type.Optional(Type.Boolean({ description: 'Load files already loaded as well' })) },
  { additionalProperties: false },
);
