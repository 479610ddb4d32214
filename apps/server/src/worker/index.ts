/**
 * The data-plane process. It boots the platform (database, migrations, shared state) and will claim
 * jobs once job kinds exist (the connectors issue brings the first ones); until then it only idles.
 */
import type { Platform } from '../platform/runtime.js';

export interface Worker {
  stop(): Promise<void>;
}

export async function startWorker(platform: Platform): Promise<Worker> {
  const log = platform.logger.child({ component: 'worker' });
  log.info('worker started');
  return {
    async stop() {
      log.info('worker stopped');
    },
  };
}
