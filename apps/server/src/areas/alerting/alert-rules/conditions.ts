/**
 * Pure logic of alert rules: which items a rule watches and whether its condition holds for each
 * (`observe`), and how the state of one rule and item moves (`step`): ok -> pending (the condition
 * holds, for less than `for`) -> firing -> resolved (the condition has cleared for `keep_firing_for`),
 * with one notification per change into firing or resolved and repeats after `repeat_interval`.
 */

export const RULE_KINDS = [
  'run_failed',
  'consecutive_failures',
  'run_duration',
  'freshness',
  'cdc_lag',
  'stream_lag',
  'row_count',
] as const;
export type RuleKind = (typeof RULE_KINDS)[number];

/**
 * Kinds of item a rule may name in its scope. Runs are grouped by their subject: a pipeline, a sync
 * (`<source connector id>>` + `<destination connector id>`), an export, a file ingestion, an inbox (its
 * loads) and a warehouse model (the model runs that select it); CDC tables and streams are watched for lag.
 */
export const RUN_ITEM_KINDS = ['pipeline', 'sync', 'export', 'file_ingestion', 'inbox', 'dw_model'] as const;
export const ITEM_KINDS = [...RUN_ITEM_KINDS, 'cdc_table', 'stream'] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

/** The kinds of item a rule of `kind` watches. */
export const itemKindsOf = (kind: RuleKind): readonly string[] =>
  kind === 'cdc_lag' ? ['cdc_table'] : kind === 'stream_lag' ? ['stream'] : RUN_ITEM_KINDS;

export type AlertState = 'ok' | 'pending' | 'firing' | 'resolved';

export interface ScopeItem {
  kind: string;
  id: string;
}

export interface RuleSpec {
  kind: RuleKind;
  params: Record<string, number | undefined>;
  /** Empty: every item of the project the kind applies to. */
  scope: ScopeItem[];
  for_seconds: number;
  keep_firing_for_seconds: number;
  repeat_interval_seconds: number | null;
  created_at: Date;
}

export interface Run {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'partially_failed' | 'failed' | 'cancelled';
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  rows_written: number;
}

export interface Subject {
  kind: string;
  id: string;
  name: string | null;
  /** Newest first. */
  runs: Run[];
}

export interface LagFigures {
  id: string;
  name: string;
  lag_seconds: number | null;
  lag_bytes: number | null;
  retained_wal_bytes: number | null;
}

/** A stream's own figures (its latest run): messages waiting at the broker, publish-to-commit seconds. */
export interface StreamLagFigures {
  id: string;
  name: string;
  lag_messages: number | null;
  lag_seconds: number | null;
}

export interface Observation {
  item: { kind: string; id: string; name: string | null };
  active: boolean;
  value: Record<string, unknown>;
  /** run_duration: when the current run passes its limit (computed from its start). */
  deadline_at?: Date | null;
}

const FINISHED = new Set(['succeeded', 'partially_failed', 'failed', 'cancelled']);
/** A run with rows that failed (an export's partially_failed) alerts as a failed run. */
const isFailure = (status: string) => status === 'failed' || status === 'partially_failed';
const finished = (runs: Run[]) => runs.filter((r) => FINISHED.has(r.status));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const inScope = (scope: ScopeItem[], kind: string, id: string) =>
  scope.length === 0 || scope.some((item) => item.kind === kind && item.id === id);

/** The run-based condition of one subject. */
function observeRuns(rule: RuleSpec, subject: Subject, now: Date): Omit<Observation, 'item'> {
  const done = finished(subject.runs);
  const last = done[0];
  const p = rule.params;
  switch (rule.kind) {
    case 'run_failed':
      return {
        active: last !== undefined && isFailure(last.status),
        value: last ? { execution_id: last.id, status: last.status } : {},
      };
    case 'consecutive_failures': {
      const count = p['count'] ?? 3;
      let streak = 0;
      for (const run of done) {
        if (!isFailure(run.status)) break;
        streak += 1;
      }
      return { active: streak >= count, value: { failures_in_a_row: streak, threshold: count } };
    }
    case 'run_duration': {
      const limitMs = (p['max_seconds'] ?? 3600) * 1000;
      const running = subject.runs.find((r) => r.status === 'running' && r.started_at);
      if (running?.started_at) {
        const deadline = new Date(running.started_at.getTime() + limitMs);
        return {
          active: now >= deadline,
          value: {
            execution_id: running.id,
            running_seconds: Math.round((now.getTime() - running.started_at.getTime()) / 1000),
          },
          deadline_at: deadline,
        };
      }
      // No run in progress: the latest finished run still counts until one ends within the limit.
      if (last?.started_at && last.finished_at) {
        const took = last.finished_at.getTime() - last.started_at.getTime();
        return {
          active: took > limitMs,
          value: { execution_id: last.id, duration_seconds: Math.round(took / 1000) },
          deadline_at: null,
        };
      }
      return { active: false, value: {}, deadline_at: null };
    }
    case 'freshness': {
      const maxAgeMs = (p['max_age_seconds'] ?? 86_400) * 1000;
      const success = done.find((r) => r.status === 'succeeded');
      // No success among the runs read: at least as old as the oldest of them; no run: the rule's creation.
      const base = success?.finished_at ?? subject.runs[subject.runs.length - 1]?.created_at ?? rule.created_at;
      const age = now.getTime() - base.getTime();
      return {
        active: age > maxAgeMs,
        value: {
          last_success_at: success?.finished_at?.toISOString() ?? null,
          age_seconds: Math.round(age / 1000),
        },
      };
    }
    case 'row_count': {
      const fraction = p['fraction'] ?? 0.5;
      const window = p['last_runs'] ?? 10;
      const minRuns = p['min_runs'] ?? 3;
      const successes = done.filter((r) => r.status === 'succeeded');
      const latest = successes[0];
      const previous = successes.slice(1, 1 + window).map((r) => r.rows_written);
      if (!latest || previous.length < minRuns) return { active: false, value: { previous_runs: previous.length } };
      const typical = median(previous);
      return {
        active: latest.rows_written < fraction * typical,
        value: { execution_id: latest.id, rows_written: latest.rows_written, median: typical, fraction },
      };
    }
    default:
      return { active: false, value: {} };
  }
}

/** Each figure compared with the parameter that limits it (a figure not known yet never breaches). */
function observeLag(rule: RuleSpec, figures: Record<string, number | null>, limits: Record<string, string>) {
  const breaches = Object.entries(limits)
    .filter(([figure, param]) => {
      const limit = rule.params[param];
      const value = figures[figure];
      return limit !== undefined && value !== null && value !== undefined && value > limit;
    })
    .map(([figure]) => figure);
  return { active: breaches.length > 0, value: { breaches, ...figures } };
}

const CDC_LIMITS = {
  lag_seconds: 'max_lag_seconds',
  lag_bytes: 'max_lag_bytes',
  retained_wal_bytes: 'max_retained_wal_bytes',
};
const STREAM_LIMITS = { lag_seconds: 'max_lag_seconds', lag_messages: 'max_lag_messages' };

/** The items a rule watches now, and whether its condition holds for each. */
export function observe(
  rule: RuleSpec,
  facts: { subjects: Subject[]; cdcTables: LagFigures[]; streams?: StreamLagFigures[] },
  now: Date,
): Observation[] {
  if (rule.kind === 'cdc_lag')
    return facts.cdcTables
      .filter((table) => inScope(rule.scope, 'cdc_table', table.id))
      .map((table) => ({
        item: { kind: 'cdc_table', id: table.id, name: table.name },
        ...observeLag(
          rule,
          { lag_seconds: table.lag_seconds, lag_bytes: table.lag_bytes, retained_wal_bytes: table.retained_wal_bytes },
          CDC_LIMITS,
        ),
      }));
  if (rule.kind === 'stream_lag')
    return (facts.streams ?? [])
      .filter((stream) => inScope(rule.scope, 'stream', stream.id))
      .map((stream) => ({
        item: { kind: 'stream', id: stream.id, name: stream.name },
        ...observeLag(rule, { lag_seconds: stream.lag_seconds, lag_messages: stream.lag_messages }, STREAM_LIMITS),
      }));
  const observations = facts.subjects
    .filter((subject) => inScope(rule.scope, subject.kind, subject.id))
    .map((subject) => ({
      item: { kind: subject.kind, id: subject.id, name: subject.name },
      ...observeRuns(rule, subject, now),
    }));
  // freshness: a scoped item with no run at all is stale once the rule is older than the limit.
  if (rule.kind === 'freshness')
    for (const item of rule.scope)
      if (!observations.some((o) => o.item.kind === item.kind && o.item.id === item.id))
        observations.push({
          item: { kind: item.kind, id: item.id, name: null },
          ...observeRuns(rule, { ...item, name: null, runs: [] }, now),
        });
  return observations;
}

export interface StateRow {
  state: AlertState;
  since: Date;
  pending_since: Date | null;
  cleared_since: Date | null;
  last_notified_at: Date | null;
}

export interface Step {
  next: StateRow;
  /** A change worth recording in the history (and, for firing and resolved, notifying). */
  event: { previous: AlertState; state: AlertState; repeat: boolean; notify: boolean } | null;
}

const seconds = (from: Date, to: Date) => (to.getTime() - from.getTime()) / 1000;

/** One evaluation of one rule and item. */
export function step(rule: RuleSpec, current: StateRow | undefined, active: boolean, now: Date): Step {
  const state: StateRow = current ?? {
    state: 'ok',
    since: now,
    pending_since: null,
    cleared_since: null,
    last_notified_at: null,
  };
  const move = (to: AlertState, changes: Partial<StateRow>, notify: boolean): Step => ({
    next: { ...state, ...changes, state: to, since: now, ...(notify ? { last_notified_at: now } : {}) },
    event: { previous: state.state, state: to, repeat: false, notify },
  });
  const stay = (changes: Partial<StateRow> = {}): Step => ({ next: { ...state, ...changes }, event: null });

  if (active) {
    switch (state.state) {
      case 'ok':
      case 'resolved':
        return rule.for_seconds > 0
          ? move('pending', { pending_since: now, cleared_since: null }, false)
          : move('firing', { pending_since: null, cleared_since: null }, true);
      case 'pending':
        return seconds(state.pending_since ?? state.since, now) >= rule.for_seconds
          ? move('firing', { pending_since: null, cleared_since: null }, true)
          : stay();
      case 'firing': {
        const repeatDue =
          rule.repeat_interval_seconds !== null &&
          state.last_notified_at !== null &&
          seconds(state.last_notified_at, now) >= rule.repeat_interval_seconds;
        if (repeatDue)
          return {
            next: { ...state, cleared_since: null, last_notified_at: now },
            event: { previous: 'firing', state: 'firing', repeat: true, notify: true },
          };
        return stay({ cleared_since: null });
      }
    }
  }
  switch (state.state) {
    case 'pending':
      return move('ok', { pending_since: null }, false);
    case 'firing': {
      const cleared = state.cleared_since ?? now;
      if (seconds(cleared, now) >= rule.keep_firing_for_seconds)
        return move('resolved', { cleared_since: null, pending_since: null }, true);
      return stay({ cleared_since: cleared });
    }
    default:
      return stay();
  }
}
