import { Type } from 'typebox';
import {
  MissedPolicy,
  NullableTimestamp,
  NullableUuid,
  ScheduleTiming,
  Timestamp,
  Uuid,
} from '../../../platform/schemas.js';

const Name = Type.String({ minLength: 1, maxLength: 200 });
const ColumnName = Type.String({ minLength: 1, maxLength: 63 });

export const ExportSource = Type.Object(
  {
    kind: Type.Union([Type.Literal('warehouse_query'), Type.Literal('connector'), Type.Literal('pipeline')], {
      description:
        "warehouse_query: a SELECT over the project's own warehouse schema, run as the project's warehouse role; connector: a dataset of a data connector of the project, read through the engine; pipeline: the output of a pipeline of the project (the table its destination connector holds)",
    }),
    pipeline_id: Type.Optional(Uuid),
    query: Type.Optional(Type.String({ minLength: 1, maxLength: 100_000, description: 'warehouse_query: the SELECT' })),
    schema: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 45,
        pattern: '^[a-z_][a-z0-9_]*$',
        description: "warehouse_query: the project's schema the query runs in (default main)",
      }),
    ),
    connector_id: Type.Optional(Uuid),
    namespace: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
    dataset: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  { additionalProperties: false },
);

/** Checked field by field by the service against the destination kind's spec (422 naming `destination.<field>`). */
export const ExportDestinationBody = Type.Object(
  {
    kind: Type.String({ description: 'files, s3, sftp, http or database (docs/exports.md)' }),
  },
  { additionalProperties: true },
);

/** Checked by the service (422 naming `format.<field>`). */
export const ExportFormatBody = Type.Object(
  { type: Type.String({ description: 'csv, ndjson or parquet' }) },
  { additionalProperties: true },
);

const Mode = Type.Union([Type.Literal('full'), Type.Literal('incremental'), Type.Literal('diff')], {
  description:
    'full: every row each run; incremental: rows past the cursor column; diff: only rows added, changed or removed since the previous run (by key_columns)',
});

const ScheduleBody = Type.Object(ScheduleTiming, {
  additionalProperties: false,
  description:
    'Runs the export by itself: a cron expression in a time zone, or every interval_seconds (exactly one); null: on demand only',
});

export const ExportBody = Type.Object(
  {
    project_id: Uuid,
    name: Name,
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    source: ExportSource,
    columns: Type.Optional(Type.Array(ColumnName, { minItems: 1, maxItems: 1000 })),
    filter: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 10_000,
        description: 'A SQL condition over the source columns (warehouse_query sources)',
      }),
    ),
    destination: ExportDestinationBody,
    format: Type.Optional(ExportFormatBody),
    mode: Type.Optional(Mode),
    key_columns: Type.Optional(Type.Array(ColumnName, { minItems: 1, maxItems: 32 })),
    cursor_column: Type.Optional(ColumnName),
    schedule: Type.Optional(Type.Union([ScheduleBody, Type.Null()])),
  },
  { additionalProperties: false },
);

export const ExportPatch = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    source: Type.Optional(ExportSource),
    columns: Type.Optional(Type.Union([Type.Array(ColumnName, { minItems: 1, maxItems: 1000 }), Type.Null()])),
    filter: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 10_000 }), Type.Null()])),
    destination: Type.Optional(ExportDestinationBody),
    format: Type.Optional(ExportFormatBody),
    mode: Type.Optional(Mode),
    key_columns: Type.Optional(Type.Array(ColumnName, { maxItems: 32 })),
    cursor_column: Type.Optional(Type.Union([ColumnName, Type.Null()])),
    schedule: Type.Optional(Type.Union([ScheduleBody, Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const Export = Type.Object({
  id: Uuid,
  project_id: Uuid,
  name: Type.String(),
  description: Type.String(),
  source: Type.Record(Type.String(), Type.Unknown()),
  columns: Type.Union([Type.Array(Type.String()), Type.Null()]),
  filter: Type.Union([Type.String(), Type.Null()]),
  destination: Type.Record(Type.String(), Type.Unknown(), {
    description: 'Secret fields are never shown: secrets_set names those that are set',
  }),
  secrets_set: Type.Array(Type.String()),
  format: Type.Record(Type.String(), Type.Unknown()),
  mode: Type.String(),
  key_columns: Type.Array(Type.String()),
  cursor_column: Type.Union([Type.String(), Type.Null()]),
  schedule: Type.Union([
    Type.Object({
      cron: Type.Union([Type.String(), Type.Null()]),
      timezone: Type.String(),
      interval_seconds: Type.Union([Type.Integer(), Type.Null()]),
      missed_policy: MissedPolicy,
      paused: Type.Boolean(),
      next_due_at: Type.Union([Timestamp, Type.Null()], { description: 'null while paused' }),
      owner_id: Type.Union([Uuid, Type.Null()], {
        description:
          'Whom scheduled runs act for (masking): who last set the schedule or changed what the export reads or where it delivers',
      }),
    }),
    Type.Null(),
  ]),
  created_by: NullableUuid,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const ExportFile = Type.Object({
  name: Type.String({ description: "Path inside the destination (the project's files folder, bucket or directory)" }),
  rows: Type.Integer(),
  bytes: Type.Integer(),
});

export const ExportRun = Type.Object({
  execution_id: Uuid,
  export_id: Uuid,
  status: Type.String({ description: 'running, succeeded, partially_failed, failed or cancelled' }),
  trigger: Type.Union([Type.Literal('manual'), Type.Literal('schedule')]),
  full_resync: Type.Boolean(),
  extracted: Type.Integer(),
  added: Type.Integer(),
  changed: Type.Integer(),
  removed: Type.Integer(),
  delivered: Type.Integer(),
  failed: Type.Integer(),
  files: Type.Array(ExportFile),
  error: Type.Union([Type.String(), Type.Null()]),
  started_at: Timestamp,
  finished_at: NullableTimestamp,
});

export const FailedRow = Type.Object({
  row_key: Type.String(),
  execution_id: Uuid,
  reason: Type.String(),
  record: Type.Record(Type.String(), Type.Unknown()),
  attempts: Type.Integer(),
  failed_at: Timestamp,
});

export const RunQuery = Type.Object(
  {
    full_resync: Type.Optional(
      Type.Boolean({ description: 'Send every row, whatever the previous snapshot and the cursor say' }),
    ),
  },
  { additionalProperties: false },
);

export const RunParams = Type.Object({ id: Uuid, run: Uuid });

export const DownloadLinkQuery = Type.Object(
  {
    file: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: "Index in the run's files" })),
    expires_in_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400, default: 900 })),
  },
  { additionalProperties: false },
);

export const DownloadLink = Type.Object({
  url: Type.String({ description: 'GET it with a token that may read the export, before expires_at' }),
  file: Type.String(),
  expires_at: Timestamp,
});

export const DownloadQuery = Type.Object(
  {
    file: Type.Optional(Type.Integer({ minimum: 0 })),
    expires: Type.Optional(Type.Integer({ minimum: 0, description: 'Unix seconds' })),
    signature: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
