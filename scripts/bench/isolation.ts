/**
 * npm run bench:isolation: what the tenant boundary costs a sync. The same 1,000,000-row table
 * (int, text, numeric, timestamptz, jsonb) is copied by full sync runs of one service, interleaved:
 *   - into the warehouse database as the service's own (superuser) login, through a `postgres`
 *     connector: how the warehouse wrote before each project had a role of its own;
 *   - into the same warehouse database through a `warehouse` connector, as the project's own role;
 *   - PostgreSQL to PostgreSQL with the source named by an address and by a host name, both checked
 *     by the egress policy (allowed by SVC_CONNECTOR_ALLOWED_HOSTS);
 * beside the raw `psql \copy | psql \copy` pipe. Each case runs BENCH_ROUNDS times (default 3); the
 * table shows the median. The egress check itself is timed on its own (it runs once per connection).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { databaseUrl, dropBenchDatabases, postgresConnectorConfig, runSql, sh, startBenchService } from './support.js';

const ADMIN_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env['SVC_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const ROWS = Number(process.env['BENCH_ROWS'] ?? 1_000_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const stamp = Date.now();
const names = {
  framework: `svc_bench_iso_${stamp}`,
  source: `svc_bench_iso_src_${stamp}`,
  destination: `svc_bench_iso_dst_${stamp}`,
};
const urlOf = (database: string) => databaseUrl(ADMIN_URL, database);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const sql = (database: string, text: string, params: unknown[] = []) => runSql(ADMIN_URL, database, text, params);

async function pipe(): Promise<number> {
  await sql(names.destination, 'drop table if exists t2');
  await sql(names.destination, 'create table t2 (id int, name text, amount numeric(12,2), ts timestamptz, doc jsonb)');
  const started = performance.now();
  await sh(
    `psql "${urlOf(names.source)}" -qc "\\copy t to stdout" | psql "${urlOf(names.destination)}" -qc "\\copy t2 from stdin"`,
  );
  return ROWS / ((performance.now() - started) / 1000);
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-'));
try {
  for (const name of [names.framework, names.source, names.destination])
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

  const service = await startBenchService({
    databaseUrl: urlOf(names.framework),
    redisUrl: REDIS_URL,
    redisKeyPrefix: `${names.framework}:`,
    dataDir,
  });
  try {
    const { call } = service;
    const project = (await call('POST', '/api/v1/admin/projects', { name: 'bench' }))['id'] as string;
    const connector = async (name: string, kind: string, config: Record<string, unknown>) =>
      (await call('POST', '/api/v1/data-connectors', { project_id: project, name, kind, config }))['id'] as string;
    const byAddress = await connector('source', 'postgres', postgresConnectorConfig(ADMIN_URL, names.source));
    const byName = await connector('source by name', 'postgres', {
      ...postgresConnectorConfig(ADMIN_URL, names.source),
      host: 'localhost',
    });
    const destination = await connector(
      'destination',
      'postgres',
      postgresConnectorConfig(ADMIN_URL, names.destination),
    );
    const warehouse = await connector('warehouse', 'warehouse', {});
    const asServiceLogin = await connector('warehouse as the service login', 'postgres', {
      ...postgresConnectorConfig(ADMIN_URL, `${names.framework}_warehouse`),
      schema: 'bench_service_login',
    });

    const sync = async (source: string, target: string): Promise<number> => {
      const started = performance.now();
      const execution = await call('POST', '/api/v1/executions', {
        kind: 'sync',
        project_id: project,
        source_connector_id: source,
        destination_connector_id: target,
        streams: [{ name: 't', destination_name: 't_copy', mode: 'overwrite' }],
      });
      let current = execution;
      while (current['status'] !== 'succeeded') {
        if (current['status'] === 'failed' || current['status'] === 'cancelled')
          throw new Error(`run ${String(current['status'])}: ${JSON.stringify(current)}`);
        await new Promise((r) => setTimeout(r, 50));
        current = await call('GET', `/api/v1/executions/${String(execution['id'])}`);
      }
      const seconds = (performance.now() - started) / 1000;
      if (current['rows_written'] !== ROWS) throw new Error(`the run wrote ${String(current['rows_written'])} rows`);
      return ROWS / seconds;
    };

    const cases: Array<{ name: string; run: () => Promise<number> }> = [
      { name: 'psql \\copy to stdout | psql \\copy from stdin (baseline)', run: pipe },
      {
        name: "PostgreSQL to the warehouse database as the service's login (before: a `postgres` connector)",
        run: () => sync(byAddress, asServiceLogin),
      },
      {
        name: "PostgreSQL to the warehouse as the project's own role (after: a `warehouse` connector)",
        run: () => sync(byAddress, warehouse),
      },
      {
        name: 'PostgreSQL to PostgreSQL, hosts given as an address (egress checked)',
        run: () => sync(byAddress, destination),
      },
      {
        name: 'PostgreSQL to PostgreSQL, source host given as a name (resolved and checked)',
        run: () => sync(byName, destination),
      },
    ];
    for (const c of cases.slice(1)) await c.run(); // warm-up: connections, roles and schemas created once
    const figures = new Map<string, number[]>(cases.map((c) => [c.name, []]));
    for (let round = 0; round < ROUNDS; round++) for (const c of cases) figures.get(c.name)!.push(await c.run());
    const base = median(figures.get(cases[0]!.name)!);
    const lines = [
      `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), node ${process.version}; ${ROWS.toLocaleString('en')} rows (int, text, numeric, timestamptz, jsonb); median of ${ROUNDS} interleaved rounds`,
      '| case | rows/s | vs baseline | rounds (rows/s) |',
      '|---|---:|---:|---|',
      ...cases.map((c) => {
        const values = figures.get(c.name)!;
        return `| ${c.name} | ${Math.round(median(values)).toLocaleString('en')} | ${((median(values) / base) * 100).toFixed(0)}% | ${values.map((v) => Math.round(v).toLocaleString('en')).join(', ')} |`;
      }),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await service.stop();
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
  await dropBenchDatabases(ADMIN_URL, names.framework, [names.source, names.destination]);
}
