/**
 * When a schedule is due: a cron expression read in its time zone (croner), or a fixed interval. And
 * what to do with the due times a scheduler finds passed: run the latest on time, count the rest as
 * missed, per the schedule's missed-run policy.
 */
import { Cron } from 'croner';
import type { FieldError } from './errors/index.js';

export interface Timing {
  cron: string | null;
  timezone: string;
  interval_seconds: number | null;
}

/** Why a cron expression or time zone is unusable, or undefined when it is fine. */
export function cronProblem(cron: string, timezone: string): string | undefined {
  try {
    const next = new Cron(cron, { timezone, mode: '5-or-6-parts' }).nextRun();
    return next ? undefined : 'is never due';
  } catch (error) {
    return (error as Error).message.replace(/^Cron\w*: /, '');
  }
}

export function timezoneProblem(timezone: string): string | undefined {
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
    return undefined;
  } catch {
    return 'is not an IANA time zone name (such as Europe/Berlin or UTC)';
  }
}

/** A timing as a request gives it: every field optional (a change merges into the stored timing). */
export interface TimingInput {
  cron?: string | null;
  timezone?: string;
  interval_seconds?: number | null;
}

/**
 * `given` merged over `stored` (nothing stored: a new schedule): a cron given replaces an interval
 * and an interval a cron; the time zone defaults to UTC.
 */
export function mergeTiming(given: TimingInput, stored?: Timing | null): Timing {
  return {
    cron: given.interval_seconds ? null : given.cron !== undefined ? given.cron : (stored?.cron ?? null),
    timezone: given.timezone ?? stored?.timezone ?? 'UTC',
    interval_seconds: given.cron
      ? null
      : given.interval_seconds !== undefined
        ? given.interval_seconds
        : (stored?.interval_seconds ?? null),
  };
}

/** Every problem of a timing, each naming its field (exactly one of cron and interval_seconds). */
export function timingProblems(timing: Timing, prefix = ''): FieldError[] {
  const problems: FieldError[] = [];
  if (!timing.cron === !timing.interval_seconds)
    problems.push({ path: `${prefix}cron`, message: 'give exactly one of cron and interval_seconds' });
  const zone = timezoneProblem(timing.timezone);
  if (zone) problems.push({ path: `${prefix}timezone`, message: zone });
  else if (timing.cron) {
    const cron = cronProblem(timing.cron, timing.timezone);
    if (cron) problems.push({ path: `${prefix}cron`, message: cron });
  }
  return problems;
}

/** The first due time strictly after `after`. Intervals keep their cadence from `after` (the previous due time). */
export function nextDue(timing: Timing, after: Date): Date {
  if (timing.interval_seconds) return new Date(after.getTime() + timing.interval_seconds * 1000);
  const next = new Cron(timing.cron!, { timezone: timing.timezone, mode: '5-or-6-parts' }).nextRun(after);
  // A pattern that ends (a year field in the past) is refused when saved; far future as a guard.
  return next ?? new Date(8.64e15);
}

/** The first due time after `now` for a new or resumed schedule. */
export const firstDue = (timing: Timing, now: Date): Date => nextDue(timing, now);

export interface Firing {
  /** The latest due time not after now: the one a run is for. */
  dueAt: Date;
  /** Earlier due times found passed with it, never run. */
  missedBefore: number;
  /** Whether to run for `dueAt`. */
  run: boolean;
  /** The next due time after now. */
  next: Date;
}

/** Cap on due times counted one by one (a per-second cron after a long outage). */
const MAX_COUNTED = 100_000;

/**
 * From the schedule's stored next due time, every due time up to now: the latest runs when it is
 * within the grace period; older ones are missed. `run_once` runs the latest whatever its lateness
 * (one run for all that were missed); `skip` runs it only when on time.
 */
export function fire(timing: Timing, policy: 'skip' | 'run_once', storedDue: Date, now: Date, graceMs: number): Firing {
  let dueAt = storedDue;
  let missedBefore = 0;
  let next = nextDue(timing, dueAt);
  while (next.getTime() <= now.getTime() && missedBefore < MAX_COUNTED) {
    dueAt = next;
    missedBefore += 1;
    next = nextDue(timing, dueAt);
  }
  if (next.getTime() <= now.getTime()) next = nextDue(timing, now);
  const late = now.getTime() - dueAt.getTime() > graceMs;
  return { dueAt, missedBefore, run: policy === 'run_once' || !late, next };
}
