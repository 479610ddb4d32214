/**
 * Between a broker client that pushes messages and a stream run that takes them in batches: a
 * bounded queue. `push` resolves once there is room (a pump that awaits it stops pulling, so a slow
 * destination slows consumption); `take` waits for a full batch or the batch's latency, whichever
 * comes first; a failure of the client makes the next `take` reject.
 */
export class MessageBuffer<T> {
  #items: T[] = [];
  #failure: Error | undefined;
  #onItem: (() => void) | undefined;
  #onRoom: (() => void)[] = [];

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.#items.length;
  }

  /** Adds an item; resolves when the buffer is below capacity again. */
  push(item: T): Promise<void> {
    this.#items.push(item);
    this.#onItem?.();
    if (this.#items.length < this.capacity) return Promise.resolve();
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
    this.#room();
  }

  #room() {
    if (this.#items.length >= this.capacity) return;
    const waiting = this.#onRoom;
    this.#onRoom = [];
    for (const resolve of waiting) resolve();
  }

  /** Up to `max` items, waiting at most `waitMs` (or until `signal` aborts) for them to arrive. */
  async take(max: number, waitMs: number, signal: AbortSignal): Promise<T[]> {
    const deadline = Date.now() + waitMs;
    while (this.#items.length < max && !this.#failure && !signal.aborted) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          this.#onItem = undefined;
          resolve();
        };
        const timer = setTimeout(done, left);
        signal.addEventListener('abort', done, { once: true });
        this.#onItem = done;
      });
    }
    if (this.#failure) throw this.#failure;
    const taken = this.#items.splice(0, max);
    this.#room();
    return taken;
  }
}
