import { Type } from 'typebox';
import { NullableTimestamp, Timestamp, Uuid } from '../../../platform/schemas.js';

const count = Type.Integer({ minimum: 0 });
const readableCount = Type.Union([count, Type.Null()]);

export const ProjectOverview = Type.Object({
  project_id: Uuid,
  project_name: Type.String(),
  counts: Type.Object(
    { connectors: readableCount, pipelines: readableCount, cdc_tables: readableCount, schedules: readableCount },
    { description: 'null where the caller may not read that kind of resource in the project' },
  ),
  executions_24h: Type.Object(
    { queued: count, running: count, succeeded: count, partially_failed: count, failed: count, cancelled: count },
    { description: 'Executions created in the last 24 hours, by status now' },
  ),
  rows_per_day: Type.Array(Type.Object({ day: Type.String({ format: 'date' }), rows: count }), {
    description: 'Rows written by succeeded executions, by UTC day of finish, the last 14 days',
  }),
  failing: Type.Array(
    Type.Object({
      type: Type.Literal('pipeline'),
      id: Uuid,
      name: Type.String(),
      execution_id: Uuid,
      error: Type.Union([Type.String(), Type.Null()]),
      failed_at: NullableTimestamp,
    }),
    { description: 'Pipelines whose latest execution failed' },
  ),
});

export const Overview = Type.Object({
  generated_at: Timestamp,
  days: Type.Array(Type.String({ format: 'date' })),
  projects: Type.Array(ProjectOverview),
});
