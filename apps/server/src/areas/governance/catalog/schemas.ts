import { Type } from 'typebox';
import { Timestamp, Uuid } from '../../../platform/schemas.js';

export const Dataset = Type.Object({
  id: Uuid,
  connector_id: Uuid,
  project_id: Uuid,
  namespace: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  primary_key: Type.Array(Type.String()),
  row_estimate: Type.Union([Type.Integer(), Type.Null()]),
  discovered_at: Timestamp,
});
export const Column = Type.Object({
  position: Type.Integer(),
  name: Type.String(),
  type: Type.String({ description: 'Canonical type' }),
  source_type: Type.String(),
  nullable: Type.Boolean(),
  precision: Type.Union([Type.Integer(), Type.Null()]),
  scale: Type.Union([Type.Integer(), Type.Null()]),
});

export const DatasetQuery = Type.Object(
  { connector_id: Type.Optional(Uuid), project_id: Type.Optional(Uuid) },
  { additionalProperties: false },
);
export const DatasetWithColumns = Type.Intersect([Dataset, Type.Object({ columns: Type.Array(Column) })]);
