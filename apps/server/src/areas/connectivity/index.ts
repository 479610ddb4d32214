/** Connectivity: data connectors (and, with the sync issue, the runs that use them). */
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../../platform/authn.js';
import type { Authorize } from '../../platform/authz.js';
import type { Platform } from '../../platform/runtime.js';
import { resolveSecretBox } from '../../platform/secrets.js';
import type { AuditService } from '../audit/service.js';
import type { CatalogService } from '../governance/catalog/service.js';
import { createConnectorsRepository } from './repository.js';
import { connectorRoutes } from './routes.js';
import { createConnectorsService } from './service.js';

export async function createConnectivityArea(
  platform: Platform,
  deps: {
    audit: AuditService;
    catalog: CatalogService;
    authorize: Authorize;
    visibleProjects: (principal: Principal) => Promise<string[] | null>;
    environmentBelongs: (projectId: string, environmentId: string) => Promise<boolean>;
  },
) {
  const service = createConnectorsService({
    db: platform.framework.db,
    repository: createConnectorsRepository(),
    box: await resolveSecretBox(platform.config),
    logger: platform.logger.child({ area: 'connectivity' }),
    ...deps,
  });
  return {
    async routes(app: FastifyInstance) {
      await app.register(connectorRoutes, { service });
    },
  };
}
