import { Type } from 'typebox';
import {
  MissedPolicy as Policy,
  NullableTimestamp,
  NullableUuid,
  ScheduleTiming as Timing,
  Timestamp,
  Uuid,
} from '../../../platform/schemas.js';

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
