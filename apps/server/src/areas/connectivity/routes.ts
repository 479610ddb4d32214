import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../platform/authn.js';
import { requestContext } from '../../platform/request-context.js';
import { CreateConnectorBody, DataConnector, DiscoverResult, IdParams, Kind, ListQuery, TestResult, UpdateConnectorBody } from './schemas.js';
import type { ConnectorsService } from './service.js';

export const connectorRoutes: FastifyPluginAsyncTypebox<{ service: ConnectorsService }> = async (app, { service }) => {
  const tags = ['connectivity'];
  app.get('/data-connectors/kinds', {
    config: { capability: 'authenticated' },
    schema: { operationId: 'listConnectorKinds', tags, summary: 'Connector kinds with the JSON Schema of their configuration', response: { 200: Type.Object({ items: Type.Array(Kind) }) } },
    handler: async () => ({ items: service.kinds() }),
  });
  app.get('/data-connectors', {
    config: { capability: 'connector:read' },
    schema: { operationId: 'listDataConnectors', tags, summary: 'Data connectors you may read (connector:read), optionally of one project', querystring: ListQuery, response: { 200: Type.Object({ items: Type.Array(DataConnector) }) } },
    handler: async (request) => ({ items: await service.list(principalOf(request), request.query.project_id) }),
  });
  app.post('/data-connectors', {
    config: { capability: 'connector:write' },
    schema: { operationId: 'createDataConnector', tags, summary: 'Create a data connector (connector:write); secret fields are stored encrypted and never returned', body: CreateConnectorBody, response: { 201: DataConnector } },
    handler: async (request, reply) => reply.code(201).send(await service.create(principalOf(request), request.body, requestContext(request))),
  });
  app.get('/data-connectors/:id', {
    config: { capability: 'connector:read' },
    schema: { operationId: 'getDataConnector', tags, summary: 'One data connector (connector:read)', params: IdParams, response: { 200: DataConnector } },
    handler: async (request) => service.get(principalOf(request), request.params.id),
  });
  app.patch('/data-connectors/:id', {
    config: { capability: 'connector:write' },
    schema: { operationId: 'updateDataConnector', tags, summary: 'Change a data connector (connector:write); omitted secrets are kept', params: IdParams, body: UpdateConnectorBody, response: { 200: DataConnector } },
    handler: async (request) => service.update(principalOf(request), request.params.id, request.body, requestContext(request)),
  });
  app.delete('/data-connectors/:id', {
    config: { capability: 'connector:write' },
    schema: { operationId: 'deleteDataConnector', tags, summary: 'Delete a data connector and its catalog entries (connector:write)', params: IdParams, response: { 204: { type: 'null' } } },
    handler: async (request, reply) => {
      await service.remove(principalOf(request), request.params.id, requestContext(request));
      return reply.code(204).send(null);
    },
  });
  app.post('/data-connectors/:id/test', {
    config: { capability: 'connector:read' },
    schema: { operationId: 'testDataConnector', tags, summary: 'Try to connect with the stored configuration; names the cause of a failure (connector:read)', params: IdParams, response: { 200: TestResult } },
    handler: async (request) => service.test(principalOf(request), request.params.id),
  });
  app.post('/data-connectors/:id/discover', {
    config: { capability: 'connector:write' },
    schema: { operationId: 'discoverDataConnector', tags, summary: 'Discover datasets and record them in the catalog (connector:write)', params: IdParams, response: { 200: DiscoverResult } },
    handler: async (request) => service.discover(principalOf(request), request.params.id, requestContext(request)),
  });
};
