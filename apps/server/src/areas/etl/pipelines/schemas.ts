import { Type } from 'typebox';
import { CANONICAL_TYPES, TRANSFORM_TYPES } from '@svc/engine';
import { Uuid } from '../../../platform/schemas.js';
const Name = Type.String({ minLength: 1, maxLength: 200 });

export const SourceStream = Type.Object(
  {
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Unique in the pipeline; the key of its incremental state. Default: the dataset',
      }),
    ),
    connector_id: Uuid,
    namespace: Type.Optional(
      Type.Union([Type.String({ minLength: 1 }), Type.Null()], {
        description: "Schema, database or folder; the connector's own when omitted",
      }),
    ),
    dataset: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description: "Table, file dataset (see the files connector's pattern) or API endpoint",
      }),
    ),
    query: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100_000,
        description: 'PostgreSQL connectors: a SELECT read instead of a dataset (needs name)',
      }),
    ),
    cursor_column: Type.Optional(
      Type.String({
        minLength: 1,
        description: 'Incremental: each run reads only rows past the cursor the previous run saved',
      }),
    ),
  },
  { additionalProperties: false },
);

export const Destination = Type.Object(
  {
    connector_id: Uuid,
    namespace: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()])),
    table: Type.String({ minLength: 1, maxLength: 500 }),
    mode: Type.Union([Type.Literal('append'), Type.Literal('overwrite'), Type.Literal('upsert')]),
    key_columns: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
  },
  { additionalProperties: false },
);

/** A step is checked field by field by the engine (422 naming `transforms.<i>.<field>`); here only its kind. */
export const TransformStepSchema = Type.Object(
  {
    type: Type.Unsafe<string>({
      type: 'string',
      enum: [...TRANSFORM_TYPES],
      description: `docs/transforms.md lists each step's fields. Cast types: ${CANONICAL_TYPES.join(', ')}`,
    }),
  },
  { additionalProperties: true },
);

export const PipelineBody = Type.Object(
  {
    project_id: Uuid,
    name: Name,
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    sources: Type.Array(SourceStream, { minItems: 1, maxItems: 50 }),
    transforms: Type.Optional(Type.Array(TransformStepSchema, { maxItems: 100 })),
    destination: Destination,
    depends_on: Type.Optional(
      Type.Array(Uuid, {
        maxItems: 100,
        description: 'Pipelines that must succeed first: a successful run of each starts this one',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PipelinePatch = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    sources: Type.Optional(Type.Array(SourceStream, { minItems: 1, maxItems: 50 })),
    transforms: Type.Optional(Type.Array(TransformStepSchema, { maxItems: 100 })),
    destination: Type.Optional(Destination),
    depends_on: Type.Optional(Type.Array(Uuid, { maxItems: 100 })),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const Pipeline = Type.Object({
  id: Uuid,
  project_id: Uuid,
  name: Type.String(),
  description: Type.String(),
  sources: Type.Array(
    Type.Object({
      name: Type.String(),
      connector_id: Uuid,
      namespace: Type.Union([Type.String(), Type.Null()]),
      dataset: Type.Union([Type.String(), Type.Null()]),
      query: Type.Union([Type.String(), Type.Null()]),
      cursor_column: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  transforms: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  destination: Type.Object({
    connector_id: Uuid,
    namespace: Type.Union([Type.String(), Type.Null()]),
    table: Type.String(),
    mode: Type.String(),
    key_columns: Type.Array(Type.String()),
  }),
  depends_on: Type.Array(Uuid),
  version: Type.Integer(),
  created_by: Type.Union([Uuid, Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

const Column = Type.Object({ name: Type.String(), type: Type.String(), nullable: Type.Boolean() });

export const PreviewBody = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1000, description: 'Rows read from each stream (default 100)' }),
    ),
    transforms: Type.Optional(
      Type.Array(TransformStepSchema, {
        maxItems: 100,
        description: 'Try these steps instead of the saved ones (nothing is saved)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const Preview = Type.Object({
  columns: Type.Array(Column, { description: 'The inferred output schema: what the destination table gets' }),
  input_columns: Type.Array(Column),
  rows: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
    description: 'The transformed sample; binary values as \\x hex',
  }),
  truncated: Type.Boolean({ description: 'Whether rows were left out to keep the answer under 5 MB of rows' }),
  streams: Type.Array(Type.Object({ name: Type.String(), rows_sampled: Type.Integer() })),
  pushdown: Type.Boolean({ description: 'Whether a run pushes the steps down into the source as one SELECT' }),
});

export const StreamState = Type.Object({
  streams: Type.Array(
    Type.Object({
      stream: Type.String(),
      cursor_column: Type.Union([Type.String(), Type.Null()]),
      cursor_value: Type.Unknown({ description: 'The value the next run continues after; null before the first run' }),
      updated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    }),
  ),
});

export const StateQuery = Type.Object(
  { stream: Type.Optional(Type.String({ minLength: 1 })) },
  { additionalProperties: false },
);
