import { serviceRoutes } from '../../../platform/routes.js';
import { Items } from '../../../platform/schemas.js';
import type { Principal } from '../../../platform/authn.js';
import {
  ColumnLineage,
  ColumnLineageQuery,
  ForwardingBody,
  ForwardingSettings,
  GraphQuery,
  LineageEvent,
  LineageEventQuery,
  LineageGraph,
} from './schemas.js';
import type { LineageService } from './service.js';

export interface LineageAccess {
  service: LineageService;
  /** The projects whose lineage the principal may read (lineage:read), optionally one. */
  scope(principal: Principal, projectId?: string): Promise<string[] | null>;
  /** Throws unless the principal may read the lineage of the project. */
  check(principal: Principal, projectId: string): Promise<void>;
  /** Throws unless the principal is an administrator (forwarding is instance-wide). */
  admin(principal: Principal): Promise<void>;
}

export const lineageRoutes = serviceRoutes<LineageAccess>(['governance'], (route, access) => {
  const { service } = access;
  route.get(
    '/lineage/events',
    'lineage:read',
    {
      operationId: 'listLineageEvents',
      summary: 'OpenLineage RunEvents of the runs (lineage:read), oldest first, optionally of one run, job or dataset',
      querystring: LineageEventQuery,
      response: { 200: Items(LineageEvent) },
    },
    async (request, principal) => ({
      items: await service.events(
        principal,
        {
          projectId: request.query.project_id,
          runId: request.query.run_id,
          jobId: request.query.job_id,
          datasetId: request.query.dataset_id,
          eventType: request.query.event_type,
          after: request.query.after,
          limit: request.query.limit,
        },
        access.scope,
      ),
    }),
  );
  route.get(
    '/lineage/graph',
    'lineage:read',
    {
      operationId: 'getLineageGraph',
      summary: 'Datasets and jobs upstream and/or downstream of a node, within depth hops (lineage:read)',
      querystring: GraphQuery,
      response: { 200: LineageGraph },
    },
    (request, principal) =>
      service.graph(
        principal,
        {
          node: request.query.node,
          direction: request.query.direction ?? 'both',
          depth: request.query.depth ?? 3,
        },
        access.check,
      ),
  );
  route.get(
    '/lineage/columns',
    'lineage:read',
    {
      operationId: 'getColumnLineage',
      summary: 'Where a column of a dataset came from, level by level (lineage:read)',
      querystring: ColumnLineageQuery,
      response: { 200: ColumnLineage },
    },
    (request, principal) =>
      service.columnLineage(
        principal,
        { dataset: request.query.dataset, column: request.query.column, depth: request.query.depth ?? 5 },
        access.check,
      ),
  );
  route.get(
    '/lineage/forwarding',
    'lineage:admin',
    {
      operationId: 'getLineageForwarding',
      summary: 'The external OpenLineage endpoint events are forwarded to (administrators)',
      response: { 200: ForwardingSettings },
    },
    async (_request, principal) => {
      await access.admin(principal);
      return service.forwardingSettings();
    },
  );
  route.put(
    '/lineage/forwarding',
    'lineage:admin',
    {
      operationId: 'updateLineageForwarding',
      summary: 'Forward the RunEvents to an external OpenLineage endpoint, through the egress policy (administrators)',
      body: ForwardingBody,
      response: { 200: ForwardingSettings },
    },
    async (request, principal) => {
      await access.admin(principal);
      return service.saveForwarding(request.body);
    },
  );
});
