/** In-process stand-in for Redis: correct for a single process, shared by nothing else. */
import { EventEmitter } from 'node:events';
import type { MessageHandler, SharedState, WindowCount } from './index.js';

interface Slot {
  value: string;
  expiresAt: number;
}

export function createMemoryState(): SharedState {
  const values = new Map<string, Slot>();
  // Sliding windows: the times of the admitted hits, oldest first.
  const slidingWindows = new Map<string, { times: number[]; expiresAt: number }>();
  const bus = new EventEmitter();
  bus.setMaxListeners(0);

  const live = (key: string): Slot | undefined => {
    const slot = values.get(key);
    if (slot && slot.expiresAt <= Date.now()) {
      values.delete(key);
      return undefined;
    }
    return slot;
  };
  // Expired keys are dropped on read and by this sweep, so abandoned windows do not pile up.
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, slot] of values) if (slot.expiresAt <= now) values.delete(key);
    for (const [key, window] of slidingWindows) if (window.expiresAt <= now) slidingWindows.delete(key);
  }, 30_000);
  sweep.unref();

  return {
    kind: 'memory',
    async ping() {},
    async hitWindow(key: string, windowMs: number, hits = 1): Promise<WindowCount> {
      const now = Date.now();
      const slot = live(key);
      if (!slot) {
        values.set(key, { value: String(hits), expiresAt: now + windowMs });
        return { count: hits, resetMs: windowMs };
      }
      const count = Number(slot.value) + hits;
      slot.value = String(count);
      return { count, resetMs: slot.expiresAt - now };
    },
    async hitSlidingWindow(key: string, windowMs: number, limit: number): Promise<WindowCount> {
      const now = Date.now();
      let window = slidingWindows.get(key);
      if (!window) {
        window = { times: [], expiresAt: 0 };
        slidingWindows.set(key, window);
      }
      const { times } = window;
      let left = 0;
      while (left < times.length && times[left]! <= now - windowMs) left += 1;
      if (left > 0) times.splice(0, left);
      const count = times.length + 1;
      if (count <= limit) {
        times.push(now);
        window.expiresAt = now + windowMs;
      }
      return { count, resetMs: times.length > 0 ? times[0]! + windowMs - now : windowMs };
    },
    async setValue(key, value, ttlMs) {
      values.set(key, { value, expiresAt: Date.now() + ttlMs });
    },
    async getValue(key) {
      return live(key)?.value ?? null;
    },
    async deleteValue(key) {
      values.delete(key);
    },
    async publish(channel, message) {
      bus.emit(channel, message);
    },
    async subscribe(channel: string, handler: MessageHandler) {
      bus.on(channel, handler);
      return async () => {
        bus.off(channel, handler);
      };
    },
    async close() {
      clearInterval(sweep);
      bus.removeAllListeners();
      values.clear();
      slidingWindows.clear();
    },
  };
}
