/**
 * What a retention policy can prune: a registry of target kinds. Each kind belongs to the area whose
 * data it is, and counts and deletes through that area's own service (never another area's SQL):
 * it is given the policy's rules and answers a sweep that counts what is expired and deletes it in
 * bounded batches, each batch its own short transaction. The kinds of today are registered in
 * ./index.ts; a later area (inboxes, file ingestions, streams) calls `register` with its own.
 */
import type { TSchema } from 'typebox';
import type { FieldError } from '../../../platform/errors/index.js';

/** The rules of one policy, as a sweep (or its preview) applies them. */
export interface RetentionRules<Config = Record<string, unknown>> {
  policyId: string;
  /** The policy's project; null for an instance-wide kind. */
  projectId: string | null;
  /** The policy's `target` minus `kind`, already checked against the kind's schema. */
  config: Config;
  maxAgeSeconds: number;
  maxRows: number | null;
  keepLastFailed: number;
  /** When the sweep (or preview) started: every cutoff is taken from this one moment. */
  now: Date;
  /** The sweep's id (files it writes are named after it); a random one for a preview. */
  sweepId: string;
}

/** Rows per table, children listed before their parents. */
export type Counts = Record<string, number>;

/** One sweep of one target, its cutoffs fixed when it was opened, so that a preview and a run count the same rows. */
export interface TargetSweep {
  /** Rows older than this are expired (`max_rows` may move it later than `now - max_age`). */
  cutoff: Date;
  /** What is expired now, per table. */
  count(): Promise<Counts>;
  /** Deletes at most `limit` rows (children first), in one short transaction; all zero when nothing is left. */
  deleteBatch(limit: number): Promise<Counts>;
  /** Facts for the sweep's record (an archive file, the table). */
  details(): Record<string, unknown>;
  close(): Promise<void>;
}

export interface RetentionTargetKind<Config = Record<string, unknown>> {
  /** The `target.kind` of a policy: `warehouse_table`, `execution_history`, ... */
  kind: string;
  /** `project`: a project's data, the project's `policy:*` capabilities; `instance`: administrators only. */
  scope: 'project' | 'instance';
  /** One line for the API documentation and the web form. */
  description: string;
  /** The rest of `target` (besides `kind`); a value that does not match is answered 422 naming the field. */
  config: TSchema;
  /** Whether `keep_last_failed` means something here (histories); refused with 422 otherwise. */
  histories?: boolean;
  /** Problems with the rules beyond the schema (paths from the body's root: `target.table`, `max_age`). */
  check?(rules: Omit<RetentionRules<Config>, 'now' | 'sweepId' | 'policyId'>): Promise<FieldError[]>;
  open(rules: RetentionRules<Config>): Promise<TargetSweep>;
}

export interface RetentionTargets {
  register<Config>(kind: RetentionTargetKind<Config>): void;
  get(kind: string): RetentionTargetKind | undefined;
  all(): RetentionTargetKind[];
}

export function createTargetRegistry(): RetentionTargets {
  const kinds = new Map<string, RetentionTargetKind>();
  return {
    register(kind) {
      if (kinds.has(kind.kind)) throw new Error(`retention target kind ${kind.kind} is registered twice`);
      kinds.set(kind.kind, kind as unknown as RetentionTargetKind);
    },
    get: (kind) => kinds.get(kind),
    all: () => [...kinds.values()],
  };
}

const UNITS = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 } as const;

/** `30d`, `12h`, `90m`, `45s`, `2w` in seconds; undefined when it is none of these. */
export function parseDuration(text: string): number | undefined {
  const match = /^([1-9]\d{0,8})([smhdw])$/.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * UNITS[match[2] as keyof typeof UNITS];
}

/** The shortest way to write a number of seconds with the units above. */
export function formatDuration(seconds: number): string {
  for (const unit of ['w', 'd', 'h', 'm'] as const)
    if (seconds % UNITS[unit] === 0) return `${seconds / UNITS[unit]}${unit}`;
  return `${seconds}s`;
}

/** The later of `now - max_age` and the `max_rows`-th newest timestamp (when there are that many). */
export function cutoffOf(rules: Pick<RetentionRules, 'now' | 'maxAgeSeconds'>, nthNewest?: Date | null): Date {
  const byAge = new Date(rules.now.getTime() - rules.maxAgeSeconds * 1000);
  return nthNewest && nthNewest > byAge ? nthNewest : byAge;
}

export const totalOf = (counts: Counts) => Object.values(counts).reduce((sum, n) => sum + n, 0);

export function addCounts(into: Counts, more: Counts): Counts {
  for (const [table, n] of Object.entries(more)) into[table] = (into[table] ?? 0) + n;
  return into;
}
