/** Metadata and governance: the catalog (lineage, masking and retention follow). */
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../../platform/authn.js';
import type { Authorize } from '../../platform/authz.js';
import type { Platform } from '../../platform/runtime.js';
import { createCatalogRepository } from './catalog/repository.js';
import { catalogRoutes } from './catalog/routes.js';
import { createCatalogService } from './catalog/service.js';
import { createLineageService } from './lineage/service.js';

export function createGovernanceArea(
  platform: Platform,
  deps: { authorize: Authorize; visibleProjects: (principal: Principal) => Promise<string[] | null> },
) {
  const catalog = createCatalogService({ db: platform.framework.db, repository: createCatalogRepository(), ...deps });
  return {
    catalog,
    lineage: createLineageService(),
    async routes(app: FastifyInstance) {
      await app.register(catalogRoutes, { service: catalog });
    },
  };
}
