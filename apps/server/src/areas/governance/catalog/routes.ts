import { serviceRoutes } from '../../../platform/routes.js';
import { IdParams, Items } from '../../../platform/schemas.js';
import { Dataset, DatasetQuery, DatasetWithColumns } from './schemas.js';
import type { CatalogService } from './service.js';

export const catalogRoutes = serviceRoutes<CatalogService>(['governance'], (route, service) => {
  route.get(
    '/catalog/datasets',
    'catalog:read',
    {
      operationId: 'listCatalogDatasets',
      summary: 'Datasets found by discovery (catalog:read), optionally for one connector or project',
      querystring: DatasetQuery,
      response: { 200: Items(Dataset) },
    },
    async (request, principal) => ({
      items: await service.listDatasets(principal, {
        connectorId: request.query.connector_id,
        projectId: request.query.project_id,
      }),
    }),
  );
  route.get(
    '/catalog/datasets/:id',
    'catalog:read',
    {
      operationId: 'getCatalogDataset',
      summary: 'One dataset with its columns (catalog:read)',
      params: IdParams,
      response: { 200: DatasetWithColumns },
    },
    (request, principal) => service.getDataset(principal, request.params.id),
  );
});
