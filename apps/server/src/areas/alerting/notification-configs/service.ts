/**
 * Notification channels: owned by a project (alert:read / alert:write there) or instance-wide
 * (administrators). Secret settings are write-only: encrypted at rest, never returned.
 */
import type { Principal } from '../../../platform/authn.js';
import { hasInstanceRights, requireAdmin, resourceGuard, type ProjectAccess } from '../../../platform/authz.js';
import { auditedWrites } from '../../../platform/audited-writes.js';
import type { Db } from '../../../platform/db/index.js';
import { notFound } from '../../../platform/errors/index.js';
import type { RequestContext } from '../../../platform/request-context.js';
import { createSealer, secretsColumn } from '../../../platform/sealed-config.js';
import type { SecretBox } from '../../../platform/secrets.js';
import type { AuditService } from '../../audit/service.js';
import { NOTIFICATION_CONFIG, channelNameTaken } from '../errors.js';
import {
  CHANNEL_SETTINGS,
  deliver,
  type AlertMessage,
  type ChannelType,
  type DeliveryContext,
  type DeliveryResult,
} from './channels.js';
import type { NotificationConfigRow, NotificationConfigsRepository } from './repository.js';
import { authorship } from '../../../platform/presenters.js';

export interface NotificationConfigInput {
  project_id: string | null;
  name: string;
  type: ChannelType;
  config: Record<string, unknown>;
  enabled?: boolean;
}

export type NotificationConfigPatch = Partial<Pick<NotificationConfigInput, 'name' | 'config' | 'enabled'>>;

export type NotificationConfigsService = ReturnType<typeof createNotificationConfigsService>;

export const presentNotificationConfig = (row: NotificationConfigRow) => ({
  id: row.id,
  project_id: row.project_id,
  name: row.name,
  type: row.type,
  config: row.settings,
  secrets_set: Object.keys(secretsColumn.read(row.secrets)).sort(),
  enabled: row.enabled,
  ...authorship(row),
});

export function createNotificationConfigsService(
  deps: ProjectAccess & {
    db: Db;
    repository: NotificationConfigsRepository;
    box: SecretBox;
    audit: AuditService;
    delivery: () => DeliveryContext;
  },
) {
  const { db, repository, audit } = deps;
  const writes = auditedWrites<NotificationConfigRow>(deps, {
    kind: 'notification_config',
    label: NOTIFICATION_CONFIG,
    nameTaken: channelNameTaken,
  });
  const sealer = createSealer(deps.box, 'config');

  const projectGuard = resourceGuard(
    deps,
    NOTIFICATION_CONFIG,
    async (id) => {
      const row = await repository.find(db, id);
      return row && row.project_id ? { ...row, project_id: row.project_id } : undefined;
    },
    { capabilities: ['alert:read', 'alert:write'] },
  );

  /** A channel and the right to `capability` on it: its project's, or an administrator's for an instance-wide one. */
  const find = async (principal: Principal, id: string, capability: 'alert:read' | 'alert:write') => {
    const row = await repository.find(db, id);
    if (!row) throw notFound(NOTIFICATION_CONFIG);
    if (row.project_id === null) {
      if (!hasInstanceRights(principal)) throw notFound(NOTIFICATION_CONFIG);
      return row;
    }
    await projectGuard.find(principal, id, capability);
    return row;
  };

  const settingsOf = (row: NotificationConfigRow) => sealer.unseal(row.settings, secretsColumn.read(row.secrets));

  const send = (row: NotificationConfigRow, message: AlertMessage): Promise<DeliveryResult> =>
    deliver(deps.delivery(), row.type, settingsOf(row), message);

  return {
    async list(principal: Principal, projectId?: string) {
      const projectIds = await projectGuard.scope(principal, 'alert:read', projectId);
      const rows = await repository.list(db, projectIds, !projectId && hasInstanceRights(principal));
      return rows.map(presentNotificationConfig);
    },
    async get(principal: Principal, id: string) {
      return presentNotificationConfig(await find(principal, id, 'alert:read'));
    },
    async create(principal: Principal, input: NotificationConfigInput, context: RequestContext) {
      if (input.project_id === null) requireAdmin(principal, 'alert:write');
      else await deps.authorize(principal, 'alert:write', input.project_id);
      const sealed = sealer.seal(CHANNEL_SETTINGS[input.type], input.config);
      const row = await writes.create(
        context,
        input.name,
        (trx) =>
          repository.insert(trx, {
            project_id: input.project_id,
            name: input.name,
            type: input.type,
            settings: sealed.plain,
            secrets: secretsColumn.write(sealed.secrets),
            enabled: input.enabled ?? true,
            created_by: principal.userId,
          }),
        () => ({ name: input.name, type: input.type, project_id: input.project_id }),
      );
      return presentNotificationConfig(row);
    },
    async update(principal: Principal, id: string, patch: NotificationConfigPatch, context: RequestContext) {
      const row = await find(principal, id, 'alert:write');
      const changes: Parameters<NotificationConfigsRepository['update']>[2] = {};
      if (patch.name !== undefined) changes.name = patch.name;
      if (patch.enabled !== undefined) changes.enabled = patch.enabled;
      if (patch.config !== undefined) {
        const merged = { ...row.settings, ...patch.config };
        const sealed = sealer.seal(CHANNEL_SETTINGS[row.type], merged, secretsColumn.read(row.secrets));
        changes.settings = sealed.plain;
        changes.secrets = secretsColumn.write(sealed.secrets);
      }
      const updated = await writes.update(
        context,
        id,
        patch.name ?? row.name,
        patch,
        (trx) => repository.update(trx, id, changes),
        { details: { fields: Object.keys(patch), config_fields: Object.keys(patch.config ?? {}) } },
      );
      return presentNotificationConfig(updated);
    },
    async remove(principal: Principal, id: string, context: RequestContext) {
      const row = await find(principal, id, 'alert:write');
      await writes.remove(context, id, { name: row.name }, (trx) => repository.remove(trx, id));
    },
    /** Sends a test message now and answers what the remote side said. */
    async test(principal: Principal, id: string, context: RequestContext) {
      const row = await find(principal, id, 'alert:write');
      const at = new Date().toISOString();
      const result = await send(row, {
        state: 'test',
        repeat: false,
        title: `Test of the notification channel "${row.name}"`,
        text: 'This is a test message from svc: the channel works.',
        severity: 'info',
        dedup_key: `svc-test-${row.id}`,
        link: null,
        rule: null,
        project_id: row.project_id,
        item: null,
        value: {},
        at,
      });
      await audit.record(context, {
        kind: 'notification_config_tested',
        target: { type: 'notification_config', id },
        details: { ok: result.ok, status: result.status },
      });
      return result;
    },
    /** For the evaluator: channels by id, and delivery of one message on one (no principal: the rule was authorized). */
    channels: (ids: string[]) => repository.findMany(db, ids),
    send,
    /** The ids that are not channels of the project itself. */
    async notOwnedBy(projectId: string, ids: string[]) {
      const rows = await repository.findMany(db, ids);
      return ids.filter((id) => rows.find((r) => r.id === id)?.project_id !== projectId);
    },
    /** The ids that are not channels a rule of `projectId` may use (its project's own, or instance-wide ones). */
    async unusableFor(projectId: string, ids: string[]) {
      const rows = await repository.findMany(db, ids);
      return ids.filter((id) => {
        const row = rows.find((r) => r.id === id);
        return !row || (row.project_id !== null && row.project_id !== projectId);
      });
    },
  };
}
