import { Type } from 'typebox';
import {
  MissedPolicy,
  NullableTimestamp,
  NullableUuid,
  ScheduleTiming,
  Timestamp,
  Uuid,
} from '../../../platform/schemas.js';

/** A model's name is the relation it builds: a plain lower-case PostgreSQL identifier. */
export const ModelName = Type.String({
  minLength: 1,
  maxLength: 48,
  description: 'The relation the model builds: lower-case letters, digits and _, unique in the project',
});
const Column = Type.String({ minLength: 1, maxLength: 63 });
const Severity = Type.Optional(
  Type.Union([Type.Literal('warn'), Type.Literal('error')], { description: 'Default error' }),
);

export const DataTestSchema = Type.Union([
  Type.Object({ type: Type.Literal('not_null'), column: Column, severity: Severity }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('unique'), column: Column, severity: Severity }, { additionalProperties: false }),
  Type.Object(
    {
      type: Type.Literal('accepted_values'),
      column: Column,
      values: Type.Array(Type.String({ maxLength: 1000 }), { minItems: 1, maxItems: 1000 }),
      severity: Severity,
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('relationships'),
      column: Column,
      to: ModelName,
      field: Column,
      severity: Severity,
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal('custom_sql'),
      name: Type.String({ minLength: 1, maxLength: 200 }),
      sql: Type.String({
        minLength: 1,
        maxLength: 100_000,
        description: 'A SELECT of the failing rows; may use ref(), source() and this',
      }),
      severity: Severity,
    },
    { additionalProperties: false },
  ),
]);

const Materialization = Type.Union(
  [Type.Literal('view'), Type.Literal('table'), Type.Literal('incremental'), Type.Literal('ephemeral')],
  { description: 'ephemeral: built nowhere, inlined as a CTE into the models that ref it' },
);
const Strategy = Type.Union([Type.Literal('append'), Type.Literal('merge'), Type.Literal('delete_insert')], {
  description: 'How an incremental run adds its rows (merge and delete_insert need unique_key); default merge',
});
const OnSchemaChange = Type.Union(
  [
    Type.Literal('ignore'),
    Type.Literal('fail'),
    Type.Literal('append_new_columns'),
    Type.Literal('sync_all_columns'),
    Type.Literal('full_refresh'),
  ],
  { description: 'What an incremental run does when the columns differ from the table; default ignore' },
);

const ModelFields = {
  name: ModelName,
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  sql: Type.String({
    minLength: 1,
    maxLength: 200_000,
    description:
      "One SELECT; {{ ref('model') }}, {{ source('schema', 'table') }}, {{ this }} and {% if is_incremental() %} ... {% endif %}",
  }),
  materialization: Materialization,
  unique_key: Type.Optional(Type.Array(Column, { maxItems: 20 })),
  incremental_strategy: Type.Optional(Strategy),
  on_schema_change: Type.Optional(OnSchemaChange),
  tags: Type.Optional(Type.Array(Type.String({ pattern: '^[A-Za-z0-9_.-]+$', maxLength: 100 }), { maxItems: 50 })),
  tests: Type.Optional(Type.Array(DataTestSchema, { maxItems: 100 })),
};

export const ModelBody = Type.Object({ project_id: Uuid, ...ModelFields }, { additionalProperties: false });
export const ModelPatch = Type.Partial(Type.Object(ModelFields, { additionalProperties: false }), {
  minProperties: 1,
});

export const Model = Type.Object({
  id: Uuid,
  project_id: Uuid,
  name: Type.String(),
  description: Type.String(),
  sql: Type.String(),
  materialization: Type.String(),
  unique_key: Type.Array(Type.String()),
  incremental_strategy: Type.String(),
  on_schema_change: Type.String(),
  tags: Type.Array(Type.String()),
  tests: Type.Array(DataTestSchema),
  refs: Type.Array(Type.String(), { description: 'Models this one refers to, read from its SQL' }),
  sources: Type.Array(Type.Object({ schema: Type.String(), table: Type.String() })),
  relation: Type.Union([Type.String(), Type.Null()], {
    description: 'The PostgreSQL relation it builds (schema.name); null for an ephemeral model',
  }),
  version: Type.Integer(),
  created_by: NullableUuid,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const Graph = Type.Object({
  nodes: Type.Array(
    Type.Object({
      id: Uuid,
      project_id: Uuid,
      name: Type.String(),
      materialization: Type.String(),
      tags: Type.Array(Type.String()),
      sources: Type.Array(Type.Object({ schema: Type.String(), table: Type.String() })),
    }),
  ),
  edges: Type.Array(
    Type.Object({ from: Type.String({ format: 'uuid', description: 'The id of the model referred to' }), to: Uuid }),
  ),
  order: Type.Array(Uuid, { description: "The models' ids in dependency order (project by project)" }),
});

export const CompileBody = Type.Object(
  {
    sql: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200_000, description: 'Unsaved SQL to compile instead of the stored' }),
    ),
    incremental: Type.Optional(
      Type.Boolean({ description: 'Compile the incremental addition ({% if is_incremental() %} parts kept)' }),
    ),
  },
  { additionalProperties: false },
);

const SourceRef = Type.Object({ schema: Type.String(), table: Type.String() });

export const Compiled = Type.Object({
  sql: Type.String({ description: 'The SELECT as it runs' }),
  refs: Type.Array(Type.String()),
  sources: Type.Array(SourceRef),
  relation: Type.Union([Type.String(), Type.Null()]),
  column_lineage: Type.Array(
    Type.Object({
      column: Type.String(),
      inputs: Type.Array(
        Type.Object({
          model: Type.Optional(Type.String()),
          source: Type.Optional(SourceRef),
          column: Type.String({ description: '* when the expression takes every column' }),
        }),
      ),
    }),
    {
      description:
        "Each output column and the upstream columns it is computed from, as far as the parser can tell (columns of the SELECT's own FROM; none through subqueries or set operations)",
    },
  ),
});

export const PreviewBody = Type.Object(
  {
    sql: Type.Optional(Type.String({ minLength: 1, maxLength: 200_000 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Default 100' })),
  },
  { additionalProperties: false },
);

export const Preview = Type.Object({
  columns: Type.Array(Type.Object({ name: Type.String(), type: Type.String() })),
  rows: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  truncated: Type.Boolean(),
});

const Selectors = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
  maxItems: 100,
  description: 'name, +name (with upstream), name+ (with downstream), tag:x; none: every model',
});
const FullRefresh = Type.Boolean({ description: 'Build incremental models whole instead of adding to them' });

export const RunBody = Type.Object(
  {
    project_id: Uuid,
    select: Type.Optional(Selectors),
    full_refresh: Type.Optional(FullRefresh),
  },
  { additionalProperties: false },
);

export const ModelScheduleBody = Type.Object(
  {
    project_id: Uuid,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    select: Type.Optional(Selectors),
    full_refresh: Type.Optional(FullRefresh),
    ...ScheduleTiming,
  },
  { additionalProperties: false },
);

export const ModelSchedulePatch = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    select: Type.Optional(Selectors),
    full_refresh: Type.Optional(FullRefresh),
    ...ScheduleTiming,
  },
  { additionalProperties: false, minProperties: 1 },
);

export const ModelSchedule = Type.Object({
  id: Uuid,
  project_id: Uuid,
  name: Type.String(),
  select: Type.Array(Type.String()),
  full_refresh: Type.Boolean(),
  cron: Type.Union([Type.String(), Type.Null()]),
  timezone: Type.String(),
  interval_seconds: Type.Union([Type.Integer(), Type.Null()]),
  missed_policy: MissedPolicy,
  paused: Type.Boolean(),
  next_due_at: Type.Union([Timestamp, Type.Null()], { description: 'null while paused' }),
  last_execution_id: NullableUuid,
  created_by: NullableUuid,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const ModelRunResult = Type.Object({
  model: Type.String(),
  model_id: NullableUuid,
  materialization: Type.String(),
  status: Type.Union([Type.Literal('success'), Type.Literal('error'), Type.Literal('skipped')]),
  rows: Type.Union([Type.Integer(), Type.Null()]),
  duration_ms: Type.Integer(),
  tests: Type.Array(
    Type.Object({
      name: Type.String(),
      type: Type.String(),
      severity: Type.String(),
      status: Type.Union([Type.Literal('pass'), Type.Literal('warn'), Type.Literal('fail'), Type.Literal('error')]),
      failures: Type.Union([Type.Integer(), Type.Null()]),
      message: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  error: Type.Union([Type.String(), Type.Null()]),
  finished_at: NullableTimestamp,
});

export const RunResults = Type.Object({
  execution_id: Uuid,
  status: Type.String({ description: "The execution's status" }),
  results: Type.Array(ModelRunResult),
});
