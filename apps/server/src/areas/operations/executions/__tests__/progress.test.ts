import { describe, expect, it } from 'vitest';
import { estimateProgress } from '../service.js';

describe('estimateProgress', () => {
  const started = '2026-01-01T00:00:00.000Z';
  const at = (seconds: number) => Date.parse(started) + seconds * 1000;

  it('divides the rows still expected by the rate so far', () => {
    expect(estimateProgress({ started_at: started, rows_read: 20_000 }, 100_000, at(10))).toEqual({
      rows_per_second: 2000,
      rows_expected: 100_000,
      seconds_left: 40,
    });
  });

  it('has a rate but no estimate without a succeeded run, or once past its rows', () => {
    expect(estimateProgress({ started_at: started, rows_read: 500 }, undefined, at(5))).toEqual({
      rows_per_second: 100,
      rows_expected: null,
      seconds_left: null,
    });
    expect(estimateProgress({ started_at: started, rows_read: 1500 }, 1000, at(5)).seconds_left).toBeNull();
  });

  it('has neither before the run starts, nor a time left while nothing was read', () => {
    expect(estimateProgress({ started_at: null, rows_read: 0 }, 1000)).toEqual({
      rows_per_second: null,
      rows_expected: 1000,
      seconds_left: null,
    });
    expect(estimateProgress({ started_at: started, rows_read: 0 }, 1000, at(3)).seconds_left).toBeNull();
  });
});
