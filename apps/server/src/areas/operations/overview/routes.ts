import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../../../platform/authn.js';
import type { OverviewService } from './service.js';

const Uuid = Type.String({ format: 'uuid' });
const count = Type.Integer({ minimum: 0 });
const readableCount = Type.Union([count, Type.Null()]);

const ProjectOverview = Type.Object({
  project_id: Uuid,
  project_name: Type.String(),
  counts: Type.Object(
    { connectors: readableCount, pipelines: readableCount, cdc_tables: readableCount, schedules: readableCount },
    { description: 'null where the caller may not read that kind of resource in the project' },
  ),
  executions_24h: Type.Object({ queued: count, running: count, succeeded: count, failed: count, cancelled: count }, { description: 'Executions created in the last 24 hours, by status now' }),
  rows_per_day: Type.Array(Type.Object({ day: Type.String({ format: 'date' }), rows: count }), { description: 'Rows written by succeeded executions, by UTC day of finish, the last 14 days' }),
  failing: Type.Array(
    Type.Object({
      type: Type.Literal('pipeline'),
      id: Uuid,
      name: Type.String(),
      execution_id: Uuid,
      error: Type.Union([Type.String(), Type.Null()]),
      failed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    }),
    { description: 'Pipelines whose latest execution failed' },
  ),
});

export const overviewRoutes: FastifyPluginAsyncTypebox<{ service: OverviewService }> = async (app, { service }) => {
  app.get('/overview', {
    config: { capability: 'execution:read' },
    schema: {
      operationId: 'getOverview',
      tags: ['operations'],
      summary: 'Per project: counts of connectors, pipelines, CDC tables and schedules; executions of the last 24 h by status; rows moved per day; what is failing now (execution:read; each count and the failing pipelines only where the caller may also read that kind)',
      querystring: Type.Object({ project_id: Type.Optional(Uuid) }, { additionalProperties: false }),
      response: { 200: Type.Object({ generated_at: Type.String({ format: 'date-time' }), days: Type.Array(Type.String({ format: 'date' })), projects: Type.Array(ProjectOverview) }) },
    },
    handler: async (request) => service.overview(principalOf(request), request.query.project_id),
  });
};
