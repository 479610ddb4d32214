/**
 * Alerting: notification channels (notification-configs), alert rules with their states and history
 * (alert-rules, evaluated on the elected leader) and users' notification settings.
 */
import type { FastifyInstance } from 'fastify';
import type { ProjectAccess } from '../../platform/authz.js';
import { egressPolicyFrom } from '../../platform/egress.js';
import type { Platform } from '../../platform/runtime.js';
import { resolveSecretBox } from '../../platform/secrets.js';
import type { AuditService } from '../audit/service.js';
import {
  createAlertEvaluator,
  type CdcTableFigures,
  type RunRecord,
  type StreamFigures,
  type WatchedItem,
} from './alert-rules/evaluator.js';
import { createAlertRulesRepository } from './alert-rules/repository.js';
import { alertRuleRoutes } from './alert-rules/routes.js';
import { createAlertRulesService } from './alert-rules/service.js';
import { createNotificationConfigsRepository } from './notification-configs/repository.js';
import { notificationConfigRoutes } from './notification-configs/routes.js';
import { createNotificationConfigsService } from './notification-configs/service.js';
import { createNotificationSettingsRepository } from './notification-settings/repository.js';
import { notificationSettingRoutes } from './notification-settings/routes.js';
import { createNotificationSettingsService } from './notification-settings/service.js';

export async function createAlertingArea(
  platform: Platform,
  deps: ProjectAccess & {
    audit: AuditService;
    /** The operations area: the latest runs of every subject, and the channel finished runs are announced on. */
    runs: {
      history(projectIds: string[], perSubject: number): Promise<RunRecord[]>;
      finishedChannel: string;
    };
    /** The ingestion area's CDC tables with their lag figures. */
    cdcTables(projectIds: string[]): Promise<CdcTableFigures[]>;
    /** The ingestion area's streams with their own lag figures. */
    streams(projectIds: string[]): Promise<StreamFigures[]>;
    /** Every item of the projects a rule's scope may name (pipelines, CDC tables, streams, exports, ...). */
    items(projectIds: string[]): Promise<WatchedItem[]>;
    /** The identity area's users: the enabled ones among ids, with their e-mail address. */
    contacts(ids: string[]): Promise<Array<{ id: string; username: string; email: string; is_admin: boolean }>>;
  },
) {
  const db = platform.framework.db;
  const { config } = platform;
  const box = await resolveSecretBox(config);
  const egress = egressPolicyFrom(config);
  const delivery = () => ({ egress, timeoutMs: config.alerting.deliveryTimeoutSeconds * 1000 });
  const baseUrl = () => config.auth.publicUrl ?? `http://${config.http.host}:${config.http.port}`;
  const channels = createNotificationConfigsService({
    db,
    repository: createNotificationConfigsRepository(),
    box,
    audit: deps.audit,
    authorize: deps.authorize,
    visibleProjects: deps.visibleProjects,
    delivery,
  });
  const repository = createAlertRulesRepository();
  const rules = createAlertRulesService({
    db,
    repository,
    box,
    audit: deps.audit,
    authorize: deps.authorize,
    visibleProjects: deps.visibleProjects,
    unusableChannels: channels.unusableFor,
    baseUrl,
    items: (projectId) => deps.items([projectId]),
  });
  const settings = createNotificationSettingsService({
    db,
    repository: createNotificationSettingsRepository(),
    box,
    audit: deps.audit,
    authorize: deps.authorize,
    foreignChannels: channels.notOwnedBy,
    contacts: deps.contacts,
    delivery,
  });
  const evaluator = createAlertEvaluator({
    db,
    repository,
    runHistory: deps.runs.history,
    cdcTables: deps.cdcTables,
    streams: deps.streams,
    items: deps.items,
    channels: channels.channels,
    send: channels.send,
    users: () => settings.notifier,
    shared: platform.shared,
    runFinishedChannel: deps.runs.finishedChannel,
    logger: platform.logger.child({ area: 'alerting' }),
    registry: platform.metrics.registry,
    intervalMs: config.alerting.evaluationMs,
    deliveryTimeoutSeconds: config.alerting.deliveryTimeoutSeconds,
    deliveryAttempts: config.alerting.deliveryAttempts,
    baseUrl,
  });
  return {
    leaderTasks: [evaluator.leaderTask],
    /** Evaluates every rule now (tests, and whoever must not wait for the next tick). */
    evaluate: evaluator.tick,
    async routes(app: FastifyInstance) {
      await app.register(notificationConfigRoutes, { service: channels });
      await app.register(alertRuleRoutes, { service: rules });
      await app.register(notificationSettingRoutes, { service: settings });
    },
    close: () => evaluator.close(),
  };
}
