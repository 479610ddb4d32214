import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../platform/authn.js';
import type { CatalogService } from './service.js';

const Uuid = Type.String({ format: 'uuid' });
const Dataset = Type.Object({
  id: Uuid,
  connector_id: Uuid,
  project_id: Uuid,
  namespace: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  primary_key: Type.Array(Type.String()),
  row_estimate: Type.Union([Type.Integer(), Type.Null()]),
  discovered_at: Type.String({ format: 'date-time' }),
});
const Column = Type.Object({
  position: Type.Integer(),
  name: Type.String(),
  type: Type.String({ description: 'Canonical type' }),
  source_type: Type.String(),
  nullable: Type.Boolean(),
  precision: Type.Union([Type.Integer(), Type.Null()]),
  scale: Type.Union([Type.Integer(), Type.Null()]),
});

export const catalogRoutes: FastifyPluginAsyncTypebox<{ service: CatalogService }> = async (app, { service }) => {
  const tags = ['governance'];
  app.get('/catalog/datasets', {
    config: { capability: 'catalog:read' },
    schema: {
      operationId: 'listCatalogDatasets',
      tags,
      summary: 'Datasets found by discovery (catalog:read), optionally for one connector or project',
      querystring: Type.Object({ connector_id: Type.Optional(Uuid), project_id: Type.Optional(Uuid) }, { additionalProperties: false }),
      response: { 200: Type.Object({ items: Type.Array(Dataset) }) },
    },
    handler: async (request) => ({ items: await service.listDatasets(principalOf(request), { connectorId: request.query.connector_id, projectId: request.query.project_id }) }),
  });
  app.get('/catalog/datasets/:id', {
    config: { capability: 'catalog:read' },
    schema: {
      operationId: 'getCatalogDataset',
      tags,
      summary: 'One dataset with its columns (catalog:read)',
      params: Type.Object({ id: Uuid }),
      response: { 200: Type.Intersect([Dataset, Type.Object({ columns: Type.Array(Column) })]) },
    },
    handler: async (request) => service.getDataset(principalOf(request), request.params.id),
  });
};
