/** What a worker records about the execution it runs: state, counters, log lines, incremental cursors. */
import type { Logger } from 'pino';
import type { Db } from '../../../platform/db/index.js';
import type { SharedState } from '../../../platform/shared-state/index.js';
import type { ExecutionStatus, ExecutionsRepository } from './repository.js';

export type RunRecorder = ReturnType<typeof createRunRecorder>;

export function createRunRecorder(deps: { db: Db; repository: ExecutionsRepository; shared: SharedState; logger: Logger }) {
  const { db, repository, shared, logger } = deps;
  return {
    start: (id: string) => repository.start(db, id),
    progress: (id: string, counters: { rows_read: number; rows_written: number; bytes_read: number }) => repository.progress(db, id, counters),
    finish: (id: string, status: ExecutionStatus, error: string | null = null) => repository.finish(db, id, status, error),
    cancelRequested: (id: string) => repository.cancelRequested(db, id),
    async log(id: string, level: 'debug' | 'info' | 'warn' | 'error', message: string, fields: Record<string, unknown> = {}) {
      logger[level]({ execution_id: id, ...fields }, message);
      await repository.addLog(db, { execution_id: id, level, message, fields });
      // Live tails (SSE) subscribe to this channel.
      await shared.publish(`executions.${id}.logs`, JSON.stringify({ ts: new Date().toISOString(), level, message, ...fields })).catch(() => undefined);
    },
    cursor: (key: { source: string; destination: string; dataset: string }) => repository.cursor(db, key),
    saveCursor: (key: { source: string; destination: string; dataset: string }, column: string, value: unknown) => repository.saveCursor(db, key, column, value),
  };
}
