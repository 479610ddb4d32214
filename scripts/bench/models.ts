/**
 * npm run bench:models: a DAG of 50 warehouse models (tables and views, five layers: filters over a
 * source table, joins, aggregates) over a BENCH_ROWS-row source (default 1,000,000), run by the
 * service (`POST /dw-models/run`: one execution, models built as the project's role, tables swapped
 * in atomically, up to SVC_MODELS_RUN_CONCURRENCY at once), side by side with the same compiled
 * statements (from `POST /dw-models/{id}/compile`) run through one psql session in dependency order,
 * in the same script. Timed from the call that starts the run to `succeeded`; psql from its start to
 * its exit. Rounds interleaved, medians reported.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { projectSchemaName } from '../../apps/server/src/areas/connectivity/warehouse.js';
import { databaseUrl, dropBenchDatabases, runSql, sh, startBenchService } from './support.js';

const ADMIN_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env['SVC_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const ROWS = Number(process.env['BENCH_ROWS'] ?? 1_000_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const framework = `svc_bench_fw_${Date.now()}`;
const warehouse = `${framework}_warehouse`;
const onWarehouse = (text: string, params: unknown[] = []) => runSql(ADMIN_URL, warehouse, text, params);

interface ModelSpec {
  name: string;
  materialization: 'view' | 'table';
  sql: string;
}

/** Five layers of ten: filtered copies of the source, joins (tables) and filters (views), then aggregates. */
function dag(): ModelSpec[] {
  const models: ModelSpec[] = [];
  const name = (layer: number, j: number) => `m${layer}_${j}`;
  for (let j = 0; j < 10; j++)
    models.push({
      name: name(0, j),
      materialization: 'table',
      sql: `select id, grp, amount * ${j + 1} as amount, label from {{ source('raw', 'events') }} where id % 10 <> ${j}`,
    });
  for (let layer = 1; layer <= 3; layer++)
    for (let j = 0; j < 10; j++)
      models.push(
        j % 3 === 0
          ? {
              name: name(layer, j),
              materialization: 'view',
              sql: `select id, grp, amount, label from {{ ref('${name(layer - 1, j)}') }} where amount > 0`,
            }
          : {
              name: name(layer, j),
              materialization: 'table',
              sql: `select a.id, a.grp, a.amount + b.amount as amount, a.label
                      from {{ ref('${name(layer - 1, j)}') }} a join {{ ref('${name(layer - 1, (j + 1) % 10)}') }} b using (id)`,
            },
      );
  for (let j = 0; j < 10; j++)
    models.push({
      name: name(4, j),
      materialization: 'table',
      sql: `select grp, count(*) as n, sum(amount) as total from {{ ref('${name(3, j)}') }} group by grp`,
    });
  return models;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

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
    const call = service.call;
    const project = (await call('POST', '/api/v1/admin/projects', { name: 'bench' }))['id'] as string;
    const runModels = async (select: string[] = []) => {
      const started = performance.now();
      const execution = await call('POST', '/api/v1/dw-models/run', { project_id: project, select });
      for (;;) {
        const current = await call('GET', `/api/v1/executions/${String(execution['id'])}`);
        if (current['status'] === 'succeeded') break;
        if (current['status'] === 'failed' || current['status'] === 'cancelled')
          throw new Error(`model run ${String(current['status'])}: ${String(current['error'])}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return (performance.now() - started) / 1000;
    };
    // A first model makes the project's role and schema; the source is loaded into its raw schema.
    await call('POST', '/api/v1/dw-models', {
      project_id: project,
      name: 'warm_up',
      materialization: 'view',
      sql: 'select 1 as one',
    });
    await runModels(['warm_up']);
    const modelsSchema = projectSchemaName(project, 'models');
    const rawSchema = projectSchemaName(project, 'raw');
    const role = (
      await onWarehouse('select nspowner::regrole::text as role from pg_namespace where nspname = $1', [modelsSchema])
    ).rows[0].role as string;
    await onWarehouse(`create schema ${rawSchema} authorization ${role}`);
    await onWarehouse(
      `create table ${rawSchema}.events as select g as id, g % 100 as grp, (g % 1000) / 10.0 as amount, 'label ' || (g % 50) as label from generate_series(1, ${ROWS}) g`,
    );
    await onWarehouse(`alter table ${rawSchema}.events owner to ${role}`);
    await onWarehouse(`analyze ${rawSchema}.events`);

    const specs = dag();
    const ids = new Map<string, string>();
    for (const spec of specs)
      ids.set(spec.name, (await call('POST', '/api/v1/dw-models', { project_id: project, ...spec }))['id'] as string);
    const graph = await call('GET', `/api/v1/dw-models/graph?project_id=${project}`);
    const nameOf = new Map((graph['nodes'] as Array<{ id: string; name: string }>).map((n) => [n.id, n.name]));
    const order = (graph['order'] as string[]).map((id) => nameOf.get(id)!).filter((n) => ids.has(n));
    const selection = specs.map((s) => s.name);

    // The baseline: the same compiled statements, in dependency order, in one psql session, into a schema of its own.
    const statements: string[] = ['drop schema if exists bench_psql cascade;', 'create schema bench_psql;'];
    for (const name of order) {
      const spec = specs.find((s) => s.name === name)!;
      const compiled = (await call('POST', `/api/v1/dw-models/${ids.get(name)}/compile`, {}))['sql'] as string;
      const sql = compiled.replaceAll(`"${modelsSchema}".`, '"bench_psql".');
      statements.push(`create ${spec.materialization} "bench_psql"."${name}" as\n${sql}\n;`);
    }
    const script = path.join(dataDir, 'baseline.sql');
    await writeFile(script, statements.join('\n'));
    const psql = async () => {
      const started = performance.now();
      await sh(
        `PGOPTIONS="-c client_min_messages=warning" psql -q -X -v ON_ERROR_STOP=1 "${databaseUrl(ADMIN_URL, warehouse)}" -f ${script}`,
      );
      return (performance.now() - started) / 1000;
    };

    // The first build of every model (nothing to swap yet), then interleaved rounds of rebuilds.
    const first = await runModels(selection);
    const svcTimes: number[] = [];
    const psqlTimes: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      psqlTimes.push(await psql());
      svcTimes.push(await runModels(selection));
    }
    // Both built the same rows.
    const check = await onWarehouse(
      `select (select sum(total)::text from ${modelsSchema}.m4_3) as svc, (select sum(total)::text from bench_psql.m4_3) as psql`,
    );
    if (check.rows[0].svc !== check.rows[0].psql) throw new Error(`results differ: ${JSON.stringify(check.rows[0])}`);
    const svc = median(svcTimes);
    const base = median(psqlTimes);
    process.stdout.write(
      [
        `machine: ${os.cpus().length} cores, node ${process.version}; source ${ROWS.toLocaleString('en')} rows; 50 models (${specs.filter((s) => s.materialization === 'table').length} tables, ${specs.filter((s) => s.materialization === 'view').length} views), median of ${ROUNDS} rounds`,
        '| case | seconds | vs psql |',
        '|---|---:|---:|',
        `| psql: the compiled statements in dependency order, one session (baseline) | ${base.toFixed(2)} | 100% |`,
        `| svc model run, rebuild (atomic swaps) | ${svc.toFixed(2)} | ${((base / svc) * 100).toFixed(0)}% |`,
        `| svc model run, first build | ${first.toFixed(2)} | ${((base / first) * 100).toFixed(0)}% |`,
        `rounds: svc ${svcTimes.map((s) => s.toFixed(2)).join(', ')}; psql ${psqlTimes.map((s) => s.toFixed(2)).join(', ')}`,
      ].join('\n') + '\n',
    );
  } finally {
    await service.stop();
  }
} finally {
  await dropBenchDatabases(ADMIN_URL, framework, []);
  await rm(dataDir, { recursive: true, force: true });
}
