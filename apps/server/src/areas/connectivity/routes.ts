import { resourceRoutes, serviceRoutes } from '../../platform/routes.js';
import { IdParams, Items } from '../../platform/schemas.js';
import {
  CreateConnectorBody,
  DataConnector,
  DiscoverResult,
  Kind,
  TestResult,
  UpdateConnectorBody,
} from './schemas.js';
import type { ConnectorsService } from './service.js';

export const connectorRoutes = serviceRoutes<ConnectorsService>(['connectivity'], (route, service) => {
  route.get(
    '/data-connectors/kinds',
    'authenticated',
    {
      operationId: 'listConnectorKinds',
      summary: 'Connector kinds with the JSON Schema of their configuration',
      response: { 200: Items(Kind) },
    },
    async () => ({
      items: service.kinds(),
    }),
  );
  resourceRoutes(route, service, {
    path: '/data-connectors',
    noun: 'DataConnector',
    capabilities: { read: 'connector:read', write: 'connector:write' },
    schemas: { item: DataConnector, create: CreateConnectorBody, update: UpdateConnectorBody },
    summaries: {
      list: 'Data connectors you may read (connector:read), optionally of one project',
      create: 'Create a data connector (connector:write); secret fields are stored encrypted and never returned',
      get: 'One data connector (connector:read)',
      update: 'Change a data connector (connector:write); omitted secrets are kept',
      remove: 'Delete a data connector and its catalog entries (connector:write)',
    },
  });
  route.post(
    '/data-connectors/:id/test',
    'connector:read',
    {
      operationId: 'testDataConnector',
      summary: 'Try to connect with the stored configuration; names the cause of a failure (connector:read)',
      params: IdParams,
      response: { 200: TestResult },
    },
    (request, principal) => service.test(principal, request.params.id),
  );
  route.post(
    '/data-connectors/:id/discover',
    'connector:write',
    {
      operationId: 'discoverDataConnector',
      summary: 'Discover datasets and record them in the catalog (connector:write)',
      params: IdParams,
      response: { 200: DiscoverResult },
    },
    (request, principal, context) => service.discover(principal, request.params.id, context),
  );
});
