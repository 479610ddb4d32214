/** Audit forwarding: destinations (audit-forwarder-settings) and the delivery that runs on the leader. */
import type { FastifyInstance } from 'fastify';
import { egressPolicyFrom } from '../../../platform/egress.js';
import type { LeaderTask } from '../../../platform/leader.js';
import type { Platform } from '../../../platform/runtime.js';
import { resolveSecretBox } from '../../../platform/secrets.js';
import type { AuditService } from '../service.js';
import { createAuditDelivery } from './delivery.js';
import { createAuditForwardersRepository } from './repository.js';
import { auditForwarderRoutes } from './routes.js';
import { createAuditForwardersService } from './service.js';

export async function createAuditForwarding(platform: Platform, deps: { audit: AuditService }) {
  const db = platform.framework.db;
  const { config } = platform;
  const repository = createAuditForwardersRepository();
  const box = await resolveSecretBox(config);
  const service = createAuditForwardersService({
    db,
    repository,
    box,
    audit: deps.audit,
    maxBacklog: config.auditForwarding.maxBacklog,
    test: (row) => delivery.test(row),
  });
  const delivery = createAuditDelivery({
    db,
    repository,
    audit: deps.audit,
    egress: egressPolicyFrom(config),
    unseal: service.unseal,
    logger: platform.logger.child({ area: 'audit', component: 'forwarder' }),
    registry: platform.metrics.registry,
    batchSize: config.auditForwarding.batchSize,
    maxBacklog: config.auditForwarding.maxBacklog,
    timeoutMs: config.alerting.deliveryTimeoutSeconds * 1000,
  });
  const task: LeaderTask = { name: 'audit-forwarding', intervalMs: config.auditForwarding.pollMs, run: delivery.run };
  return {
    leaderTasks: [task],
    async routes(app: FastifyInstance) {
      await app.register(auditForwarderRoutes, { service });
    },
    close: () => delivery.close(),
  };
}
