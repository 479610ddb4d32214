/**
 * npm run bench:sync: copy a table (int, text, numeric, timestamptz, jsonb) PostgreSQL to PostgreSQL
 * through a full run (API call to succeeded execution), side by side with the raw baseline
 * `psql -c "\copy t to stdout" | psql -c "\copy t2 from stdin"` in the same run, and the peak memory
 * of the process that ran the worker for two table sizes (it must not grow with the table). MariaDB
 * and CSV sources each beside their own tools' baseline: `mariadb --quick -B -N | psql \copy` and
 * `psql \copy from` the file; and a MariaDB destination beside
 * `psql \copy to stdout | mariadb -e "load data local infile '/dev/stdin' ..."` (BENCH_MYSQL_DESTINATION=0 skips it).
 * BENCH_ROWS (default 1,000,000) and BENCH_ROWS_LARGE (default 5,000,000; 0 skips the memory check).
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  databaseUrl,
  dropBenchDatabases,
  postgresConnectorConfig,
  runSql,
  sh,
  shOut,
  startBenchService,
} from './support.js';

const ADMIN_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env['SVC_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const ROWS = Number(process.env['BENCH_ROWS'] ?? 1_000_000);
const ROWS_LARGE = Number(process.env['BENCH_ROWS_LARGE'] ?? 5_000_000);

const MYSQL_URL = process.env['SVC_TEST_MYSQL_URL'] ?? 'mysql://root@127.0.0.1:3306/test';
const stamp = Date.now();
const names = {
  framework: `svc_bench_fw_${stamp}`,
  source: `svc_bench_src_${stamp}`,
  destination: `svc_bench_dst_${stamp}`,
};
const urlOf = (database: string) => databaseUrl(ADMIN_URL, database);
const sql = (database: string, text: string, params: unknown[] = []) => runSql(ADMIN_URL, database, text, params);

async function fillSource(rows: number) {
  await sql(names.source, 'drop table if exists t');
  await sql(
    names.source,
    'create table t (id int primary key, name text, amount numeric(12,2), ts timestamptz, doc jsonb)',
  );
  await sql(
    names.source,
    `insert into t select g, 'name ' || g, (g % 100000) / 100.0, timestamptz '2024-01-01' + g * interval '1 second', jsonb_build_object('g', g, 'tag', 'x' || (g % 10)) from generate_series(1, ${rows}) g`,
  );
  await sql(names.source, 'analyze t');
}

async function baseline(rows: number): Promise<number> {
  await sql(names.destination, 'drop table if exists t2');
  await sql(names.destination, 'create table t2 (id int, name text, amount numeric(12,2), ts timestamptz, doc jsonb)');
  const started = performance.now();
  await sh(
    `psql "${urlOf(names.source)}" -qc "\\copy t to stdout" | psql "${urlOf(names.destination)}" -qc "\\copy t2 from stdin"`,
  );
  const seconds = (performance.now() - started) / 1000;
  const { rows: check } = await sql(names.destination, 'select count(*)::int as n from t2');
  if (check[0].n !== rows) throw new Error('baseline copied a wrong number of rows');
  return rows / seconds;
}

/** The database's own tools moving the same rows into a fresh table `table`: rows per second. */
async function toolsBaseline(rows: number, table: string, command: string): Promise<number> {
  await sql(names.destination, `drop table if exists ${table}`);
  await sql(
    names.destination,
    `create table ${table} (id int, name text, amount numeric(12,2), ts timestamptz, doc jsonb)`,
  );
  const started = performance.now();
  await sh(command);
  const seconds = (performance.now() - started) / 1000;
  const { rows: check } = await sql(names.destination, `select count(*)::int as n from ${table}`);
  if (check[0].n !== rows) throw new Error(`baseline ${table} copied a wrong number of rows`);
  await sql(names.destination, `drop table ${table}`);
  return rows / seconds;
}

const ratio = (value: number, base: number) => `${((value / base) * 100).toFixed(0)}%`;

interface SourceSpec {
  kind: 'postgres' | 'mysql' | 'files';
  config: Record<string, unknown>;
}

interface DestinationSpec {
  kind: 'mysql';
  config: Record<string, unknown>;
  /** Rows in the copy's table once the run succeeded. */
  count(): Promise<number>;
}

async function throughService(
  rows: number,
  sourceSpec?: SourceSpec,
  prepare?: (projectFolder: string) => Promise<void>,
  destinationSpec?: DestinationSpec,
): Promise<{ rowsPerSecond: number; peakMb: number }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-'));
  await sql('postgres', `drop database if exists ${names.framework} with (force)`);
  await sql('postgres', `create database ${names.framework}`);
  const service = await startBenchService({
    databaseUrl: urlOf(names.framework),
    redisUrl: REDIS_URL,
    redisKeyPrefix: `${names.framework}:`,
    dataDir,
  });
  try {
    const call = service.call;
    const project = (await call('POST', '/api/v1/admin/projects', { name: 'bench' }))['id'] as string;
    await prepare?.(path.join(dataDir, 'files', project));
    const spec = sourceSpec ?? { kind: 'postgres', config: postgresConnectorConfig(ADMIN_URL, names.source) };
    const source = (
      await call('POST', '/api/v1/data-connectors', {
        project_id: project,
        name: 'src',
        kind: spec.kind,
        config: spec.config,
      })
    )['id'];
    const destination = (
      await call('POST', '/api/v1/data-connectors', {
        project_id: project,
        name: 'dst',
        kind: destinationSpec?.kind ?? 'postgres',
        config: destinationSpec?.config ?? postgresConnectorConfig(ADMIN_URL, names.destination),
      })
    )['id'];
    await sql(names.destination, 'drop table if exists t_copy');
    const started = performance.now();
    const execution = await call('POST', '/api/v1/executions', {
      kind: 'sync',
      project_id: project,
      source_connector_id: source,
      destination_connector_id: destination,
      streams: [{ name: 't', destination_name: 't_copy', mode: 'overwrite' }],
    });
    let status = execution['status'];
    while (status !== 'succeeded') {
      if (status === 'failed' || status === 'cancelled') throw new Error(`run ${status}: ${JSON.stringify(execution)}`);
      await new Promise((r) => setTimeout(r, 100));
      status = (await call('GET', `/api/v1/executions/${String(execution['id'])}`))['status'];
    }
    const seconds = (performance.now() - started) / 1000;
    const peak = /VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${service.child.pid}/status`, 'utf8'));
    const copied = destinationSpec
      ? await destinationSpec.count()
      : (await sql(names.destination, 'select count(*)::int as n from t_copy')).rows[0].n;
    if (copied !== rows) throw new Error(`the run copied ${copied} rows, not ${rows}`);
    return { rowsPerSecond: rows / seconds, peakMb: peak ? Number(peak[1]) / 1024 : Number.NaN };
  } finally {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

try {
  for (const name of [names.source, names.destination]) await sql('postgres', `create database ${name}`);
  await fillSource(ROWS);
  const base = await baseline(ROWS);
  const run = await throughService(ROWS);
  const lines = [
    `machine: ${os.cpus().length} cores, node ${process.version}; ${ROWS.toLocaleString('en')} rows (int, text, numeric, timestamptz, jsonb)`,
    '| case | rows/s | vs baseline | peak RSS of the worker process |',
    '|---|---:|---:|---:|',
    `| psql \\copy to stdout | psql \\copy from stdin (baseline) | ${Math.round(base).toLocaleString('en')} | 100% | |`,
    `| svc sync run, PostgreSQL to PostgreSQL (API call to succeeded) | ${Math.round(run.rowsPerSecond).toLocaleString('en')} | ${ratio(run.rowsPerSecond, base)} | ${run.peakMb.toFixed(0)} MB |`,
  ];
  // MariaDB to PostgreSQL: the MySQL connector's bulk path (text protocol values written as COPY text).
  const mysqlUrl = new URL(MYSQL_URL);
  const mysqlDatabase = `svc_bench_${stamp}`;
  const mysqlRows = Math.min(ROWS, Number(process.env['BENCH_MYSQL_ROWS'] ?? ROWS));
  await sh(
    `mariadb -h ${mysqlUrl.hostname} -P ${mysqlUrl.port || 3306} -u ${mysqlUrl.username} -e "create database ${mysqlDatabase}; use ${mysqlDatabase}; ` +
      `create table t (id int primary key, name text, amount decimal(12,2), ts datetime(6), doc json); ` +
      `insert into t select seq, concat('name ', seq), (seq % 100000) / 100.0, timestamp '2024-01-01 00:00:00' + interval seq second, json_object('g', seq) from seq_1_to_${mysqlRows};"`,
  );
  try {
    const mysqlBase = await toolsBaseline(
      mysqlRows,
      't_mysql_base',
      `mariadb --quick -B -N -h ${mysqlUrl.hostname} -P ${mysqlUrl.port || 3306} -u ${mysqlUrl.username} -e "select id, name, amount, ts, doc from t" ${mysqlDatabase} | psql "${urlOf(names.destination)}" -qc "\\copy t_mysql_base from stdin"`,
    );
    lines.push(
      `| mariadb --quick -B -N into psql \\copy from stdin (MariaDB baseline), ${mysqlRows.toLocaleString('en')} rows | ${Math.round(mysqlBase).toLocaleString('en')} | 100% | |`,
    );
    const fromMysql = await throughService(mysqlRows, {
      kind: 'mysql',
      config: {
        host: mysqlUrl.hostname,
        port: Number(mysqlUrl.port || 3306),
        database: mysqlDatabase,
        user: decodeURIComponent(mysqlUrl.username),
        password: decodeURIComponent(mysqlUrl.password),
      },
    });
    lines.push(
      `| svc sync run, MariaDB to PostgreSQL, ${mysqlRows.toLocaleString('en')} rows | ${Math.round(fromMysql.rowsPerSecond).toLocaleString('en')} | ${ratio(fromMysql.rowsPerSecond, mysqlBase)} of the MariaDB baseline | ${fromMysql.peakMb.toFixed(0)} MB |`,
    );
  } finally {
    await sh(
      `mariadb -h ${mysqlUrl.hostname} -P ${mysqlUrl.port || 3306} -u ${mysqlUrl.username} -e "drop database if exists ${mysqlDatabase}"`,
    );
  }

  // PostgreSQL to MariaDB: LOAD DATA LOCAL INFILE from the run's own stream.
  if (process.env['BENCH_MYSQL_DESTINATION'] !== '0') {
    const target = `svc_bench_dst_${stamp}`;
    const mariadb = `mariadb -h ${mysqlUrl.hostname} -P ${mysqlUrl.port || 3306} -u ${decodeURIComponent(mysqlUrl.username)}`;
    const count = async (table: string) => {
      const { stdout } = await shOut(`${mariadb} -B -N -e "select count(*) from ${target}.${table}"`);
      return Number(stdout.trim());
    };
    await sh(`${mariadb} -e "create database ${target} character set utf8mb4"`);
    try {
      await sh(
        `${mariadb} -e "create table ${target}.t_base (id int, name longtext, amount decimal(12,2), ts datetime(6), doc json) default charset=utf8mb4 collate=utf8mb4_bin"`,
      );
      let started = performance.now();
      await sh(
        `psql "${urlOf(names.source)}" -qc "\\copy (select id, name, amount, ts at time zone 'UTC', doc from t) to stdout" | ` +
          `${mariadb} --local-infile=1 -e "load data local infile '/dev/stdin' into table ${target}.t_base character set utf8mb4"`,
      );
      const toMysqlBase = ROWS / ((performance.now() - started) / 1000);
      if ((await count('t_base')) !== ROWS) throw new Error('the MariaDB baseline copied a wrong number of rows');
      lines.push(
        `| psql \\copy to stdout into mariadb load data local infile (MariaDB destination baseline) | ${Math.round(toMysqlBase).toLocaleString('en')} | 100% | |`,
      );
      started = performance.now();
      const toMysql = await throughService(ROWS, undefined, undefined, {
        kind: 'mysql',
        config: {
          host: mysqlUrl.hostname,
          port: Number(mysqlUrl.port || 3306),
          database: target,
          user: decodeURIComponent(mysqlUrl.username),
          password: decodeURIComponent(mysqlUrl.password),
        },
        count: () => count('t_copy'),
      });
      lines.push(
        `| svc sync run, PostgreSQL to MariaDB, ${ROWS.toLocaleString('en')} rows | ${Math.round(toMysql.rowsPerSecond).toLocaleString('en')} | ${ratio(toMysql.rowsPerSecond, toMysqlBase)} of the MariaDB destination baseline | ${toMysql.peakMb.toFixed(0)} MB |`,
      );
    } finally {
      await sh(`${mariadb} -e "drop database if exists ${target}"`);
    }
  }

  // CSV to PostgreSQL: a file in the project's folder of the files root, read with type inference.
  const csvDir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-csv-'));
  let csvBase: number;
  try {
    const csvFile = path.join(csvDir, 't.csv');
    await sh(`psql "${urlOf(names.source)}" -qc "\\copy t to '${csvFile}' with (format csv, header)"`);
    csvBase = await toolsBaseline(
      ROWS,
      't_csv_base',
      `psql "${urlOf(names.destination)}" -qc "\\copy t_csv_base from '${csvFile}' with (format csv, header)"`,
    );
  } finally {
    await rm(csvDir, { recursive: true, force: true });
  }
  lines.push(`| psql \\copy from the CSV file (CSV baseline) | ${Math.round(csvBase).toLocaleString('en')} | 100% | |`);
  const fromCsv = await throughService(
    ROWS,
    { kind: 'files', config: { path: 'bench', format: 'csv' } },
    async (projectFolder) => {
      await mkdir(path.join(projectFolder, 'bench'), { recursive: true });
      await sh(
        `psql "${urlOf(names.source)}" -qc "\\copy t to '${path.join(projectFolder, 'bench', 't.csv')}' with (format csv, header)"`,
      );
    },
  );
  lines.push(
    `| svc sync run, CSV file to PostgreSQL, ${ROWS.toLocaleString('en')} rows | ${Math.round(fromCsv.rowsPerSecond).toLocaleString('en')} | ${ratio(fromCsv.rowsPerSecond, csvBase)} of the CSV baseline | ${fromCsv.peakMb.toFixed(0)} MB |`,
  );

  if (ROWS_LARGE > 0) {
    await fillSource(ROWS_LARGE);
    const large = await throughService(ROWS_LARGE);
    lines.push(
      `| svc sync run, ${ROWS_LARGE.toLocaleString('en')} rows | ${Math.round(large.rowsPerSecond).toLocaleString('en')} | | ${large.peakMb.toFixed(0)} MB (${(((large.peakMb - run.peakMb) / run.peakMb) * 100).toFixed(0)}% vs ${ROWS.toLocaleString('en')} rows) |`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await dropBenchDatabases(ADMIN_URL, names.framework, [names.source, names.destination]);
}
