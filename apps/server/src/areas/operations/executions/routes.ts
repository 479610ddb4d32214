import { serviceRoutes } from '../../../platform/routes.js';
import { IdParams, Items, Page } from '../../../platform/schemas.js';
import { CancelFilter, CancelResult, Execution, ExecutionQuery, LogLine, LogQuery, StartBody } from './schemas.js';
import type { ExecutionsService } from './service.js';

export const executionRoutes = serviceRoutes<ExecutionsService>(['operations'], (route, service) => {
  route.post(
    '/executions',
    'execution:run',
    {
      operationId: 'startExecution',
      summary:
        'Start a run (kind sync: copy tables from a source connector into a destination connector) (execution:run)',
      body: StartBody,
      response: { 201: Execution },
    },
    (request, principal, context) => {
      const { kind: _kind, project_id, ...params } = request.body;
      return service.startSync(principal, project_id, params, context);
    },
  );
  route.get(
    '/executions',
    'execution:read',
    {
      operationId: 'listExecutions',
      summary: 'Executions, newest first (execution:read); filter by status, kind, project and time; page with cursor',
      querystring: ExecutionQuery,
      response: { 200: Page(Execution) },
    },
    (request, principal) => service.list(principal, request.query),
  );
  route.post(
    '/executions/cancel',
    'execution:run',
    {
      operationId: 'cancelExecutions',
      summary: 'Cancel every queued or running execution that matches the filters (execution:run)',
      body: CancelFilter,
      response: { 200: CancelResult },
    },
    (request, principal, context) => service.cancelByFilter(principal, request.body, context),
  );
  route.get(
    '/executions/:id',
    'execution:read',
    {
      operationId: 'getExecution',
      summary: 'One execution with its counters (execution:read)',
      params: IdParams,
      response: { 200: Execution },
    },
    (request, principal) => service.get(principal, request.params.id),
  );
  route.get(
    '/executions/:id/logs',
    'execution:read',
    {
      operationId: 'getExecutionLogs',
      summary: 'Log lines of an execution (execution:read); after_id continues',
      params: IdParams,
      querystring: LogQuery,
      response: { 200: Items(LogLine) },
    },
    async (request, principal) => ({ items: await service.logs(principal, request.params.id, request.query.after_id) }),
  );
  route.post(
    '/executions/:id/cancel',
    'execution:run',
    {
      operationId: 'cancelExecution',
      summary: 'Cancel a queued or running execution; a running one stops within seconds (execution:run)',
      params: IdParams,
      response: { 200: Execution },
    },
    (request, principal, context) => service.cancel(principal, request.params.id, context),
  );
  route.post(
    '/executions/:id/retry',
    'execution:run',
    {
      operationId: 'retryExecution',
      summary: 'Run a failed or cancelled execution again, as a new execution (execution:run)',
      params: IdParams,
      response: { 201: Execution },
    },
    (request, principal, context) => service.retry(principal, request.params.id, context),
  );
});
