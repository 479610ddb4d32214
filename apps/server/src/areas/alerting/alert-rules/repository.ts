import { sql, type Generated, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../../platform/db/index.js';
import { inProjects, projectTable } from '../../../platform/db/project-tables.js';
import type { AlertState, RuleKind, ScopeItem } from './conditions.js';

export interface AlertRulesTable {
  id: Generated<string>;
  project_id: string;
  name: string;
  kind: RuleKind;
  params: Record<string, number>;
  scope: ScopeItem[];
  severity: 'info' | 'warning' | 'critical';
  for_seconds: number;
  keep_firing_for_seconds: number;
  repeat_interval_seconds: number | null;
  channel_ids: string[];
  muted_until: Date | null;
  enabled: Generated<boolean>;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface AlertStatesTable {
  rule_id: string;
  item_key: string;
  item_kind: string;
  item_id: string;
  item_name: string | null;
  state: AlertState;
  since: Date;
  pending_since: Date | null;
  cleared_since: Date | null;
  last_notified_at: Date | null;
  deadline_at: Date | null;
  value: Record<string, unknown>;
  updated_at: Generated<Date>;
}

export interface AlertEventsTable {
  id: Generated<string>;
  rule_id: string;
  item_key: string;
  item_kind: string;
  item_id: string;
  item_name: string | null;
  previous_state: AlertState;
  state: AlertState;
  repeat: boolean;
  muted: boolean;
  value: Record<string, unknown>;
  at: Generated<Date>;
}

export interface AlertNotificationsTable {
  id: Generated<string>;
  event_id: string;
  channel_id: string | null;
  user_id: string | null;
  status: Generated<'pending' | 'sent' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  last_error: string | null;
  response: string | null;
  sent_at: Date | null;
  created_at: Generated<Date>;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    alert_rules: AlertRulesTable;
    alert_states: AlertStatesTable;
    alert_events: AlertEventsTable;
    alert_notifications: AlertNotificationsTable;
  }
}

export type AlertRuleRow = Selectable<AlertRulesTable>;
export type AlertStateRow = Selectable<AlertStatesTable>;
export type AlertEventRow = Selectable<AlertEventsTable>;
export type AlertRulesRepository = ReturnType<typeof createAlertRulesRepository>;

export function createAlertRulesRepository() {
  const rules = projectTable('alert_rules');
  return {
    find: rules.find,
    list: rules.list,
    enabled: (db: Db) => db.selectFrom('alert_rules').selectAll().where('enabled', '=', true).execute(),
    insert: (
      db: Db,
      row: Omit<AlertRulesTable, 'id' | 'created_at' | 'updated_at' | 'enabled'> & { enabled: boolean },
    ) =>
      db
        .insertInto('alert_rules')
        .values({ ...row, params: JSON.stringify(row.params), scope: JSON.stringify(row.scope) } as never)
        .returningAll()
        .executeTakeFirstOrThrow(),
    update: (db: Db, id: string, changes: Updateable<AlertRulesTable>) =>
      db
        .updateTable('alert_rules')
        .set({
          ...changes,
          ...(changes.params ? { params: JSON.stringify(changes.params) as never } : {}),
          ...(changes.scope ? { scope: JSON.stringify(changes.scope) as never } : {}),
          updated_at: new Date(),
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    remove: (db: Db, id: string) => db.deleteFrom('alert_rules').where('id', '=', id).execute(),

    states: (db: Db, ruleIds: string[]) =>
      ruleIds.length === 0
        ? Promise.resolve([] as AlertStateRow[])
        : db.selectFrom('alert_states').selectAll().where('rule_id', 'in', ruleIds).orderBy('item_key').execute(),
    /** The states of a rule, locked until the caller's transaction ends (one evaluation at a time). */
    lockStates: (trx: Db, ruleId: string) =>
      trx.selectFrom('alert_states').selectAll().where('rule_id', '=', ruleId).forUpdate().execute(),
    lockRule: (trx: Db, ruleId: string) =>
      trx.selectFrom('alert_rules').selectAll().where('id', '=', ruleId).forUpdate().executeTakeFirst(),
    saveState: (trx: Db, row: Omit<AlertStatesTable, 'updated_at'>) =>
      trx
        .insertInto('alert_states')
        .values({ ...row, value: JSON.stringify(row.value) as never })
        .onConflict((oc) =>
          oc.columns(['rule_id', 'item_key']).doUpdateSet({
            item_name: row.item_name,
            state: row.state,
            since: row.since,
            pending_since: row.pending_since,
            cleared_since: row.cleared_since,
            last_notified_at: row.last_notified_at,
            deadline_at: row.deadline_at,
            value: JSON.stringify(row.value) as never,
            updated_at: sql`now()`,
          }),
        )
        .execute(),
    addEvent: (trx: Db, row: Omit<AlertEventsTable, 'id' | 'at'> & { at?: Date }) =>
      trx
        .insertInto('alert_events')
        .values({ ...row, value: JSON.stringify(row.value) as never })
        .returning('id')
        .executeTakeFirstOrThrow(),
    addNotifications: (
      trx: Db,
      rows: Array<{ event_id: string; channel_id: string | null; user_id: string | null }>,
    ) =>
      rows.length === 0
        ? Promise.resolve()
        : trx
            .insertInto('alert_notifications')
            .values(rows.map((r) => ({ ...r, last_error: null, response: null, sent_at: null })))
            .execute()
            .then(() => undefined),
    events: (db: Db, ruleId: string, limit: number, beforeId?: string) => {
      let query = db
        .selectFrom('alert_events')
        .selectAll()
        .where('rule_id', '=', ruleId)
        .orderBy('id', 'desc')
        .limit(limit);
      if (beforeId) query = query.where('id', '<', beforeId);
      return query.execute();
    },
    notificationsOf: (db: Db, eventIds: string[]) =>
      eventIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('alert_notifications')
            .select(['event_id', 'channel_id', 'user_id', 'status', 'attempts', 'last_error', 'sent_at'])
            .where('event_id', 'in', eventIds)
            .orderBy('id')
            .execute(),
    /**
     * Claims due notifications: each is pushed `leaseSeconds` into the future and its attempt counted,
     * so that another evaluator (a new leader) only retries it once that time has passed.
     */
    claimDue: (db: Db, limit: number, leaseSeconds: number) =>
      sql<{
        id: string;
        event_id: string;
        channel_id: string | null;
        user_id: string | null;
        attempts: number;
      }>`
        update alert_notifications n
           set attempts = n.attempts + 1, next_attempt_at = now() + make_interval(secs => ${leaseSeconds})
         where n.id in (select id from alert_notifications
                         where status = 'pending' and next_attempt_at <= now()
                         order by id limit ${limit} for update skip locked)
        returning n.id, n.event_id, n.channel_id, n.user_id, n.attempts`
        .execute(db)
        .then((r) => r.rows),
    settleNotification: (
      db: Db,
      id: string,
      outcome: {
        status: 'pending' | 'sent' | 'failed';
        error: string | null;
        response: string | null;
        retryInSeconds?: number;
      },
    ) =>
      db
        .updateTable('alert_notifications')
        .set({
          status: outcome.status,
          last_error: outcome.error,
          response: outcome.response,
          sent_at: outcome.status === 'sent' ? sql`now()` : null,
          ...(outcome.retryInSeconds !== undefined
            ? { next_attempt_at: sql`now() + make_interval(secs => ${outcome.retryInSeconds})` }
            : {}),
        })
        .where('id', '=', id)
        .execute(),
    event: (db: Db, id: string) => db.selectFrom('alert_events').selectAll().where('id', '=', id).executeTakeFirst(),
    /** Firing and pending items of the projects' rules (null: every project). */
    counts: (db: Db, projectIds: string[] | null) => {
      let query = db
        .selectFrom('alert_states')
        .innerJoin('alert_rules', 'alert_rules.id', 'alert_states.rule_id')
        .select(['alert_states.state', sql<string>`count(*)`.as('n')])
        .where('alert_states.state', 'in', ['firing', 'pending'])
        .groupBy('alert_states.state');
      if (projectIds) query = query.where('alert_rules.project_id', 'in', inProjects(projectIds));
      return query.execute();
    },
  };
}
