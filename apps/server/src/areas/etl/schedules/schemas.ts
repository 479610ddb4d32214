import { Type } from 'typebox';
import { NullableTimestamp, NullableUuid, Timestamp, Uuid } from '../../../platform/schemas.js';

const Policy = Type.Union([Type.Literal('skip'), Type.Literal('run_once')], {
  description:
    'Due times missed while no scheduler ran (beyond SVC_SCHEDULER_GRACE_SECONDS): skip them, or run once for all of them',
});
const Timing = {
  cron: Type.Optional(
    Type.Union([
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Five fields (minute precision) or six (seconds first), read in timezone',
      }),
      Type.Null(),
    ]),
  ),
  timezone: Type.Optional(
    Type.String({ minLength: 1, maxLength: 100, description: 'IANA time zone of the cron expression (default UTC)' }),
  ),
  interval_seconds: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 31_536_000 }), Type.Null()])),
  missed_policy: Type.Optional(Policy),
  paused: Type.Optional(Type.Boolean()),
};

export const Schedule = Type.Object({
  id: Uuid,
  project_id: Uuid,
  pipeline_id: Uuid,
  cron: Type.Union([Type.String(), Type.Null()]),
  timezone: Type.String(),
  interval_seconds: Type.Union([Type.Integer(), Type.Null()]),
  missed_policy: Policy,
  paused: Type.Boolean(),
  next_due_at: Type.Union([Timestamp, Type.Null()], { description: 'null while paused' }),
  created_by: NullableUuid,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const DashboardItem = Type.Object({
  schedule_id: Uuid,
  project_id: Uuid,
  pipeline_id: Uuid,
  pipeline_name: Type.String(),
  kind: Type.Union([Type.Literal('cron'), Type.Literal('interval')]),
  cron: Type.Union([Type.String(), Type.Null()]),
  timezone: Type.String(),
  interval_seconds: Type.Union([Type.Integer(), Type.Null()]),
  paused: Type.Boolean(),
  next_due_at: NullableTimestamp,
  last_run: Type.Union([
    Type.Object({
      execution_id: Uuid,
      status: Type.String(),
      started_at: NullableTimestamp,
      finished_at: NullableTimestamp,
      duration_ms: Type.Union([Type.Integer(), Type.Null()]),
    }),
    Type.Null(),
  ]),
  failures_in_a_row: Type.Integer({ description: 'Failed runs since the last success (of the latest 50)' }),
  missed_runs: Type.Integer({
    description: 'Due times never run: missed while no scheduler ran, or due while the pipeline was still running',
  }),
  last_missed_at: NullableTimestamp,
});

export const CreateScheduleBody = Type.Object({ pipeline_id: Uuid, ...Timing }, { additionalProperties: false });
export const UpdateScheduleBody = Type.Object(Timing, { additionalProperties: false, minProperties: 1 });
