/**
 * Work repeated every `intervalMs` in one process, one pass at a time (a pass that outlasts the
 * interval delays the next, never overlaps it); a failed pass is logged and the next one goes on.
 * `stop()` waits for the pass under way.
 */
import type { Logger } from 'pino';

export function repeatEvery(intervalMs: number, pass: () => Promise<unknown>, logger: Logger, failure: string) {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(() =>
      stopped ? undefined : pass().catch((error: Error) => logger.warn({ err: { message: error.message } }, failure)),
    );
  }, intervalMs);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
