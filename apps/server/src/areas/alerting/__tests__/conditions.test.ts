import { describe, expect, it } from 'vitest';
import { observe, step, type RuleSpec, type StateRow } from '../alert-rules/conditions.js';

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));
const rule = (changes: Partial<RuleSpec> = {}): RuleSpec => ({
  kind: 'run_failed',
  params: {},
  scope: [],
  for_seconds: 0,
  keep_firing_for_seconds: 0,
  repeat_interval_seconds: null,
  created_at: at(0),
  ...changes,
});

/** Runs the state machine over (second, active) observations; returns the states and notifications. */
function walk(spec: RuleSpec, observations: Array<[number, boolean]>) {
  let state: StateRow | undefined;
  const trail: string[] = [];
  for (const [second, active] of observations) {
    const result = step(spec, state, active, at(second));
    state = result.next;
    trail.push(`${state.state}${result.event?.notify ? (result.event.repeat ? '!r' : '!') : ''}`);
  }
  return trail;
}

describe('alert state machine', () => {
  it.each([
    [
      'fires at once without `for`',
      rule(),
      [
        [0, true],
        [1, true],
        [2, false],
      ],
      ['firing!', 'firing', 'resolved!'],
    ],
    [
      'stays pending until `for` has passed, and a short blip never fires',
      rule({ for_seconds: 5 }),
      [
        [0, true],
        [3, false],
        [4, true],
        [8, true],
        [9, true],
        [10, false],
      ],
      ['pending', 'ok', 'pending', 'pending', 'firing!', 'resolved!'],
    ],
    [
      'keeps firing for keep_firing_for after the condition cleared',
      rule({ keep_firing_for_seconds: 10 }),
      [
        [0, true],
        [2, false],
        [5, true],
        [6, false],
        [15, false],
        [16, false],
      ],
      ['firing!', 'firing', 'firing', 'firing', 'firing', 'resolved!'],
    ],
    [
      'repeats only after repeat_interval while firing',
      rule({ repeat_interval_seconds: 10 }),
      [
        [0, true],
        [5, true],
        [10, true],
        [15, true],
        [21, true],
      ],
      ['firing!', 'firing', 'firing!r', 'firing', 'firing!r'],
    ],
  ] as const)('%s', (_name, spec, observations, expected) => {
    expect(walk(spec, observations as unknown as Array<[number, boolean]>)).toEqual(expected);
  });

  it('row_count compares the latest success with the median of the previous ones', () => {
    const runs = [10, 100, 90, 110, 5].map((rows, i) => ({
      id: `r${i}`,
      status: 'succeeded' as const,
      created_at: at(100 - i),
      started_at: at(100 - i),
      finished_at: at(100 - i),
      rows_written: rows,
    }));
    const spec = rule({ kind: 'row_count', params: { fraction: 0.5, last_runs: 3, min_runs: 2 } });
    const [observation] = observe(
      spec,
      { subjects: [{ kind: 'sync', id: 's', name: null, runs }], cdcTables: [] },
      at(200),
    );
    expect(observation).toMatchObject({ active: true, value: { rows_written: 10, median: 100 } });
  });

  it('freshness counts a scoped item without any run from the creation of the rule', () => {
    const spec = rule({ kind: 'freshness', params: { max_age_seconds: 60 }, scope: [{ kind: 'pipeline', id: 'p' }] });
    const facts = { subjects: [], cdcTables: [] };
    expect(observe(spec, facts, at(30))[0]).toMatchObject({ item: { kind: 'pipeline', id: 'p' }, active: false });
    expect(observe(spec, facts, at(61))[0]!.active).toBe(true);
  });

  it('stream_lag compares the messages waiting and publish-to-commit seconds with their limits', () => {
    const streams = [
      { id: 'a', name: 'orders', lag_messages: 500, lag_seconds: 0.2 },
      { id: 'b', name: 'clicks', lag_messages: 3, lag_seconds: 12 },
      { id: 'c', name: 'new', lag_messages: null, lag_seconds: null },
    ];
    const spec = rule({ kind: 'stream_lag', params: { max_lag_messages: 100, max_lag_seconds: 10 } });
    const observations = observe(spec, { subjects: [], cdcTables: [], streams }, at(0));
    expect(observations.map((o) => [o.item.id, o.active, o.value['breaches']])).toEqual([
      ['a', true, ['lag_messages']],
      ['b', true, ['lag_seconds']],
      ['c', false, []],
    ]);
    const scoped = rule({
      kind: 'stream_lag',
      params: { max_lag_messages: 100 },
      scope: [{ kind: 'stream', id: 'b' }],
    });
    expect(observe(scoped, { subjects: [], cdcTables: [], streams }, at(0))).toMatchObject([
      { item: { kind: 'stream', id: 'b', name: 'clicks' }, active: false },
    ]);
  });
});
