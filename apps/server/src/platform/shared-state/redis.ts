/** Redis-backed shared state, so that every API and worker process sees one set of counters and messages. */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { MessageHandler, SharedState, WindowCount } from './index.js';

// INCRBY and the window's expiry in one step, so two processes can never both start a window.
const HIT_WINDOW = `
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
if count == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

// A sorted set of the admitted hits' times (Redis's clock, one for every process); refused hits are not
// recorded, so the set never holds more than the limit.
const HIT_SLIDING_WINDOW = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1]) + 1
if count <= tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local reset = window
if oldest[2] then reset = tonumber(oldest[2]) + window - now end
return {count, reset}`;

interface HitWindowCommand {
  hitWindow(key: string, windowMs: string, hits: string): Promise<[number, number]>;
  hitSlidingWindow(key: string, windowMs: string, limit: string, member: string): Promise<[number, number]>;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export async function createRedisState(url: string, logger: Logger, keyPrefix = 'svc:'): Promise<SharedState> {
  // No offline queue: while Redis is down, commands fail at once instead of piling up and hanging requests.
  const options = {
    keyPrefix,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 1000,
    lazyConnect: true,
    retryStrategy: (attempt: number) => Math.min(attempt * 200, 2000),
  };
  const client = new Redis(url, options) as Redis & HitWindowCommand;
  // Sent once, then called by its SHA (EVALSHA): the script is not re-sent and re-hashed per request.
  client.defineCommand('hitWindow', { numberOfKeys: 1, lua: HIT_WINDOW });
  client.defineCommand('hitSlidingWindow', { numberOfKeys: 1, lua: HIT_SLIDING_WINDOW });
  client.on('error', (error) => logger.warn({ err: { message: error.message } }, 'redis connection error'));
  await client.connect();

  let subscriber: Redis | undefined;
  const handlers = new Map<string, Set<MessageHandler>>();
  const subscriberConnection = async (): Promise<Redis> => {
    if (subscriber) return subscriber;
    // The subscriber keeps its offline queue so subscriptions are replayed after a reconnect.
    const created = new Redis(url, {
      ...options,
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      autoResubscribe: true,
    });
    created.on('error', (error) => logger.warn({ err: { message: error.message } }, 'redis subscriber error'));
    created.on('message', (channel: string, message: string) => {
      for (const handler of handlers.get(channel.slice(keyPrefix.length)) ?? []) handler(message);
    });
    await created.connect();
    subscriber = created;
    return created;
  };

  return {
    kind: 'redis',
    async ping(timeoutMs) {
      await withTimeout(client.ping(), timeoutMs, 'redis ping');
    },
    async hitWindow(key: string, windowMs: number, hits = 1): Promise<WindowCount> {
      const [count, ttl] = await client.hitWindow(key, String(windowMs), String(hits));
      return { count, resetMs: ttl };
    },
    async hitSlidingWindow(key: string, windowMs: number, limit: number): Promise<WindowCount> {
      const [count, reset] = await client.hitSlidingWindow(key, String(windowMs), String(limit), randomUUID());
      return { count, resetMs: reset };
    },
    async setValue(key, value, ttlMs) {
      await client.set(key, value, 'PX', Math.max(1, Math.ceil(ttlMs)));
    },
    async getValue(key) {
      return client.get(key);
    },
    async deleteValue(key) {
      await client.del(key);
    },
    async publish(channel, message) {
      // keyPrefix does not apply to channel names; prefix them ourselves.
      await client.publish(keyPrefix + channel, message);
    },
    async subscribe(channel: string, handler: MessageHandler) {
      const connection = await subscriberConnection();
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await connection.subscribe(keyPrefix + channel);
      }
      set.add(handler);
      return async () => {
        const current = handlers.get(channel);
        current?.delete(handler);
        if (current && current.size === 0) {
          handlers.delete(channel);
          await connection.unsubscribe(keyPrefix + channel).catch(() => undefined);
        }
      };
    },
    async close() {
      await Promise.allSettled([client.quit(), subscriber?.quit()]);
      client.disconnect();
      subscriber?.disconnect();
    },
  };
}
