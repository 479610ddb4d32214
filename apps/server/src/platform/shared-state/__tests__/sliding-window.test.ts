/** The sliding window's arithmetic, on the in-process state with a controlled clock (Redis runs the same rules in Lua; the contract suite checks both). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryState, type SharedState } from '../index.js';

describe('sliding window (in-process state)', () => {
  let state: SharedState;
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000, toFake: ['Date'] });
    state = createMemoryState();
  });
  afterEach(async () => {
    await state.close();
    vi.useRealTimers();
  });

  it('never admits more than the limit in any 60-second span, however the hits straddle a minute', async () => {
    const windowMs = 60_000;
    const limit = 10;
    const admitted: number[] = [];
    // A client that tries every 250 ms for five minutes, with a burst at each minute's edge.
    for (let t = 0; t < 300_000; t += 250) {
      const burst = t % 60_000 === 59_750 || t % 60_000 === 0 ? 20 : 1;
      for (let i = 0; i < burst; i++) {
        vi.setSystemTime(1_000_000 + t);
        const { count } = await state.hitSlidingWindow('k', windowMs, limit);
        if (count <= limit) admitted.push(t);
      }
    }
    for (const start of admitted) {
      expect(admitted.filter((t) => t >= start && t < start + windowMs).length).toBeLessThanOrEqual(limit);
    }
    // And the limit is reached: ten in every window the client keeps busy.
    expect(admitted.length).toBeGreaterThanOrEqual(50);
  });

  it('reports the time until the oldest admitted hit leaves, and exact counts', async () => {
    expect(await state.hitSlidingWindow('k', 60_000, 2)).toEqual({ count: 1, resetMs: 60_000 });
    vi.setSystemTime(1_000_000 + 10_000);
    expect(await state.hitSlidingWindow('k', 60_000, 2)).toEqual({ count: 2, resetMs: 50_000 });
    vi.setSystemTime(1_000_000 + 30_000);
    expect(await state.hitSlidingWindow('k', 60_000, 2)).toEqual({ count: 3, resetMs: 30_000 });
    vi.setSystemTime(1_000_000 + 60_000);
    // The first hit is out at exactly one window; the second is still in.
    expect(await state.hitSlidingWindow('k', 60_000, 2)).toEqual({ count: 2, resetMs: 10_000 });
    expect(await state.hitSlidingWindow('k', 60_000, 2)).toEqual({ count: 3, resetMs: 10_000 });
  });
});
