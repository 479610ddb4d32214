/**
 * Captures run in a worker thread of their own (one per process, shared by its captures): decoding
 * the source's stream and building the destination's statements is CPU work that would otherwise
 * hold the event loop of the process, which under `svc start` is also the API's. The thread's heap is
 * capped (resourceLimits), so what a busy capture allocates is collected there instead of growing the
 * process. The thread opens the connectors itself from their kind, version and configuration; their
 * egress checks, logs and progress go through messages to the calling thread.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ConnectorError, type ConnectorErrorCode, type EgressPolicy, type Log } from '../types.js';
import type { CaptureOptions, CaptureProgress } from './run.js';

/** A connector as the thread opens it: plain data (secrets included: it never leaves the process). */
export interface CaptureEndpoint {
  kind: string;
  version: number;
  config: Record<string, unknown>;
}

export interface ThreadCaptureOptions extends Omit<CaptureOptions, 'source' | 'sink' | 'log' | 'onInFlight'> {
  source: CaptureEndpoint;
  sink: CaptureEndpoint;
  /** Checks the connections the connectors open (asked from the thread). Absent: refused, as in-process. */
  egress?: EgressPolicy;
  log: Log;
}

/** What the thread sends. */
export type FromThread =
  | { type: 'log'; id: number; level: Parameters<Log>[0]; message: string; fields?: Record<string, unknown> }
  | {
      type: 'phase';
      id: number;
      call: number;
      phase: 'snapshotting' | 'streaming';
      details: { position: string | null; snapshotRows?: number };
    }
  | { type: 'applied'; id: number; progress: Omit<CaptureProgress, 'appliedAt'> & { appliedAt: number } }
  | { type: 'resolve'; id: number; call: number; host: string; port: number }
  | { type: 'done'; id: number; error?: ThreadError };

/** What the thread is sent. */
export type ToThread =
  | {
      type: 'run';
      id: number;
      options: Omit<ThreadCaptureOptions, 'signal' | 'log' | 'onPhase' | 'onApplied' | 'egress'> & { egress: boolean };
    }
  | { type: 'abort'; id: number }
  | { type: 'answer'; call: number; value?: unknown; error?: ThreadError };

export interface ThreadError {
  message: string;
  name?: string;
  code?: string;
  retryable?: boolean;
}

export const toThreadError = (error: unknown): ThreadError => {
  const e = error as { message?: string; name?: string; code?: unknown; retryable?: unknown };
  return {
    message: e?.message ?? String(error),
    ...(e?.name ? { name: e.name } : {}),
    ...(typeof e?.code === 'string' ? { code: e.code } : {}),
    ...(typeof e?.retryable === 'boolean' ? { retryable: e.retryable } : {}),
  };
};

/** An error from the thread as the one thrown there (a ConnectorError keeps its code and retryability). */
export const fromThreadError = (error: ThreadError): Error =>
  error.code !== undefined && error.retryable !== undefined
    ? Object.assign(new ConnectorError(error.code as ConnectorErrorCode, error.message, error.retryable), {
        name: error.name ?? 'ConnectorError',
      })
    : Object.assign(new Error(error.message), error.name ? { name: error.name } : {});

interface Running {
  options: ThreadCaptureOptions;
  /** The thread it runs in (a thread that died fails only its own captures). */
  worker: Worker;
  resolve(): void;
  reject(error: Error): void;
}

/**
 * The worker thread's script: the built one beside this file or, running from the TypeScript sources
 * (tests, tsx), those sources through tsx's require hook (Node 20 does not apply ESM loader hooks in
 * worker threads).
 */
function threadScript(): { script: string | URL; eval?: true } {
  const url = new URL(import.meta.url.endsWith('.ts') ? './thread-worker.ts' : './thread-worker.js', import.meta.url);
  if (!import.meta.url.endsWith('.ts')) return { script: url };
  const require = createRequire(import.meta.url);
  const source = JSON.stringify(fileURLToPath(url));
  return {
    script: `require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register(); require(${source});`,
    eval: true,
  };
}

export class CaptureThread {
  #worker: Worker | undefined;
  #running = new Map<number, Running>();
  #next = 1;
  readonly #maxHeapMb: number;

  constructor(options: { maxHeapMb?: number } = {}) {
    this.#maxHeapMb = options.maxHeapMb ?? 128;
  }

  /** Runs one capture in the thread; resolves or rejects as runCapture would. */
  run(options: ThreadCaptureOptions): Promise<void> {
    const id = this.#next++;
    const worker = this.#start();
    return new Promise<void>((resolve, reject) => {
      this.#running.set(id, { options, worker, resolve, reject });
      const { signal, log: _log, onPhase: _phase, onApplied: _applied, egress, ...data } = options;
      const onAbort = () => worker.postMessage({ type: 'abort', id } satisfies ToThread);
      signal.addEventListener('abort', onAbort, { once: true });
      const settle = () => signal.removeEventListener('abort', onAbort);
      const running = this.#running.get(id)!;
      running.resolve = () => (settle(), resolve());
      running.reject = (error) => (settle(), reject(error));
      try {
        worker.postMessage({ type: 'run', id, options: { ...data, egress: egress !== undefined } } satisfies ToThread);
      } catch (error) {
        this.#running.delete(id);
        running.reject(error as Error);
        return;
      }
      if (signal.aborted) onAbort();
    });
  }

  /** Ends the thread (captures still running there fail). */
  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    await worker?.terminate();
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const { script, eval: evaluated } = threadScript();
    const worker = new Worker(script, {
      ...(evaluated ? { eval: true } : {}),
      resourceLimits: { maxOldGenerationSizeMb: this.#maxHeapMb, maxYoungGenerationSizeMb: 16 },
    });
    // Idle, it must not keep the process alive.
    worker.unref();
    worker.on('message', (message: FromThread) => this.#receive(worker, message));
    const lost = (error: Error) => {
      if (this.#worker === worker) this.#worker = undefined;
      for (const [id, r] of [...this.#running]) {
        if (r.worker !== worker) continue;
        this.#running.delete(id);
        r.reject(new ConnectorError('failed', `the capture thread stopped: ${error.message}`, true));
      }
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`exited with code ${code}`)));
    this.#worker = worker;
    return worker;
  }

  #receive(worker: Worker, message: FromThread): void {
    const running = this.#running.get(message.id);
    if (!running) return;
    const { options } = running;
    const answer = (call: number, work: () => Promise<unknown>) =>
      work().then(
        (value) => worker.postMessage({ type: 'answer', call, value } satisfies ToThread),
        (error: unknown) =>
          worker.postMessage({ type: 'answer', call, error: toThreadError(error) } satisfies ToThread),
      );
    switch (message.type) {
      case 'log':
        options.log(message.level, message.message, message.fields);
        break;
      case 'phase':
        void answer(message.call, () => options.onPhase(message.phase, message.details));
        break;
      case 'applied':
        options.onApplied({ ...message.progress, appliedAt: new Date(message.progress.appliedAt) });
        break;
      case 'resolve':
        void answer(message.call, async () => {
          if (!options.egress) throw new ConnectorError('failed', 'no egress policy: connections are refused', false);
          return options.egress.resolve(message.host, message.port);
        });
        break;
      case 'done':
        this.#running.delete(message.id);
        if (message.error) running.reject(fromThreadError(message.error));
        else running.resolve();
        break;
    }
  }
}
