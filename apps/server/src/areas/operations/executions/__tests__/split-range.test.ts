import { describe, expect, it } from 'vitest';
import { compareCursor } from '@svc/engine';
import { splitRange } from '../sync.job.js';

describe('splitRange', () => {
  it('covers [min, max] with contiguous ranges, the last one open-ended', () => {
    expect(splitRange(1, 100, 4)).toEqual([
      { from: '1', to: '26' },
      { from: '26', to: '51' },
      { from: '51', to: '76' },
      { from: '76', to: null },
    ]);
  });

  it('handles int64 keys beyond 2^53 exactly, and fewer keys than ranges', () => {
    expect(splitRange('9007199254740993', '9007199254740996', 2)).toEqual([
      { from: '9007199254740993', to: '9007199254740995' },
      { from: '9007199254740995', to: null },
    ]);
    expect(splitRange(5, 6, 4)).toEqual([
      { from: '5', to: '6' },
      { from: '6', to: null },
    ]);
  });

  it('refuses keys that are not integers', () => {
    expect(() => splitRange('a', 'z', 2)).toThrow(/integer range_column/);
  });
});

describe('compareCursor', () => {
  it('orders numbers, int64 strings exactly, and text', () => {
    expect(compareCursor(2, 10)).toBeLessThan(0);
    expect(compareCursor('9007199254740993', '9007199254740992')).toBeGreaterThan(0);
    expect(compareCursor('2024-01-02T00:00:00.000000Z', '2024-01-01T23:59:59.999999Z')).toBeGreaterThan(0);
  });
});
