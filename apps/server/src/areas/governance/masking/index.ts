/** Masking policies: the service every exit path asks what a viewer may see, and its routes. */
import type { FastifyInstance } from 'fastify';
import type { ProjectAccess } from '../../../platform/authz.js';
import type { Platform } from '../../../platform/runtime.js';
import type { SecretBox } from '../../../platform/secrets.js';
import type { AuditService } from '../../audit/service.js';
import { createMaskingRepository } from './repository.js';
import { maskingRoutes } from './routes.js';
import { createMaskingService } from './service.js';

export function createMaskingArea(
  platform: Platform,
  deps: ProjectAccess & {
    audit: AuditService;
    box: SecretBox;
    columnTags?: (connectorId: string, namespace: string | null, name: string) => Promise<Map<string, string[]>>;
    projectColumnTags?: (projectId: string) => Promise<Map<string, Map<string, string[]>>>;
  },
) {
  const service = createMaskingService({ db: platform.framework.db, repository: createMaskingRepository(), ...deps });
  return {
    service,
    async routes(app: FastifyInstance) {
      await app.register(maskingRoutes, { service });
    },
  };
}
