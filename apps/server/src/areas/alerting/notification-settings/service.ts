/**
 * Users' notification settings: per project (or for every project), which alert events they receive,
 * from which severity, by e-mail (their account's address unless they give another) and on which of
 * the project's channels, with quiet hours in their time zone for non-critical alerts. The instance's
 * settings (administrators): the defaults of those choices and the SMTP server users are mailed through.
 */
import type { Principal } from '../../../platform/authn.js';
import { requireAdmin, type Authorize } from '../../../platform/authz.js';
import type { Db } from '../../../platform/db/index.js';
import { notFound, validationFailed, type FieldError } from '../../../platform/errors/index.js';
import type { RequestContext } from '../../../platform/request-context.js';
import { createSealer, secretsColumn } from '../../../platform/sealed-config.js';
import type { SecretBox } from '../../../platform/secrets.js';
import type { AuditService } from '../../audit/service.js';
import type { UserNotifier } from '../alert-rules/evaluator.js';
import {
  sendMail,
  SmtpServerSettings,
  type AlertMessage,
  type DeliveryContext,
  type SmtpSettings,
} from '../notification-configs/channels.js';
import type { NotificationSettingRow, NotificationSettingsRepository, QuietHours } from './repository.js';

const SEVERITY_RANK = { info: 0, warning: 1, critical: 2 } as const;
type Severity = keyof typeof SEVERITY_RANK;
const DEFAULTS = { events: ['alert_firing', 'alert_resolved'], min_severity: 'warning' as Severity };

export interface NotificationSettingInput {
  project_id: string | null;
  events?: string[];
  min_severity?: Severity;
  email?: string | null;
  channel_ids?: string[];
  quiet_hours?: QuietHours | null;
}

export function timeZoneProblem(zone: string): string | undefined {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return undefined;
  } catch {
    return 'is not a known IANA time zone';
  }
}

/** Whether `at` falls in the quiet hours (local time of their zone; an end before the start spans midnight). */
export function inQuietHours(quiet: QuietHours, at: Date): boolean {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: quiet.timezone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const now = part('hour') * 60 + part('minute');
  const minutes = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
  const start = minutes(quiet.start);
  const end = minutes(quiet.end);
  return start <= end ? now >= start && now < end : now >= start || now < end;
}

const present = (row: NotificationSettingRow) => ({
  id: row.id,
  project_id: row.project_id,
  events: row.events as Array<'alert_firing' | 'alert_resolved'>,
  min_severity: row.min_severity,
  email: row.email,
  channel_ids: row.channel_ids,
  quiet_hours: row.quiet_hours,
  updated_at: row.updated_at.toISOString(),
});

export type NotificationSettingsService = ReturnType<typeof createNotificationSettingsService>;

export function createNotificationSettingsService(deps: {
  db: Db;
  repository: NotificationSettingsRepository;
  box: SecretBox;
  audit: AuditService;
  authorize: Authorize;
  /** The channel ids among `ids` that are not the project's own. */
  foreignChannels(projectId: string, ids: string[]): Promise<string[]>;
  contacts(ids: string[]): Promise<Array<{ id: string; username: string; email: string; is_admin: boolean }>>;
  delivery: () => DeliveryContext;
}) {
  const { db, repository } = deps;
  const sealer = createSealer(deps.box, 'smtp');

  const instance = async () => {
    const row = await repository.instance(db);
    return {
      defaults: row?.defaults ?? DEFAULTS,
      smtp: row?.smtp ?? null,
      smtpSecrets: secretsColumn.read(row?.smtp_secrets ?? null),
      updated_at: row?.updated_at ?? null,
    };
  };
  const presentInstance = (settings: Awaited<ReturnType<typeof instance>>) => ({
    defaults: settings.defaults as { events: Array<'alert_firing' | 'alert_resolved'>; min_severity: Severity },
    smtp: settings.smtp as { host: string; port: number; tls: string; user?: string; from: string } | null,
    smtp_secrets_set: Object.keys(settings.smtpSecrets).sort(),
    updated_at: settings.updated_at?.toISOString() ?? null,
  });

  /** A user as the authorization function sees them when no request is involved. */
  const principalOf = (user: { id: string; username: string; is_admin: boolean }): Principal => ({
    userId: user.id,
    username: user.username,
    isAdmin: user.is_admin,
    credential: 'access_token',
    tokenId: 'notification',
    scope: 'read',
    projectIds: null,
    expiresAt: null,
  });

  /** Each user's setting for the project: their project's own, else their setting for every project. */
  const settingsFor = async (projectId: string) => {
    const rows = await repository.forProject(db, projectId);
    const chosen = new Map<string, NotificationSettingRow>();
    for (const row of rows) if (row.project_id !== null || !chosen.has(row.user_id)) chosen.set(row.user_id, row);
    return chosen;
  };

  const notifier: UserNotifier = {
    async recipients(projectId, severity, state, at) {
      const event = state === 'firing' ? 'alert_firing' : 'alert_resolved';
      const chosen = [...(await settingsFor(projectId)).values()].filter(
        (row) =>
          row.events.includes(event) &&
          SEVERITY_RANK[severity] >= SEVERITY_RANK[row.min_severity] &&
          !(severity !== 'critical' && row.quiet_hours && inQuietHours(row.quiet_hours, at)),
      );
      const users = await deps.contacts(chosen.map((row) => row.user_id));
      const recipients: Array<{ user_id: string; channel_id: string | null }> = [];
      for (const row of chosen) {
        const user = users.find((u) => u.id === row.user_id);
        if (!user) continue;
        // Only users who may read the project's alerts, as they could in the API.
        const allowed = await deps.authorize(principalOf(user), 'alert:read', projectId).then(
          () => true,
          () => false,
        );
        if (!allowed) continue;
        recipients.push({ user_id: user.id, channel_id: null });
        if (row.project_id !== null)
          for (const channel_id of row.channel_ids) recipients.push({ user_id: user.id, channel_id });
      }
      return recipients;
    },
    async send(userId: string, message: AlertMessage) {
      const [user] = await deps.contacts([userId]);
      if (!user) return { ok: false, status: null, response: 'the user is disabled or deleted' };
      const row = message.project_id ? (await settingsFor(message.project_id)).get(userId) : undefined;
      const settings = await instance();
      if (!settings.smtp)
        return { ok: false, status: null, response: "no SMTP server is set for users' notifications" };
      const smtp = sealer.unseal(settings.smtp, settings.smtpSecrets) as unknown as SmtpSettings;
      return sendMail(deps.delivery(), smtp, [row?.email ?? user.email], message);
    },
  };

  return {
    notifier,
    async list(principal: Principal) {
      return (await repository.ofUser(db, principal.userId)).map(present);
    },
    async put(principal: Principal, input: NotificationSettingInput) {
      const problems: FieldError[] = [];
      if (input.project_id) await deps.authorize(principal, 'alert:read', input.project_id);
      if (input.channel_ids?.length) {
        if (!input.project_id)
          problems.push({ path: 'channel_ids', message: "only a project's setting may name its channels" });
        else
          for (const id of await deps.foreignChannels(input.project_id, input.channel_ids))
            problems.push({
              path: `channel_ids.${input.channel_ids.indexOf(id)}`,
              message: 'is not a notification config of the project',
            });
      }
      if (input.quiet_hours) {
        const zone = timeZoneProblem(input.quiet_hours.timezone);
        if (zone) problems.push({ path: 'quiet_hours.timezone', message: zone });
      }
      if (problems.length) throw validationFailed(problems);
      const { defaults } = await instance();
      const row = await repository.upsert(db, {
        user_id: principal.userId,
        project_id: input.project_id,
        events: input.events ?? defaults.events,
        min_severity: input.min_severity ?? defaults.min_severity,
        email: input.email ?? null,
        channel_ids: input.channel_ids ?? [],
        quiet_hours: input.quiet_hours ?? null,
      });
      return present(row);
    },
    async remove(principal: Principal, id: string) {
      const row = await repository.find(db, id);
      if (!row || row.user_id !== principal.userId) throw notFound('Notification setting');
      await repository.remove(db, id);
    },
    async getInstance(principal: Principal) {
      requireAdmin(principal, 'notification:read');
      return presentInstance(await instance());
    },
    async putInstance(
      principal: Principal,
      input: { defaults?: { events: string[]; min_severity: Severity }; smtp?: Record<string, unknown> | null },
      context: RequestContext,
    ) {
      requireAdmin(principal, 'notification:write');
      const current = await instance();
      let smtp = current.smtp;
      let secrets = current.smtpSecrets;
      if (input.smtp === null) {
        smtp = null;
        secrets = {};
      } else if (input.smtp !== undefined) {
        const sealed = sealer.seal(SmtpServerSettings, { ...(current.smtp ?? {}), ...input.smtp }, current.smtpSecrets);
        smtp = sealed.plain;
        secrets = sealed.secrets;
      }
      await db.transaction().execute(async (trx) => {
        await repository.saveInstance(trx, {
          defaults: input.defaults ?? current.defaults,
          smtp,
          smtp_secrets: secretsColumn.write(secrets),
        });
        await deps.audit.record(
          context,
          { kind: 'notification_instance_settings_changed', details: { fields: Object.keys(input) } },
          trx,
        );
      });
      return presentInstance(await instance());
    },
  };
}
