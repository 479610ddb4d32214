/**
 * The data-plane process: pulls jobs from the queue in the framework database and runs them through
 * the engine, SVC_WORKER_CONCURRENCY at a time. `svc start` runs one in the API process. The areas
 * give it their job handlers and loops (RunServices); it knows no area.
 */
import client from 'prom-client';
import { startJobWorker, type JobWorker, type RunServices } from '../platform/jobs.js';
import type { Platform } from '../platform/runtime.js';

export interface Worker {
  stop(): Promise<void>;
}

export interface WorkerMetrics {
  jobDuration: client.Histogram<'kind' | 'outcome'>;
  leaseLost: client.Counter<'kind' | 'reason'>;
  jobsAbandoned: client.Counter<'kind'>;
}

export function createWorkerMetrics(registry: client.Registry, runs: RunServices): WorkerMetrics {
  new client.Gauge({
    name: 'svc_job_queue_depth',
    help: 'Jobs waiting (queued) and running (active) in the queue.',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const depth = await runs.queue.depth();
      this.set({ state: 'queued' }, depth.queued);
      this.set({ state: 'active' }, depth.active);
    },
  });
  new client.Gauge({
    name: 'svc_executions',
    help: 'Executions by status.',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of await runs.executionCounts()) this.set({ status: row.status }, Number(row.n));
    },
  });
  return {
    jobDuration: new client.Histogram({
      name: 'svc_job_duration_seconds',
      help: 'Time from claim to settlement of a job, by kind and outcome.',
      labelNames: ['kind', 'outcome'] as const,
      buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
      registers: [registry],
    }),
    leaseLost: new client.Counter({
      name: 'svc_job_lease_lost_total',
      help: "Runs stopped by their worker because it could not confirm the job's lease (unconfirmed) or found the job taken over (taken_over).",
      labelNames: ['kind', 'reason'] as const,
      registers: [registry],
    }),
    jobsAbandoned: new client.Counter({
      name: 'svc_jobs_abandoned_total',
      help: 'Jobs failed without being run again because their worker stopped (lease expired) on their last attempt.',
      labelNames: ['kind'] as const,
      registers: [registry],
    }),
  };
}

export async function startWorker(platform: Platform, runs: RunServices, metrics: WorkerMetrics): Promise<Worker> {
  const { config, logger } = platform;
  const jobs: JobWorker = startJobWorker({
    queue: runs.queue,
    handlers: runs.handlers,
    concurrency: config.worker.concurrency,
    leaseMs: config.worker.leaseSeconds * 1000,
    logger: logger.child({ component: 'worker' }),
    settleAbandoned: runs.settleAbandoned,
    onSettled: (job, outcome, startedAt) =>
      metrics.jobDuration.observe({ kind: job.kind, outcome }, (Date.now() - startedAt) / 1000),
    onLeaseLost: (job, reason) => metrics.leaseLost.inc({ kind: job.kind, reason }),
    onAbandoned: (job) => metrics.jobsAbandoned.inc({ kind: job.kind }),
    listen: { connection: platform.framework.connection },
  });
  const loops = runs.startLoops();
  return {
    async stop() {
      for (const loop of loops) await loop.stop();
      await jobs.stop();
      logger.info({ worker_id: jobs.id }, 'worker stopped');
    },
  };
}
