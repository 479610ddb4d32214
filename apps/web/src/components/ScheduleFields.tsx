/**
 * The fields of a schedule (pipelines and exports): a cron expression in a time zone or a fixed
 * interval, and what to do with due times missed while the service was down. The form reads them by
 * name through `timingOf`.
 */
import { ChoiceField, NumberInput, TextInput } from './fields';

export type TimingKind = 'cron' | 'interval';
export type MissedPolicy = 'skip' | 'run_once';

export function ScheduleFields({
  timing,
  onTimingChange,
  policy,
  onPolicyChange,
  what,
  withNone = false,
}: {
  timing: TimingKind | 'none';
  onTimingChange: (timing: TimingKind | 'none') => void;
  policy: MissedPolicy;
  onPolicyChange: (policy: MissedPolicy) => void;
  /** What runs, for the descriptions ("The pipeline", "The export"). */
  what: string;
  /** Offer "on demand only" (no schedule). */
  withNone?: boolean;
}) {
  return (
    <>
      <ChoiceField<TimingKind | 'none'>
        label={withNone ? 'Schedule' : 'Timing'}
        value={timing}
        onChange={onTimingChange}
        orientation="horizontal"
        choices={[
          ...(withNone ? [{ value: 'none' as const, label: 'on demand only' }] : []),
          { value: 'cron', label: 'cron' },
          { value: 'interval', label: 'interval' },
        ]}
      />
      {timing === 'cron' ? (
        <>
          <TextInput
            name="cron"
            label="Cron expression"
            isRequired
            spellCheck={false}
            description={
              <>
                Five fields, or six with seconds first; e.g. <code>0 3 * * *</code> runs at 03:00.
              </>
            }
          />
          <TextInput
            name="timezone"
            label="Time zone"
            isRequired
            spellCheck={false}
            defaultValue={Intl.DateTimeFormat().resolvedOptions().timeZone}
            description="An IANA name, e.g. Europe/Paris or UTC."
          />
        </>
      ) : timing === 'interval' ? (
        <NumberInput
          name="interval_seconds"
          label="Every (seconds)"
          isRequired
          min={1}
          description="Counted from the creation, or the last resume."
        />
      ) : null}
      {timing === 'none' ? null : (
        <ChoiceField
          label="Missed runs"
          note="Due times that passed while no scheduler ran (the service was down):"
          value={policy}
          onChange={onPolicyChange}
          choices={[
            { value: 'skip', label: 'skip', description: 'They are not run.' },
            { value: 'run_once', label: 'run once', description: `${what} runs once for all of them.` },
          ]}
        />
      )}
    </>
  );
}

/** The timing the fields hold: `{cron, timezone}` or `{interval_seconds}`. */
export function timingOf(form: FormData, timing: TimingKind) {
  const text = (name: string) => String(form.get(name) ?? '').trim();
  return timing === 'cron'
    ? { cron: text('cron'), timezone: text('timezone') }
    : { interval_seconds: Number(text('interval_seconds')) };
}

/** How a schedule reads in a table: `0 3 * * * (Europe/Berlin)` or `every 60 s`. */
export const describeTiming = (schedule: { cron: string | null; timezone: string; interval_seconds: number | null }) =>
  schedule.cron ? `${schedule.cron} (${schedule.timezone})` : `every ${schedule.interval_seconds} s`;
