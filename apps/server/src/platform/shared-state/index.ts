/**
 * What several processes share and may lose without harm: rate-limit windows, a cache of the
 * deny-list, pub/sub for live logs and run status. Redis serves it across processes; with no
 * SVC_REDIS_URL an in-process stand-in serves a single process. Both pass one contract suite.
 */
export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

export type MessageHandler = (message: string) => void;

export interface SharedState {
  readonly kind: 'redis' | 'memory';
  /** Rejects when the backend does not answer within timeoutMs. */
  ping(timeoutMs: number): Promise<void>;
  /** Counts `hits` (default 1) in the fixed window that `key` names; the window starts at the first hit. */
  hitWindow(key: string, windowMs: number, hits?: number): Promise<WindowCount>;
  /**
   * One hit against a sliding window: admitted, and recorded, only while fewer than `limit` hits were
   * admitted in the last `windowMs`, so that no span of that length ever holds more than `limit`.
   * `count` is the hits in the window with this one (limit + 1 when refused); `resetMs` is the time
   * until the oldest of them leaves the window (a slot frees).
   */
  hitSlidingWindow(key: string, windowMs: number, limit: number): Promise<WindowCount>;
  setValue(key: string, value: string, ttlMs: number): Promise<void>;
  getValue(key: string): Promise<string | null>;
  deleteValue(key: string): Promise<void>;
  publish(channel: string, message: string): Promise<void>;
  /** Resolves once the subscription is active; the returned function ends it. */
  subscribe(channel: string, handler: MessageHandler): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export { createMemoryState } from './memory.js';
export { createRedisState } from './redis.js';
