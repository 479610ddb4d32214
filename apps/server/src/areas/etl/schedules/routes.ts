import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { apiRoutes } from '../../../platform/routes.js';
import { IdParams, Items, NoContent, ProjectQuery } from '../../../platform/schemas.js';
import { CreateScheduleBody, DashboardItem, Schedule, UpdateScheduleBody } from './schemas.js';
import type { SchedulesService } from './service.js';

export const scheduleRoutes: FastifyPluginAsyncTypebox<{ service: SchedulesService }> = async (app, { service }) => {
  const route = apiRoutes(app, ['etl']);
  route.post(
    '/etl/schedules',
    'schedule:write',
    {
      operationId: 'createSchedule',
      summary: 'Schedule a pipeline: a cron expression in a time zone, or a fixed interval; one schedule per pipeline (schedule:write)',
      body: CreateScheduleBody,
      response: { 201: Schedule },
    },
    (request, principal, context) => service.create(principal, request.body, context),
  );
  route.get(
    '/etl/schedules',
    'schedule:read',
    { operationId: 'listSchedules', summary: 'Schedules the caller may read (schedule:read)', querystring: ProjectQuery, response: { 200: Items(Schedule) } },
    async (request, principal) => ({ items: await service.list(principal, request.query.project_id) }),
  );
  route.get('/etl/schedules/:id', 'schedule:read', { operationId: 'getSchedule', summary: 'One schedule (schedule:read)', params: IdParams, response: { 200: Schedule } }, (request, principal) =>
    service.get(principal, request.params.id),
  );
  route.patch(
    '/etl/schedules/:id',
    'schedule:write',
    {
      operationId: 'updateSchedule',
      summary: 'Change a schedule; a new timing (or a resume) starts counting from now (schedule:write)',
      params: IdParams,
      body: UpdateScheduleBody,
      response: { 200: Schedule },
    },
    (request, principal, context) => service.update(principal, request.params.id, request.body, context),
  );
  route.delete('/etl/schedules/:id', 'schedule:write', { operationId: 'deleteSchedule', summary: 'Delete a schedule (schedule:write)', params: IdParams, response: NoContent }, (request, principal, context) =>
    service.remove(principal, request.params.id, context),
  );
  for (const [action, operationId, summary] of [
    ['pause', 'pauseSchedule', 'Pause: no due time fires until resumed (schedule:write)'],
    ['resume', 'resumeSchedule', 'Resume from now; due times passed while paused are not run (schedule:write)'],
  ] as const) {
    route.post(`/etl/schedules/:id/${action}`, 'schedule:write', { operationId, summary, params: IdParams, response: { 200: Schedule } }, (request, principal, context) =>
      service[action](principal, request.params.id, context),
    );
  }
  route.get(
    '/schedules/dashboard',
    'schedule:read',
    {
      operationId: 'getSchedulesDashboard',
      tags: ['operations'],
      summary: 'Every schedule with its next due time, last run outcome and duration, failures in a row and missed runs (schedule:read)',
      querystring: ProjectQuery,
      response: { 200: Items(DashboardItem) },
    },
    (request, principal) => service.dashboard(principal, request.query.project_id),
  );
};
