import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../platform/authn.js';
import { requestContext } from '../../../platform/request-context.js';
import type { SchedulesService } from './service.js';

const Uuid = Type.String({ format: 'uuid' });
const Params = Type.Object({ id: Uuid });
const Policy = Type.Union([Type.Literal('skip'), Type.Literal('run_once')], {
  description: 'Due times missed while no scheduler ran (beyond SVC_SCHEDULER_GRACE_SECONDS): skip them, or run once for all of them',
});
const Timing = {
  cron: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 200, description: 'Five fields (minute precision) or six (seconds first), read in timezone' }), Type.Null()])),
  timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'IANA time zone of the cron expression (default UTC)' })),
  interval_seconds: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 31_536_000 }), Type.Null()])),
  missed_policy: Type.Optional(Policy),
  paused: Type.Optional(Type.Boolean()),
};

const Schedule = Type.Object({
  id: Uuid,
  project_id: Uuid,
  pipeline_id: Uuid,
  cron: Type.Union([Type.String(), Type.Null()]),
  timezone: Type.String(),
  interval_seconds: Type.Union([Type.Integer(), Type.Null()]),
  missed_policy: Policy,
  paused: Type.Boolean(),
  next_due_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'null while paused' }),
  created_by: Type.Union([Uuid, Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

const DashboardItem = Type.Object({
  schedule_id: Uuid,
  project_id: Uuid,
  pipeline_id: Uuid,
  pipeline_name: Type.String(),
  kind: Type.Union([Type.Literal('cron'), Type.Literal('interval')]),
  cron: Type.Union([Type.String(), Type.Null()]),
  timezone: Type.String(),
  interval_seconds: Type.Union([Type.Integer(), Type.Null()]),
  paused: Type.Boolean(),
  next_due_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  last_run: Type.Union([
    Type.Object({
      execution_id: Uuid,
      status: Type.String(),
      started_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      duration_ms: Type.Union([Type.Integer(), Type.Null()]),
    }),
    Type.Null(),
  ]),
  failures_in_a_row: Type.Integer({ description: 'Failed runs since the last success (of the latest 50)' }),
  missed_runs: Type.Integer({ description: 'Due times never run: missed while no scheduler ran, or due while the pipeline was still running' }),
  last_missed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const scheduleRoutes: FastifyPluginAsyncTypebox<{ service: SchedulesService }> = async (app, { service }) => {
  const tags = ['etl'];
  app.post('/etl/schedules', {
    config: { capability: 'schedule:write' },
    schema: {
      operationId: 'createSchedule',
      tags,
      summary: 'Schedule a pipeline: a cron expression in a time zone, or a fixed interval; one schedule per pipeline (schedule:write)',
      body: Type.Object({ pipeline_id: Uuid, ...Timing }, { additionalProperties: false }),
      response: { 201: Schedule },
    },
    handler: async (request, reply) => reply.code(201).send(await service.create(principalOf(request), request.body, requestContext(request))),
  });
  app.get('/etl/schedules', {
    config: { capability: 'schedule:read' },
    schema: {
      operationId: 'listSchedules',
      tags,
      summary: 'Schedules the caller may read (schedule:read)',
      querystring: Type.Object({ project_id: Type.Optional(Uuid) }, { additionalProperties: false }),
      response: { 200: Type.Object({ items: Type.Array(Schedule) }) },
    },
    handler: async (request) => ({ items: await service.list(principalOf(request), request.query.project_id) }),
  });
  app.get('/etl/schedules/:id', {
    config: { capability: 'schedule:read' },
    schema: { operationId: 'getSchedule', tags, summary: 'One schedule (schedule:read)', params: Params, response: { 200: Schedule } },
    handler: async (request) => service.get(principalOf(request), request.params.id),
  });
  app.patch('/etl/schedules/:id', {
    config: { capability: 'schedule:write' },
    schema: {
      operationId: 'updateSchedule',
      tags,
      summary: 'Change a schedule; a new timing (or a resume) starts counting from now (schedule:write)',
      params: Params,
      body: Type.Object(Timing, { additionalProperties: false, minProperties: 1 }),
      response: { 200: Schedule },
    },
    handler: async (request) => service.update(principalOf(request), request.params.id, request.body, requestContext(request)),
  });
  app.delete('/etl/schedules/:id', {
    config: { capability: 'schedule:write' },
    schema: { operationId: 'deleteSchedule', tags, summary: 'Delete a schedule (schedule:write)', params: Params, response: { 204: { type: 'null' } } },
    handler: async (request, reply) => {
      await service.remove(principalOf(request), request.params.id, requestContext(request));
      return reply.code(204).send(null);
    },
  });
  app.post('/etl/schedules/:id/pause', {
    config: { capability: 'schedule:write' },
    schema: { operationId: 'pauseSchedule', tags, summary: 'Pause: no due time fires until resumed (schedule:write)', params: Params, response: { 200: Schedule } },
    handler: async (request) => service.pause(principalOf(request), request.params.id, requestContext(request)),
  });
  app.post('/etl/schedules/:id/resume', {
    config: { capability: 'schedule:write' },
    schema: { operationId: 'resumeSchedule', tags, summary: 'Resume from now; due times passed while paused are not run (schedule:write)', params: Params, response: { 200: Schedule } },
    handler: async (request) => service.resume(principalOf(request), request.params.id, requestContext(request)),
  });
  app.get('/schedules/dashboard', {
    config: { capability: 'schedule:read' },
    schema: {
      operationId: 'getSchedulesDashboard',
      tags: ['operations'],
      summary: 'Every schedule with its next due time, last run outcome and duration, failures in a row and missed runs (schedule:read)',
      querystring: Type.Object({ project_id: Type.Optional(Uuid) }, { additionalProperties: false }),
      response: { 200: Type.Object({ items: Type.Array(DashboardItem) }) },
    },
    handler: async (request) => service.dashboard(principalOf(request), request.query.project_id),
  });
};
