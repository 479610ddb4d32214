import { resourceRoutes, serviceRoutes } from '../../../platform/routes.js';
import { IdParams, ProjectQuery } from '../../../platform/schemas.js';
import { Execution } from '../../operations/executions/schemas.js';
import {
  CompileBody,
  Compiled,
  Graph,
  Model,
  ModelBody,
  ModelPatch,
  ModelSchedule,
  ModelScheduleBody,
  ModelSchedulePatch,
  Preview,
  PreviewBody,
  RunBody,
  RunResults,
} from './schemas.js';
import type { ModelSchedulesService } from './schedules.js';
import type { ModelsService } from './service.js';

export const modelRoutes = serviceRoutes<ModelsService>(['dw-models'], (route, service) => {
  // Before the `/:id` routes, so `graph` and `runs` are never taken for an id.
  route.get(
    '/dw-models/graph',
    'model:read',
    {
      operationId: 'getModelGraph',
      summary:
        "The project's models as a DAG: nodes, edges (from the model referred to) and dependency order (model:read)",
      querystring: ProjectQuery,
      response: { 200: Graph },
    },
    (request, principal) => service.graph(principal, request.query.project_id),
  );
  route.post(
    '/dw-models/run',
    'model:run',
    {
      operationId: 'runModels',
      summary:
        'Run a selection of models (name, +name, name+, tag:x; none: all) in dependency order: one execution of kind model_run (model:run)',
      body: RunBody,
      response: { 201: Execution },
    },
    (request, principal, context) => service.run(principal, request.body, context),
  );
  route.get(
    '/dw-models/runs/:id',
    'model:read',
    {
      operationId: 'getModelRunResults',
      summary: 'The line per model of a model run (execution id): status, rows, duration, test results (model:read)',
      params: IdParams,
      response: { 200: RunResults },
    },
    (request, principal) => service.results(principal, request.params.id),
  );
  resourceRoutes(route, service, {
    path: '/dw-models',
    noun: 'Model',
    capabilities: { read: 'model:read', write: 'model:write' },
    schemas: { item: Model, create: ModelBody, update: ModelPatch },
    summaries: {
      list: 'Warehouse models the caller may read (model:read)',
      create: 'Create a warehouse model: a SELECT with refs, its materialization and data tests (model:write)',
      get: 'One warehouse model (model:read)',
      update: 'Change a model; a rename is refused while other models refer to it (model:write)',
      remove: 'Delete a model no other model refers to; the relation it built stays in the warehouse (model:write)',
    },
  });
  route.post(
    '/dw-models/:id/compile',
    'model:read',
    {
      operationId: 'compileModel',
      summary: 'The SQL as it will run: refs and sources resolved, ephemeral models inlined (model:read)',
      params: IdParams,
      body: CompileBody,
      response: { 200: Compiled },
    },
    (request, principal) => service.compile(principal, request.params.id, request.body),
  );
  route.post(
    '/dw-models/:id/preview',
    'model:run',
    {
      operationId: 'previewModel',
      summary:
        "The model's first rows, read as the project's warehouse role (through masked views for a caller the masking policies cover); builds nothing (model:run)",
      params: IdParams,
      body: PreviewBody,
      response: { 200: Preview },
    },
    (request, principal) => service.preview(principal, request.params.id, request.body),
  );
});

export const modelScheduleRoutes = serviceRoutes<ModelSchedulesService>(['dw-models'], (route, service) => {
  resourceRoutes(route, service, {
    path: '/dw-models/schedules',
    noun: 'ModelSchedule',
    capabilities: { read: 'model:read', write: 'model:write' },
    schemas: { item: ModelSchedule, create: ModelScheduleBody, update: ModelSchedulePatch },
    summaries: {
      list: 'Schedules of model runs the caller may read (model:read)',
      create:
        'Schedule a selection of models (the selectors of /dw-models/run) on a cron expression in a time zone or an interval (model:write and model:run)',
      get: 'One schedule of model runs (model:read)',
      update:
        'Change a schedule of model runs; {"paused": true} pauses it; a changed or resumed timing is due afresh from now (model:write and model:run)',
      remove: 'Delete a schedule of model runs; runs it started stay (model:write)',
    },
  });
});
