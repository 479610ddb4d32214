import { serviceRoutes } from '../../../platform/routes.js';
import { ProjectQuery } from '../../../platform/schemas.js';
import { Overview } from './schemas.js';
import type { OverviewService } from './service.js';

export const overviewRoutes = serviceRoutes<OverviewService>(['operations'], (route, service) => {
  route.get(
    '/overview',
    'execution:read',
    {
      operationId: 'getOverview',
      summary:
        'Per project: counts of connectors, pipelines, CDC tables and schedules; executions of the last 24 h by status; rows moved per day; what is failing now (execution:read; each count and the failing pipelines only where the caller may also read that kind)',
      querystring: ProjectQuery,
      response: { 200: Overview },
    },
    (request, principal) => service.overview(principal, request.query.project_id),
  );
});
