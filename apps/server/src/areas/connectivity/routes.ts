import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { apiRoutes } from '../../platform/routes.js';
import { IdParams, Items, NoContent, ProjectQuery } from '../../platform/schemas.js';
import { CreateConnectorBody, DataConnector, DiscoverResult, Kind, TestResult, UpdateConnectorBody } from './schemas.js';
import type { ConnectorsService } from './service.js';

export const connectorRoutes: FastifyPluginAsyncTypebox<{ service: ConnectorsService }> = async (app, { service }) => {
  const route = apiRoutes(app, ['connectivity']);
  route.get('/data-connectors/kinds', 'authenticated', { operationId: 'listConnectorKinds', summary: 'Connector kinds with the JSON Schema of their configuration', response: { 200: Items(Kind) } }, async () => ({
    items: service.kinds(),
  }));
  route.get(
    '/data-connectors',
    'connector:read',
    { operationId: 'listDataConnectors', summary: 'Data connectors you may read (connector:read), optionally of one project', querystring: ProjectQuery, response: { 200: Items(DataConnector) } },
    async (request, principal) => ({ items: await service.list(principal, request.query.project_id) }),
  );
  route.post(
    '/data-connectors',
    'connector:write',
    { operationId: 'createDataConnector', summary: 'Create a data connector (connector:write); secret fields are stored encrypted and never returned', body: CreateConnectorBody, response: { 201: DataConnector } },
    (request, principal, context) => service.create(principal, request.body, context),
  );
  route.get('/data-connectors/:id', 'connector:read', { operationId: 'getDataConnector', summary: 'One data connector (connector:read)', params: IdParams, response: { 200: DataConnector } }, (request, principal) =>
    service.get(principal, request.params.id),
  );
  route.patch(
    '/data-connectors/:id',
    'connector:write',
    { operationId: 'updateDataConnector', summary: 'Change a data connector (connector:write); omitted secrets are kept', params: IdParams, body: UpdateConnectorBody, response: { 200: DataConnector } },
    (request, principal, context) => service.update(principal, request.params.id, request.body, context),
  );
  route.delete(
    '/data-connectors/:id',
    'connector:write',
    { operationId: 'deleteDataConnector', summary: 'Delete a data connector and its catalog entries (connector:write)', params: IdParams, response: NoContent },
    (request, principal, context) => service.remove(principal, request.params.id, context),
  );
  route.post(
    '/data-connectors/:id/test',
    'connector:read',
    { operationId: 'testDataConnector', summary: 'Try to connect with the stored configuration; names the cause of a failure (connector:read)', params: IdParams, response: { 200: TestResult } },
    (request, principal) => service.test(principal, request.params.id),
  );
  route.post(
    '/data-connectors/:id/discover',
    'connector:write',
    { operationId: 'discoverDataConnector', summary: 'Discover datasets and record them in the catalog (connector:write)', params: IdParams, response: { 200: DiscoverResult } },
    (request, principal, context) => service.discover(principal, request.params.id, context),
  );
};
