import { Type } from 'typebox';
import { NullableTimestamp, NullableUuid, Timestamp, Uuid } from '../../../platform/schemas.js';

const Duration = Type.String({
  pattern: '^[1-9][0-9]{0,8}[smhdw]$',
  description: 'A number and a unit: s, m, h, d (days) or w (weeks), e.g. 30d',
});

export const Target = Type.Object(
  {
    kind: Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        'warehouse_table (with schema, table, timestamp_column, action), execution_history, execution_logs, audit_events (instance-wide, administrators only); later areas add theirs (docs/retention.md)',
    }),
  },
  { additionalProperties: true, description: "What the policy prunes: `kind` and that kind's own fields" },
);

const ScheduleFields = {
  cron: Type.Optional(
    Type.Union([
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Five fields (or six, seconds first), read in timezone',
      }),
      Type.Null(),
    ]),
  ),
  timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'IANA time zone (default UTC)' })),
  interval_seconds: Type.Optional(Type.Union([Type.Integer({ minimum: 60, maximum: 31_536_000 }), Type.Null()])),
};

const Rules = {
  max_age: Duration,
  max_rows: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1, description: 'Keep at most this many of the newest rows' }), Type.Null()]),
  ),
  keep_last_failed: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 10_000,
      description: 'Histories: the newest failed runs kept whatever their age',
    }),
  ),
};

export const CreatePolicyBody = Type.Object(
  {
    project_id: Type.Optional(
      Type.Union([Uuid, Type.Null()], { description: 'Required unless the target is instance-wide' }),
    ),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    target: Target,
    ...Rules,
    ...ScheduleFields,
  },
  { additionalProperties: false },
);

export const UpdatePolicyBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    target: Type.Optional(Target),
    max_age: Type.Optional(Duration),
    max_rows: Rules.max_rows,
    keep_last_failed: Rules.keep_last_failed,
    ...ScheduleFields,
  },
  { additionalProperties: false, minProperties: 1 },
);

export const Policy = Type.Object({
  id: Uuid,
  project_id: NullableUuid,
  name: Type.String(),
  target: Type.Record(Type.String(), Type.Unknown()),
  max_age: Type.String(),
  max_age_seconds: Type.Integer(),
  max_rows: Type.Union([Type.Integer(), Type.Null()]),
  keep_last_failed: Type.Integer(),
  cron: Type.Union([Type.String(), Type.Null()]),
  timezone: Type.String(),
  interval_seconds: Type.Union([Type.Integer(), Type.Null()]),
  next_run_at: NullableTimestamp,
  created_by: NullableUuid,
  created_at: Timestamp,
  updated_at: Timestamp,
});

const Counts = Type.Record(Type.String(), Type.Integer(), {
  description: 'Rows per table (deleted children before their parents)',
});

export const Preview = Type.Object({
  policy_id: Uuid,
  cutoff: Timestamp,
  counts: Counts,
  total: Type.Integer(),
});

export const Sweep = Type.Object({
  id: Uuid,
  policy_id: Uuid,
  project_id: NullableUuid,
  execution_id: NullableUuid,
  trigger: Type.Union([Type.Literal('manual'), Type.Literal('schedule')]),
  status: Type.Union([
    Type.Literal('queued'),
    Type.Literal('running'),
    Type.Literal('succeeded'),
    Type.Literal('failed'),
  ]),
  cutoff: NullableTimestamp,
  counts: Counts,
  total: Type.Integer(),
  batches: Type.Integer(),
  details: Type.Record(Type.String(), Type.Unknown()),
  error: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
  started_at: NullableTimestamp,
  finished_at: NullableTimestamp,
});

export const TargetKind = Type.Object({
  kind: Type.String(),
  scope: Type.Union([Type.Literal('project'), Type.Literal('instance')]),
  description: Type.String(),
  histories: Type.Boolean(),
});

export const SweepsQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })) },
  { additionalProperties: false },
);
