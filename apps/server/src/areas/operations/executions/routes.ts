import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../platform/authn.js';
import { requestContext } from '../../../platform/request-context.js';
import type { ExecutionsService } from './service.js';

const Uuid = Type.String({ format: 'uuid' });
const Status = Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('cancelled')]);
export const Execution = Type.Object({
  id: Uuid,
  project_id: Uuid,
  kind: Type.String(),
  status: Status,
  params: Type.Record(Type.String(), Type.Unknown()),
  created_by: Type.Union([Uuid, Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  started_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  duration_ms: Type.Union([Type.Integer(), Type.Null()]),
  attempts: Type.Integer(),
  rows_read: Type.Integer(),
  rows_written: Type.Integer(),
  bytes_read: Type.Integer({ description: 'Bytes of the source data: the bulk stream when there is one, else an estimate from the values' }),
  bytes_written: Type.Integer({ description: 'Bytes the destination was sent, as its connector reports them' }),
  error: Type.Union([Type.String(), Type.Null()]),
  cancel_requested: Type.Boolean(),
  retry_of: Type.Union([Uuid, Type.Null()]),
  pipeline_id: Type.Union([Uuid, Type.Null()], { description: 'Pipeline runs: the pipeline' }),
  schedule_id: Type.Union([Uuid, Type.Null()], { description: 'Pipeline runs started by a schedule: the schedule' }),
  trigger: Type.Union([Type.Literal('manual'), Type.Literal('schedule'), Type.Literal('dependency'), Type.Literal('retry'), Type.Null()], { description: 'Pipeline runs: what started the run' }),
  dag_run_id: Type.Union([Uuid, Type.Null()], { description: 'Pipeline runs: the first execution of the cascade of dependent pipelines this run belongs to' }),
});
const Filters = {
  status: Type.Optional(Status),
  kind: Type.Optional(Type.String({ maxLength: 50 })),
  pipeline_id: Type.Optional(Uuid),
  project_id: Type.Optional(Uuid),
  since: Type.Optional(Type.String({ format: 'date-time' })),
  until: Type.Optional(Type.String({ format: 'date-time' })),
};
const Stream = Type.Object(
  {
    namespace: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    name: Type.String({ minLength: 1 }),
    destination_name: Type.Optional(Type.String({ minLength: 1 })),
    mode: Type.Union([Type.Literal('append'), Type.Literal('overwrite'), Type.Literal('upsert')]),
    key_columns: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })),
    cursor_column: Type.Optional(Type.String({ minLength: 1, description: 'Incremental: only rows past the cursor saved by the previous run' })),
    ranges: Type.Optional(Type.Integer({ minimum: 2, maximum: 64, description: 'Copy in this many key ranges in parallel, each its own job, resumed on its own (append or upsert)' })),
    range_column: Type.Optional(Type.String({ minLength: 1, description: 'Integer column the ranges split (with ranges)' })),
  },
  { additionalProperties: false },
);
const StartBody = Type.Object(
  {
    kind: Type.Literal('sync'),
    project_id: Uuid,
    source_connector_id: Uuid,
    destination_connector_id: Uuid,
    destination_namespace: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    streams: Type.Array(Stream, { minItems: 1, maxItems: 500 }),
  },
  { additionalProperties: false },
);
const LogLine = Type.Object({ id: Type.String(), ts: Type.String({ format: 'date-time' }), level: Type.String(), message: Type.String(), fields: Type.Record(Type.String(), Type.Unknown()) });
const Params = Type.Object({ id: Uuid });

export const executionRoutes: FastifyPluginAsyncTypebox<{ service: ExecutionsService }> = async (app, { service }) => {
  const tags = ['operations'];
  app.post('/executions', {
    config: { capability: 'execution:run' },
    schema: { operationId: 'startExecution', tags, summary: 'Start a run (kind sync: copy tables from a source connector into a destination connector) (execution:run)', body: StartBody, response: { 201: Execution } },
    handler: async (request, reply) => {
      const { kind: _kind, project_id, ...params } = request.body;
      return reply.code(201).send(await service.startSync(principalOf(request), project_id, params, requestContext(request)));
    },
  });
  app.get('/executions', {
    config: { capability: 'execution:read' },
    schema: {
      operationId: 'listExecutions',
      tags,
      summary: 'Executions, newest first (execution:read); filter by status, kind, project and time; page with cursor',
      querystring: Type.Object({ ...Filters, cursor: Type.Optional(Type.String({ maxLength: 200 })), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })) }, { additionalProperties: false }),
      response: { 200: Type.Object({ items: Type.Array(Execution), next_cursor: Type.Union([Type.String(), Type.Null()]) }) },
    },
    handler: async (request) => service.list(principalOf(request), request.query),
  });
  app.post('/executions/cancel', {
    config: { capability: 'execution:run' },
    schema: { operationId: 'cancelExecutions', tags, summary: 'Cancel every queued or running execution that matches the filters (execution:run)', body: Type.Object(Filters, { additionalProperties: false }), response: { 200: Type.Object({ cancelled: Type.Integer() }) } },
    handler: async (request) => service.cancelByFilter(principalOf(request), request.body, requestContext(request)),
  });
  app.get('/executions/:id', {
    config: { capability: 'execution:read' },
    schema: { operationId: 'getExecution', tags, summary: 'One execution with its counters (execution:read)', params: Params, response: { 200: Execution } },
    handler: async (request) => service.get(principalOf(request), request.params.id),
  });
  app.get('/executions/:id/logs', {
    config: { capability: 'execution:read' },
    schema: {
      operationId: 'getExecutionLogs',
      tags,
      summary: 'Log lines of an execution (execution:read); after_id continues',
      params: Params,
      querystring: Type.Object({ after_id: Type.Optional(Type.String({ pattern: '^[0-9]+$' })) }, { additionalProperties: false }),
      response: { 200: Type.Object({ items: Type.Array(LogLine) }) },
    },
    handler: async (request) => ({ items: await service.logs(principalOf(request), request.params.id, request.query.after_id) }),
  });
  app.post('/executions/:id/cancel', {
    config: { capability: 'execution:run' },
    schema: { operationId: 'cancelExecution', tags, summary: 'Cancel a queued or running execution; a running one stops within seconds (execution:run)', params: Params, response: { 200: Execution } },
    handler: async (request) => service.cancel(principalOf(request), request.params.id, requestContext(request)),
  });
  app.post('/executions/:id/retry', {
    config: { capability: 'execution:run' },
    schema: { operationId: 'retryExecution', tags, summary: 'Run a failed or cancelled execution again, as a new execution (execution:run)', params: Params, response: { 201: Execution } },
    handler: async (request, reply) => reply.code(201).send(await service.retry(principalOf(request), request.params.id, requestContext(request))),
  });
};
