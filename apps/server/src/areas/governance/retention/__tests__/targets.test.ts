import { describe, expect, it } from 'vitest';
import { addCounts, createTargetRegistry, cutoffOf, formatDuration, parseDuration, totalOf } from '../targets.js';

describe('retention rules', () => {
  it.each([
    ['45s', 45],
    ['90m', 5400],
    ['12h', 43_200],
    ['30d', 2_592_000],
    ['2w', 1_209_600],
  ])('reads %s as %i seconds and writes it back', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
    expect(parseDuration(formatDuration(seconds))).toBe(seconds);
  });

  it.each(['', '0d', '30', 'd', '30 d', '1y', '-1d', '1.5d', '01d'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it('writes a duration in its largest whole unit', () => {
    expect(formatDuration(14 * 86_400)).toBe('2w');
    expect(formatDuration(86_400 + 3600)).toBe('25h');
    expect(formatDuration(61)).toBe('61s');
  });

  it('takes the later of the age cutoff and the max_rows-th newest timestamp', () => {
    const now = new Date('2026-01-31T00:00:00Z');
    const rules = { now, maxAgeSeconds: 30 * 86_400 };
    expect(cutoffOf(rules)).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect(cutoffOf(rules, new Date('2025-12-01T00:00:00Z'))).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect(cutoffOf(rules, new Date('2026-01-20T00:00:00Z'))).toEqual(new Date('2026-01-20T00:00:00Z'));
    expect(cutoffOf(rules, null)).toEqual(new Date('2026-01-01T00:00:00Z'));
  });

  it('adds counts per table and totals them', () => {
    const counts = addCounts({ logs: 2 }, { logs: 3, runs: 1 });
    expect(counts).toEqual({ logs: 5, runs: 1 });
    expect(totalOf(counts)).toBe(6);
  });

  it('registers each target kind once', () => {
    const registry = createTargetRegistry();
    const kind = {
      kind: 'dead_letters',
      scope: 'project' as const,
      description: 'x',
      config: {} as never,
      open: () => Promise.reject(new Error('not used')),
    };
    registry.register(kind);
    expect(registry.get('dead_letters')).toBe(kind);
    expect(() => registry.register(kind)).toThrow(/twice/);
  });
});
