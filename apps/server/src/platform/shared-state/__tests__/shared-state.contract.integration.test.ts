/** One contract, both implementations: what the rate limiter, deny-list cache and live logs rely on. */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryState, createRedisState, type SharedState } from '../index.js';

const REDIS_URL = process.env['SVC_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const prefix = () => `svctest_${Math.random().toString(36).slice(2)}:`;

const implementations: Array<[string, () => Promise<SharedState[]>]> = [
  [
    'memory',
    async () => {
      const one = createMemoryState();
      return [one, one];
    },
  ],
  [
    'redis',
    async () => {
      const shared = prefix();
      const logger = pino({ level: 'silent' });
      return [await createRedisState(REDIS_URL, logger, shared), await createRedisState(REDIS_URL, logger, shared)];
    },
  ],
];

describe.each(implementations)('shared state: %s', (_name, create) => {
  let a: SharedState;
  let b: SharedState; // a second handle: another process for Redis, the same process for memory
  beforeAll(async () => {
    [a, b] = (await create()) as [SharedState, SharedState];
  });
  afterAll(async () => {
    await a?.close();
    if (b !== a) await b?.close();
  });

  it('answers ping', async () => {
    await expect(a.ping(1000)).resolves.toBeUndefined();
  });

  it('counts hits in one fixed window shared by every handle, then starts a new one', async () => {
    expect(await a.hitWindow('w1', 300)).toMatchObject({ count: 1 });
    expect(await b.hitWindow('w1', 300)).toMatchObject({ count: 2 });
    const third = await a.hitWindow('w1', 300);
    expect(third.count).toBe(3);
    expect(third.resetMs).toBeGreaterThan(0);
    expect(third.resetMs).toBeLessThanOrEqual(300);
    await new Promise((r) => setTimeout(r, 350));
    expect(await b.hitWindow('w1', 300)).toMatchObject({ count: 1 });
  });

  it('admits at most the limit in any span of a sliding window, shared by every handle; refused hits are not recorded', async () => {
    expect(await a.hitSlidingWindow('s1', 1000, 3)).toMatchObject({ count: 1, resetMs: 1000 });
    await new Promise((r) => setTimeout(r, 500));
    expect(await b.hitSlidingWindow('s1', 1000, 3)).toMatchObject({ count: 2 });
    const third = await a.hitSlidingWindow('s1', 1000, 3);
    expect(third.count).toBe(3);
    // The first hit leaves the window about 500 ms from now.
    expect(third.resetMs).toBeGreaterThan(0);
    expect(third.resetMs).toBeLessThanOrEqual(500);
    const refused = await b.hitSlidingWindow('s1', 1000, 3);
    expect(refused.count).toBe(4);
    expect(refused.resetMs).toBeLessThanOrEqual(500);
    // Past the first hit's window: one slot, not a new window.
    await new Promise((r) => setTimeout(r, 600));
    expect(await a.hitSlidingWindow('s1', 1000, 3)).toMatchObject({ count: 3 });
    expect(await b.hitSlidingWindow('s1', 1000, 3)).toMatchObject({ count: 4 });
    // Everything gone after a whole window.
    await new Promise((r) => setTimeout(r, 1100));
    expect(await b.hitSlidingWindow('s1', 1000, 3)).toMatchObject({ count: 1, resetMs: 1000 });
  });

  it('keeps values until their time to live ends', async () => {
    await a.setValue('k1', 'v1', 200);
    expect(await b.getValue('k1')).toBe('v1');
    await new Promise((r) => setTimeout(r, 250));
    expect(await b.getValue('k1')).toBeNull();
    await a.setValue('k2', 'v2', 10_000);
    await b.deleteValue('k2');
    expect(await a.getValue('k2')).toBeNull();
  });

  it('delivers published messages to every subscriber until it unsubscribes', async () => {
    const received: string[] = [];
    const unsubscribe = await b.subscribe('chan', (m) => received.push(m));
    await a.publish('chan', 'one');
    await a.publish('other', 'not for us');
    await waitFor(() => received.length === 1);
    await unsubscribe();
    await a.publish('chan', 'two');
    await new Promise((r) => setTimeout(r, 100));
    expect(received).toEqual(['one']);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 2000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
