/**
 * Leader-only background work (retention sweeps, schedule ticks): exactly one process of the
 * instance runs it, the one holding a PostgreSQL advisory lock on a dedicated connection. If that
 * process dies, its connection closes, the lock is released and another process takes over at its
 * next attempt.
 */
import type pg from 'pg';
import type { Logger } from 'pino';

const LEADER_LOCK_KEY = 0x5_7c_d1_02;

export interface LeaderTask {
  name: string;
  intervalMs: number;
  run(): Promise<void>;
}

export interface Leadership {
  isLeader(): boolean;
  stop(): Promise<void>;
}

export function startLeadership(pool: pg.Pool, tasks: LeaderTask[], logger: Logger, retryMs = 5000): Leadership {
  let client: pg.PoolClient | undefined;
  let leader = false;
  let stopped = false;
  const timers: NodeJS.Timeout[] = [];

  const runTask = async (task: LeaderTask) => {
    try {
      await task.run();
    } catch (error) {
      logger.warn({ err: error, task: task.name }, 'leader task failed');
    }
  };

  const abdicate = (reason: string) => {
    leader = false;
    for (const timer of timers.splice(0)) clearInterval(timer);
    const held = client;
    client = undefined;
    if (held) {
      held.off('error', onConnectionError);
      held.release(true); // destroyed, not pooled: its session held the lock
    }
    if (reason) logger.warn(reason);
  };
  // Connection lost: the lock went with it. Stop the tasks and compete again.
  const onConnectionError = () => {
    if (!stopped) abdicate('lost leadership (database connection closed)');
  };

  const attempt = async () => {
    if (stopped || leader) return;
    try {
      if (!client) {
        client = await pool.connect();
        client.on('error', onConnectionError);
      }
      const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [
        LEADER_LOCK_KEY,
      ]);
      if (!rows[0]?.locked || stopped) return;
      leader = true;
      logger.info('this process is the leader for background tasks');
      for (const task of tasks) {
        void runTask(task);
        const timer = setInterval(() => void runTask(task), task.intervalMs);
        timer.unref();
        timers.push(timer);
      }
    } catch (error) {
      logger.warn({ err: { message: (error as Error).message } }, 'leader election attempt failed');
      abdicate('');
    }
  };

  void attempt();
  const retry = setInterval(() => void attempt(), retryMs);
  retry.unref();

  return {
    isLeader: () => leader,
    async stop() {
      stopped = true;
      clearInterval(retry);
      if (client && leader)
        await client.query('select pg_advisory_unlock($1)', [LEADER_LOCK_KEY]).catch(() => undefined);
      abdicate('');
    },
  };
}
