/**
 * Redis Streams as a stream source: a consumer group on one stream key, read with XREADGROUP; entries
 * another consumer of the group left unacknowledged for longer than the ack wait (a worker that died)
 * are taken over with XAUTOCLAIM. The message id is the entry id; Redis counts deliveries (XPENDING);
 * the ledger is pruned below the oldest pending entry. An entry with a `data` field is that field's
 * bytes; any other entry is its fields as a JSON object. Dead letters are entries of another stream
 * key: `data` (the body), `svc_error`, `svc_message_id`, `svc_stream_key`. Discover lists the stream keys.
 */
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { Redis } from 'ioredis';
import { Type } from 'typebox';
import { egressOf } from '../../egress.js';
import { checkBroker } from '../../streams/broker.js';
import type { BrokerMessage, MessageSource, MessageSourceOptions } from '../../streams/types.js';
import {
  ConnectorError,
  Secret,
  type ConnectorConfig,
  type ConnectorContext,
  type ConnectorDefinition,
  type ConnectorHandle,
} from '../../types.js';

export const redisSpec = Type.Object(
  {
    host: Type.String({ minLength: 1, title: 'Host' }),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, default: 6379, title: 'Port' })),
    user: Type.Optional(Type.String({ minLength: 1, title: 'User (ACL)' })),
    password: Secret('Password'),
    database: Type.Optional(Type.Integer({ minimum: 0, maximum: 15, default: 0, title: 'Database number' })),
    tls: Type.Optional(Type.Boolean({ default: false, title: 'TLS (server certificate verified)' })),
  },
  { additionalProperties: false },
);
type RedisConfig = ConnectorConfig<typeof redisSpec>;

export function classifyRedis(error: unknown): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const e = error as { code?: string; message?: string };
  const message = e.message ?? String(error);
  if (/WRONGPASS|NOAUTH|invalid password|invalid username/i.test(message))
    return new ConnectorError('auth_failed', 'Redis refused the credentials: check the user and password', false);
  if (/NOPERM/.test(message)) return new ConnectorError('missing_privilege', `Redis refused: ${message}`, false);
  if (e.code === 'ECONNREFUSED' || /ECONNREFUSED/.test(message))
    return new ConnectorError('unreachable', 'connection refused: is Redis running and the port right?', true);
  if (/timeout|ETIMEDOUT/i.test(message)) return new ConnectorError('timeout', 'Redis did not answer in time', true);
  return new ConnectorError('failed', message, true, { cause: error });
}

async function open(config: RedisConfig, context: ConnectorContext): Promise<Redis> {
  const port = config.port ?? 6379;
  const { address } = await egressOf(context).resolve(config.host, port);
  const redis = new Redis({
    host: address,
    port,
    ...(config.user ? { username: config.user } : {}),
    ...(config.password ? { password: config.password } : {}),
    db: config.database ?? 0,
    ...(config.tls ? { tls: { ...(isIP(config.host) ? {} : { servername: config.host }) } } : {}),
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
    connectTimeout: 10_000,
    enableOfflineQueue: false,
  });
  // A failure surfaces on the next command; the first one says why a connection could not be made.
  let first: unknown;
  redis.on('error', (error) => (first ??= error));
  try {
    await redis.connect();
    return redis;
  } catch (error) {
    redis.disconnect();
    throw classifyRedis(first ?? error);
  }
}

/** '1700000000000-5' -> 1700000000000000005: entry ids as one integer, in the same order (sequence < 10^6). */
export const entryPosition = (id: string): string => {
  const [ms, seq] = id.split('-');
  return (BigInt(ms ?? '0') * 1_000_000n + BigInt(seq ?? '0')).toString();
};

const START = { all: '0', new: '$' } as const;

type Entry = [id: string, fields: string[]];

function redisSource(config: RedisConfig, context: ConnectorContext, options: MessageSourceOptions): MessageSource {
  const key = options.name;
  const group = options.consumer;
  const me = `${group}-${process.pid}-${randomUUID().slice(0, 8)}`;
  let redis: Redis | undefined;
  let starting: Promise<Redis> | undefined;
  let lastClaim = 0;
  let cursor = '0-0';

  const start = async () => {
    const r = await open(config, context);
    const from =
      options.start === 'from_time' && options.startTime
        ? `${Date.parse(options.startTime)}-0`
        : options.start === 'from_sequence' || options.start === 'from_time'
          ? '0'
          : START[options.start];
    try {
      await r.xgroup('CREATE', key, group, from, 'MKSTREAM');
    } catch (error) {
      if (!/BUSYGROUP/.test((error as Error).message)) throw classifyRedis(error);
    }
    redis = r;
    return r;
  };

  const toMessage = (entry: Entry, deliveryCount: number): BrokerMessage => {
    const [id, fields] = entry;
    const map: Record<string, string> = {};
    for (let i = 0; i + 1 < fields.length; i += 2) map[fields[i]!] = fields[i + 1]!;
    const data = fields.length === 2 && fields[0] === 'data' ? fields[1]! : (map['data'] ?? JSON.stringify(map));
    return {
      id,
      position: entryPosition(id),
      data: Buffer.from(data, 'utf8'),
      deliveryCount,
      publishedAt: new Date(Number(id.split('-')[0])),
      subject: key,
    };
  };

  return {
    async receive(max, waitMs, signal) {
      const r = await (starting ??= start());
      if (signal.aborted) return [];
      const messages: BrokerMessage[] = [];
      // What consumers of the group left pending longer than the ack wait (this one's own retries too).
      if (Date.now() - lastClaim >= Math.min(options.ackWaitMs / 2, 1000)) {
        lastClaim = Date.now();
        const [next, claimed] = (await r.xautoclaim(key, group, me, options.ackWaitMs, cursor, 'COUNT', max)) as [
          string,
          Entry[],
        ];
        cursor = next;
        const live = claimed.filter((e) => e && e[1]);
        if (live.length) {
          const pending = (await r.xpending(key, group, live[0]![0], live.at(-1)![0], live.length * 2, me)) as Array<
            [string, string, number, number]
          >;
          const counts = new Map(pending.map((p) => [p[0], p[3]]));
          for (const entry of live) messages.push(toMessage(entry, counts.get(entry[0]) ?? 2));
        }
      }
      if (messages.length < max) {
        const read = (await r.xreadgroup(
          'GROUP',
          group,
          me,
          'COUNT',
          max - messages.length,
          'BLOCK',
          messages.length ? 1 : Math.max(1, waitMs),
          'STREAMS',
          key,
          '>',
        )) as Array<[string, Entry[]]> | null;
        for (const entry of read?.[0]?.[1] ?? []) messages.push(toMessage(entry, 1));
      }
      return messages;
    },
    async ack(messages) {
      if (messages.length && redis) await redis.xack(key, group, ...messages.map((m) => m.id));
    },
    // Left pending: XAUTOCLAIM hands them out again once the ack wait has passed.
    async retry() {},
    // An entry of the target stream: the body as `data` (as this source reads it), the reason beside it.
    async deadLetter(target, message, reason) {
      const r = await (starting ??= start());
      await r.xadd(
        target,
        '*',
        'data',
        message.data,
        'svc_error',
        reason.slice(0, 1000),
        'svc_message_id',
        message.id,
        'svc_stream_key',
        key,
      );
    },
    async lag() {
      if (!redis) return null;
      const groups = (await redis.xinfo('GROUPS', key)) as Array<Array<string | number | null>>;
      for (const g of groups) {
        const fields = new Map<string, string | number | null>();
        for (let i = 0; i + 1 < g.length; i += 2) fields.set(String(g[i]), g[i + 1]!);
        if (fields.get('name') === group) {
          const lag = fields.get('lag');
          const pending = Number(fields.get('pending') ?? 0);
          return lag === null || lag === undefined ? null : Number(lag) + pending;
        }
      }
      return null;
    },
    async settledThrough() {
      if (!redis) return null;
      const summary = (await redis.xpending(key, group)) as [number, string | null, string | null, unknown];
      if (summary[0] > 0 && summary[1]) return (BigInt(entryPosition(summary[1])) - 1n).toString();
      return null;
    },
    async close() {
      redis?.disconnect();
      redis = undefined;
    },
  };
}

export const redisStreamsConnector: ConnectorDefinition<typeof redisSpec> = {
  kind: 'redis_streams',
  title: 'Redis Streams',
  version: 1,
  spec: redisSpec,
  capabilities: { read: false, write: false, writeModes: [], stream: { starts: ['all', 'new', 'from_time'] } },
  async open(config, context): Promise<ConnectorHandle> {
    return {
      check: () =>
        checkBroker({
          open: () => open(config, context),
          probe: (r) => r.ping(),
          close: (r) => r.disconnect(),
          classify: classifyRedis,
        }),
      async discover() {
        const r = await open(config, context);
        try {
          const keys: string[] = [];
          let cursor = '0';
          do {
            const [next, found] = await r.scan(cursor, 'COUNT', 1000, 'TYPE', 'stream');
            cursor = next;
            keys.push(...found);
          } while (cursor !== '0' && keys.length < 10_000);
          const datasets = [];
          for (const name of keys.sort()) {
            datasets.push({
              namespace: null,
              name,
              columns: [{ name: 'data', type: 'string' as const, sourceType: 'stream entry', nullable: true }],
              primaryKey: [],
              rowEstimate: await r.xlen(name),
            });
          }
          return datasets;
        } catch (error) {
          throw classifyRedis(error);
        } finally {
          r.disconnect();
        }
      },
      messageSource: (options) => redisSource(config, context, options),
      async close() {},
    };
  },
};
