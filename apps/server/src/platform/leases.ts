/**
 * Long-lived work held by one worker at a time (a CDC table's reader, a stream's consumer, an e-mail
 * feed's IMAP IDLE watch): rows of a table with `lease_owner` and `lease_expires_at` that should run
 * (by default: `desired_state` is running), claimed with FOR UPDATE SKIP LOCKED, renewed while held,
 * released (with a back-off after a failure). `startLeasedLoop` is the
 * loop of a worker process that claims such rows up to a limit and runs each until it ends.
 */
import { randomUUID } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from './db/index.js';

export type LeasedTable = 'cdc_tables' | 'streams' | 'email_feeds';

/** The lease statements of one table, whose rows read as `Row`; `wanted`: the rows that should run. */
export function leaseQueries<Row extends { id: string }>(
  table: LeasedTable,
  wanted: RawBuilder<unknown> = sql`desired_state = 'running'`,
) {
  const t = sql.table(table);
  const interval = (ms: number) => sql`${`${ms} milliseconds`}::interval`;
  return {
    /** Takes a row that should run and has no live holder: unowned, or its owner's lease expired. */
    claim: async (db: Db, owner: string, leaseMs: number, inHand: string[] = []) =>
      (
        await sql<Row>`
          update ${t} set lease_owner = ${owner}, lease_expires_at = now() + ${interval(leaseMs)}
           where id = (
             select id from ${t}
              where ${wanted} and (lease_expires_at is null or lease_expires_at < now()) and not (id = any(${inHand}::uuid[]))
              order by lease_expires_at nulls first
              for update skip locked
              limit 1)
          returning *`.execute(db)
      ).rows[0],
    /** Extends the lease; the row as it is now, or undefined when the lease is no longer ours. */
    renew: async (db: Db, id: string, owner: string, leaseMs: number) =>
      (
        await sql<Row>`update ${t} set lease_expires_at = now() + ${interval(leaseMs)} where id = ${id} and lease_owner = ${owner} returning *`.execute(
          db,
        )
      ).rows[0],
    /** Ends a failure's retry back-off (no holder then); a live holder's lease is untouched. */
    clearBackoff: async (db: Db, id: string) => {
      await sql`update ${t} set lease_expires_at = null where id = ${id} and lease_owner is null`.execute(db);
    },
    /** Gives the row up; `retryInMs` keeps it from being claimed again before then (a failure's back-off). */
    release: async (db: Db, id: string, owner: string, retryInMs = 0) => {
      await sql`update ${t} set lease_owner = null, lease_expires_at = ${retryInMs > 0 ? sql`now() + ${interval(retryInMs)}` : null}
                 where id = ${id} and lease_owner = ${owner}`.execute(db);
    },
  };
}

export interface LeasedLoop {
  readonly owner: string;
  /** Stops claiming and aborts every run (reason `shutdown`), then waits for them. */
  stop(): Promise<void>;
}

/** Claims rows while fewer than `max` run in this process, and runs each until it ends. */
export function startLeasedLoop<Row extends { id: string }>(deps: {
  /** What the log lines call the work ('cdc', 'stream'). */
  name: string;
  logger: Logger;
  max: number;
  pollMs?: number;
  claim(owner: string, inHand: string[]): Promise<Row | undefined>;
  run(row: Row, controller: AbortController, owner: string): Promise<void>;
}): LeasedLoop {
  const owner = `${process.pid}-${randomUUID().slice(0, 8)}`;
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let stopping = false;
  const loop = async () => {
    while (!stopping) {
      while (running.size < deps.max && !stopping) {
        const claimed = await deps.claim(owner, [...running.keys()]).catch((error: Error) => {
          deps.logger.warn({ err: { message: error.message } }, `${deps.name} claim failed`);
          return undefined;
        });
        if (!claimed) break;
        const controller = new AbortController();
        const done = deps
          .run(claimed, controller, owner)
          .catch((error: Error) =>
            deps.logger.error({ err: { message: error.message }, id: claimed.id }, `${deps.name} run crashed`),
          )
          .finally(() => running.delete(claimed.id));
        running.set(claimed.id, { controller, done });
      }
      await new Promise((resolve) => setTimeout(resolve, deps.pollMs ?? 1000));
    }
  };
  const looping = loop();
  return {
    owner,
    async stop() {
      stopping = true;
      for (const { controller } of running.values()) controller.abort(new Error('shutdown'));
      await Promise.allSettled([...running.values()].map((r) => r.done));
      await looping;
    },
  };
}
