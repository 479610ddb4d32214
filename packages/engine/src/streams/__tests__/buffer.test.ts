/** The bounded queue between a broker client and the stream run: its bounds in items and in bytes. */
import { describe, expect, it } from 'vitest';
import { MessageBuffer } from '../buffer.js';

const never = new AbortController().signal;

describe('MessageBuffer', () => {
  it('makes the pusher wait once it holds its capacity in items, and lets it go on when a batch is taken', async () => {
    const buffer = new MessageBuffer<number>(3);
    expect(buffer.push(1)).toBeUndefined();
    expect(buffer.push(2)).toBeUndefined();
    const full = buffer.push(3);
    expect(full).toBeInstanceOf(Promise);
    let resumed = false;
    void full!.then(() => (resumed = true));
    await Promise.resolve();
    expect(resumed).toBe(false);
    expect(await buffer.take(2, 0, never)).toEqual([1, 2]);
    await full;
    expect(resumed).toBe(true);
    expect(buffer.size).toBe(1);
  });

  it('bounds the bytes it holds: a few large items fill it long before its item capacity, and a take hands them over at once', async () => {
    const buffer = new MessageBuffer<Buffer>(1000, 100, (b) => b.byteLength);
    expect(buffer.push(Buffer.alloc(40))).toBeUndefined();
    expect(buffer.push(Buffer.alloc(40))).toBeUndefined();
    const full = buffer.push(Buffer.alloc(40));
    expect(full).toBeInstanceOf(Promise);
    expect(buffer.bytes).toBe(120);
    // Full by its bytes: the take does not wait its whole latency (longer than the test's timeout)
    // for 500 items that cannot come.
    const taken = await buffer.take(500, 60_000, never);
    expect(taken).toHaveLength(3);
    expect(buffer.bytes).toBe(0);
    await full;
    // One item larger than the whole bound still goes through (alone).
    expect(buffer.push(Buffer.alloc(500))).toBeInstanceOf(Promise);
    expect(await buffer.take(10, 0, never)).toHaveLength(1);
  });

  it('wakes a waiting take when pushes fill it by bytes', async () => {
    const buffer = new MessageBuffer<Buffer>(1000, 100, (b) => b.byteLength);
    const taking = buffer.take(500, 60_000, never);
    void buffer.push(Buffer.alloc(60));
    void buffer.push(Buffer.alloc(60));
    expect(await taking).toHaveLength(2);
  });
});
