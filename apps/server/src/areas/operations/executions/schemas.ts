import { Type } from 'typebox';
import { Uuid } from '../../../platform/schemas.js';

export const Status = Type.Union([
  Type.Literal('queued'),
  Type.Literal('running'),
  Type.Literal('succeeded'),
  Type.Literal('partially_failed'),
  Type.Literal('failed'),
  Type.Literal('cancelled'),
]);
export const Execution = Type.Object({
  id: Uuid,
  project_id: Uuid,
  kind: Type.String(),
  status: Status,
  params: Type.Record(Type.String(), Type.Unknown()),
  created_by: Type.Union([Uuid, Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  started_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  duration_ms: Type.Union([Type.Integer(), Type.Null()]),
  attempts: Type.Integer(),
  rows_read: Type.Integer(),
  rows_written: Type.Integer(),
  bytes_read: Type.Integer({
    description: 'Bytes of the source data: the bulk stream when there is one, else an estimate from the values',
  }),
  bytes_written: Type.Integer({ description: 'Bytes the destination was sent, as its connector reports them' }),
  error: Type.Union([Type.String(), Type.Null()]),
  cancel_requested: Type.Boolean(),
  retry_of: Type.Union([Uuid, Type.Null()]),
  pipeline_id: Type.Union([Uuid, Type.Null()], { description: 'Pipeline runs: the pipeline' }),
  schedule_id: Type.Union([Uuid, Type.Null()], { description: 'Pipeline runs started by a schedule: the schedule' }),
  trigger: Type.Union(
    [Type.Literal('manual'), Type.Literal('schedule'), Type.Literal('dependency'), Type.Literal('retry'), Type.Null()],
    { description: 'Pipeline runs: what started the run' },
  ),
  dag_run_id: Type.Union([Uuid, Type.Null()], {
    description: 'Pipeline runs: the first execution of the cascade of dependent pipelines this run belongs to',
  }),
  progress: Type.Optional(
    Type.Object(
      {
        rows_per_second: Type.Union([Type.Number(), Type.Null()], {
          description: 'Rows read per second since the run started; null before it starts',
        }),
        rows_expected: Type.Union([Type.Integer(), Type.Null()], {
          description:
            'Rows the latest succeeded run of the same item read: what this one is expected to read; null when none succeeded',
        }),
        seconds_left: Type.Union([Type.Number(), Type.Null()], {
          description:
            'Estimated time left at the current rate, from rows_expected; null without an estimate or once past it',
        }),
      },
      { description: 'The detail of a queued or running execution only: its rate and an estimate of the time left' },
    ),
  ),
});
export const Filters = {
  status: Type.Optional(Status),
  kind: Type.Optional(Type.String({ maxLength: 50 })),
  pipeline_id: Type.Optional(Uuid),
  project_id: Type.Optional(Uuid),
  since: Type.Optional(Type.String({ format: 'date-time' })),
  until: Type.Optional(Type.String({ format: 'date-time' })),
};
export const Stream = Type.Object(
  {
    namespace: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    name: Type.String({ minLength: 1 }),
    destination_name: Type.Optional(Type.String({ minLength: 1 })),
    mode: Type.Union([Type.Literal('append'), Type.Literal('overwrite'), Type.Literal('upsert')]),
    key_columns: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
    cursor_column: Type.Optional(
      Type.String({ minLength: 1, description: 'Incremental: only rows past the cursor saved by the previous run' }),
    ),
    ranges: Type.Optional(
      Type.Integer({
        minimum: 2,
        maximum: 64,
        description:
          'Copy in this many key ranges in parallel, each its own job, resumed on its own (append or upsert)',
      }),
    ),
    range_column: Type.Optional(
      Type.String({ minLength: 1, description: 'Integer column the ranges split (with ranges)' }),
    ),
  },
  { additionalProperties: false },
);
export const StartBody = Type.Object(
  {
    kind: Type.Literal('sync'),
    project_id: Uuid,
    source_connector_id: Uuid,
    destination_connector_id: Uuid,
    destination_namespace: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    streams: Type.Array(Stream, { minItems: 1, maxItems: 500 }),
  },
  { additionalProperties: false },
);
export const LogLine = Type.Object({
  id: Type.String(),
  ts: Type.String({ format: 'date-time' }),
  level: Type.String(),
  message: Type.String(),
  fields: Type.Record(Type.String(), Type.Unknown()),
});
export const ExecutionQuery = Type.Object(
  {
    ...Filters,
    cursor: Type.Optional(Type.String({ maxLength: 200 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
  },
  { additionalProperties: false },
);
export const CancelFilter = Type.Object(Filters, { additionalProperties: false });
export const CancelResult = Type.Object({ cancelled: Type.Integer() });
export const LogQuery = Type.Object(
  { after_id: Type.Optional(Type.String({ pattern: '^[0-9]+$' })) },
  { additionalProperties: false },
);
