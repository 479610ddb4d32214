import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { WindowCounter } from '../rate-limit.js';
import { createMemoryState, type SharedState } from '../shared-state/index.js';

const logger = pino({ level: 'silent' });
const states: SharedState[] = [];
afterEach(async () => {
  await Promise.all(states.splice(0).map((s) => s.close()));
});

function setup() {
  const shared = createMemoryState();
  states.push(shared);
  return { shared, counter: new WindowCounter(shared, 60_000, logger) };
}

describe('WindowCounter', () => {
  it('reports every hit in order while batching far from the limit, and the batches reach the shared window', async () => {
    const { shared, counter } = setup();
    const counts: number[] = [];
    for (let i = 0; i < 300; i++) counts.push((await counter.hit('k', 1000)).count);
    expect(counts).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    await counter.flush();
    expect((await shared.hitWindow('k', 60_000, 0)).count).toBe(300);
    counter.close();
  });

  it('never reports a lower count while a batch is on its way', async () => {
    const { counter } = setup();
    let last = 0;
    const flushes: Array<Promise<void>> = [];
    for (let i = 0; i < 200; i++) {
      const { count } = await counter.hit('k', 1000);
      expect(count).toBeGreaterThan(last);
      last = count;
      if (i % 7 === 0) flushes.push(counter.flush());
    }
    await Promise.all(flushes);
    counter.close();
  });

  it('counts exactly from half the limit on: the hit past the limit sees count > limit', async () => {
    const { counter } = setup();
    const counts = await Promise.all(Array.from({ length: 12 }, () => counter.hit('k', 10)));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    counter.close();
  });

  it('sees hits that another process added to the shared window', async () => {
    const { shared, counter } = setup();
    await counter.hit('k', 100);
    await shared.hitWindow('k', 60_000, 60); // another process: 60 hits
    // By its local view it has used up to half the limit: batched, the other process's hits unseen.
    for (let i = 0; i < 49; i++) expect((await counter.hit('k', 100)).count).toBe(i + 2);
    // Past half: an exact round trip, which carries the batch and learns the shared count.
    const next = await counter.hit('k', 100);
    expect(next.count).toBe(1 + 60 + 49 + 1);
    counter.close();
  });
});
