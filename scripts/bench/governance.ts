/**
 * npm run bench:governance (the retention part): a retention sweep of BENCH_ROWS (default 1,000,000)
 * expired rows of a warehouse table (plus a tenth as many recent rows it must keep) by the built
 * service (`svc start`, batches of SVC_RETENTION_BATCH_ROWS, as the project's own role), while a
 * writer keeps inserting new rows and updating random expired ones; beside it, in the same run and
 * on an identical table, the baseline: one `DELETE ... WHERE ts < cutoff` statement with the same
 * writer. Reported: rows deleted per second, and the writer's p99 and max latency during each.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { projectSchemaName } from '../../apps/server/src/areas/connectivity/warehouse.js';
import { databaseUrl, dropBenchDatabases, runSql, startBenchService } from './support.js';

const ADMIN_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env['SVC_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const ROWS = Number(process.env['BENCH_ROWS'] ?? 1_000_000);
const stamp = Date.now();
const framework = `svc_bench_gov_${stamp}`;
const warehouse = `${framework}_warehouse`;

const print = (line: string) => process.stdout.write(`${line}\n`);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
};

/** Fills `table` with ROWS expired rows (40 to 70 days old) and ROWS/10 recent ones. */
async function fill(table: string) {
  await runSql(ADMIN_URL, warehouse, `truncate ${table} restart identity`);
  await runSql(
    ADMIN_URL,
    warehouse,
    `insert into ${table} (ts, payload) select now() - make_interval(days => 40 + g % 30), repeat('x', 60) from generate_series(1, ${ROWS}) g`,
  );
  await runSql(
    ADMIN_URL,
    warehouse,
    `insert into ${table} (ts, payload) select now() - make_interval(mins => g % 1000), repeat('y', 60) from generate_series(1, ${Math.floor(ROWS / 10)}) g`,
  );
  await runSql(ADMIN_URL, warehouse, `vacuum analyze ${table}`);
}

/** A writer that inserts a new row and updates a random expired one per step, until stopped; its step latencies. */
function startWriter(table: string) {
  const client = new pg.Client({ connectionString: databaseUrl(ADMIN_URL, warehouse) });
  const steps: Array<{ at: number; ms: number }> = [];
  let running = true;
  const done = (async () => {
    await client.connect();
    while (running) {
      const started = performance.now();
      await client.query(`insert into ${table} (ts, payload) values (now(), 'new')`);
      await client.query(`update ${table} set payload = 'touched' where id = $1`, [
        1 + Math.floor(Math.random() * ROWS),
      ]);
      steps.push({ at: started, ms: performance.now() - started });
    }
    await client.end();
  })();
  return {
    /** Stops it; the latencies of the steps that overlapped [from, to]. */
    async stop(from: number, to: number) {
      running = false;
      await done;
      return steps.filter((s) => s.at <= to && s.at + s.ms >= from).map((s) => s.ms);
    },
  };
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-'));
try {
  await runSql(ADMIN_URL, 'postgres', `create database ${framework}`);
  const service = await startBenchService({
    databaseUrl: databaseUrl(ADMIN_URL, framework),
    redisUrl: REDIS_URL,
    redisKeyPrefix: `${framework}:`,
    dataDir,
  });
  try {
    const { call } = service;
    const project = (await call('POST', '/api/v1/admin/projects', { name: 'bench' }))['id'] as string;
    // Naming a table that does not exist yet creates the project's role and schema (and is refused).
    await call('POST', '/api/v1/retention-policies', {
      project_id: project,
      name: 'probe',
      target: { kind: 'warehouse_table', table: 'events', timestamp_column: 'ts' },
      max_age: '30d',
    }).catch(() => undefined);
    const schema = projectSchemaName(project, 'main');
    const owner = (
      await runSql(
        ADMIN_URL,
        warehouse,
        'select pg_get_userbyid(nspowner) as owner from pg_namespace where nspname = $1',
        [schema],
      )
    ).rows[0].owner as string;
    const tables = { svc: `"${schema}".events`, baseline: `"${schema}".events_baseline` };
    for (const table of Object.values(tables)) {
      await runSql(
        ADMIN_URL,
        warehouse,
        `create table ${table} (id bigserial primary key, ts timestamptz not null, payload text)`,
      );
      await runSql(ADMIN_URL, warehouse, `create index on ${table} (ts)`);
      await runSql(ADMIN_URL, warehouse, `alter table ${table} owner to "${owner}"`);
    }

    // svc: one sweep through the API, as the project's role.
    await fill(tables.svc);
    const policy = (await call('POST', '/api/v1/retention-policies', {
      project_id: project,
      name: 'events',
      target: { kind: 'warehouse_table', table: 'events', timestamp_column: 'ts' },
      max_age: '30d',
    })) as { id: string };
    const preview = (await call('POST', `/api/v1/retention-policies/${policy.id}/preview`)) as { total: number };
    let writer = startWriter(tables.svc);
    await new Promise((r) => setTimeout(r, 1000));
    let started = performance.now();
    const sweep = (await call('POST', `/api/v1/retention-policies/${policy.id}/run`)) as { id: string };
    let finished: { status: string; total: number; batches: number; error: string | null } | undefined;
    for (;;) {
      const list = (await call('GET', `/api/v1/retention-policies/${policy.id}/sweeps`)) as {
        items: Array<{ id: string; status: string; total: number; batches: number; error: string | null }>;
      };
      finished = list.items.find((s) => s.id === sweep.id && ['succeeded', 'failed'].includes(s.status));
      if (finished) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const svcEnded = performance.now();
    const svcSeconds = (svcEnded - started) / 1000;
    let latencies = await writer.stop(started, svcEnded);
    if (finished.status !== 'succeeded') throw new Error(`the sweep failed: ${finished.error}`);
    const svc = {
      seconds: svcSeconds,
      rows: finished.total,
      batches: finished.batches,
      p99: percentile(latencies, 99),
      max: Math.max(...latencies),
      writes: latencies.length,
    };

    // Baseline: one DELETE statement on an identical table, the same writer.
    await fill(tables.baseline);
    writer = startWriter(tables.baseline);
    await new Promise((r) => setTimeout(r, 1000));
    started = performance.now();
    const deleted = await runSql(
      ADMIN_URL,
      warehouse,
      `delete from ${tables.baseline} where ts < now() - interval '30 days'`,
    );
    const baselineEnded = performance.now();
    const baselineSeconds = (baselineEnded - started) / 1000;
    latencies = await writer.stop(started, baselineEnded);
    const baseline = {
      seconds: baselineSeconds,
      rows: deleted.rowCount ?? 0,
      p99: percentile(latencies, 99),
      max: Math.max(...latencies),
      writes: latencies.length,
    };

    const ms = (v: number) => `${v.toFixed(1)} ms`;
    print(
      `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), node ${process.version}; ` +
        `${ROWS.toLocaleString('en')} expired rows + ${Math.floor(ROWS / 10).toLocaleString('en')} recent, index on ts; ` +
        `writer: insert + update of a random expired row per step, latencies of the steps during the delete; preview counted ${preview.total.toLocaleString('en')}`,
    );
    print('| case | rows deleted | seconds | rows/s | writer steps | writer p99 | writer max |');
    print('|---|---:|---:|---:|---:|---:|---:|');
    print(
      `| single DELETE ... WHERE ts < cutoff (baseline) | ${baseline.rows.toLocaleString('en')} | ${baseline.seconds.toFixed(1)} | ${Math.round(baseline.rows / baseline.seconds).toLocaleString('en')} | ${baseline.writes} | ${ms(baseline.p99)} | ${ms(baseline.max)} |`,
    );
    print(
      `| svc retention sweep (${svc.batches} batches) | ${svc.rows.toLocaleString('en')} | ${svc.seconds.toFixed(1)} | ${Math.round(svc.rows / svc.seconds).toLocaleString('en')} | ${svc.writes} | ${ms(svc.p99)} | ${ms(svc.max)} |`,
    );
    if (preview.total !== svc.rows) print(`preview (${preview.total}) and deleted (${svc.rows}) differ`);
  } finally {
    await service.stop();
  }
} finally {
  await dropBenchDatabases(ADMIN_URL, framework, []);
  await rm(dataDir, { recursive: true, force: true });
}
