/** Metadata and governance: the catalog and lineage (masking and retention follow). */
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../../platform/authn.js';
import { projectScope, requireAdmin, type ProjectAccess } from '../../platform/authz.js';
import { egressPolicyFrom } from '../../platform/egress.js';
import type { LeaderTask } from '../../platform/leader.js';
import type { Platform } from '../../platform/runtime.js';
import { resolveSecretBox } from '../../platform/secrets.js';
import type { AuditService } from '../audit/service.js';
import { createCatalogRepository } from './catalog/repository.js';
import { catalogRoutes } from './catalog/routes.js';
import { createCatalogService } from './catalog/service.js';
import { lineageRoutes } from './lineage/routes.js';
import { createLineageService } from './lineage/service.js';

export async function createGovernanceArea(
  platform: Platform,
  deps: ProjectAccess & {
    audit: AuditService;
  },
) {
  const db = platform.framework.db;
  const access = { authorize: deps.authorize, visibleProjects: deps.visibleProjects };
  const lineage = createLineageService({
    db,
    ...access,
    box: await resolveSecretBox(platform.config),
    egress: egressPolicyFrom(platform.config),
    logger: platform.logger.child({ area: 'lineage' }),
    enabled: platform.config.lineage.enabled,
  });
  const catalog = createCatalogService({ db, repository: createCatalogRepository(), lineage, ...deps });
  const forwardTask: LeaderTask = { name: 'lineage-forwarding', intervalMs: 2000, run: () => lineage.forward() };
  const lineageAccess = {
    service: lineage,
    scope: (principal: Principal, projectId?: string) => projectScope(deps, principal, 'lineage:read', projectId),
    check: (principal: Principal, projectId: string) => deps.authorize(principal, 'lineage:read', projectId),
    admin: async (principal: Principal) => requireAdmin(principal, 'lineage:admin'),
  };
  return {
    catalog,
    lineage,
    leaderTasks: [forwardTask],
    async routes(app: FastifyInstance) {
      await app.register(catalogRoutes, { service: catalog });
      await app.register(lineageRoutes, { service: lineageAccess });
    },
  };
}
