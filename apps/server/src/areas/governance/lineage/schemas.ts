import { Type } from 'typebox';
import { NullableTimestamp, Timestamp, Uuid } from '../../../platform/schemas.js';

export const LineageEventQuery = Type.Object(
  {
    project_id: Type.Optional(Uuid),
    run_id: Type.Optional(Uuid),
    job_id: Type.Optional(Uuid),
    dataset_id: Type.Optional(Uuid),
    event_type: Type.Optional(Type.Union(['START', 'COMPLETE', 'FAIL', 'ABORT'].map((t) => Type.Literal(t)))),
    after: Type.Optional(Type.String({ pattern: '^[0-9]{1,18}$', description: 'Events after this id' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  },
  { additionalProperties: false },
);

export const LineageEvent = Type.Object({
  id: Type.String({ description: 'Position in the feed (for `after`)' }),
  project_id: Uuid,
  run_id: Uuid,
  event_type: Type.String(),
  event_time: Timestamp,
  event: Type.Unknown({ description: 'The OpenLineage 2-0-2 RunEvent' }),
});

export const GraphQuery = Type.Object(
  {
    node: Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'dataset:<id>, job:<id>, item:<id> (the jobs of a pipeline, export...) or catalog:<catalog dataset id>',
    }),
    direction: Type.Optional(
      Type.Union([Type.Literal('upstream'), Type.Literal('downstream'), Type.Literal('both')], { default: 'both' }),
    ),
    depth: Type.Optional(Type.Integer({ minimum: 0, maximum: 10, default: 3 })),
  },
  { additionalProperties: false },
);

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const GraphNode = Type.Object({
  id: Type.String({ description: 'dataset:<id> or job:<id>' }),
  type: Type.Union([Type.Literal('dataset'), Type.Literal('job')]),
  project_id: Uuid,
  namespace: Type.String(),
  name: Type.String(),
  connector_id: Nullable(Uuid),
  source_namespace: Nullable(Type.String()),
  source_name: Nullable(Type.String()),
  kind: Nullable(Type.String({ description: 'Jobs: the kind of run (pipeline, sync, stream...)' })),
  item_id: Nullable(Type.String({ description: 'Jobs: the pipeline, export, stream... the job runs' })),
});

export const LineageGraph = Type.Object({
  project_id: Uuid,
  roots: Type.Array(Type.String()),
  nodes: Type.Array(GraphNode),
  edges: Type.Array(Type.Object({ from: Type.String(), to: Type.String() })),
});

export const ColumnLineageQuery = Type.Object(
  {
    dataset: Uuid,
    column: Type.String({ minLength: 1, maxLength: 200 }),
    depth: Type.Optional(Type.Integer({ minimum: 1, maximum: 10, default: 5 })),
  },
  { additionalProperties: false },
);

export const ColumnLineage = Type.Object({
  items: Type.Array(
    Type.Object({
      dataset_id: Uuid,
      namespace: Type.String(),
      name: Type.String(),
      field: Type.String(),
      level: Type.Integer(),
      inputs: Type.Array(
        Type.Object({
          dataset_id: Nullable(Uuid),
          namespace: Type.String(),
          name: Type.String(),
          field: Type.String(),
          transformations: Type.Array(Type.Unknown()),
        }),
      ),
    }),
  ),
});

export const ForwardingSettings = Type.Object({
  enabled: Type.Boolean(),
  url: Nullable(Type.String()),
  has_api_key: Type.Boolean(),
  last_forwarded_at: NullableTimestamp,
  last_error: Nullable(Type.String()),
  last_error_at: NullableTimestamp,
});

export const ForwardingBody = Type.Object(
  {
    enabled: Type.Boolean(),
    url: Type.Optional(
      Nullable(Type.String({ maxLength: 2000, description: 'The OpenLineage endpoint (Marquez: .../api/v1/lineage)' })),
    ),
    api_key: Type.Optional(
      Nullable(Type.String({ maxLength: 2000, description: 'Sent as a bearer token; write-only' })),
    ),
  },
  { additionalProperties: false },
);
