import { Type } from 'typebox';
import { Timestamp, Uuid } from '../../../platform/schemas.js';

const Tag = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[a-z0-9][a-z0-9_:.-]*$',
  description: 'Lower-case letters, digits and _ : . -',
});
const Tags = Type.Array(Tag, { maxItems: 50 });
const Description = Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()]);

export const Dataset = Type.Object({
  id: Uuid,
  connector_id: Uuid,
  project_id: Uuid,
  namespace: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  primary_key: Type.Array(Type.String()),
  row_estimate: Type.Union([Type.Integer(), Type.Null()]),
  discovered_at: Timestamp,
  description: Type.Union([Type.String(), Type.Null()]),
  owners: Type.Array(Type.String()),
  tags: Type.Array(Type.String()),
  last_written_at: Type.Union([Timestamp, Type.Null()], {
    description: 'When a run (sync, pipeline, CDC, stream, model run) last wrote into it, from lineage',
  }),
  last_row_count: Type.Union([Type.Integer(), Type.Null()], { description: 'Rows that run wrote' }),
});
export const Column = Type.Object({
  position: Type.Integer(),
  name: Type.String(),
  type: Type.String({ description: 'Canonical type' }),
  source_type: Type.String(),
  nullable: Type.Boolean(),
  precision: Type.Union([Type.Integer(), Type.Null()]),
  scale: Type.Union([Type.Integer(), Type.Null()]),
  description: Type.Union([Type.String(), Type.Null()]),
  tags: Type.Array(Type.String({ description: 'Confirmed by a user: what masking policies by tag match' })),
  suggested_tags: Type.Array(
    Type.String({ description: 'Suggested by the personal data classifier, waiting to be confirmed or dismissed' }),
  ),
});

export const DatasetQuery = Type.Object(
  {
    connector_id: Type.Optional(Uuid),
    project_id: Type.Optional(Uuid),
    q: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'In the name, namespace or description' }),
    ),
    tag: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'On the dataset or one of its columns' }),
    ),
    column: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Has a column of this name' })),
  },
  { additionalProperties: false },
);
export const DatasetWithColumns = Type.Intersect([Dataset, Type.Object({ columns: Type.Array(Column) })]);

export const DatasetPatch = Type.Object(
  {
    description: Type.Optional(Description),
    owners: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
        maxItems: 20,
        description: 'Who answers for the dataset: user names, e-mail addresses or team names',
      }),
    ),
    tags: Type.Optional(Tags),
  },
  { additionalProperties: false, minProperties: 1 },
);
export const ColumnPatch = Type.Object(
  {
    description: Type.Optional(Description),
    tags: Type.Optional(Tags),
    dismiss: Type.Optional(Type.Array(Tag, { maxItems: 50, description: 'Suggested tags turned down' })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export const ColumnParams = Type.Object({ id: Uuid, column: Type.String({ minLength: 1, maxLength: 200 }) });
export const Classified = Type.Intersect([
  DatasetWithColumns,
  Type.Object({ sampled_rows: Type.Integer({ description: 'Rows read for the classification (not kept)' }) }),
]);
