import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../../platform/authn.js';
import { apiRoutes, resourceRoutes } from '../../../platform/routes.js';
import { IdParams } from '../../../platform/schemas.js';
import { Execution } from '../../operations/executions/schemas.js';
import { Pipeline, PipelineBody, PipelinePatch, Preview, PreviewBody, StateQuery, StreamState } from './schemas.js';
import type { PipelinesService } from './service.js';

export const pipelineRoutes: FastifyPluginAsyncTypebox<{ service: PipelinesService }> = async (app, { service }) => {
  const tags = ['etl'];
  const route = apiRoutes(app, tags);
  resourceRoutes(route, service, {
    path: '/etl/pipelines',
    noun: 'Pipeline',
    capabilities: { read: 'pipeline:read', write: 'pipeline:write' },
    schemas: { item: Pipeline, create: PipelineBody, update: PipelinePatch },
    summaries: {
      list: 'Pipelines the caller may read (pipeline:read)',
      create: 'Create a pipeline: source streams, transform steps, a destination, dependencies (pipeline:write)',
      get: 'One pipeline (pipeline:read)',
      update: 'Change a pipeline; runs in flight keep the definition they started with (pipeline:write)',
      remove: 'Delete a pipeline no other pipeline depends on and that is not running (pipeline:write)',
    },
  });
  route.post(
    '/etl/pipelines/:id/run',
    'pipeline:run',
    {
      operationId: 'runPipeline',
      summary: 'Run the pipeline now: an execution of kind pipeline; 409 while one is queued or running (pipeline:run)',
      params: IdParams,
      response: { 201: Execution },
    },
    (request, principal, context) => service.run(principal, request.params.id, context),
  );
  app.post('/etl/pipelines/:id/preview', {
    config: { capability: 'pipeline:run' },
    schema: {
      operationId: 'previewPipeline',
      tags,
      summary:
        'The steps over the first rows of each stream, with the inferred output schema; writes nothing (pipeline:run)',
      params: IdParams,
      body: PreviewBody,
      response: { 200: Preview },
    },
    // The body is optional: none means the defaults.
    preValidation: async (request) => {
      request.body ??= {};
    },
    handler: async (request) => service.preview(principalOf(request), request.params.id, request.body),
  });
  route.get(
    '/etl/pipelines/:id/state',
    'pipeline:read',
    {
      operationId: 'getPipelineState',
      summary: 'Incremental state of each stream: the cursor the next run continues after (pipeline:read)',
      params: IdParams,
      response: { 200: StreamState },
    },
    (request, principal) => service.state(principal, request.params.id),
  );
  route.delete(
    '/etl/pipelines/:id/state',
    'pipeline:write',
    {
      operationId: 'resetPipelineState',
      summary:
        'Forget the incremental state (of one stream, or all): the next run reads from the start (pipeline:write)',
      params: IdParams,
      querystring: StateQuery,
      response: { 200: StreamState },
    },
    (request, principal, context) => service.resetState(principal, request.params.id, request.query.stream, context),
  );
};
