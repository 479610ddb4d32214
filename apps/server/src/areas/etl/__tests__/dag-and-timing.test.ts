import { describe, expect, it } from 'vitest';
import { downstreamOf, findCycle } from '../pipelines/dag.js';
import { cronProblem, fire, nextDue, timezoneProblem } from '../../../platform/schedule-timing.js';

const node = (id: string, ...depends_on: string[]) => ({ id, name: id, depends_on });

describe('pipeline dependencies', () => {
  const graph = [node('a'), node('b', 'a'), node('c', 'b'), node('d', 'a')];

  it('accepts an acyclic change and names the cycle a change would close', () => {
    expect(findCycle(graph, node('d', 'a', 'c'))).toBeUndefined();
    expect(findCycle(graph, node('a', 'c'))).toEqual(['a', 'c', 'b', 'a']);
    expect(findCycle(graph, node('b', 'b'))).toEqual(['b', 'b']);
  });

  it('finds what a DAG run started at a pipeline may reach', () => {
    expect([...downstreamOf(graph, 'a')].sort()).toEqual(['a', 'b', 'c', 'd']);
    expect([...downstreamOf(graph, 'b')].sort()).toEqual(['b', 'c']);
  });
});

describe('schedule timing', () => {
  const at = (iso: string) => new Date(iso);

  it('reads a cron expression in its time zone, across a daylight saving change', () => {
    const berlin = { cron: '0 9 * * *', timezone: 'Europe/Berlin', interval_seconds: null };
    expect(nextDue(berlin, at('2026-03-28T12:00:00Z')).toISOString()).toBe('2026-03-29T07:00:00.000Z'); // CEST: UTC+2
    expect(nextDue(berlin, at('2026-03-27T12:00:00Z')).toISOString()).toBe('2026-03-28T08:00:00.000Z'); // CET: UTC+1
  });

  it('keeps an interval on its cadence', () => {
    expect(
      nextDue({ cron: null, timezone: 'UTC', interval_seconds: 90 }, at('2026-01-01T00:00:00Z')).toISOString(),
    ).toBe('2026-01-01T00:01:30.000Z');
  });

  it('names a bad expression or zone', () => {
    expect(cronProblem('* * *', 'UTC')).toMatch(/five, six/);
    expect(cronProblem('*/5 * * * *', 'UTC')).toBeUndefined();
    expect(timezoneProblem('Mars/Olympus')).toMatch(/IANA/);
    expect(timezoneProblem('America/New_York')).toBeUndefined();
  });

  it('runs the latest due time when on time and counts the earlier ones as missed', () => {
    const every10s = { cron: null, timezone: 'UTC', interval_seconds: 10 };
    const onTime = fire(every10s, 'skip', at('2026-01-01T00:00:00Z'), at('2026-01-01T00:00:01Z'), 5000);
    expect(onTime).toMatchObject({ missedBefore: 0, run: true });
    expect(onTime.next.toISOString()).toBe('2026-01-01T00:00:10.000Z');

    // Down for a minute: due times 00:00 .. 01:00 passed; the latest (01:00) is 2 s late, within grace.
    const back = fire(every10s, 'skip', at('2026-01-01T00:00:00Z'), at('2026-01-01T00:01:02Z'), 5000);
    expect(back.dueAt.toISOString()).toBe('2026-01-01T00:01:00.000Z');
    expect(back).toMatchObject({ missedBefore: 6, run: true });
    expect(back.next.toISOString()).toBe('2026-01-01T00:01:10.000Z');
  });

  it('skip does not run a due time found beyond the grace period; run_once runs it once', () => {
    const hourly = { cron: '0 * * * *', timezone: 'UTC', interval_seconds: null };
    const skip = fire(hourly, 'skip', at('2026-01-01T00:00:00Z'), at('2026-01-01T03:30:00Z'), 60_000);
    expect(skip).toMatchObject({ missedBefore: 3, run: false });
    expect(skip.dueAt.toISOString()).toBe('2026-01-01T03:00:00.000Z');
    const once = fire(hourly, 'run_once', at('2026-01-01T00:00:00Z'), at('2026-01-01T03:30:00Z'), 60_000);
    expect(once).toMatchObject({ missedBefore: 3, run: true });
    expect(once.next.toISOString()).toBe('2026-01-01T04:00:00.000Z');
  });
});
