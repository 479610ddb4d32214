/**
 * Log lines of CDC tables: stored (history, and resuming a live tail from Last-Event-ID) and published
 * on `cdc.<id>.logs`, so a tail on any API process sees lines a worker wrote in another process.
 */
import type { Logger } from 'pino';
import type { Db } from '../../../platform/db/index.js';
import type { SharedState } from '../../../platform/shared-state/index.js';
import type { CdcRepository } from './repository.js';

export interface CdcLogLine {
  id: string;
  ts: string;
  level: string;
  message: string;
  [field: string]: unknown;
}

export const logChannel = (id: string) => `cdc.${id}.logs`;

export type CdcLogs = ReturnType<typeof createCdcLogs>;

export function createCdcLogs(deps: { db: Db; repository: CdcRepository; shared: SharedState; logger: Logger }) {
  return {
    async write(
      id: string,
      level: 'debug' | 'info' | 'warn' | 'error',
      message: string,
      fields: Record<string, unknown> = {},
    ) {
      deps.logger[level]({ cdc_table_id: id, ...fields }, message);
      const stored = await deps.repository.addLog(deps.db, { cdc_table_id: id, level, message, fields });
      const line: CdcLogLine = { ...fields, id: String(stored.id), ts: stored.ts.toISOString(), level, message };
      await deps.shared.publish(logChannel(id), JSON.stringify(line)).catch(() => undefined);
    },
  };
}
