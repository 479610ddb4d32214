/** Connectivity: data connectors (and, with the sync issue, the runs that use them). */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../../platform/authn.js';
import type { Authorize } from '../../platform/authz.js';
import { egressPolicyFrom } from '../../platform/egress.js';
import type { Platform } from '../../platform/runtime.js';
import { resolveSecretBox } from '../../platform/secrets.js';
import type { AuditService } from '../audit/service.js';
import type { CatalogService } from '../governance/catalog/service.js';
import { createConnectorsRepository } from './repository.js';
import { connectorRoutes } from './routes.js';
import { createConnectorsService } from './service.js';
import { ensureWarehouse } from './warehouse.js';

async function filesRoot(config: Platform['config']): Promise<string> {
  const root = path.resolve(config.files.root ?? path.join(config.dataDir, 'files'));
  await mkdir(root, { recursive: true });
  return root;
}

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
  const logger = platform.logger.child({ area: 'connectivity' });
  const service = createConnectorsService({
    db: platform.framework.db,
    filesRoot: await filesRoot(platform.config),
    warehouse: await ensureWarehouse(platform.framework.connection, platform.config.db.warehouseDatabase, logger),
    repository: createConnectorsRepository(),
    box: await resolveSecretBox(platform.config),
    egress: egressPolicyFrom(platform.config),
    maxResponseBytes: platform.config.connectors.httpMaxResponseBytes,
    logger,
    ...deps,
  });
  return {
    service,
    async routes(app: FastifyInstance) {
      await app.register(connectorRoutes, { service });
    },
  };
}
