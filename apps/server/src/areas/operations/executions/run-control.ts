/** What every run job shares: stopping on a cancel request or a lost lease, and settling a failure. */
import type { Log } from '@svc/engine';
import { LeaseLost, type Job } from '../../../platform/jobs.js';
import type { RunRecorder } from './recorder.js';

export class Cancelled extends Error {
  readonly retryable = false;
}

/**
 * A signal that aborts when the lease is lost or when the execution's cancellation is requested
 * (pub/sub, the database as the fallback). `stop()` ends the watch.
 */
export function watchRun(
  recorder: RunRecorder,
  executionId: string,
  leaseSignal: AbortSignal,
): { signal: AbortSignal; stop(): void } {
  const controller = new AbortController();
  const abortWith = (reason: Error) => controller.abort(reason);
  const onLease = () => abortWith(leaseSignal.reason as Error);
  leaseSignal.addEventListener('abort', onLease, { once: true });
  const stopWatching = recorder.watchCancel(executionId, () => abortWith(new Cancelled('cancelled on request')));
  return {
    signal: controller.signal,
    stop() {
      stopWatching();
      leaseSignal.removeEventListener('abort', onLease);
    },
  };
}

/** Settles the execution after a failed job: cancelled, retried later, or failed for good. */
export async function settleFailure(
  recorder: RunRecorder,
  job: Job,
  executionId: string,
  reason: Error,
  leaseSignal: AbortSignal,
  log: Log,
  what: string,
): Promise<never> {
  if (reason instanceof Cancelled) {
    await recorder.finish(executionId, 'cancelled', null);
    log('warn', `${what} cancelled`);
    throw reason;
  }
  const retryable = (reason as { retryable?: boolean }).retryable !== false && job.attempts < job.maxAttempts;
  const message = reason.message || String(reason);
  if (leaseSignal.aborted || reason instanceof LeaseLost) {
    // The job is another worker's (or will be once its lease ends): this run settles nothing.
    log('warn', `${what} interrupted: ${message}`);
    throw reason;
  }
  // A key range of a sync leaves the execution to its other ranges while it may still be retried.
  if (!retryable || job.kind !== 'sync_range') {
    try {
      await recorder.settleAttempt(job, executionId, retryable ? 'queued' : 'failed', message);
    } catch (error) {
      if (!(error instanceof LeaseLost)) throw error;
      log('warn', `${what} interrupted: ${message} (${error.message})`);
      throw error;
    }
  }
  log('error', retryable ? `${what} failed, will retry: ${message}` : `${what} failed: ${message}`);
  throw Object.assign(reason, { retryable });
}
