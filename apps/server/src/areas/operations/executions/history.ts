/**
 * The retention of a project's execution history: which finished executions are expired (older than a
 * cutoff, or beyond the newest `maxRows`, minus the newest `keepLastFailed` failures), how many rows
 * that is with their log lines and key ranges, and deleting them in bounded batches, children (log
 * lines, ranges) before the executions, each statement its own short transaction.
 */
import { sql } from 'kysely';
import type { Db } from '../../../platform/db/index.js';

export interface HistoryRules {
  projectId: string;
  /** Finished before this: expired. */
  before: Date;
  /** Also expired: every finished execution but the newest `maxRows`. */
  maxRows: number | null;
  /** Never expired: the newest `keepLastFailed` failed executions. */
  keepLastFailed: number;
}

/** Executions expired under the rules; ids from a subquery so each statement reads them afresh. */
const expired = (rules: HistoryRules, limit?: number) => sql`
  select e.id from executions e
  where e.project_id = ${rules.projectId}
    and e.status in ('succeeded', 'failed', 'cancelled')
    and (
      coalesce(e.finished_at, e.created_at) < ${rules.before}
      ${
        rules.maxRows === null
          ? sql``
          : sql`or e.id not in (
              select n.id from executions n
              where n.project_id = ${rules.projectId} and n.status in ('succeeded', 'failed', 'cancelled')
              order by n.created_at desc, n.id desc limit ${rules.maxRows})`
      }
    )
    and e.id not in (
      select f.id from executions f
      where f.project_id = ${rules.projectId} and f.status = 'failed'
      order by f.created_at desc, f.id desc limit ${rules.keepLastFailed})
  order by e.created_at, e.id
  ${limit === undefined ? sql`` : sql`limit ${limit}`}`;

/** Log lines older than `before` of the project's finished executions, but those of the newest `keepLastFailed` failures. */
const expiredLines = (rules: Omit<HistoryRules, 'maxRows'>, limit?: number) => sql`
  select l.id from execution_logs l join executions e on e.id = l.execution_id
  where e.project_id = ${rules.projectId}
    and e.status in ('succeeded', 'failed', 'cancelled')
    and l.ts < ${rules.before}
    and e.id not in (
      select f.id from executions f
      where f.project_id = ${rules.projectId} and f.status = 'failed'
      order by f.created_at desc, f.id desc limit ${rules.keepLastFailed})
  ${limit === undefined ? sql`` : sql`limit ${limit}`}`;

export type HistoryRetention = ReturnType<typeof createHistoryRetention>;

export function createHistoryRetention(db: Db) {
  return {
    /** Log lines alone (the executions stay): how many are expired. */
    async countLines(rules: Omit<HistoryRules, 'maxRows'>) {
      const { rows } = await sql<{ n: string }>`select count(*) as n from (${expiredLines(rules)}) x`.execute(db);
      return { execution_logs: Number(rows[0]!.n) };
    },
    /** Deletes up to `limit` expired log lines, in one statement. */
    async deleteLines(rules: Omit<HistoryRules, 'maxRows'>, limit: number) {
      const result = await sql`delete from execution_logs where id = any(array(${expiredLines(rules, limit)}))`.execute(
        db,
      );
      return { execution_logs: Number(result.numAffectedRows ?? 0) };
    },
    /** Expired rows per table, children first. */
    async count(rules: HistoryRules) {
      const { rows } = await sql<{ logs: string; ranges: string; executions: string }>`
        with doomed as (${expired(rules)})
        select
          (select count(*) from execution_logs l where l.execution_id in (select id from doomed)) as logs,
          (select count(*) from execution_ranges r where r.execution_id in (select id from doomed)) as ranges,
          (select count(*) from doomed) as executions`.execute(db);
      const row = rows[0]!;
      return {
        execution_logs: Number(row.logs),
        execution_ranges: Number(row.ranges),
        executions: Number(row.executions),
      };
    },
    /**
     * One bounded step: up to `limit` log lines of the oldest expired executions; when they have
     * none left, their ranges and then the executions themselves (their lineage edges go with them).
     */
    async deleteBatch(rules: HistoryRules, limit: number) {
      const counts = { execution_logs: 0, execution_ranges: 0, executions: 0 };
      const ids = (await sql<{ id: string }>`${expired(rules, Math.min(limit, 1000))}`.execute(db)).rows.map(
        (r) => r.id,
      );
      if (ids.length === 0) return counts;
      const logs = await sql`
        delete from execution_logs where id = any(array(
          select id from execution_logs where execution_id = any(${ids}::uuid[]) limit ${limit}))`.execute(db);
      counts.execution_logs = Number(logs.numAffectedRows ?? 0);
      if (counts.execution_logs > 0) return counts;
      await db.transaction().execute(async (trx) => {
        const ranges = await trx.deleteFrom('execution_ranges').where('execution_id', 'in', ids).executeTakeFirst();
        counts.execution_ranges = Number(ranges.numDeletedRows);
        // Only those still finished and with no log line written since (a late line keeps its execution for the next batch).
        const gone = await trx
          .deleteFrom('executions')
          .where('id', 'in', ids)
          .where('status', 'in', ['succeeded', 'failed', 'cancelled'])
          .where(({ not, exists, selectFrom }) =>
            not(exists(selectFrom('execution_logs').select('id').whereRef('execution_id', '=', 'executions.id'))),
          )
          .executeTakeFirst();
        counts.executions = Number(gone.numDeletedRows);
      });
      return counts;
    },
  };
}
