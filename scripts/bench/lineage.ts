/**
 * The cost of recording lineage (part of npm run bench:governance): one pipeline (PostgreSQL to
 * PostgreSQL, derive + rename + cast, so column-level lineage is recorded) over a table of
 * BENCH_LINEAGE_ROWS rows (default 1,000,000), run by two services side by side in the same run: one
 * with lineage recording (the default) and one with SVC_LINEAGE_ENABLED=false, each on its own
 * framework database, in interleaved rounds (recording, not recording, ...; BENCH_ROUNDS, default 3),
 * medians. Timed from the API call that starts the run to the moment it reads `succeeded`. The
 * recording service's run is checked to have its OpenLineage events. Target: >= 90%.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  benchProject,
  databaseUrl,
  dropBenchDatabases,
  runSql,
  startBenchService,
  type BenchService,
} from './support.js';

const ADMIN_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env['SVC_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const ROWS = Number(process.env['BENCH_LINEAGE_ROWS'] ?? 1_000_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const stamp = Date.now();
const names = {
  on: `svc_bench_fw_lin_on_${stamp}`,
  off: `svc_bench_fw_lin_off_${stamp}`,
  source: `svc_bench_lin_src_${stamp}`,
  destination: `svc_bench_lin_dst_${stamp}`,
};
const sql = (database: string, text: string) => runSql(ADMIN_URL, database, text);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const STEPS = [
  { type: 'derive', column: 'label', expression: "concat(name, '/', id % 10)" },
  { type: 'rename', columns: { ts: 'placed_at' } },
  { type: 'cast', columns: { amount: 'float64' } },
];

const dirs: string[] = [];
const services: BenchService[] = [];
try {
  for (const name of Object.values(names)) await sql('postgres', `create database ${name}`);
  await sql(names.source, 'create table t (id int primary key, name text, amount numeric(12,2), ts timestamptz)');
  await sql(
    names.source,
    `insert into t select g, 'name ' || g, (g % 100000) / 100.0, timestamptz '2024-01-01' + g * interval '1 second' from generate_series(1, ${ROWS}) g`,
  );
  await sql(names.source, 'analyze t');

  /** A service (lineage on or off) with its pipeline into its own destination table. */
  const setUp = async (key: 'on' | 'off') => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-'));
    dirs.push(dataDir);
    const service = await startBenchService({
      databaseUrl: databaseUrl(ADMIN_URL, names[key]),
      redisUrl: REDIS_URL,
      redisKeyPrefix: `${names[key]}:`,
      dataDir,
      env: { SVC_LINEAGE_ENABLED: key === 'on' ? 'true' : 'false' },
    });
    services.push(service);
    const { call } = service;
    const { project, source, destination } = await benchProject(call, ADMIN_URL, names);
    const table = `t_lineage_${key}`;
    const pipeline = (
      await call('POST', '/api/v1/etl/pipelines', {
        project_id: project,
        name: `lineage ${key}`,
        sources: [{ connector_id: source, dataset: 't' }],
        transforms: STEPS,
        destination: { connector_id: destination, table, mode: 'overwrite' },
      })
    )['id'] as string;
    /** Rows per second of one run; checks the row count. */
    const run = async () => {
      const started = performance.now();
      const execution = await call('POST', `/api/v1/etl/pipelines/${pipeline}/run`);
      let current = execution;
      while (current['status'] !== 'succeeded') {
        if (current['status'] === 'failed' || current['status'] === 'cancelled')
          throw new Error(`run ${String(current['status'])}: ${JSON.stringify(current)}`);
        await new Promise((r) => setTimeout(r, 50));
        current = await call('GET', `/api/v1/executions/${String(execution['id'])}`);
      }
      const seconds = (performance.now() - started) / 1000;
      const { rows } = await sql(names.destination, `select count(*)::int as n from ${table}`);
      if (rows[0].n !== ROWS) throw new Error(`${table} has ${rows[0].n} rows, not ${ROWS}`);
      return { rate: ROWS / seconds, executionId: String(execution['id']) };
    };
    const events = async (executionId: string) =>
      (
        (await call('GET', `/api/v1/lineage/events?project_id=${project}&run_id=${executionId}`).catch(() => ({
          items: [],
        }))) as { items?: unknown[] }
      ).items?.length ?? 0;
    return { run, events };
  };

  const on = await setUp('on');
  const off = await setUp('off');
  const rates = { on: [] as number[], off: [] as number[] };
  let lastOn = '';
  let lastOff = '';
  for (let round = 0; round < ROUNDS; round++) {
    const a = await on.run();
    rates.on.push(a.rate);
    lastOn = a.executionId;
    const b = await off.run();
    rates.off.push(b.rate);
    lastOff = b.executionId;
  }
  const recorded = await on.events(lastOn);
  const notRecorded = await off.events(lastOff);
  const row = (label: string, values: number[]) =>
    `| ${label} | ${Math.round(median(values)).toLocaleString('en')} | ${values.map((v) => Math.round(v).toLocaleString('en')).join(', ')} | ${((median(values) / median(rates.off)) * 100).toFixed(0)}% |`;
  process.stdout.write(
    [
      `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), node ${process.version}; ${ROWS.toLocaleString('en')} rows (int, text, numeric, timestamptz); pipeline PostgreSQL to PostgreSQL, overwrite, steps: derive, rename, cast; ${ROUNDS} interleaved rounds, medians; lineage events of the last run: ${recorded} recorded, ${notRecorded} without recording`,
      '| case | rows/s (median) | rounds | vs no lineage |',
      '|---|---:|---|---:|',
      row('pipeline, SVC_LINEAGE_ENABLED=false (baseline)', rates.off),
      row('pipeline, lineage recorded (default)', rates.on),
    ].join('\n') + '\n',
  );
} finally {
  for (const service of services) await service.stop();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  await dropBenchDatabases(ADMIN_URL, names.on, [names.source, names.destination]);
  await dropBenchDatabases(ADMIN_URL, names.off, []);
}
