import { serviceRoutes } from '../../../platform/routes.js';
import { IdParams, Items } from '../../../platform/schemas.js';
import {
  Classified,
  ColumnParams,
  ColumnPatch,
  Dataset,
  DatasetPatch,
  DatasetQuery,
  DatasetWithColumns,
} from './schemas.js';
import type { CatalogService } from './service.js';

export const catalogRoutes = serviceRoutes<CatalogService>(['governance'], (route, service) => {
  route.get(
    '/catalog/datasets',
    'catalog:read',
    {
      operationId: 'listCatalogDatasets',
      summary:
        'Datasets found by discovery (catalog:read), optionally of one connector or project, searched by text, tag or column name',
      querystring: DatasetQuery,
      response: { 200: Items(Dataset) },
    },
    async (request, principal) => ({
      items: await service.listDatasets(principal, {
        connectorId: request.query.connector_id,
        projectId: request.query.project_id,
        text: request.query.q,
        tag: request.query.tag,
        column: request.query.column,
      }),
    }),
  );
  route.get(
    '/catalog/datasets/:id',
    'catalog:read',
    {
      operationId: 'getCatalogDataset',
      summary: 'One dataset with its columns, their notes and suggested tags (catalog:read)',
      params: IdParams,
      response: { 200: DatasetWithColumns },
    },
    (request, principal) => service.getDataset(principal, request.params.id),
  );
  route.patch(
    '/catalog/datasets/:id',
    'catalog:write',
    {
      operationId: 'updateCatalogDataset',
      summary: "A dataset's description, owners and tags; kept across discoveries (catalog:write)",
      params: IdParams,
      body: DatasetPatch,
      response: { 200: DatasetWithColumns },
    },
    (request, principal, context) => service.updateDataset(principal, request.params.id, request.body, context),
  );
  route.patch(
    '/catalog/datasets/:id/columns/:column',
    'catalog:write',
    {
      operationId: 'updateCatalogColumn',
      summary:
        "A column's description and tags: a suggested tag given in tags is confirmed, one in dismiss is never suggested again (catalog:write)",
      params: ColumnParams,
      body: ColumnPatch,
      response: { 200: DatasetWithColumns },
    },
    (request, principal, context) =>
      service.updateColumn(principal, request.params.id, request.params.column, request.body, context),
  );
  route.post(
    '/catalog/datasets/:id/classify',
    'catalog:write',
    {
      operationId: 'classifyCatalogDataset',
      summary:
        'Read a sample of the dataset through its connector and suggest personal-data tags for columns whose values look like e-mail addresses, phone, card (Luhn) or IBAN numbers, national ids or IP addresses (catalog:write)',
      params: IdParams,
      response: { 200: Classified },
    },
    (request, principal) => service.classify(principal, request.params.id),
  );
});
