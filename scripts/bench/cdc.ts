/**
 * npm run bench:cdc: end-to-end lag of a CDC table under a steady write load on a PostgreSQL source.
 * A writer commits a transaction every 10 ms (inserts and updates) at the target change rate; a
 * probe polls the destination every 10 ms for the highest id and takes, for every transaction, the
 * time from its COMMIT returning to its rows being visible in the destination. Side by side, in the
 * same run and the same way: PostgreSQL's own logical replication (a subscription) of the same table.
 * Then higher rates, to find the highest with p99 lag under 1 s.
 * BENCH_CDC_SECONDS (default 60) for the 5,000 changes/s run; BENCH_CDC_STEP_SECONDS (default 20) for
 * each higher rate; BENCH_CDC_RATES (default 10000,20000,40000) the higher rates, all tried when
 * BENCH_CDC_ALL_RATES=1 (else the ramp stops at the first rate missing p99 < 1 s).
 * At every rate it also samples the service's RSS (/proc, every 250 ms) and probes `GET /api/v1/me`
 * every 50 ms (p50/p99 of its latency), and at the end deletes the CDC table while the top rate is
 * being written, timing the DELETE.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { benchProject, databaseUrl, runSql, startBenchService, type BenchService } from './support.js';

const ADMIN_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env['SVC_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const SECONDS = Number(process.env['BENCH_CDC_SECONDS'] ?? 60);
const STEP_SECONDS = Number(process.env['BENCH_CDC_STEP_SECONDS'] ?? 20);
const RATES = (process.env['BENCH_CDC_RATES'] ?? '10000,20000,40000').split(',').map(Number);
const ALL_RATES = process.env['BENCH_CDC_ALL_RATES'] === '1';
const stamp = Date.now();
const names = {
  framework: `svc_bench_fw_${stamp}`,
  source: `svc_bench_src_${stamp}`,
  destination: `svc_bench_dst_${stamp}`,
  native: `svc_bench_nat_${stamp}`,
};
const urlOf = (database: string) => databaseUrl(ADMIN_URL, database);
const sql = (database: string, text: string, params: unknown[] = []) => runSql(ADMIN_URL, database, text, params);

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : Number.NaN;

interface LoadResult {
  rate: number;
  achieved: number;
  p50: number;
  p99: number;
  max: number;
  unseen: number;
  /** The machine's 1-minute load average at the end of the step. */
  load: number;
  /** Of the service process: highest RSS sampled during the step, MB. */
  rssMb?: number;
  /** GET /api/v1/me while the step ran. */
  api?: { p50: number; p99: number; max: number; count: number; failed: number };
}

/** Peak RSS (MB) of `pid` over the time until the returned stop() is called, sampled every 250 ms. */
function sampleRss(pid: number | undefined) {
  let peak = 0;
  const sample = async () => {
    if (!pid) return;
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    peak = Math.max(peak, kb / 1024);
  };
  void sample();
  const timer = setInterval(() => void sample(), 250);
  return async () => {
    clearInterval(timer);
    await sample();
    return peak;
  };
}

/** Latency of `GET /api/v1/me` every 50 ms (one at a time) until stop(); a request that fails counts apart. */
function probeApi(base: string, token: string) {
  const latencies: number[] = [];
  let failed = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const response = await fetch(`${base}/api/v1/me`, {
          headers: { authorization: `Bearer ${token}` },
          signal: AbortSignal.timeout(60_000),
        });
        await response.arrayBuffer();
        if (response.status === 200) latencies.push(performance.now() - started);
        else failed += 1;
      } catch {
        failed += 1;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return async () => {
    running = false;
    await loop;
    const sorted = [...latencies].sort((a, b) => a - b);
    return {
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? Number.NaN,
      count: sorted.length,
      failed,
    };
  };
}

/**
 * Writes `rate` changes per second for `seconds` into `table` of the source (half inserts, half
 * updates of earlier rows), and measures when each transaction's last insert shows up in `target`.
 */
async function load(
  table: string,
  targetDb: string,
  target: string,
  rate: number,
  seconds: number,
  firstId: number,
  watch?: { pid: number | undefined; base: string; token: string },
  during?: { afterMs: number; run(): Promise<void> },
): Promise<LoadResult & { nextId: number }> {
  const writer = new pg.Client({ connectionString: urlOf(names.source) });
  const probe = new pg.Client({ connectionString: urlOf(targetDb) });
  await writer.connect();
  await probe.connect();
  const perTick = Math.max(2, Math.round(rate / 100));
  const inserts = Math.ceil(perTick / 2);
  const updates = perTick - inserts;
  const committed: Array<{ id: number; at: number }> = [];
  const lags: number[] = [];
  let probing = true;
  let next = 0;
  const prober = (async () => {
    while (probing || next < committed.length) {
      const { rows } = await probe.query(`select coalesce(max(id), 0)::bigint as id from ${target} where id >= $1`, [
        firstId,
      ]);
      const seen = Number(rows[0].id);
      const now = performance.now();
      while (next < committed.length && committed[next]!.id <= seen) {
        lags.push(now - committed[next]!.at);
        next += 1;
      }
      if (!probing && next < committed.length && now - committed.at(-1)!.at > 30_000) break;
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const stopRss = watch ? sampleRss(watch.pid) : undefined;
  const stopApi = watch ? probeApi(watch.base, watch.token) : undefined;
  let id = firstId;
  let changes = 0;
  let hook: Promise<void> | undefined;
  const started = performance.now();
  for (let tick = 0; performance.now() - started < seconds * 1000; tick++) {
    if (during && !hook && performance.now() - started >= during.afterMs) hook = during.run();
    const due = started + tick * 10;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const from = id;
    id += inserts;
    await writer.query('begin');
    await writer.query(
      `insert into ${table} (id, v, payload) select g, g % 1000, md5(g::text) from generate_series($1::bigint, $2::bigint) g`,
      [from, id - 1],
    );
    if (updates > 0 && from - firstId > updates)
      await writer.query(`update ${table} set v = v + 1 where id >= $1 and id < $2`, [from - updates, from]);
    await writer.query('commit');
    committed.push({ id: id - 1, at: performance.now() });
    changes += perTick;
  }
  const elapsed = (performance.now() - started) / 1000;
  probing = false;
  await prober;
  await hook;
  await writer.end();
  await probe.end();
  const rssMb = await stopRss?.();
  const api = await stopApi?.();
  // A transaction never seen counts as lag beyond the wait (30 s after the last commit), not as none.
  const sorted = [...lags, ...Array.from({ length: committed.length - lags.length }, () => Infinity)].sort(
    (a, b) => a - b,
  );
  return {
    load: os.loadavg()[0]!,
    ...(rssMb !== undefined ? { rssMb } : {}),
    ...(api ? { api } : {}),
    rate,
    achieved: changes / elapsed,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
    unseen: committed.length - lags.length,
    nextId: id,
  };
}

const ms = (n: number | undefined) =>
  n === undefined || Number.isNaN(n) ? '-' : n === Infinity ? '> 30 s' : `${Math.round(n)} ms`;
const row = (label: string, r: LoadResult) =>
  `| ${label} | ${r.rate.toLocaleString('en')} | ${Math.round(r.achieved).toLocaleString('en')} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.max)} | ${r.rssMb === undefined ? '-' : `${Math.round(r.rssMb)} MB`} | ${r.api ? `${ms(r.api.p50)} / ${ms(r.api.p99)} / ${ms(r.api.max)}${r.api.failed ? ` (${r.api.failed} failed)` : ''}` : '-'} | ${r.load.toFixed(1)} |${r.unseen ? ` ${r.unseen} never seen |` : ''}`;

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-'));
let service: BenchService | undefined;
try {
  for (const name of Object.values(names)) await sql('postgres', `create database ${name}`);
  for (const table of ['ticks', 'native_ticks']) {
    await sql(
      names.source,
      `create table ${table} (id bigint primary key, v int, payload text, at timestamptz default clock_timestamp())`,
    );
  }
  service = await startBenchService({
    databaseUrl: urlOf(names.framework),
    redisUrl: REDIS_URL,
    redisKeyPrefix: `${names.framework}:`,
    dataDir,
  });
  const call = service.call;
  const admin = new URL(ADMIN_URL);
  const token = service.token;
  const watch = { pid: service.child.pid, base: service.base, token };
  const { project, source, destination } = await benchProject(call, ADMIN_URL, names);
  const cdc = await call('POST', '/api/v1/cdc-tables', {
    project_id: project,
    name: 'ticks',
    source: { connector_id: source, table: 'ticks' },
    destination: { connector_id: destination, table: 'ticks' },
    mode: 'mirror',
  });
  for (let i = 0; (await call('GET', `/api/v1/cdc-tables/${String(cdc['id'])}`))['status'] !== 'streaming'; i++) {
    if (i > 600) throw new Error('the CDC table never started streaming');
    await new Promise((r) => setTimeout(r, 100));
  }

  // The baseline: PostgreSQL's own logical replication of the same kind of table, in the same cluster
  // (the slot is made beforehand: a subscription cannot create one on its own server).
  await sql(names.source, 'create publication bench_native for table native_ticks');
  const slot = `bench_native_${stamp}`;
  await sql(names.source, `select pg_create_logical_replication_slot($1, 'pgoutput')`, [slot]);
  await sql(names.native, 'create table native_ticks (id bigint primary key, v int, payload text, at timestamptz)');
  const connection = `dbname=${names.source} host=${admin.hostname} port=${admin.port || 5432} user=${decodeURIComponent(admin.username)}${admin.password ? ` password=${decodeURIComponent(admin.password)}` : ''}`;
  await sql(
    names.native,
    `create subscription bench_native connection '${connection}' publication bench_native with (create_slot = false, slot_name = '${slot}', copy_data = false)`,
  );
  await new Promise((r) => setTimeout(r, 2000));

  const lines = [
    `machine: ${os.cpus().length} cores, node ${process.version}; writer: one transaction every 10 ms (half inserts, half updates); lag = COMMIT returned -> row visible in the destination (10 ms polling)`,
    '| case | target changes/s | achieved | p50 lag | p99 lag | max lag | svc RSS (peak) | GET /api/v1/me p50 / p99 / max | load avg |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const native = await load('native_ticks', names.native, 'native_ticks', 5000, SECONDS, 1, watch);
  lines.push(row(`PostgreSQL logical replication (baseline), ${SECONDS} s`, native));
  process.stderr.write(`${lines.at(-1)}\n`);
  let nextId = 1;
  const main = await load('ticks', names.destination, 'ticks', 5000, SECONDS, nextId, watch);
  nextId = main.nextId;
  lines.push(row(`svc CDC table, mirror, ${SECONDS} s`, main));
  process.stderr.write(`${lines.at(-1)}\n`);
  let highest = main.p99 < 1000 ? 5000 : 0;
  let failedAt = highest ? 0 : 5000;
  for (const rate of RATES) {
    if (!ALL_RATES && failedAt) break;
    const step = await load('ticks', names.destination, 'ticks', rate, STEP_SECONDS, nextId, watch);
    nextId = step.nextId;
    lines.push(row(`svc CDC table, mirror, ${STEP_SECONDS} s`, step));
    process.stderr.write(`${lines.at(-1)}\n`);
    if (step.p99 < 1000 && step.achieved >= rate * 0.95 && !step.unseen && !failedAt) highest = rate;
    else failedAt ||= rate;
  }
  lines.push('', `highest rate tried with p99 lag under 1 s: ${highest.toLocaleString('en')} changes/s`);
  // Deleting the CDC table while the top rate is written (the reader saturated): how long the DELETE takes.
  const top = Math.max(...RATES);
  let deleteMs = Number.NaN;
  let deleteError = '';
  const during = {
    afterMs: 5_000,
    async run() {
      const started = performance.now();
      try {
        await call('DELETE', `/api/v1/cdc-tables/${String(cdc['id'])}`);
      } catch (error) {
        deleteError = (error as Error).message;
      }
      deleteMs = performance.now() - started;
    },
  };
  const deleting = await load('ticks', names.destination, 'ticks', top, 10, nextId, watch, during);
  lines.push(
    `DELETE /api/v1/cdc-tables/{id} while ${top.toLocaleString('en')} changes/s are written: ${Math.round(deleteMs)} ms${deleteError ? ` (failed: ${deleteError})` : ''}; service RSS peak ${Math.round(deleting.rssMb ?? 0)} MB, GET /api/v1/me p99 ${ms(deleting.api?.p99)}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await service?.stop();
  await rm(dataDir, { recursive: true, force: true });
  // Detach the subscription from its slot (dropping it would try to drop the slot over a connection to this very server).
  for (const statement of [
    'alter subscription bench_native disable',
    'alter subscription bench_native set (slot_name = none)',
    'drop subscription bench_native',
  ]) {
    await sql(names.native, statement).catch(() => undefined);
  }
  await new Promise((r) => setTimeout(r, 500));
  await sql(
    'postgres',
    `select pg_drop_replication_slot(slot_name) from pg_replication_slots where database = $1 and not active`,
    [names.source],
  ).catch(() => undefined);
  for (const name of Object.values(names))
    await sql('postgres', `drop database if exists ${name} with (force)`).catch(() => undefined);
}
