/**
 * npm run bench:export: a table of BENCH_ROWS rows (int, text, numeric, timestamptz, jsonb) in the
 * project's warehouse schema exported to a CSV file in the project's folder by an export run
 * (`select * from t`, run as the project's role), side by side with
 * `psql -c "\copy (select * from t) to 'file.csv' csv header"` in the same run. The export is timed
 * from the API call that starts it to the moment its execution reads `succeeded`; psql from its start
 * to its exit. Also, for the record, the same table read through a postgres data connector (the
 * in-process path every non-warehouse source takes). The service's resident memory is sampled every
 * 50 ms during each run (flat memory: the peak should not grow with the row count).
 * Then the warehouse query to Parquet (rows/s and file size). BENCH_ROWS (default 200,000).
 */
import { readFile, rm, stat, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { databaseUrl, dropBenchDatabases, postgresConnectorConfig, runSql, sh, startBenchService } from './support.js';

const ADMIN_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env['SVC_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const ROWS = Number(process.env['BENCH_ROWS'] ?? 200_000);
const stamp = Date.now();
const framework = `svc_bench_fw_${stamp}`;
const warehouse = `${framework}_warehouse`;
const sql = (database: string, text: string, params: unknown[] = []) => runSql(ADMIN_URL, database, text, params);

/** Peak resident memory (MB) of a process while `work` runs. */
async function peakRss<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peak = 0;
  const sample = async () => {
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    peak = Math.max(peak, kb / 1024);
  };
  const timer = setInterval(() => void sample(), 50);
  try {
    const result = await work();
    await sample();
    return { result, peakMb: peak };
  } finally {
    clearInterval(timer);
  }
}

try {
  await sql('postgres', `create database ${framework}`);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-'));
  const service = await startBenchService({
    databaseUrl: databaseUrl(ADMIN_URL, framework),
    redisUrl: REDIS_URL,
    redisKeyPrefix: `${framework}:`,
    dataDir,
  });
  try {
    const call = service.call;
    const project = (await call('POST', '/api/v1/admin/projects', { name: 'bench' }))['id'] as string;
    // A warehouse connector makes the project's role and its schema `main`.
    const warehouseConnector = (
      await call('POST', '/api/v1/data-connectors', {
        project_id: project,
        name: 'warehouse',
        kind: 'warehouse',
        config: {},
      })
    )['id'] as string;
    await call('POST', `/api/v1/data-connectors/${warehouseConnector}/test`);
    const { rows: schemas } = await sql(
      warehouse,
      "select nspname, pg_get_userbyid(nspowner) as owner from pg_namespace where nspname like 'p%\\_main'",
    );
    const { nspname: schema, owner } = schemas[0] as { nspname: string; owner: string };
    await sql(
      warehouse,
      `create table ${schema}.t (id int primary key, name text, amount numeric(12,2), ts timestamptz, doc jsonb)`,
    );
    await sql(
      warehouse,
      `insert into ${schema}.t select g, 'name ' || g, (g % 100000) / 100.0, timestamptz '2024-01-01' + g * interval '1 second',
              jsonb_build_object('g', g, 'tag', 'x' || (g % 10)) from generate_series(1, ${ROWS}) g`,
    );
    await sql(warehouse, `alter table ${schema}.t owner to "${owner}"`);
    await sql(warehouse, `analyze ${schema}.t`);
    const postgresSource = (
      await call('POST', '/api/v1/data-connectors', {
        project_id: project,
        name: 'warehouse as postgres',
        kind: 'postgres',
        config: { ...postgresConnectorConfig(ADMIN_URL, warehouse), schema },
      })
    )['id'] as string;

    const projectFolder = path.join(dataDir, 'files', project);
    /** Rows per second of one export run, from the call that starts it to `succeeded`; checks the account. */
    const exportRun = async (name: string, source: Record<string, unknown>, format = 'csv') => {
      const id = (
        await call('POST', '/api/v1/exports', {
          project_id: project,
          name,
          source,
          destination: { kind: 'files', folder: 'bench', file_name: '{export}_{run_id}.{ext}' },
          format: { type: format },
        })
      )['id'] as string;
      const { result, peakMb } = await peakRss(service.child.pid!, async () => {
        const started = performance.now();
        const execution = await call('POST', `/api/v1/exports/${id}/run`);
        let current = execution;
        while (current['status'] !== 'succeeded') {
          if (['failed', 'cancelled', 'partially_failed'].includes(String(current['status'])))
            throw new Error(`export ${String(current['status'])}: ${JSON.stringify(current)}`);
          await new Promise((r) => setTimeout(r, 20));
          current = await call('GET', `/api/v1/executions/${String(execution['id'])}`);
        }
        return { seconds: (performance.now() - started) / 1000, runMs: Number(current['duration_ms']) };
      });
      const runs = (await call('GET', `/api/v1/exports/${id}/runs`))['items'] as Array<{
        delivered: number;
        files: Array<{ name: string; bytes: number }>;
      }>;
      if (runs[0]!.delivered !== ROWS) throw new Error(`${name} delivered ${runs[0]!.delivered} rows, not ${ROWS}`);
      const file = runs[0]!.files[0]!;
      await rm(path.join(projectFolder, file.name));
      return { rate: ROWS / result.seconds, seconds: result.seconds, runMs: result.runMs, bytes: file.bytes, peakMb };
    };

    const psqlFile = path.join(dataDir, 'psql.csv');
    const psqlStarted = performance.now();
    await sh(
      `psql "${databaseUrl(ADMIN_URL, warehouse)}" -q -c "\\copy (select * from ${schema}.t) to '${psqlFile}' csv header"`,
    );
    const psqlSeconds = (performance.now() - psqlStarted) / 1000;
    const psqlBytes = (await stat(psqlFile)).size;
    const psqlRate = ROWS / psqlSeconds;

    const idle = await peakRss(service.child.pid!, () => new Promise((r) => setTimeout(r, 300)));
    const warehouseRun = await exportRun('warehouse query to csv', {
      kind: 'warehouse_query',
      query: 'select * from t',
    });
    const connectorRun = await exportRun('connector dataset to csv', {
      kind: 'connector',
      connector_id: postgresSource,
      dataset: 't',
    });
    const parquetRun = await exportRun(
      'warehouse query to parquet',
      { kind: 'warehouse_query', query: 'select * from t' },
      'parquet',
    );
    const line = (label: string, rate: number, seconds: number, runMs: number | null, bytes: number, peak: string) =>
      `| ${label} | ${Math.round(rate).toLocaleString('en')} | ${((rate / psqlRate) * 100).toFixed(0)}% | ${seconds.toFixed(2)} s | ${
        runMs === null
          ? 'n/a'
          : `${Math.round(ROWS / (runMs / 1000)).toLocaleString('en')} (${((ROWS / (runMs / 1000) / psqlRate) * 100).toFixed(0)}%)`
      } | ${(bytes / 1e6).toFixed(1)} MB | ${peak} |`;
    process.stdout.write(
      [
        `machine: ${os.cpus().length} cores, node ${process.version}; ${ROWS.toLocaleString('en')} rows (int, text, numeric, timestamptz, jsonb); service idle RSS ${idle.peakMb.toFixed(0)} MB`,
        '| case | rows/s (call to succeeded) | vs psql \\copy | time | rows/s of the execution alone (started to finished) | file | service peak RSS |',
        '|---|---:|---:|---:|---:|---:|---:|',
        line('psql \\copy (select ...) to file csv header (baseline)', psqlRate, psqlSeconds, null, psqlBytes, 'n/a'),
        line(
          'export run: warehouse query to CSV (COPY as the project role)',
          warehouseRun.rate,
          warehouseRun.seconds,
          warehouseRun.runMs,
          warehouseRun.bytes,
          `${warehouseRun.peakMb.toFixed(0)} MB`,
        ),
        line(
          'export run: connector dataset to CSV (in process)',
          connectorRun.rate,
          connectorRun.seconds,
          connectorRun.runMs,
          connectorRun.bytes,
          `${connectorRun.peakMb.toFixed(0)} MB`,
        ),
        line(
          'export run: warehouse query to Parquet (in process)',
          parquetRun.rate,
          parquetRun.seconds,
          parquetRun.runMs,
          parquetRun.bytes,
          `${parquetRun.peakMb.toFixed(0)} MB`,
        ),
      ].join('\n') + '\n',
    );
  } finally {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
} finally {
  await dropBenchDatabases(ADMIN_URL, framework, []);
}
