/**
 * npm run bench:etl: a pipeline with five transforms over a 1,000,000-row table, PostgreSQL to
 * PostgreSQL, side by side with the plain copy (a sync run of the same table) in the same service and
 * the same run. Both timed from the API call that starts the execution to the moment it reads
 * `succeeded`. Also the same pipeline forced onto the in-process path (two query streams, which a
 * pushdown cannot unite), for the record. Then the same from a MariaDB table of the same shape: the
 * plain MariaDB-to-PostgreSQL sync (its baseline), the five steps staged in the destination, and the
 * five steps in process (two query streams). BENCH_ROWS (default 1,000,000); BENCH_MARIADB=0 skips
 * the MariaDB part.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { benchProject, databaseUrl, dropBenchDatabases, runSql, sh, startBenchService } from './support.js';

const ADMIN_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env['SVC_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const ROWS = Number(process.env['BENCH_ROWS'] ?? 1_000_000);
const MARIADB = process.env['BENCH_MARIADB'] !== '0';
const MYSQL_URL = new URL(process.env['SVC_TEST_MYSQL_URL'] ?? 'mysql://root@127.0.0.1:3306/test');
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
    const row = (label: string, rate: number, base = copy) =>
      `| ${label} | ${Math.round(rate).toLocaleString('en')} | ${((rate / base) * 100).toFixed(0)}% |`;
    const lines = [
      `machine: ${os.cpus().length} cores, node ${process.version}; ${ROWS.toLocaleString('en')} rows (int, text, numeric, timestamptz, jsonb); steps: filter, derive, flatten, rename, cast`,
      '| case | rows/s | vs plain copy |',
      '|---|---:|---:|',
      row('plain copy: sync run, PostgreSQL to PostgreSQL (baseline)', copy),
      row('pipeline, five steps, pushed down into the source', withSteps),
      row('pipeline, five steps, in process (two streams)', stepsInProcess),
    ];

    if (MARIADB) {
      const mariadb = `mariadb -h ${MYSQL_URL.hostname} -P ${MYSQL_URL.port || 3306} -u ${decodeURIComponent(MYSQL_URL.username)}`;
      const mysqlDatabase = `svc_bench_etl_${stamp}`;
      await sh(
        `${mariadb} -e "create database ${mysqlDatabase}; use ${mysqlDatabase}; ` +
          `create table t (id int primary key, name text, amount decimal(12,2), ts datetime(6), doc json); ` +
          `insert into t select seq, concat('name ', seq), (seq % 100000) / 100.0, timestamp '2024-01-01 00:00:00' + interval seq second, ` +
          `json_object('g', seq, 'tag', concat('x', seq % 10)) from seq_1_to_${ROWS}; ` +
          // The same rows as two tables: two streams, which only the in-process path unites.
          `create table t_low like t; insert into t_low select * from t where id <= ${Math.floor(ROWS / 2)}; ` +
          `create table t_high like t; insert into t_high select * from t where id > ${Math.floor(ROWS / 2)};"`,
      );
      try {
        const mysqlSource = (
          await call('POST', '/api/v1/data-connectors', {
            project_id: project,
            name: 'mariadb',
            kind: 'mysql',
            config: {
              host: MYSQL_URL.hostname,
              port: Number(MYSQL_URL.port || 3306),
              database: mysqlDatabase,
              user: decodeURIComponent(MYSQL_URL.username),
              password: decodeURIComponent(MYSQL_URL.password),
            },
          })
        )['id'];
        const staged = await pipeline(
          'five steps from mariadb',
          [{ connector_id: mysqlSource, dataset: 't' }],
          't_m_pipe',
        );
        const mysqlInProcess = await pipeline(
          'five steps from mariadb in process',
          [
            { connector_id: mysqlSource, dataset: 't_low' },
            { connector_id: mysqlSource, dataset: 't_high' },
          ],
          't_m_in_process',
        );
        const mysqlCopy = await timed('t_m_copy', () =>
          call('POST', '/api/v1/executions', {
            kind: 'sync',
            project_id: project,
            source_connector_id: mysqlSource,
            destination_connector_id: destination,
            streams: [{ name: 't', destination_name: 't_m_copy', mode: 'overwrite' }],
          }),
        );
        const mysqlStaged = await timed('t_m_pipe', () => call('POST', `/api/v1/etl/pipelines/${staged}/run`));
        const mysqlLocal = await timed('t_m_in_process', () =>
          call('POST', `/api/v1/etl/pipelines/${mysqlInProcess}/run`),
        );
        lines.push(
          '',
          '| MariaDB source | rows/s | vs the plain MariaDB copy |',
          '|---|---:|---:|',
          row('plain copy: sync run, MariaDB to PostgreSQL (baseline)', mysqlCopy, mysqlCopy),
          row('pipeline, five steps, staged in the destination', mysqlStaged, mysqlCopy),
          row('pipeline, five steps, in process (two streams)', mysqlLocal, mysqlCopy),
        );
      } finally {
        await sh(`${mariadb} -e "drop database if exists ${mysqlDatabase}"`);
      }
    }
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
} finally {
  await dropBenchDatabases(ADMIN_URL, names.framework, [names.source, names.destination]);
}
