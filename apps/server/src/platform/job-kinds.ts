/**
 * Every kind of job the queue runs, with its payload and the area whose handler runs it: the one
 * registry the worker and the queue depend on. Adding a kind of run is one entry here (and in
 * JobPayloads) plus its handler in its own area, which registers it at startup (areas/index.ts
 * collects the areas' handlers; the worker runs whatever it is given).
 */

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
}

export const JOB_KINDS = {
  sync: { area: 'operations', runs: 'sync' },
  sync_range: { area: 'operations' },
  etl_pipeline: { area: 'etl', runs: 'pipeline' },
  etl_dependents: { area: 'etl', followUp: true },
  retention_sweep: { area: 'governance', runs: 'retention_sweep' },
} as const satisfies Record<JobKind, JobKindSpec>;

/** The job kind that runs executions of `runKind` (`sync`, `pipeline`, ...). */
export function jobKindOfRun(runKind: string): JobKind | undefined {
  return (Object.keys(JOB_KINDS) as JobKind[]).find((kind) => (JOB_KINDS[kind] as JobKindSpec).runs === runKind);
}

/** Whether a job of this kind is a follow-up of an already finished execution. */
export function isFollowUp(kind: string): boolean {
  return (JOB_KINDS as Record<string, JobKindSpec>)[kind]?.followUp === true;
}
