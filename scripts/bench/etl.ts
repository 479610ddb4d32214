/**
 * npm run bench:etl: a pipeline with five transforms over a 1,000,000-row table, PostgreSQL to
 * PostgreSQL, side by side with the plain copy (a sync run of the same table) in the same service and
 * the same run. Both timed from the API call that starts the execution to the moment it reads
 * `succeeded`. Also the same pipeline forced onto the in-process path (two query streams, which a
 * pushdown cannot unite), for the record. BENCH_ROWS (default 1,000,000).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { benchProject, databaseUrl, dropBenchDatabases, runSql, startBenchService } from './support.js';

const ADMIN_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env['SVC_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const ROWS = Number(process.env['BENCH_ROWS'] ?? 1_000_000);
const stamp = Date.now();
const names = {
  framework: `svc_bench_fw_${stamp}`,
  source: `svc_bench_src_${stamp}`,
  destination: `svc_bench_dst_${stamp}`,
};
const urlOf = (database: string) => databaseUrl(ADMIN_URL, database);
const sql = (database: string, text: string, params: unknown[] = []) => runSql(ADMIN_URL, database, text, params);

const FIVE_STEPS = [
  { type: 'filter', expression: 'amount >= 0 and id > 0' },
  { type: 'derive', column: 'name_upper', expression: "upper(concat(name, '/', id % 10))" },
  { type: 'flatten', column: 'doc', paths: ['g', 'tag'] },
  { type: 'rename', columns: { ts: 'placed_at' } },
  { type: 'cast', columns: { amount: 'float64' } },
];

try {
  for (const name of [names.source, names.destination, names.framework])
    await sql('postgres', `create database ${name}`);
  await sql(
    names.source,
    'create table t (id int primary key, name text, amount numeric(12,2), ts timestamptz, doc jsonb)',
  );
  await sql(
    names.source,
    `insert into t select g, 'name ' || g, (g % 100000) / 100.0, timestamptz '2024-01-01' + g * interval '1 second', jsonb_build_object('g', g, 'tag', 'x' || (g % 10)) from generate_series(1, ${ROWS}) g`,
  );
  await sql(names.source, 'analyze t');

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-'));
  const service = await startBenchService({
    databaseUrl: urlOf(names.framework),
    redisUrl: REDIS_URL,
    redisKeyPrefix: `${names.framework}:`,
    dataDir,
  });
  try {
    const call = service.call;
    const { project, source, destination } = await benchProject(call, ADMIN_URL, names);

    /** Rows per second of one run, from the call that starts it to `succeeded`; checks the row count. */
    const timed = async (table: string, start: () => Promise<Record<string, unknown>>) => {
      await sql(names.destination, `drop table if exists ${table}`);
      const started = performance.now();
      const execution = await start();
      let current = execution;
      while (current['status'] !== 'succeeded') {
        if (current['status'] === 'failed' || current['status'] === 'cancelled')
          throw new Error(`run ${String(current['status'])}: ${JSON.stringify(current)}`);
        await new Promise((r) => setTimeout(r, 100));
        current = await call('GET', `/api/v1/executions/${String(execution['id'])}`);
      }
      const seconds = (performance.now() - started) / 1000;
      const { rows } = await sql(names.destination, `select count(*)::int as n from ${table}`);
      if (rows[0].n !== ROWS) throw new Error(`${table} has ${rows[0].n} rows, not ${ROWS}`);
      return ROWS / seconds;
    };
    const pipeline = async (name: string, sources: unknown[], table: string) =>
      (
        await call('POST', '/api/v1/etl/pipelines', {
          project_id: project,
          name,
          sources,
          transforms: FIVE_STEPS,
          destination: { connector_id: destination, table, mode: 'overwrite' },
        })
      )['id'] as string;
    const pushed = await pipeline('five steps', [{ connector_id: source, dataset: 't' }], 't_pipeline');
    const half = Math.floor(ROWS / 2);
    const inProcess = await pipeline(
      'five steps in process',
      [
        { name: 'low', connector_id: source, query: `select * from t where id <= ${half}` },
        { name: 'high', connector_id: source, query: `select * from t where id > ${half}` },
      ],
      't_in_process',
    );

    const copy = await timed('t_copy', () =>
      call('POST', '/api/v1/executions', {
        kind: 'sync',
        project_id: project,
        source_connector_id: source,
        destination_connector_id: destination,
        streams: [{ name: 't', destination_name: 't_copy', mode: 'overwrite' }],
      }),
    );
    const withSteps = await timed('t_pipeline', () => call('POST', `/api/v1/etl/pipelines/${pushed}/run`));
    const stepsInProcess = await timed('t_in_process', () => call('POST', `/api/v1/etl/pipelines/${inProcess}/run`));
    const row = (label: string, rate: number) =>
      `| ${label} | ${Math.round(rate).toLocaleString('en')} | ${((rate / copy) * 100).toFixed(0)}% |`;
    process.stdout.write(
      [
        `machine: ${os.cpus().length} cores, node ${process.version}; ${ROWS.toLocaleString('en')} rows (int, text, numeric, timestamptz, jsonb); steps: filter, derive, flatten, rename, cast`,
        '| case | rows/s | vs plain copy |',
        '|---|---:|---:|',
        row('plain copy: sync run, PostgreSQL to PostgreSQL (baseline)', copy),
        row('pipeline, five steps, pushed down into the source', withSteps),
        row('pipeline, five steps, in process (two streams)', stepsInProcess),
      ].join('\n') + '\n',
    );
  } finally {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
} finally {
  await dropBenchDatabases(ADMIN_URL, names.framework, [names.source, names.destination]);
}
