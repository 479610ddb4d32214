/**
 * The broker connectors against the real NATS (JetStream) and RabbitMQ servers on the machine, and
 * the stream run writing into a real PostgreSQL database: check (ok, and precise failures), discover,
 * delivery into a table, no double write of a redelivered message (the ledger), dead-lettering of a
 * poison message after max deliveries, and new fields adding columns.
 */
import { randomBytes } from 'node:crypto';
import { jetstreamManager, jetstream } from '@nats-io/jetstream';
import { connect as natsConnect, type NatsConnection } from '@nats-io/transport-node';
import amqp from 'amqplib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quiet } from '../../__tests__/support.js';
import { natsConnector } from '../../connectors/nats/definition.js';
import { openPostgres } from '../../connectors/postgres/definition.js';
import { mqttConnector } from '../../connectors/mqtt/definition.js';
import { rabbitmqConnector } from '../../connectors/rabbitmq/definition.js';
import { entryPosition, redisStreamsConnector } from '../../connectors/redis/definition.js';
import { Redis } from 'ioredis';
import type { ConnectorHandle } from '../../types.js';
import { runStream } from '../run.js';
import type { BrokerMessage, MessageSource } from '../types.js';

const ADMIN_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const admin = new URL(ADMIN_URL);
const database = `svc_streams_${randomBytes(5).toString('hex')}`;
const pgConfig = {
  host: admin.hostname,
  port: Number(admin.port || 5432),
  database,
  user: decodeURIComponent(admin.username),
  password: decodeURIComponent(admin.password),
};
const suffix = randomBytes(4).toString('hex');

async function sql<T extends pg.QueryResultRow>(text: string, params: unknown[] = []) {
  const client = new pg.Client(pgConfig);
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** Runs a stream until `until` holds, then stops it. */
async function runUntil(
  source: MessageSource,
  streamId: string,
  table: string,
  until: () => Promise<boolean>,
  dead: { message: BrokerMessage; reason: string }[] = [],
) {
  const controller = new AbortController();
  const destination = openPostgres(pgConfig);
  const sink = destination.messageSink!();
  const running = runStream({
    streamId,
    source,
    sink,
    target: { namespace: null, name: table },
    format: 'json',
    mode: 'append',
    keyColumns: [],
    batch: { maxRows: 100, maxLatencyMs: 100 },
    maxDeliveries: 3,
    deadLetter: async (message, reason) => void dead.push({ message, reason }),
    signal: controller.signal,
    log: () => undefined,
  });
  const deadline = Date.now() + 20_000;
  try {
    while (!(await until())) {
      if (Date.now() > deadline) throw new Error('timed out waiting for the stream');
      await Promise.race([running, new Promise((r) => setTimeout(r, 100))]);
    }
  } finally {
    controller.abort();
    await running.catch(() => undefined);
    await source.close();
    await sink.close();
    await destination.close();
  }
}

/** A message that cannot be written, to dead-letter. */
const poison: BrokerMessage = {
  id: 'poison',
  position: null,
  data: Buffer.from('poison {'),
  deliveryCount: 3,
  publishedAt: new Date(),
  subject: null,
};

const count = async (table: string) => Number((await sql<{ n: string }>(`select count(*) n from "${table}"`))[0]!.n);

beforeAll(async () => {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  await client.query(`create database ${database}`);
  await client.end();
});
afterAll(async () => {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  await client.query(`drop database if exists ${database} with (force)`);
  await client.end();
});

describe('NATS JetStream connector', () => {
  let nc: NatsConnection;
  const stream = `svc_test_${suffix}`;
  let handle: ConnectorHandle;
  beforeAll(async () => {
    nc = await natsConnect({ servers: '127.0.0.1:4222' });
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: stream, subjects: [`${stream}.>`] });
    handle = await natsConnector.open({ host: '127.0.0.1', port: 4222 }, quiet);
  });
  afterAll(async () => {
    await (await jetstreamManager(nc)).streams.delete(stream).catch(() => undefined);
    await nc.close();
  });

  it('checks, refuses an unreachable server precisely, and discovers the streams', async () => {
    expect(await handle.check()).toEqual({ ok: true });
    const down = await natsConnector.open({ host: '127.0.0.1', port: 1 }, quiet);
    expect(await down.check()).toMatchObject({ ok: false, code: 'unreachable' });
    const streams = await handle.discover();
    expect(streams.find((s) => s.name === stream)).toMatchObject({ name: stream, rowEstimate: 0 });
  });

  it('writes each message once, adds columns for new fields, and dead-letters a poison message', async () => {
    const js = jetstream(nc);
    for (let i = 1; i <= 50; i++) await js.publish(`${stream}.orders`, JSON.stringify({ id: i, amount: i * 1.5 }));
    await js.publish(`${stream}.orders`, 'not json {');
    await js.publish(`${stream}.orders`, JSON.stringify({ id: 51, amount: 'a string where a number was' }));
    await js.publish(`${stream}.orders`, JSON.stringify({ id: 52, amount: 3.5, note: 'a new field' }));
    const dead: { message: BrokerMessage; reason: string }[] = [];
    const options = {
      name: stream,
      consumer: `svc_${suffix}`,
      start: 'all' as const,
      maxInFlight: 64,
      ackWaitMs: 2000,
    };
    await runUntil(handle.messageSource!(options), 'nats-1', 'orders', async () => dead.length >= 2, dead);
    expect(await count('orders')).toBe(51);
    expect(dead.map((d) => d.reason).sort()).toEqual([
      expect.stringMatching(/^not valid JSON/),
      'type conflict: field "amount" is a string, the column is float64',
    ]);
    expect(dead.every((d) => d.message.deliveryCount === 3)).toBe(true);
    const columns = await sql<{ column_name: string; data_type: string }>(
      `select column_name, data_type from information_schema.columns where table_name = 'orders' order by ordinal_position`,
    );
    expect(columns.map((c) => [c.column_name, c.data_type])).toEqual([
      ['_svc_message_id', 'text'],
      ['_svc_received_at', 'timestamp with time zone'],
      ['id', 'bigint'],
      ['amount', 'double precision'],
      ['note', 'text'],
    ]);

    // The ledger: a stream that starts over from the first message writes nothing twice.
    await (await jetstreamManager(nc)).consumers.delete(stream, `svc_${suffix}`);
    await runUntil(handle.messageSource!(options), 'nats-1', 'orders', async () => dead.length >= 4, dead);
    expect(await count('orders')).toBe(51);
    const ids = await sql<{ n: string }>(`select count(distinct id) n from orders`);
    expect(Number(ids[0]!.n)).toBe(51);
  });
});

describe('RabbitMQ connector', () => {
  const queue = `svc_test_${suffix}`;
  let handle: ConnectorHandle;
  let connection: amqp.ChannelModel;
  beforeAll(async () => {
    connection = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
    const ch = await connection.createChannel();
    await ch.assertQueue(queue, { durable: false, autoDelete: false });
    await ch.close();
    handle = await rabbitmqConnector.open({ host: '127.0.0.1', user: 'guest', password: 'guest' }, quiet);
  });
  afterAll(async () => {
    const ch = await connection.createChannel();
    await ch.deleteQueue(queue);
    await connection.close();
  });

  it('checks, and refuses bad credentials precisely', async () => {
    expect(await handle.check()).toEqual({ ok: true });
    const wrong = await rabbitmqConnector.open({ host: '127.0.0.1', user: 'guest', password: 'wrong' }, quiet);
    expect(await wrong.check()).toMatchObject({ ok: false, code: 'auth_failed' });
  });

  it('writes each message once and dead-letters a poison message after max deliveries', async () => {
    const ch = await connection.createChannel();
    for (let i = 1; i <= 40; i++)
      ch.sendToQueue(queue, Buffer.from(JSON.stringify({ id: i, name: `n${i}` })), { messageId: `m${i}` });
    ch.sendToQueue(queue, Buffer.from('[1, 2'), { messageId: 'poison' });
    // The same message id twice (a publisher's retry): written once.
    ch.sendToQueue(queue, Buffer.from(JSON.stringify({ id: 40, name: 'n40' })), { messageId: 'm40' });
    await ch.close();
    const dead: { message: BrokerMessage; reason: string }[] = [];
    await runUntil(
      handle.messageSource!({ name: queue, consumer: 'svc', start: 'all', maxInFlight: 16, ackWaitMs: 1000 }),
      'rabbit-1',
      'people',
      async () => dead.length >= 1 && (await count('people').catch(() => 0)) >= 40,
      dead,
    );
    expect(await count('people')).toBe(40);
    expect(dead).toHaveLength(1);
    expect(dead[0]!.message.id).toBe('poison');
    expect(dead[0]!.message.deliveryCount).toBe(3);
    const check = await connection.createChannel();
    expect((await check.checkQueue(queue)).messageCount).toBe(0);
    await check.close();
  });

  it('keeps message ids with quotes, backslashes, commas, braces and spaces in the ledger: sent again later, written once', async () => {
    const ids = ['a"b', 'c\\d', 'e,f', '{g}', 'NULL', ' h i ', '"', '\\'];
    const publish = async (list: string[]) => {
      const ch = await connection.createChannel();
      for (const [i, id] of list.entries())
        ch.sendToQueue(queue, Buffer.from(JSON.stringify({ n: i, id })), { messageId: id });
      await ch.close();
    };
    const run = (until: () => Promise<boolean>) =>
      runUntil(
        handle.messageSource!({ name: queue, consumer: 'svc', start: 'all', maxInFlight: 100, ackWaitMs: 1000 }),
        'rabbit-ids',
        'tricky_ids',
        until,
      );
    await publish(ids);
    await run(async () => (await count('tricky_ids').catch(() => 0)) >= ids.length);
    // The same ids again (a publisher's late retry, in a batch of their own), then one new message.
    await publish([...ids, 'new']);
    await run(async () => (await count('tricky_ids')) >= ids.length + 1);
    const rows = await sql<{ _svc_message_id: string; id: string }>('select _svc_message_id, id from tricky_ids');
    expect(rows.map((r) => r._svc_message_id).sort()).toEqual([...ids, 'new'].sort());
    expect(rows.every((r) => r._svc_message_id === r.id)).toBe(true);
  });
});

describe('Redis Streams connector', () => {
  const key = `svc_test_${suffix}`;
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis({ host: '127.0.0.1', port: 6379 });
  });
  afterAll(async () => {
    await redis.del(key);
    redis.disconnect();
  });

  it('checks, discovers stream keys, orders entry ids as positions', async () => {
    await redis.xadd(key, '*', 'data', '{"id": 0}');
    const handle = await redisStreamsConnector.open({ host: '127.0.0.1' }, quiet);
    expect(await handle.check()).toEqual({ ok: true });
    expect((await handle.discover()).find((d) => d.name === key)).toMatchObject({ rowEstimate: 1 });
    const down = await redisStreamsConnector.open({ host: '127.0.0.1', port: 1 }, quiet);
    expect(await down.check()).toMatchObject({ ok: false, code: 'unreachable' });
    expect(BigInt(entryPosition('1700000000000-5'))).toBeLessThan(BigInt(entryPosition('1700000000001-0')));
  });

  it('takes over what a dead consumer left pending (XAUTOCLAIM) and dead-letters a poison entry', async () => {
    for (let i = 1; i <= 30; i++) await redis.xadd(key, '*', 'data', JSON.stringify({ id: i }));
    await redis.xadd(key, '*', 'data', 'poison');
    // A consumer of the group that reads ten and dies without acknowledging them.
    await redis.xgroup('CREATE', key, 'svc_group', '0');
    await redis.xreadgroup('GROUP', 'svc_group', 'dead-one', 'COUNT', 10, 'STREAMS', key, '>');
    const handle = await redisStreamsConnector.open({ host: '127.0.0.1' }, quiet);
    const dead: { message: BrokerMessage; reason: string }[] = [];
    await runUntil(
      handle.messageSource!({ name: key, consumer: 'svc_group', start: 'all', maxInFlight: 50, ackWaitMs: 500 }),
      'redis-1',
      'redis_rows',
      async () => dead.length >= 1 && (await count('redis_rows').catch(() => 0)) >= 31,
      dead,
    );
    expect(await count('redis_rows')).toBe(31);
    expect(dead[0]!.reason).toMatch(/not valid JSON/);
    const pending = (await redis.xpending(key, 'svc_group')) as [number];
    expect(pending[0]).toBe(0);
  });

  it('publishes a dead letter as an entry of another stream key, the reason beside the body', async () => {
    const handle = await redisStreamsConnector.open({ host: '127.0.0.1' }, quiet);
    const source = handle.messageSource!({
      name: key,
      consumer: 'svc_dl',
      start: 'new',
      maxInFlight: 10,
      ackWaitMs: 500,
    });
    const deadKey = `${key}_dead`;
    try {
      const message = { ...poison, id: '1700000000000-7', position: entryPosition('1700000000000-7'), subject: key };
      await source.deadLetter!(deadKey, message, 'not valid JSON: Unexpected token');
      const entries = (await redis.xrange(deadKey, '-', '+')) as Array<[string, string[]]>;
      expect(entries).toHaveLength(1);
      expect(entries[0]![1]).toEqual([
        'data',
        'poison {',
        'svc_error',
        'not valid JSON: Unexpected token',
        'svc_message_id',
        '1700000000000-7',
        'svc_stream_key',
        key,
      ]);
    } finally {
      await source.close();
      await redis.del(deadKey);
    }
  });
});

describe('MQTT connector', () => {
  it('publishes a dead letter to a topic at QoS 1, with the reason as MQTT 5 user properties', async () => {
    const handle = await mqttConnector.open({ host: '127.0.0.1' }, quiet);
    const topic = `svc/testdl/${suffix}`;
    const source = handle.messageSource!({
      name: `${topic}/in/#`,
      consumer: `svcdl${suffix}`,
      start: 'new',
      maxInFlight: 10,
      ackWaitMs: 1000,
    });
    const { default: mqtt } = await import('mqtt');
    const watcher = await mqtt.connectAsync({ host: '127.0.0.1', port: 1883, protocolVersion: 5 });
    try {
      await watcher.subscribeAsync(`${topic}/dead`, { qos: 1 });
      const received = new Promise<{ payload: string; properties: Record<string, unknown> }>((resolve) =>
        watcher.on('message', (_topic, payload, packet) =>
          resolve({ payload: payload.toString(), properties: packet.properties?.userProperties ?? {} }),
        ),
      );
      await source.deadLetter!(
        `${topic}/dead`,
        { ...poison, id: 'm9', subject: `${topic}/in/a` },
        'type conflict: field "id" is a string, the column is int64',
      );
      expect(await received).toEqual({
        payload: 'poison {',
        properties: {
          'svc-error': 'type conflict: field "id" is a string, the column is int64',
          'svc-message-id': 'm9',
          'svc-topic': `${topic}/in/a`,
        },
      });
    } finally {
      await watcher.endAsync();
      await source.close();
    }
  });

  it('checks, and consumes QoS 1 messages of a persistent session', async () => {
    const handle = await mqttConnector.open({ host: '127.0.0.1' }, quiet);
    expect(await handle.check()).toEqual({ ok: true });
    const down = await mqttConnector.open({ host: '127.0.0.1', port: 1 }, quiet);
    expect(await down.check()).toMatchObject({ ok: false, code: 'unreachable' });
    const topic = `svc/test/${suffix}`;
    const source = handle.messageSource!({
      name: `${topic}/#`,
      consumer: `svc${suffix}`,
      start: 'new',
      maxInFlight: 20,
      ackWaitMs: 1000,
    });
    const controller = new AbortController();
    // Subscribes (the session starts), then the messages come.
    await source.receive(1, 10, controller.signal);
    const { default: mqtt } = await import('mqtt');
    const publisher = await mqtt.connectAsync({ host: '127.0.0.1', port: 1883, protocolVersion: 5 });
    for (let i = 1; i <= 25; i++)
      await publisher.publishAsync(`${topic}/a`, JSON.stringify({ id: i }), {
        qos: 1,
        properties: { userProperties: { message_id: `m${i}` } },
      });
    await publisher.publishAsync(`${topic}/a`, 'poison', { qos: 1 });
    await publisher.endAsync();
    const dead: { message: BrokerMessage; reason: string }[] = [];
    await runUntil(
      source,
      'mqtt-1',
      'mqtt_rows',
      async () => dead.length >= 1 && (await count('mqtt_rows').catch(() => 0)) >= 25,
      dead,
    );
    expect(await count('mqtt_rows')).toBe(25);
    expect(
      (await sql<{ id: string }>('select _svc_message_id id from mqtt_rows order by id')).map((r) => r.id),
    ).toContain('m7');
    expect(dead[0]!.message.deliveryCount).toBe(3);
  });

  it('MQTT 3.1.1: many messages per destination transaction, none acknowledged before its commit', async () => {
    const handle = await mqttConnector.open({ host: '127.0.0.1', protocol_version: 4 }, quiet);
    const topic = `svc/test4/${suffix}`;
    const options = {
      name: `${topic}/#`,
      consumer: `svc4${suffix}`,
      start: 'new' as const,
      maxInFlight: 100,
      ackWaitMs: 1000,
    };
    const first = handle.messageSource!(options);
    const controller = new AbortController();
    await first.receive(1, 10, controller.signal);
    const { default: mqtt } = await import('mqtt');
    const publisher = await mqtt.connectAsync({ host: '127.0.0.1', port: 1883, protocolVersion: 4 });
    for (let i = 1; i <= 15; i++) await publisher.publishAsync(`${topic}/a`, JSON.stringify({ id: i }), { qos: 1 });
    await publisher.endAsync();
    // A destination that fails: the run ends, and nothing was acknowledged.
    const destination = openPostgres(pgConfig);
    const sink = destination.messageSink!();
    const failing = { ...sink, write: () => Promise.reject(new Error('the destination is down')) };
    const base = {
      streamId: 'mqtt-4',
      target: { namespace: null, name: 'mqtt4_rows' },
      format: 'json' as const,
      mode: 'append' as const,
      keyColumns: [],
      batch: { maxRows: 100, maxLatencyMs: 200 },
      maxDeliveries: 3,
      deadLetter: async () => undefined,
      log: () => undefined,
    };
    await expect(runStream({ ...base, source: first, sink: failing, signal: controller.signal })).rejects.toThrow(
      'the destination is down',
    );
    await first.close();
    // The session's next connection gets them all again, and writes them in few transactions.
    const second = handle.messageSource!(options);
    let writes = 0;
    const counting = {
      ...sink,
      write: (...args: Parameters<typeof sink.write>) => ((writes += 1), sink.write(...args)),
    };
    const stop = new AbortController();
    const running = runStream({ ...base, source: second, sink: counting, signal: stop.signal });
    const deadline = Date.now() + 10_000;
    while ((await count('mqtt4_rows').catch(() => 0)) < 15 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    stop.abort();
    await running;
    await second.close();
    await sink.close();
    await destination.close();
    expect(await count('mqtt4_rows')).toBe(15);
    expect(writes).toBeLessThan(15);
  });
});
