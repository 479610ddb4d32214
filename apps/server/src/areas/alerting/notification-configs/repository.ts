import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../../platform/db/index.js';
import type { ChannelType } from './channels.js';

export interface NotificationConfigsTable {
  id: Generated<string>;
  project_id: string | null;
  name: string;
  type: ChannelType;
  settings: Record<string, unknown>;
  /** JSON of field -> ciphertext (platform/sealed-config.ts). */
  secrets: string | null;
  enabled: Generated<boolean>;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    notification_configs: NotificationConfigsTable;
  }
}

export type NotificationConfigRow = Selectable<NotificationConfigsTable>;
export type NotificationConfigsRepository = ReturnType<typeof createNotificationConfigsRepository>;

const NO_PROJECT = '00000000-0000-0000-0000-000000000000';

export function createNotificationConfigsRepository() {
  return {
    find: (db: Db, id: string) =>
      db.selectFrom('notification_configs').selectAll().where('id', '=', id).executeTakeFirst(),
    findMany: (db: Db, ids: string[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : db.selectFrom('notification_configs').selectAll().where('id', 'in', ids).execute(),
    /** Channels of the projects (null: all) and, with `instanceWide`, the instance's own. */
    list: (db: Db, projectIds: string[] | null, instanceWide: boolean) =>
      db
        .selectFrom('notification_configs')
        .selectAll()
        .where((eb) => {
          const own =
            projectIds === null
              ? eb('project_id', 'is not', null)
              : eb('project_id', 'in', projectIds.length ? projectIds : [NO_PROJECT]);
          return instanceWide ? eb.or([own, eb('project_id', 'is', null)]) : own;
        })
        .orderBy('name')
        .execute(),
    insert: (db: Db, row: Insertable<NotificationConfigsTable>) =>
      db.insertInto('notification_configs').values(row).returningAll().executeTakeFirstOrThrow(),
    update: (db: Db, id: string, changes: Updateable<NotificationConfigsTable>) =>
      db
        .updateTable('notification_configs')
        .set({ ...changes, updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    remove: (db: Db, id: string) => db.deleteFrom('notification_configs').where('id', '=', id).execute(),
  };
}
