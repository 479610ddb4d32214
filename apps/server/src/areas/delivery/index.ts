/** Delivery: exports (data delivered out of a project to files, object stores, HTTP endpoints and databases). */
import type { ConnectorHandle, Log } from '@svc/engine';
import type { FastifyInstance } from 'fastify';
import type { Counter } from 'prom-client';
import type { Principal } from '../../platform/authn.js';
import type { Authorize } from '../../platform/authz.js';
import type { JobHandlers, JobQueue } from '../../platform/jobs.js';
import type { Platform } from '../../platform/runtime.js';
import { resolveSecretBox } from '../../platform/secrets.js';
import type { AuditService } from '../audit/service.js';
import type { ProjectWarehouse } from '../connectivity/warehouse.js';
import type { RunRecorder } from '../operations/executions/recorder.js';
import type { ExecutionsService } from '../operations/executions/service.js';
import { createExportsRepository } from './exports/repository.js';
import { exportRoutes } from './exports/routes.js';
import { createExportsService, type ConnectorFacts } from './exports/service.js';

export async function createDeliveryArea(
  platform: Platform,
  deps: {
    audit: AuditService;
    authorize: Authorize;
    visibleProjects: (principal: Principal) => Promise<string[] | null>;
    executions: ExecutionsService;
    queue: JobQueue;
    /** The operations area's record of runs, and its count of rows moved. */
    recorder: RunRecorder;
    rowsMoved: Counter<'direction'>;
    connectors: {
      describe(principal: Principal, id: string): Promise<ConnectorFacts>;
      openForRun(id: string, log: Log): Promise<ConnectorHandle>;
    };
    /** The project's folder of the files root: where file exports are written. */
    projectFolder(projectId: string): Promise<string>;
    /** How to reach the project's warehouse schema as the project's own role (undefined: no warehouse here). */
    projectWarehouse(projectId: string, schema?: string): Promise<ProjectWarehouse> | undefined;
  },
) {
  const db = platform.framework.db;
  const repository = createExportsRepository();
  const exports = createExportsService({
    db,
    repository,
    authorize: deps.authorize,
    visibleProjects: deps.visibleProjects,
    audit: deps.audit,
    box: await resolveSecretBox(platform.config),
    describeConnector: deps.connectors.describe,
    executionStatus: async (id) => (await deps.executions.find(id))?.status,
  });
  return {
    /** The run kinds this area executes (platform/job-kinds.ts). */
    jobHandlers: {} satisfies JobHandlers,
    async routes(app: FastifyInstance) {
      await app.register(exportRoutes, { service: exports });
    },
  };
}
