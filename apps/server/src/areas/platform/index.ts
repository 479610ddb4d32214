/** Platform administration: projects, environments, members and roles (admin), and the license. */
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../../platform/authn.js';
import type { Authorize } from '../../platform/authz.js';
import type { LicenseStatus } from '../../platform/license-gate.js';
import type { Platform } from '../../platform/runtime.js';
import type { AuditService } from '../audit/service.js';
import type { UsersService } from '../identity/users/service.js';
import { createAdminRepository } from './admin/repository.js';
import { adminRoutes } from './admin/routes.js';
import { createAdminService } from './admin/service.js';
import { licenseRoutes } from './license/routes.js';
import { createLicenseService } from './license/service.js';

export interface PlatformArea {
  authorize: Authorize;
  visibleProjectIds(principal: Principal): Promise<string[] | null>;
  environmentBelongs(projectId: string, environmentId: string): Promise<boolean>;
  /** Gives a user a role in a project; false when either does not exist. */
  grantRole(projectId: string, userId: string, role: string): Promise<boolean>;
  /** Runs after a project is deleted: other areas remove what they keep outside the framework database. */
  onProjectDeleted(listener: (projectId: string) => Promise<void>): void;
  /** Ids and names of these projects (null: every project), ordered by name: for read models of other areas. */
  projectNames(projectIds: string[] | null): Promise<Array<{ id: string; name: string }>>;
  license: LicenseStatus;
  routes(app: FastifyInstance): Promise<void>;
  /** `firstBoot`: this process seeded the initial administrator (the default project is created for it). */
  start(firstBoot?: { adminId: string }): Promise<void>;
  close(): Promise<void>;
}

export async function createPlatformArea(
  platform: Platform,
  deps: { audit: AuditService; users: UsersService },
): Promise<PlatformArea> {
  const { framework, shared, config, logger } = platform;
  const db = framework.db;
  const repository = createAdminRepository();
  const admin = await createAdminService({ db, repository, users: deps.users, audit: deps.audit, shared });
  const license = await createLicenseService({
    db,
    publicKey: config.auth.licensePublicKey,
    audit: deps.audit,
    shared,
    logger: logger.child({ area: 'platform' }),
  });
  return {
    authorize: admin.authorize,
    visibleProjectIds: admin.visibleProjectIds,
    environmentBelongs: admin.environmentBelongs,
    grantRole: admin.grantRole,
    onProjectDeleted: admin.onProjectDeleted,
    projectNames: async (projectIds) =>
      (await repository.listProjects(db, { ids: projectIds })).map(({ id, name }) => ({ id, name })),
    license,
    async routes(app) {
      await app.register(adminRoutes, { service: admin });
      await app.register(licenseRoutes, { service: license });
    },
    async start(firstBoot) {
      await admin.ensureBuiltInRoles();
      if (firstBoot && config.auth.createDefaultProject) await admin.createDefaultProject(firstBoot.adminId);
    },
    async close() {
      await admin.close();
      await license.close();
    },
  };
}
