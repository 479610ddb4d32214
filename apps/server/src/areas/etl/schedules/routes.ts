import { resourceRoutes, serviceRoutes } from '../../../platform/routes.js';
import { IdParams, Items, ProjectQuery } from '../../../platform/schemas.js';
import { CreateScheduleBody, DashboardItem, Schedule, UpdateScheduleBody } from './schemas.js';
import type { SchedulesService } from './service.js';

export const scheduleRoutes = serviceRoutes<SchedulesService>(['etl'], (route, service) => {
  resourceRoutes(route, service, {
    path: '/etl/schedules',
    noun: 'Schedule',
    capabilities: { read: 'schedule:read', write: 'schedule:write' },
    schemas: { item: Schedule, create: CreateScheduleBody, update: UpdateScheduleBody },
    summaries: {
      list: 'Schedules the caller may read (schedule:read)',
      create:
        'Schedule a pipeline: a cron expression in a time zone, or a fixed interval; one schedule per pipeline (schedule:write)',
      get: 'One schedule (schedule:read)',
      update: 'Change a schedule; a new timing (or a resume) starts counting from now (schedule:write)',
      remove: 'Delete a schedule (schedule:write)',
    },
  });
  for (const [action, operationId, summary] of [
    ['pause', 'pauseSchedule', 'Pause: no due time fires until resumed (schedule:write)'],
    ['resume', 'resumeSchedule', 'Resume from now; due times passed while paused are not run (schedule:write)'],
  ] as const) {
    route.post(
      `/etl/schedules/:id/${action}`,
      'schedule:write',
      { operationId, summary, params: IdParams, response: { 200: Schedule } },
      (request, principal, context) => service[action](principal, request.params.id, context),
    );
  }
  route.get(
    '/schedules/dashboard',
    'schedule:read',
    {
      operationId: 'getSchedulesDashboard',
      tags: ['operations'],
      summary:
        'Every schedule with its next due time, last run outcome and duration, failures in a row and missed runs (schedule:read)',
      querystring: ProjectQuery,
      response: { 200: Items(DashboardItem) },
    },
    (request, principal) => service.dashboard(principal, request.query.project_id),
  );
});
