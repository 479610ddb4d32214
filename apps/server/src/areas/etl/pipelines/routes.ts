import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../platform/authn.js';
import { requestContext } from '../../../platform/request-context.js';
import { Execution } from '../../operations/executions/routes.js';
import { Pipeline, PipelineBody, PipelinePatch, Preview, PreviewBody, StreamState } from './schemas.js';
import type { PipelinesService } from './service.js';

const Params = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const pipelineRoutes: FastifyPluginAsyncTypebox<{ service: PipelinesService }> = async (app, { service }) => {
  const tags = ['etl'];
  app.post('/etl/pipelines', {
    config: { capability: 'pipeline:write' },
    schema: { operationId: 'createPipeline', tags, summary: 'Create a pipeline: source streams, transform steps, a destination, dependencies (pipeline:write)', body: PipelineBody, response: { 201: Pipeline } },
    handler: async (request, reply) => reply.code(201).send(await service.create(principalOf(request), request.body, requestContext(request))),
  });
  app.get('/etl/pipelines', {
    config: { capability: 'pipeline:read' },
    schema: {
      operationId: 'listPipelines',
      tags,
      summary: 'Pipelines the caller may read (pipeline:read)',
      querystring: Type.Object({ project_id: Type.Optional(Type.String({ format: 'uuid' })) }, { additionalProperties: false }),
      response: { 200: Type.Object({ items: Type.Array(Pipeline) }) },
    },
    handler: async (request) => ({ items: await service.list(principalOf(request), request.query.project_id) }),
  });
  app.get('/etl/pipelines/:id', {
    config: { capability: 'pipeline:read' },
    schema: { operationId: 'getPipeline', tags, summary: 'One pipeline (pipeline:read)', params: Params, response: { 200: Pipeline } },
    handler: async (request) => service.get(principalOf(request), request.params.id),
  });
  app.patch('/etl/pipelines/:id', {
    config: { capability: 'pipeline:write' },
    schema: { operationId: 'updatePipeline', tags, summary: 'Change a pipeline; runs in flight keep the definition they started with (pipeline:write)', params: Params, body: PipelinePatch, response: { 200: Pipeline } },
    handler: async (request) => service.update(principalOf(request), request.params.id, request.body, requestContext(request)),
  });
  app.delete('/etl/pipelines/:id', {
    config: { capability: 'pipeline:write' },
    schema: { operationId: 'deletePipeline', tags, summary: 'Delete a pipeline no other pipeline depends on and that is not running (pipeline:write)', params: Params, response: { 204: { type: 'null' } } },
    handler: async (request, reply) => {
      await service.remove(principalOf(request), request.params.id, requestContext(request));
      return reply.code(204).send(null);
    },
  });
  app.post('/etl/pipelines/:id/run', {
    config: { capability: 'pipeline:run' },
    schema: { operationId: 'runPipeline', tags, summary: 'Run the pipeline now: an execution of kind pipeline; 409 while one is queued or running (pipeline:run)', params: Params, response: { 201: Execution } },
    handler: async (request, reply) => reply.code(201).send(await service.run(principalOf(request), request.params.id, requestContext(request))),
  });
  app.post('/etl/pipelines/:id/preview', {
    config: { capability: 'pipeline:run' },
    schema: {
      operationId: 'previewPipeline',
      tags,
      summary: 'The steps over the first rows of each stream, with the inferred output schema; writes nothing (pipeline:run)',
      params: Params,
      body: PreviewBody,
      response: { 200: Preview },
    },
    // The body is optional: none means the defaults.
    preValidation: async (request) => {
      request.body ??= {};
    },
    handler: async (request) => service.preview(principalOf(request), request.params.id, request.body),
  });
  app.get('/etl/pipelines/:id/state', {
    config: { capability: 'pipeline:read' },
    schema: { operationId: 'getPipelineState', tags, summary: 'Incremental state of each stream: the cursor the next run continues after (pipeline:read)', params: Params, response: { 200: StreamState } },
    handler: async (request) => service.state(principalOf(request), request.params.id),
  });
  app.delete('/etl/pipelines/:id/state', {
    config: { capability: 'pipeline:write' },
    schema: {
      operationId: 'resetPipelineState',
      tags,
      summary: 'Forget the incremental state (of one stream, or all): the next run reads from the start (pipeline:write)',
      params: Params,
      querystring: Type.Object({ stream: Type.Optional(Type.String({ minLength: 1 })) }, { additionalProperties: false }),
      response: { 200: StreamState },
    },
    handler: async (request) => service.resetState(principalOf(request), request.params.id, request.query.stream, requestContext(request)),
  });
};
