/**
 * npm run bench:streams: consuming a backlog of small JSON messages from a NATS JetStream stream and
 * from a RabbitMQ queue into PostgreSQL. For each broker, side by side in the same run: a minimal
 * consumer with the same client library that batches the messages into COPY and acknowledges after
 * commit (the baseline), then a svc stream (`svc start`, API and one worker) doing the same into a
 * postgres connector, with its ledger and schema checks. messages/s = backlog / time to all visible.
 * The worker's memory (RSS) is sampled every second. Then end-to-end latency: NATS messages published
 * at a steady rate while the stream runs, each one's time from publish to visible in the destination.
 * BENCH_STREAMS_MESSAGES (default 200,000) per backlog; BENCH_STREAMS_RATE (default 20,000/s) and
 * BENCH_STREAMS_SECONDS (default 10) for the latency run; BENCH_STREAMS_ONLY (a comma list of nats,
 * rabbitmq, latency) runs only those parts; BENCH_STREAMS_ROUNDS (default 3) rounds per broker, each
 * with backlogs of its own, baseline and svc in turn (the first of the two alternates), and the median.
 *
 * The svc figure is timed from the start of the stream's run (the worker claimed it: what the
 * baseline's clock also leaves out is connecting, not waiting for a claim) to its run's
 * `rows_written` reaching the backlog; the figure from the API call that creates the stream (the
 * claim poll of up to a second and the connectors' opening included) is shown beside it.
 */
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AckPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect as natsConnect, type NatsConnection } from '@nats-io/transport-node';
import amqp from 'amqplib';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';
import {
  databaseUrl,
  dropBenchDatabases,
  postgresConnectorConfig,
  runSql,
  startBenchService,
  type BenchService,
} from './support.js';

const ADMIN_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env['SVC_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const MESSAGES = Number(process.env['BENCH_STREAMS_MESSAGES'] ?? 200_000);
const RATE = Number(process.env['BENCH_STREAMS_RATE'] ?? 20_000);
const SECONDS = Number(process.env['BENCH_STREAMS_SECONDS'] ?? 10);
const BATCH = 1000;
const ROUNDS = Number(process.env['BENCH_STREAMS_ROUNDS'] ?? 3);
const ONLY = new Set((process.env['BENCH_STREAMS_ONLY'] ?? 'nats,rabbitmq,latency').split(',').map((s) => s.trim()));
const stamp = Date.now();
const names = { framework: `svc_bench_fw_${stamp}`, destination: `svc_bench_dst_${stamp}` };
const dst = databaseUrl(ADMIN_URL, names.destination);
const sql = (database: string, text: string, params: unknown[] = []) => runSql(ADMIN_URL, database, text, params);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const body = (i: number) => JSON.stringify({ id: i, kind: 'tick', value: i % 1000, at: '2026-11-24T08:00:00Z' });
const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : Number.NaN;

async function count(table: string): Promise<number> {
  const { rows } = await runSql(ADMIN_URL, names.destination, `select count(*)::int as n from ${table}`).catch(() => ({
    rows: [{ n: 0 }],
  }));
  return Number(rows[0].n);
}
async function waitForCount(table: string, n: number, timeoutMs = 600_000) {
  const deadline = Date.now() + timeoutMs;
  while ((await count(table)) < n) {
    if (Date.now() > deadline) throw new Error(`${table} never reached ${n} rows`);
    await sleep(100);
  }
}
async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** The baseline's write: one COPY of the batch, committed, then the caller acks. */
async function copyBatch(client: pg.Client, table: string, bodies: Buffer[]) {
  await client.query('begin');
  const stream = client.query(copyStreams.from(`copy ${table} (id, kind, value, at) from stdin`));
  const done = new Promise<void>((resolve, reject) => stream.on('finish', resolve).on('error', reject));
  const lines = bodies.map((b) => {
    const m = JSON.parse(b.toString()) as { id: number; kind: string; value: number; at: string };
    return `${m.id}\t${m.kind}\t${m.value}\t${m.at}\n`;
  });
  stream.end(lines.join(''));
  await done;
  await client.query('commit');
}

async function natsPublish(nc: NatsConnection, subject: string, from: number, to: number) {
  const js = jetstream(nc);
  for (let i = from; i <= to; i += 500) {
    const acks = [];
    for (let j = i; j < Math.min(i + 500, to + 1); j++) acks.push(js.publish(subject, body(j)));
    await Promise.all(acks);
  }
}

async function natsBaseline(nc: NatsConnection, stream: string, table: string): Promise<number> {
  const jsm = await jetstreamManager(nc);
  await jsm.consumers.add(stream, { durable_name: 'baseline', ack_policy: AckPolicy.Explicit });
  const consumer = await jetstream(nc).consumers.get(stream, 'baseline');
  const client = new pg.Client({ connectionString: dst });
  await client.connect();
  const started = performance.now();
  const messages = await consumer.consume({ max_messages: BATCH * 2 });
  let batch: Array<{ data: Uint8Array; ack(): void }> = [];
  let seen = 0;
  for await (const m of messages) {
    batch.push(m);
    seen += 1;
    if (batch.length >= BATCH || seen === MESSAGES) {
      await copyBatch(
        client,
        table,
        batch.map((b) => Buffer.from(b.data)),
      );
      for (const b of batch) b.ack();
      batch = [];
      if (seen === MESSAGES) break;
    }
  }
  await nc.flush();
  const seconds = (performance.now() - started) / 1000;
  await client.end();
  return MESSAGES / seconds;
}

async function rabbitBaseline(connection: amqp.ChannelModel, queue: string, table: string): Promise<number> {
  const channel = await connection.createChannel();
  await channel.prefetch(BATCH * 2);
  const client = new pg.Client({ connectionString: dst });
  await client.connect();
  const started = performance.now();
  let batch: amqp.ConsumeMessage[] = [];
  let seen = 0;
  let written = 0;
  let writing = Promise.resolve();
  await new Promise<void>((resolve, reject) => {
    const flush = () => {
      const taken = batch;
      batch = [];
      writing = writing
        .then(() =>
          copyBatch(
            client,
            table,
            taken.map((m) => m.content),
          ),
        )
        .then(() => {
          channel.ack(taken.at(-1)!, true);
          // Counted by what is written, not received: earlier batches may finish after the last arrived.
          written += taken.length;
          if (written === MESSAGES) resolve();
        }, reject);
    };
    void channel.consume(queue, (m) => {
      if (!m) return;
      batch.push(m);
      seen += 1;
      if (batch.length >= BATCH || seen === MESSAGES) flush();
    });
  });
  const seconds = (performance.now() - started) / 1000;
  await channel.close();
  await client.end();
  return MESSAGES / seconds;
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-'));
let service: BenchService | undefined;
const nc = await natsConnect({ servers: '127.0.0.1:4222' });
const rabbit = await amqp.connect('amqp://guest:guest@127.0.0.1:5672');
// Every NATS stream and RabbitMQ queue made, to delete at the end.
const natsStreams: string[] = [];
const queues: string[] = [];
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const fmt = (n: number) => Math.round(n).toLocaleString('en');
try {
  for (const name of Object.values(names)) await sql('postgres', `create database ${name}`);
  const jsm = await jetstreamManager(nc);
  const setup = await rabbit.createChannel();

  service = await startBenchService({
    databaseUrl: databaseUrl(ADMIN_URL, names.framework),
    redisUrl: REDIS_URL,
    redisKeyPrefix: `${names.framework}:`,
    dataDir,
  });
  const call = service.call;
  const pid = service.child.pid!;
  const project = (await call('POST', '/api/v1/admin/projects', { name: 'bench' }))['id'] as string;
  const connector = async (name: string, kind: string, config: Record<string, unknown>) =>
    (await call('POST', '/api/v1/data-connectors', { project_id: project, name, kind, config }))['id'] as string;
  const natsId = await connector('nats', 'nats', { host: '127.0.0.1', port: 4222 });
  const rabbitId = await connector('rabbit', 'rabbitmq', { host: '127.0.0.1', user: 'guest', password: 'guest' });
  const pgId = await connector('dst', 'postgres', postgresConnectorConfig(ADMIN_URL, names.destination));

  const lines = [
    `machine: ${os.cpus().length} cores, node ${process.version}; ${MESSAGES.toLocaleString('en')} messages per backlog (~90 bytes of JSON each); batches of ${BATCH}; ${ROUNDS} round(s) per broker, baseline and svc in turn (which goes first alternates)`,
    '| case | baseline messages/s | svc messages/s | svc / baseline | svc from the create call | worker RSS start / max / end |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  const rss: number[] = [];
  const runSvc = async (kind: 'nats' | 'rabbitmq', source: string, table: string) => {
    const samples: number[] = [await rssMb(pid)];
    const sampler = setInterval(() => void rssMb(pid).then((mb) => samples.push(mb)), 1000);
    const started = performance.now();
    const id = (
      await call('POST', '/api/v1/streams', {
        project_id: project,
        name: table,
        source_connector_id: kind === 'nats' ? natsId : rabbitId,
        source: { name: source },
        destination_connector_id: pgId,
        table,
        batch: { max_rows: BATCH, max_latency_ms: 200 },
        start: true,
      })
    )['id'] as string;
    // Done when its run has written them all (the framework database: no count(*) load on the destination).
    let runStarted = 0;
    for (;;) {
      const runs = (await call('GET', `/api/v1/streams/${id}/runs`))['items'] as Array<{
        rows_written: number;
        started_at: string;
      }>;
      if ((runs[0]?.rows_written ?? 0) >= MESSAGES) {
        runStarted = Date.parse(runs[0]!.started_at);
        break;
      }
      await sleep(100);
    }
    const fromCreate = MESSAGES / ((performance.now() - started) / 1000);
    const rate = MESSAGES / ((Date.now() - runStarted) / 1000);
    clearInterval(sampler);
    samples.push(await rssMb(pid));
    if ((await count(table)) !== MESSAGES) throw new Error(`${table} does not have exactly ${MESSAGES} rows`);
    // The stream is done with: stopped, so that the next round's stream is the only one consuming.
    await call('POST', `/api/v1/streams/${id}/stop`);
    rss.push(...samples);
    return { rate, fromCreate, samples };
  };
  const rounds = async (
    label: string,
    kind: 'nats' | 'rabbitmq',
    prepare: (round: number) => Promise<{ base: string; svc: string }>,
    baseline: (source: string, table: string) => Promise<number>,
  ) => {
    const results: { base: number; svc: number; fromCreate: number }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      process.stderr.write(`${label}, round ${round}: publishing...\n`);
      const { base, svc } = await prepare(round);
      const baseTable = `${kind}_baseline_${round}`;
      await sql(names.destination, `create table ${baseTable} (id bigint, kind text, value bigint, at timestamptz)`);
      const runBase = () => baseline(base, baseTable);
      const runOurs = () => runSvc(kind, svc, `${kind}_svc_${round}`);
      let b: number;
      let o: Awaited<ReturnType<typeof runOurs>>;
      if (round % 2 === 1) {
        b = await runBase();
        o = await runOurs();
      } else {
        o = await runOurs();
        b = await runBase();
      }
      results.push({ base: b, svc: o.rate, fromCreate: o.fromCreate });
      lines.push(
        `| ${label}, round ${round} | ${fmt(b)} | ${fmt(o.rate)} | ${Math.round((o.rate / b) * 100)}% | ${fmt(o.fromCreate)} (${Math.round((o.fromCreate / b) * 100)}%) | ${Math.round(o.samples[0]!)} / ${Math.round(Math.max(...o.samples))} / ${Math.round(o.samples.at(-1)!)} MB |`,
      );
    }
    if (ROUNDS > 1)
      lines.push(
        `| **${label}, median of ${ROUNDS} rounds** | ${fmt(median(results.map((r) => r.base)))} | ${fmt(median(results.map((r) => r.svc)))} | **${Math.round(median(results.map((r) => r.svc / r.base)) * 100)}%** | ${Math.round(median(results.map((r) => r.fromCreate / r.base)) * 100)}% | |`,
      );
  };

  // NATS JetStream.
  if (ONLY.has('nats'))
    await rounds(
      'NATS JetStream',
      'nats',
      async (round) => {
        const [base, svc] = [`bench_base_${stamp}_${round}`, `bench_svc_${stamp}_${round}`];
        for (const name of [base, svc]) {
          natsStreams.push(name);
          await jsm.streams.add({ name, subjects: [`${name}.>`] });
          await natsPublish(nc, `${name}.t`, 1, MESSAGES);
        }
        return { base, svc };
      },
      (stream, table) => natsBaseline(nc, stream, table),
    );

  // RabbitMQ.
  if (ONLY.has('rabbitmq')) {
    const publisher = await rabbit.createConfirmChannel();
    await rounds(
      'RabbitMQ',
      'rabbitmq',
      async (round) => {
        const [base, svc] = [`bench_base_${stamp}_${round}`, `bench_svc_${stamp}_${round}`];
        for (const queue of [base, svc]) {
          queues.push(queue);
          await setup.assertQueue(queue, { durable: true });
          for (let i = 1; i <= MESSAGES; i++) {
            if (!publisher.sendToQueue(queue, Buffer.from(body(i)), { messageId: `m${i}`, persistent: false }))
              await new Promise((r) => publisher.once('drain', r));
            if (i % 5000 === 0) await publisher.waitForConfirms();
          }
          await publisher.waitForConfirms();
        }
        return { base, svc };
      },
      (queue, table) => rabbitBaseline(rabbit, queue, table),
    );
  }
  if (rss.length)
    lines.push(
      '',
      `worker RSS over all svc runs: ${Math.round(Math.min(...rss))} to ${Math.round(Math.max(...rss))} MB (sampled every second)`,
    );

  // Latency: a steady publish into a running stream; publish time travels in the message.
  if (ONLY.has('latency')) {
    const latStream = `bench_lat_${stamp}`;
    natsStreams.push(latStream);
    await jsm.streams.add({ name: latStream, subjects: [`${latStream}.>`] });
    // Made beforehand with an index on id, so the probe's max(id) stays cheap; svc writes into it as it is.
    await sql(
      names.destination,
      'create table latency (_svc_message_id text, _svc_received_at timestamptz, id bigint, kind text, value bigint, at text)',
    );
    await sql(names.destination, 'create index on latency (id)');
    await call('POST', '/api/v1/streams', {
      project_id: project,
      name: 'latency',
      source_connector_id: natsId,
      source: { name: latStream },
      destination_connector_id: pgId,
      table: 'latency',
      batch: { max_rows: BATCH, max_latency_ms: 50 },
      start: true,
    });
    await natsPublish(nc, `${latStream}.t`, 0, 0);
    await waitForCount('latency', 1);
    const sent: number[] = [];
    const probe = new pg.Client({ connectionString: dst });
    await probe.connect();
    const lags: number[] = [];
    let probing = true;
    let next = 1;
    const prober = (async () => {
      while (probing || next < sent.length) {
        const { rows } = await probe.query('select coalesce(max(id), 0)::int as id from latency');
        const now = performance.now();
        while (next <= Number(rows[0].id) && next < sent.length) lags.push(now - sent[next++]!);
        if (!probing && now - sent.at(-1)! > 30_000) break;
        await sleep(10);
      }
    })();
    sent.push(0);
    const perTick = Math.round(RATE / 100);
    const start = performance.now();
    const pending: Promise<unknown>[] = [];
    for (let tick = 0; tick < SECONDS * 100; tick++) {
      for (let j = 0; j < perTick; j++) {
        const id = sent.length;
        sent.push(performance.now());
        // Core NATS publish: JetStream stores it; the publisher does not wait for each store acknowledgement.
        nc.publish(`${latStream}.t`, body(id));
      }
      if (tick % 10 === 9) pending.push(nc.flush());
      const due = start + (tick + 1) * 10;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
    }
    await Promise.all(pending);
    const achieved = (sent.length - 1) / ((performance.now() - start) / 1000);
    probing = false;
    await prober;
    await probe.end();
    const sorted = [...lags].sort((a, b) => a - b);
    lines.push(
      '',
      `latency, NATS JetStream, ${SECONDS} s at ${RATE.toLocaleString('en')} messages/s (achieved ${Math.round(achieved).toLocaleString('en')}/s), publish -> visible in PostgreSQL (10 ms polling): p50 ${Math.round(percentile(sorted, 50))} ms, p99 ${Math.round(percentile(sorted, 99))} ms, max ${Math.round(sorted.at(-1) ?? NaN)} ms${sent.length - 1 - lags.length ? `, ${sent.length - 1 - lags.length} never seen` : ''}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await service?.stop();
  const jsm = await jetstreamManager(nc);
  for (const name of natsStreams) await jsm.streams.delete(name).catch(() => undefined);
  const ch = await rabbit.createChannel();
  for (const queue of queues) await ch.deleteQueue(queue).catch(() => undefined);
  await rabbit.close();
  await nc.close();
  // The framework database's warehouse (made by the service) too.
  await dropBenchDatabases(ADMIN_URL, names.framework, [names.destination]).catch(() => undefined);
  await rm(dataDir, { recursive: true, force: true });
}
