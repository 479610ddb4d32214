/**
 * Streams through the API against the brokers on this machine (NATS with JetStream on 4222, RabbitMQ
 * on 5672), consumed by real worker processes: each broker end to end (into the project warehouse,
 * and into a PostgreSQL connector), a poison message and a type conflict dead-lettered after
 * max_deliveries, a worker SIGKILLed in the middle of a steady publish (then source count =
 * destination count, no duplicate ids), the live status over SSE to an EventSource (ids,
 * Last-Event-ID, 401 for a personal token, closed by logout), and 422s naming the field.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect as natsConnect, type NatsConnection } from '@nats-io/transport-node';
import amqp from 'amqplib';
import { Redis } from 'ioredis';
import mqtt from 'mqtt';
import { EventSource } from 'eventsource';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { runCli, type CliProcess } from '../support/cli.js';
import { adminLogin, api, createApiToken, createProject } from '../support/http.js';
import { createPostgresConnector, query } from '../support/runs.js';
import { TEST_REDIS_URL, createTestDatabase, uniqueName, type TestDatabase } from '../support/services.js';

interface Stream {
  id: string;
  status: string;
  desired_state: string;
  last_error: string | null;
  consumer_worker: string | null;
}
interface Run {
  id: string;
  status: string;
  worker: string;
  messages_received: number;
  messages_written: number;
  rows_written: number;
  dead_lettered: number;
  duplicates: number;
  bytes: number;
}
interface DeadLetter {
  id: string;
  message_id: string;
  reason: string;
  deliveries: number;
  payload: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const suffix = randomBytes(4).toString('hex');

describe('streams', () => {
  const redisKeyPrefix = uniqueName('svcstreams');
  const env = {
    ...NO_RATE_LIMITS,
    SVC_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    SVC_STREAMS_LEASE_SECONDS: '3',
    SVC_STREAMS_ACK_WAIT_SECONDS: '3',
    SVC_SSE_HEARTBEAT_SECONDS: '1',
    SVC_CDC_MAX_TABLES_PER_WORKER: '0',
  };
  let framework: TestDatabase;
  let destination: TestDatabase;
  let t: TestApp;
  let admin: string;
  let projectId: string;
  let natsId: string;
  let rabbitId: string;
  let redisId: string;
  let mqttId: string;
  let warehouseId: string;
  let postgresId: string;
  let warehouseUrl: string;
  let nc: NatsConnection;
  let amqpConnection: amqp.ChannelModel;
  const natsStreams: string[] = [];
  const queues: string[] = [];
  const workers: CliProcess[] = [];
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    framework = await createTestDatabase();
    destination = await createTestDatabase();
    t = await startTestApp({ database: framework, redisKeyPrefix, env });
    warehouseUrl = t.config.db.url!.replace(/\/([^/?]+)(\?.*)?$/, '/$1_warehouse$2');
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
    const connector = async (name: string, kind: string, config: Record<string, unknown>) => {
      const created = await api<{ id: string }>(t, 'POST', '/api/v1/data-connectors', {
        token: admin,
        body: { project_id: projectId, name, kind, config },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.id;
    };
    natsId = await connector('nats', 'nats', { host: '127.0.0.1', port: 4222 });
    rabbitId = await connector('rabbit', 'rabbitmq', { host: '127.0.0.1', user: 'guest', password: 'guest' });
    redisId = await connector('redis', 'redis_streams', { host: '127.0.0.1', port: 6379 });
    mqttId = await connector('mqtt', 'mqtt', { host: '127.0.0.1', port: 1883 });
    warehouseId = await connector('warehouse', 'warehouse', { schema: 'streams' });
    postgresId = await createPostgresConnector(t, admin, projectId, 'destination', destination.name);
    nc = await natsConnect({ servers: '127.0.0.1:4222' });
    amqpConnection = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
  });
  afterAll(async () => {
    for (const worker of workers) worker.child.kill('SIGKILL');
    for (const cleanup of cleanups.splice(0)) await cleanup();
    const jsm = nc ? await jetstreamManager(nc) : undefined;
    for (const name of natsStreams) await jsm?.streams.delete(name).catch(() => undefined);
    await nc?.close();
    if (amqpConnection) {
      const ch = await amqpConnection.createChannel();
      for (const queue of queues) await ch.deleteQueue(queue).catch(() => undefined);
      await amqpConnection.close();
    }
    await t?.close();
    await framework?.drop();
    await destination?.drop();
  });
  afterEach(async () => {
    for (const worker of workers.splice(0)) {
      if (worker.child.exitCode === null && worker.child.signalCode === null) {
        worker.child.kill('SIGTERM');
        await worker.exited;
      }
    }
  });

  const startWorker = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-streams-worker-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const worker = runCli(['worker'], {
      ...env,
      SVC_DATABASE_URL: framework.url,
      SVC_REDIS_URL: TEST_REDIS_URL,
      SVC_REDIS_KEY_PREFIX: `${redisKeyPrefix}:`,
      SVC_DATA_DIR: dir,
      SVC_LOG_LEVEL: 'warn',
    });
    workers.push(worker);
    return worker;
  };
  const natsStream = async (name: string) => {
    await (await jetstreamManager(nc)).streams.add({ name, subjects: [`${name}.>`] });
    natsStreams.push(name);
    return name;
  };
  const queue = async (name: string) => {
    const ch = await amqpConnection.createChannel();
    await ch.assertQueue(name, { durable: true });
    await ch.close();
    queues.push(name);
    return name;
  };
  const create = async (body: Record<string, unknown>) => {
    const created = await api<Stream>(t, 'POST', '/api/v1/streams', {
      token: admin,
      body: { project_id: projectId, ...body },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  };
  const get = async (id: string) => (await api<Stream>(t, 'GET', `/api/v1/streams/${id}`, { token: admin })).body;
  const runs = async (id: string) =>
    (await api<{ items: Run[] }>(t, 'GET', `/api/v1/streams/${id}/runs`, { token: admin })).body.items;
  const deadLetters = async (id: string) =>
    (await api<{ items: DeadLetter[] }>(t, 'GET', `/api/v1/streams/${id}/dead-letters`, { token: admin })).body.items;
  const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(200);
    }
  };
  const count = async (url: string, table: string) =>
    Number((await query(url, `select count(*)::int as n from ${table}`).catch(() => ({ rows: [{ n: 0 }] }))).rows[0].n);
  /** The warehouse table of the project's schema `streams`. */
  const warehouseTable = async (name: string) => {
    const { rows } = await query(
      warehouseUrl,
      `select quote_ident(table_schema) || '.' || quote_ident(table_name) as t from information_schema.tables where table_name = $1 and table_schema like '%streams'`,
      [name],
    );
    return rows[0]?.t as string | undefined;
  };

  it('answers 422 naming the field for a bad broker config and a stream the source cannot do', async () => {
    const badPort = await api<{ errors: Array<{ path: string }> }>(t, 'POST', '/api/v1/data-connectors', {
      token: admin,
      body: { project_id: projectId, name: 'bad nats', kind: 'nats', config: { host: '127.0.0.1', port: 'four' } },
    });
    expect(badPort.status).toBe(422);
    expect(badPort.body.errors.map((e) => e.path)).toContain('config.port');
    const noUser = await api<{ errors: Array<{ path: string }> }>(t, 'POST', '/api/v1/data-connectors', {
      token: admin,
      body: { project_id: projectId, name: 'bad rabbit', kind: 'rabbitmq', config: { host: '127.0.0.1' } },
    });
    expect(noUser.status).toBe(422);
    expect(noUser.body.errors.map((e) => e.path)).toContain('config.user');

    const refused = await api<{ errors: Array<{ path: string; message: string }> }>(t, 'POST', '/api/v1/streams', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'bad',
        source_connector_id: rabbitId,
        source: { name: 'q', start: 'new' },
        destination_connector_id: natsId,
        table: 'x',
        write_mode: 'upsert',
      },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e) => e.path).sort()).toEqual([
      'destination_connector_id',
      'key_columns',
      'source.start',
    ]);
    const badBatch = await api<{ errors?: unknown }>(t, 'POST', '/api/v1/streams', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'bad',
        source_connector_id: natsId,
        source: { name: 'q' },
        destination_connector_id: postgresId,
        table: 'x',
        batch: { max_rows: 0 },
      },
    });
    expect(badBatch.status).toBe(422);
    expect(JSON.stringify(badBatch.body)).toMatch(/max_rows/);

    // Dead letters back to the broker: a topic the stream itself reads, or a filter, is refused.
    const mqttDead = (target: string) =>
      api<{ errors: Array<{ path: string; message: string }> }>(t, 'POST', '/api/v1/streams', {
        token: admin,
        body: {
          project_id: projectId,
          name: `dead ${target}`,
          source_connector_id: mqttId,
          source: { name: 'plant/+/sensors' },
          destination_connector_id: postgresId,
          table: 'x',
          dead_letter: { kind: 'broker', target },
        },
      });
    for (const target of ['plant/a/sensors', 'plant/#']) {
      const loop = await mqttDead(target);
      expect(loop.status).toBe(422);
      expect(loop.body.errors.map((e) => e.path)).toEqual(['dead_letter.target']);
    }
    expect((await mqttDead('plant/dead')).status).toBe(201);
  });

  it(
    'NATS JetStream into the warehouse: every message once, a poison message and a type conflict dead-lettered after max_deliveries, the run counted',
    { timeout: 120_000 },
    async () => {
      const name = await natsStream(`svc_orders_${suffix}`);
      const js = jetstream(nc);
      for (let i = 1; i <= 200; i++) await js.publish(`${name}.new`, JSON.stringify({ id: i, total: i * 2.5 }));
      await js.publish(`${name}.new`, '{"id": 201, ');
      await js.publish(`${name}.new`, JSON.stringify({ id: 202, total: 'lots' }));
      await js.publish(`${name}.new`, JSON.stringify({ id: 203, total: 1.25, coupon: 'SPRING' }));
      const stream = await create({
        name: 'orders',
        source_connector_id: natsId,
        source: { name, filter: `${name}.new` },
        destination_connector_id: warehouseId,
        table: 'orders',
        batch: { max_rows: 50, max_latency_ms: 100 },
        max_deliveries: 2,
        start: true,
      });
      expect(stream.status).toBe('starting');
      await startWorker();
      await until('201 rows and 2 dead letters', async () => {
        const table = await warehouseTable('orders');
        return !!table && (await count(warehouseUrl, table)) === 201 && (await deadLetters(stream.id)).length === 2;
      });
      const table = (await warehouseTable('orders'))!;
      const ids = await query(warehouseUrl, `select count(distinct id)::int as n, sum(id)::int as s from ${table}`);
      expect(ids.rows[0]).toEqual({ n: 201, s: (200 * 201) / 2 + 203 });
      const coupon = await query(warehouseUrl, `select coupon from ${table} where id = 203`);
      expect(coupon.rows[0].coupon).toBe('SPRING');
      const dead = await deadLetters(stream.id);
      expect(dead.map((d) => d.reason).sort()).toEqual([
        expect.stringMatching(/^not valid JSON/),
        'type conflict: field "total" is a string, the column is float64',
      ]);
      expect(dead.every((d) => d.deliveries === 2)).toBe(true);
      expect((await get(stream.id)).status).toBe('running');
      await until('the run counters', async () => {
        const [run] = await runs(stream.id);
        return run?.messages_received !== undefined && run.rows_written === 201 && run.dead_lettered === 2;
      });
      const [run] = await runs(stream.id);
      expect(run).toMatchObject({ status: 'running', rows_written: 201, dead_lettered: 2 });
      expect(run!.bytes).toBeGreaterThan(200 * 20);
      // The API process shows the stream's state and latency on /metrics, whichever worker consumes it.
      const metrics = await (await fetch(`${t.url}/metrics`)).text();
      expect(metrics).toMatch(new RegExp(`^svc_stream_running\\{stream="${stream.id}"\\} 1$`, 'm'));
      expect(metrics).toMatch(new RegExp(`^svc_stream_latency_seconds\\{stream="${stream.id}"\\} [0-9.e+-]+$`, 'm'));

      // Retrying a dead letter after the cause is gone: its column became float64, so it fails again
      // with the reason kept; the broken JSON one stays too.
      const conflict = dead.find((d) => /conflict/.test(d.reason))!;
      const retried = await api<DeadLetter>(
        t,
        'POST',
        `/api/v1/streams/${stream.id}/dead-letters/${conflict.id}/retry`,
        { token: admin },
      );
      expect(retried.status).toBe(200);
      await until('the retry to be tried', async () =>
        (await deadLetters(stream.id)).some((d) => d.id === conflict.id && /^retry: type conflict/.test(d.reason)),
      );

      const stopped = await api<Stream>(t, 'POST', `/api/v1/streams/${stream.id}/stop`, { token: admin });
      expect(stopped.body.desired_state).toBe('stopped');
      await until('stopped', async () => (await get(stream.id)).status === 'stopped');
      expect((await runs(stream.id))[0]!.status).toBe('stopped');
    },
  );

  it(
    'RabbitMQ into PostgreSQL: ack only after commit, a publisher retry (same message id) written once, a poison message dead-lettered to a queue',
    { timeout: 120_000 },
    async () => {
      const name = await queue(`svc_people_${suffix}`);
      const dlq = await queue(`svc_people_dead_${suffix}`);
      const ch = await amqpConnection.createChannel();
      for (let i = 1; i <= 300; i++)
        ch.sendToQueue(name, Buffer.from(JSON.stringify({ id: i, name: `p${i}` })), { messageId: `p${i}` });
      ch.sendToQueue(name, Buffer.from(JSON.stringify({ id: 300, name: 'p300' })), { messageId: 'p300' });
      ch.sendToQueue(name, Buffer.from('nope'), { messageId: 'poison' });
      const stream = await create({
        name: 'people',
        source_connector_id: rabbitId,
        source: { name },
        destination_connector_id: postgresId,
        table: 'people',
        max_deliveries: 3,
        dead_letter: { kind: 'broker', target: dlq },
        start: true,
      });
      await startWorker();
      await until('300 rows and the dead letter', async () => {
        return (await count(destination.url, 'people')) === 300 && (await deadLetters(stream.id)).length === 1;
      });
      const dead = await deadLetters(stream.id);
      expect(dead[0]).toMatchObject({ message_id: 'poison', deliveries: 3, payload: 'nope' });
      const distinct = await query(destination.url, 'select count(distinct _svc_message_id)::int as n from people');
      expect(distinct.rows[0].n).toBe(300);
      // Published to the dead-letter queue with the reason; nothing left in the source queue.
      let got: amqp.GetMessage | false = false;
      const deadline = Date.now() + 10_000;
      while (!(got = await ch.get(dlq, { noAck: true })) && Date.now() < deadline) await sleep(100);
      expect(got && got.content.toString()).toBe('nope');
      expect(got && String(got.properties.headers?.['x-svc-error'])).toMatch(/not valid JSON/);
      await until('the queue drained', async () => (await ch.checkQueue(name)).messageCount === 0);
      await ch.close();
      await api(t, 'POST', `/api/v1/streams/${stream.id}/stop`, { token: admin });
    },
  );

  it(
    'Redis Streams into PostgreSQL: a consumer group read with XREADGROUP, entries as JSON objects',
    { timeout: 120_000 },
    async () => {
      const key = `svc_events_${suffix}`;
      const redis = new Redis({ host: '127.0.0.1', port: 6379 });
      cleanups.push(async () => {
        await redis.del(key);
        redis.disconnect();
      });
      for (let i = 1; i <= 100; i++) await redis.xadd(key, '*', 'kind', 'click', 'n', String(i));
      const stream = await create({
        name: 'events',
        source_connector_id: redisId,
        source: { name: key },
        destination_connector_id: postgresId,
        table: 'events',
        start: true,
      });
      await startWorker();
      await until('100 rows', async () => (await count(destination.url, 'events')) === 100);
      const sum = await query(
        destination.url,
        "select sum(n::int)::int as s, count(distinct _svc_message_id)::int as d from events where kind = 'click'",
      );
      expect(sum.rows[0]).toEqual({ s: 5050, d: 100 });
      await until(
        'nothing pending',
        async () => ((await redis.xpending(key, `svc_${stream.id.replaceAll('-', '')}`)) as [number])[0] === 0,
      );
      await api(t, 'POST', `/api/v1/streams/${stream.id}/stop`, { token: admin });
    },
  );

  it(
    'MQTT into PostgreSQL: a persistent session at QoS 1, acknowledged after commit',
    { timeout: 120_000 },
    async () => {
      const topic = `svc/${suffix}/sensors`;
      const stream = await create({
        name: 'sensors',
        source_connector_id: mqttId,
        source: { name: `${topic}/+`, consumer: `svc-sensors-${suffix}` },
        destination_connector_id: postgresId,
        table: 'sensors',
        start: true,
      });
      await startWorker();
      await until('running', async () => (await get(stream.id)).status === 'running');
      const publisher = await mqtt.connectAsync({ host: '127.0.0.1', port: 1883, protocolVersion: 5 });
      for (let i = 1; i <= 60; i++)
        await publisher.publishAsync(`${topic}/t${i % 3}`, JSON.stringify({ sensor: `t${i % 3}`, value: i / 2 }), {
          qos: 1,
          properties: { userProperties: { message_id: `reading-${i}` } },
        });
      await publisher.endAsync();
      await until('60 rows', async () => (await count(destination.url, 'sensors')) === 60);
      const sum = await query(
        destination.url,
        'select sum(value)::float8 as s, count(distinct sensor)::int as n from sensors',
      );
      expect(sum.rows[0]).toEqual({ s: (60 * 61) / 4, n: 3 });
      await api(t, 'POST', `/api/v1/streams/${stream.id}/stop`, { token: admin });
    },
  );

  it(
    'transform steps on each message, a message they cannot apply to dead-lettered with why, pause and resume in the same run',
    { timeout: 120_000 },
    async () => {
      const badSteps = await api<{ errors: Array<{ path: string }> }>(t, 'POST', '/api/v1/streams', {
        token: admin,
        body: {
          project_id: projectId,
          name: 'bad steps',
          source_connector_id: natsId,
          source: { name: 'x' },
          destination_connector_id: postgresId,
          table: 'x',
          transforms: [{ type: 'filter' }],
        },
      });
      expect(badSteps.status).toBe(422);
      expect(badSteps.body.errors.map((e) => e.path)).toEqual(['transforms.0.expression']);

      const name = await natsStream(`svc_shaped_${suffix}`);
      const js = jetstream(nc);
      for (let n = 1; n <= 5; n++) await js.publish(`${name}.in`, JSON.stringify({ n, secret: 's', label: `l${n}` }));
      await js.publish(`${name}.in`, JSON.stringify({ label: 'no n' }));
      const stream = await create({
        name: 'shaped',
        source_connector_id: natsId,
        source: { name },
        destination_connector_id: postgresId,
        table: 'shaped',
        max_deliveries: 1,
        batch: { max_rows: 100, max_latency_ms: 100 },
        transforms: [
          { type: 'rename', columns: { n: 'number' } },
          { type: 'filter', expression: 'number > 2' },
          { type: 'derive', column: 'twice', expression: 'number * 2' },
          { type: 'drop', columns: ['secret'] },
        ],
        start: true,
      });
      await startWorker();
      await until('3 rows and a dead letter', async () => {
        return (await count(destination.url, 'shaped')) === 3 && (await deadLetters(stream.id)).length === 1;
      });
      const rows = await query(destination.url, 'select number, twice, label from shaped order by number');
      expect(rows.rows).toEqual([
        { number: '3', twice: '6', label: 'l3' },
        { number: '4', twice: '8', label: 'l4' },
        { number: '5', twice: '10', label: 'l5' },
      ]);
      const columns = await query(
        destination.url,
        "select column_name from information_schema.columns where table_name = 'shaped' and column_name in ('n', 'secret')",
      );
      expect(columns.rows).toEqual([]);
      expect((await deadLetters(stream.id))[0]!.reason).toMatch(/^transform step 0/);

      const paused = await api<Stream & { paused_at: string | null }>(t, 'POST', `/api/v1/streams/${stream.id}/pause`, {
        token: admin,
      });
      expect(paused.status).toBe(200);
      expect(paused.body.paused_at).not.toBeNull();
      await until('paused', async () => (await get(stream.id)).status === 'paused');
      for (let n = 6; n <= 8; n++) await js.publish(`${name}.in`, JSON.stringify({ n, secret: 's', label: `l${n}` }));
      await sleep(2000);
      expect(await count(destination.url, 'shaped')).toBe(3);
      expect((await get(stream.id)).status).toBe('paused');

      await api(t, 'POST', `/api/v1/streams/${stream.id}/start`, { token: admin });
      await until('6 rows after the resume', async () => (await count(destination.url, 'shaped')) === 6);
      expect((await get(stream.id)).status).toBe('running');
      // The same consumer and the same run went on.
      expect((await runs(stream.id)).map((r) => r.status)).toEqual(['running']);
      await api(t, 'POST', `/api/v1/streams/${stream.id}/stop`, { token: admin });
    },
  );

  it(
    'a worker SIGKILLed in the middle of a steady publish: another takes the stream over, destination = source, no duplicate ids',
    { timeout: 180_000 },
    async () => {
      const name = await natsStream(`svc_steady_${suffix}`);
      const stream = await create({
        name: 'steady',
        source_connector_id: natsId,
        source: { name },
        destination_connector_id: postgresId,
        table: 'steady',
        batch: { max_rows: 200, max_latency_ms: 50 },
        start: true,
      });
      const first = await startWorker();
      await until('running', async () => (await get(stream.id)).status === 'running');
      const js = jetstream(nc);
      const total = 6000;
      let published = 0;
      const publishing = (async () => {
        // About 1,000 messages a second, for six seconds.
        while (published < total) {
          const batch = [];
          for (let i = 0; i < 50 && published < total; i++) {
            published += 1;
            batch.push(js.publish(`${name}.tick`, JSON.stringify({ seq: published, payload: 'x'.repeat(40) })));
          }
          await Promise.all(batch);
          await sleep(50);
        }
      })();
      await until('some rows written', async () => (await count(destination.url, 'steady')) > 1000);
      first.child.kill('SIGKILL');
      await first.exited;
      const atKill = await count(destination.url, 'steady');
      expect(atKill).toBeLessThan(total);
      await startWorker();
      await publishing;
      await until('every message written', async () => (await count(destination.url, 'steady')) >= total, 90_000);
      // Redeliveries of what the dead worker had in flight have had their ack wait to arrive.
      await sleep(4000);
      const summary = await query(
        destination.url,
        'select count(*)::int as n, count(distinct seq)::int as d, sum(seq)::bigint as s, count(distinct _svc_message_id)::int as m from steady',
      );
      expect(summary.rows[0]).toEqual({ n: total, d: total, s: String((total * (total + 1)) / 2), m: total });
      const all = await runs(stream.id);
      expect(all.map((r) => r.status)).toEqual(['running', 'interrupted']);
      expect(all[0]!.worker).not.toBe(all[1]!.worker);
      await api(t, 'POST', `/api/v1/streams/${stream.id}/stop`, { token: admin });
    },
  );

  it(
    'streams the live status over SSE: ids, Last-Event-ID resume, heartbeats, 401 for a personal token, closed by logout',
    { timeout: 120_000 },
    async () => {
      const name = await natsStream(`svc_live_${suffix}`);
      const stream = await create({
        name: 'live',
        source_connector_id: natsId,
        source: { name },
        destination_connector_id: postgresId,
        table: 'live',
      });
      const url = `${t.url}/api/v1/streams/${stream.id}/runs/stream`;
      const session = await adminLogin(t);
      const events: Array<{ id: string; status: string; rows: number | null }> = [];
      const source = new EventSource(`${url}?token=${encodeURIComponent(session.accessToken)}`);
      const ended: string[] = [];
      source.addEventListener('status', (event) => {
        const data = JSON.parse(event.data) as { stream: Stream; run: Run | null };
        events.push({ id: event.lastEventId, status: data.stream.status, rows: data.run?.rows_written ?? null });
      });
      source.addEventListener('end', (event) => ended.push((JSON.parse(event.data) as { reason: string }).reason));
      await until('the first event', async () => events.length > 0, 10_000);
      expect(events[0]).toMatchObject({ status: 'stopped', rows: null });

      await api(t, 'POST', `/api/v1/streams/${stream.id}/start`, { token: admin });
      await startWorker();
      const js = jetstream(nc);
      for (let i = 1; i <= 20; i++) await js.publish(`${name}.x`, JSON.stringify({ i }));
      await until('20 rows seen live', async () => events.some((e) => e.rows === 20), 60_000);
      expect(events.map((e) => e.status)).toEqual(expect.arrayContaining(['starting', 'running']));
      const ids = events.map((e) => Number(e.id));
      expect(ids).toEqual([...new Set(ids)].sort((a, b) => a - b));

      // Resume from the last id seen: nothing is sent again until something changes.
      await sleep(1500);
      const last = events.at(-1)!.id;
      const resumed = await fetch(url + `?token=${encodeURIComponent(admin)}`, { headers: { 'last-event-id': last } });
      expect(resumed.status).toBe(200);
      const reader = resumed.body!.getReader();
      let text = '';
      const readUntil = Date.now() + 2500;
      while ((text.match(/heartbeat/g) ?? []).length < 2 && Date.now() < readUntil) {
        const { value, done } = await reader.read();
        if (done) break;
        text += Buffer.from(value).toString();
      }
      await reader.cancel();
      expect(text).toMatch(/^: heartbeat$/m);
      // An idle running stream changes nothing: no event, only heartbeats.
      expect(text).not.toMatch(/event: status/);
      // From an older id: the current state at once.
      const older = await fetch(url + `?token=${encodeURIComponent(admin)}&last_event_id=${events[0]!.id}`);
      const olderReader = older.body!.getReader();
      let olderText = '';
      while (!/event: status/.test(olderText)) {
        const { value, done } = await olderReader.read();
        if (done) break;
        olderText += Buffer.from(value).toString();
      }
      await olderReader.cancel();
      expect(olderText).toMatch(/"rows_written":20/);

      const personal = await createApiToken(t, admin, { scope: 'read' });
      expect((await fetch(`${url}?token=${personal.token}`)).status).toBe(401);
      expect((await fetch(url)).status).toBe(401);

      expect((await api(t, 'POST', '/api/v1/auth/logout', { token: session.accessToken })).status).toBe(204);
      await until('the stream to end on logout', async () => ended.length > 0, 5_000);
      source.close();
      expect(ended).toEqual(['unauthenticated']);
      await api(t, 'POST', `/api/v1/streams/${stream.id}/stop`, { token: admin });
    },
  );
});
