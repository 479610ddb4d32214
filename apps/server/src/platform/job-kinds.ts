/**
 * Every kind of job the queue runs, with its payload and the area whose handler runs it: the one
 * registry the worker and the queue depend on. Adding a kind of run is one entry here (and in
 * JobPayloads) plus its handler in its own area, which registers it at startup (areas/index.ts
 * collects the areas' handlers; the worker runs whatever it is given).
 */

import type { Capability } from './authz.js';

/** What a job's payload holds, by kind. */
export interface JobPayloads {
  /** A sync execution's coordinator: copies its streams, plans the key ranges of the large ones. */
  sync: { execution_id: string };
  /** One key range of one stream of a sync execution. */
  sync_range: { execution_id: string; stream_index: number; range_no: number };
  /** A pipeline execution. */
  etl_pipeline: { execution_id: string };
  /** Starts the pipelines that depend on a succeeded pipeline execution. */
  etl_dependents: { execution_id: string };
  /** An export execution: one delivery of an export's rows. */
  export: { execution_id: string };
  /** A run of a selection of warehouse models. */
  model_run: { execution_id: string };
  /** Loads the files of a file ingestion (uploaded, or found in its source). */
  file_ingestion: { execution_id: string };
  /** Loads a batch of an inbox's accepted requests. */
  inbox_load: { execution_id: string };
  /** Reads an e-mail feed's mailbox and loads its new messages. */
  email_feed: { execution_id: string };
  /** A project's retention sweep (governance: retention policies). */
  retention_sweep: { execution_id: string };
}

export type JobKind = keyof JobPayloads;

interface JobKindSpec {
  /** The area whose handler runs it. */
  area: string;
  /** An execution kind (`executions.kind`) whose executions this job runs, when it is the run itself. */
  runs?: string;
  /** A follow-up of an execution that has already finished: abandoning it must not fail that execution. */
  followUp?: boolean;
  /** Besides execution:run, what a retry of its executions needs: whoever may run the item may retry its run. */
  retryNeeds?: Capability;
}

export const JOB_KINDS = {
  sync: { area: 'operations', runs: 'sync' },
  sync_range: { area: 'operations' },
  etl_pipeline: { area: 'etl', runs: 'pipeline', retryNeeds: 'pipeline:run' },
  etl_dependents: { area: 'etl', followUp: true },
  export: { area: 'delivery', runs: 'export', retryNeeds: 'export:run' },
  model_run: { area: 'modelling', runs: 'model_run', retryNeeds: 'model:run' },
  file_ingestion: { area: 'ingestion', runs: 'file_ingestion', retryNeeds: 'ingestion:run' },
  inbox_load: { area: 'ingestion', runs: 'inbox', retryNeeds: 'ingestion:run' },
  email_feed: { area: 'ingestion', runs: 'email_feed', retryNeeds: 'ingestion:run' },
  retention_sweep: { area: 'governance', runs: 'retention_sweep', retryNeeds: 'policy:write' },
} as const satisfies Record<JobKind, JobKindSpec>;

/** The kinds of execution (`executions.kind`): those a job kind runs. */
export type RunKind = { [K in JobKind]: (typeof JOB_KINDS)[K] extends { runs: infer R } ? R : never }[JobKind];

/** The job kind that runs executions of `runKind` (`sync`, `pipeline`, ...). */
export function jobKindOfRun(runKind: string): JobKind | undefined {
  return (Object.keys(JOB_KINDS) as JobKind[]).find((kind) => (JOB_KINDS[kind] as JobKindSpec).runs === runKind);
}

/** The capability a retry of an execution of `runKind` needs besides execution:run, if any. */
export function retryCapability(runKind: string): Capability | undefined {
  const kind = jobKindOfRun(runKind);
  return kind ? (JOB_KINDS[kind] as JobKindSpec).retryNeeds : undefined;
}

/** Whether a job of this kind is a follow-up of an already finished execution. */
export function isFollowUp(kind: string): boolean {
  return (JOB_KINDS as Record<string, JobKindSpec>)[kind]?.followUp === true;
}
