/** SQL on the retention area's own tables: policies and their sweeps. */
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../../platform/db/index.js';

export interface RetentionPoliciesTable {
  id: Generated<string>;
  project_id: string | null;
  name: string;
  target_kind: string;
  target: Record<string, unknown>;
  max_age_seconds: string | number;
  max_rows: string | number | null;
  keep_last_failed: number;
  cron: string | null;
  timezone: string;
  interval_seconds: number | null;
  next_run_at: Date | null;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type SweepStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface RetentionSweepsTable {
  id: Generated<string>;
  policy_id: string;
  project_id: string | null;
  execution_id: string | null;
  trigger: 'manual' | 'schedule';
  status: Generated<SweepStatus>;
  cutoff: Date | null;
  counts: Generated<Record<string, number>>;
  batches: Generated<number>;
  details: Generated<Record<string, unknown>>;
  error: string | null;
  created_at: Generated<Date>;
  started_at: Date | null;
  finished_at: Date | null;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    retention_policies: RetentionPoliciesTable;
    retention_sweeps: RetentionSweepsTable;
  }
}

export type PolicyRow = Selectable<RetentionPoliciesTable>;
export type SweepRow = Selectable<RetentionSweepsTable>;

export type RetentionRepository = ReturnType<typeof createRetentionRepository>;

export function createRetentionRepository() {
  return {
    find: (db: Db, id: string) =>
      db.selectFrom('retention_policies').selectAll().where('id', '=', id).executeTakeFirst(),
    /** Policies of these projects (null: all), with the instance-wide ones when `instance`. */
    list(db: Db, projectIds: string[] | null, instance: boolean) {
      let query = db.selectFrom('retention_policies').selectAll().orderBy('created_at').orderBy('id');
      query = query.where((eb) => {
        const projects =
          projectIds === null
            ? eb('project_id', 'is not', null)
            : projectIds.length > 0
              ? eb('project_id', 'in', projectIds)
              : eb.val(false);
        return instance ? eb.or([projects, eb('project_id', 'is', null)]) : projects;
      });
      return query.execute();
    },
    insert: (db: Db, row: Insertable<RetentionPoliciesTable>) =>
      db.insertInto('retention_policies').values(row).returningAll().executeTakeFirstOrThrow(),
    update: (db: Db, id: string, changes: Updateable<RetentionPoliciesTable>) =>
      db
        .updateTable('retention_policies')
        .set({ ...changes, updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    remove: (db: Db, id: string) => db.deleteFrom('retention_policies').where('id', '=', id).executeTakeFirst(),
    /** Due policies, locked for this transaction (others skip them). */
    claimDue: (db: Db, now: Date, limit: number) =>
      db
        .selectFrom('retention_policies')
        .selectAll()
        .where('next_run_at', '<=', now)
        .orderBy('next_run_at')
        .limit(limit)
        .forUpdate()
        .skipLocked()
        .execute(),
    setNextRun: (db: Db, id: string, next: Date | null) =>
      db.updateTable('retention_policies').set({ next_run_at: next }).where('id', '=', id).execute(),
    insertSweep: (db: Db, row: Insertable<RetentionSweepsTable>) =>
      db.insertInto('retention_sweeps').values(row).returningAll().executeTakeFirstOrThrow(),
    findSweep: (db: Db, id: string) =>
      db.selectFrom('retention_sweeps').selectAll().where('id', '=', id).executeTakeFirst(),
    updateSweep: (db: Db, id: string, changes: Updateable<RetentionSweepsTable>) =>
      db.updateTable('retention_sweeps').set(changes).where('id', '=', id).execute(),
    sweepsOf: (db: Db, policyId: string, limit: number) =>
      db
        .selectFrom('retention_sweeps')
        .selectAll()
        .where('policy_id', '=', policyId)
        .orderBy('created_at', 'desc')
        .limit(limit)
        .execute(),
    /** A queued or running sweep of the policy, if any. */
    activeSweep: (db: Db, policyId: string) =>
      db
        .selectFrom('retention_sweeps')
        .select(['id', 'execution_id', 'created_at'])
        .where('policy_id', '=', policyId)
        .where('status', 'in', ['queued', 'running'])
        .executeTakeFirst(),
  };
}
