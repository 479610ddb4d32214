/**
 * Between a broker client that pushes messages and a stream run that takes them in batches: a
 * bounded queue, in items and (where the source gives sizes) in bytes. `push` resolves once there is
 * room (a pump that awaits it stops pulling, so a slow destination slows consumption); `take` waits
 * for a full batch or the batch's latency, whichever comes first; a failure of the client makes the
 * next `take` reject.
 */
export class MessageBuffer<T> {
  #items: T[] = [];
  #bytes = 0;
  #failure: Error | undefined;
  #onItem: (() => void) | undefined;
  /** How many items the waiting `take` wants: it is woken only when there are that many (not per item). */
  #wanted = Infinity;
  #onRoom: (() => void)[] = [];

  /**
   * @param capacity items held at most before `push` waits
   * @param maxBytes bytes held at most before `push` waits (measured by `sizeOf`; one item is always let in)
   */
  constructor(
    readonly capacity: number,
    readonly maxBytes = Infinity,
    private readonly sizeOf: (item: T) => number = () => 0,
  ) {}

  get size(): number {
    return this.#items.length;
  }

  get bytes(): number {
    return this.#bytes;
  }

  #full() {
    return this.#items.length >= this.capacity || this.#bytes >= this.maxBytes;
  }

  /**
   * Adds an item. Undefined while there is room; else a promise that resolves when the buffer is
   * below its capacity (items and bytes) again (no promise per item on the usual path).
   */
  push(item: T): Promise<void> | undefined {
    this.#bytes += this.sizeOf(item);
    const length = this.#items.push(item);
    if (length >= this.#wanted || (this.#onItem && this.#full())) this.#onItem?.();
    if (!this.#full()) return undefined;
    return new Promise((resolve) => this.#onRoom.push(resolve));
  }

  /** The consumer failed: takes reject with `error` from now on. */
  fail(error: Error): void {
    this.#failure ??= error;
    this.#onItem?.();
  }

  /** Drops what is buffered (the client gives unsettled messages back by itself when it closes). */
  clear(): void {
    this.#items = [];
    this.#bytes = 0;
    this.#room();
  }

  #room() {
    if (this.#full()) return;
    const waiting = this.#onRoom;
    this.#onRoom = [];
    for (const resolve of waiting) resolve();
  }

  /**
   * Up to `max` items, waiting at most `waitMs` (or until `signal` aborts) for them to arrive; with
   * `idleMs`, also no longer than that after the last item once there is one (a broker that stopped
   * sending because its window of unacknowledged messages is full will not send more before an ack).
   * A buffer full by its bytes before `max` items is taken as it is (no more can come).
   */
  async take(max: number, waitMs: number, signal: AbortSignal, idleMs?: number): Promise<T[]> {
    const deadline = Date.now() + waitMs;
    while (this.#items.length < max && !this.#full() && !this.#failure && !signal.aborted) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      const before = this.#items.length;
      const idle = idleMs !== undefined && before > 0;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          this.#onItem = undefined;
          this.#wanted = Infinity;
          resolve();
        };
        const timer = setTimeout(done, idle ? Math.min(left, idleMs) : left);
        signal.addEventListener('abort', done, { once: true });
        this.#onItem = done;
        // Waiting for a gap: woken by every item; else only by the one that completes the batch.
        this.#wanted = idleMs !== undefined ? before + 1 : Math.min(max, this.capacity);
      });
      if (idle && this.#items.length === before) break;
    }
    if (this.#failure) throw this.#failure;
    const taken = this.#items.splice(0, max);
    for (const item of taken) this.#bytes -= this.sizeOf(item);
    this.#room();
    return taken;
  }
}
