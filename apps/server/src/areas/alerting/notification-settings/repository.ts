import { sql, type Selectable } from 'kysely';
import type { Db } from '../../../platform/db/index.js';

export interface QuietHours {
  start: string;
  end: string;
  timezone: string;
}

export interface NotificationSettingsTable {
  id: string;
  user_id: string;
  project_id: string | null;
  events: string[];
  min_severity: 'info' | 'warning' | 'critical';
  email: string | null;
  channel_ids: string[];
  quiet_hours: QuietHours | null;
  updated_at: Date;
}

export interface InstanceNotificationSettingsTable {
  id: boolean;
  defaults: { events: string[]; min_severity: 'info' | 'warning' | 'critical' };
  smtp: Record<string, unknown> | null;
  smtp_secrets: string | null;
  updated_at: Date;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    notification_settings: NotificationSettingsTable;
    instance_notification_settings: InstanceNotificationSettingsTable;
  }
}

export type NotificationSettingRow = Selectable<NotificationSettingsTable>;
export type NotificationSettingsRepository = ReturnType<typeof createNotificationSettingsRepository>;

export function createNotificationSettingsRepository() {
  return {
    ofUser: (db: Db, userId: string) =>
      db
        .selectFrom('notification_settings')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('project_id', 'asc')
        .execute(),
    /** Settings that may concern an event of the project: the project's own, and users' settings for every project. */
    forProject: (db: Db, projectId: string) =>
      db
        .selectFrom('notification_settings')
        .selectAll()
        .where((eb) => eb.or([eb('project_id', '=', projectId), eb('project_id', 'is', null)]))
        .execute(),
    find: (db: Db, id: string) =>
      db.selectFrom('notification_settings').selectAll().where('id', '=', id).executeTakeFirst(),
    upsert: (db: Db, row: Omit<NotificationSettingsTable, 'id' | 'updated_at'>) =>
      sql<NotificationSettingRow>`
        insert into notification_settings (user_id, project_id, events, min_severity, email, channel_ids, quiet_hours)
        values (${row.user_id}, ${row.project_id}, ${row.events}, ${row.min_severity}, ${row.email},
                ${row.channel_ids}::uuid[], ${row.quiet_hours === null ? null : JSON.stringify(row.quiet_hours)}::jsonb)
        on conflict (user_id, coalesce(project_id, '00000000-0000-0000-0000-000000000000'::uuid))
        do update set events = excluded.events, min_severity = excluded.min_severity, email = excluded.email,
                      channel_ids = excluded.channel_ids, quiet_hours = excluded.quiet_hours, updated_at = now()
        returning *`
        .execute(db)
        .then((r) => r.rows[0]!),
    remove: (db: Db, id: string) => db.deleteFrom('notification_settings').where('id', '=', id).execute(),
    instance: (db: Db) => db.selectFrom('instance_notification_settings').selectAll().executeTakeFirst(),
    saveInstance: (db: Db, row: Pick<InstanceNotificationSettingsTable, 'defaults' | 'smtp' | 'smtp_secrets'>) =>
      sql`
        insert into instance_notification_settings (id, defaults, smtp, smtp_secrets)
        values (true, ${JSON.stringify(row.defaults)}::jsonb, ${row.smtp === null ? null : JSON.stringify(row.smtp)}::jsonb, ${row.smtp_secrets})
        on conflict (id) do update set defaults = excluded.defaults, smtp = excluded.smtp,
                                       smtp_secrets = excluded.smtp_secrets, updated_at = now()`.execute(db),
  };
}
