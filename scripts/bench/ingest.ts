/**
 * npm run bench:ingest: a CSV file through a file ingestion (uploaded through the API, loaded by the
 * worker into PostgreSQL) side by side with psql's `\copy t from 'file.csv' csv header` of the same
 * file into the same database, in the same run. The file ingestion is timed from the start of the
 * upload to its execution reading `succeeded`; psql from its start to its exit. The service runs
 * built as `svc start` (API and one worker), log level warn. BENCH_ROWS (default 200,000); the inbox
 * against GET /health: BENCH_SECONDS (default 10) a case, BENCH_INBOX_ROUNDS (default 3) interleaved rounds.
 */
import { createWriteStream, openAsBlob } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import autocannon from 'autocannon';
import { databaseUrl, dropBenchDatabases, postgresConnectorConfig, runSql, sh, startBenchService } from './support.js';

const ADMIN_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env['SVC_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const ROWS = Number(process.env['BENCH_ROWS'] ?? 200_000);
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const INBOX_ROUNDS = Number(process.env['BENCH_INBOX_ROUNDS'] ?? 3);
const stamp = Date.now();
const names = { framework: `svc_bench_fw_${stamp}`, destination: `svc_bench_dst_${stamp}` };
const sql = (database: string, text: string, params: unknown[] = []) => runSql(ADMIN_URL, database, text, params);

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-'));
const csvPath = path.join(dataDir, 'orders.csv');

/** id, customer, amount, placed_at, paid: the kinds of values a typical export has. */
async function writeCsv(rows: number) {
  const out = createWriteStream(csvPath);
  out.write('id,customer,amount,placed_at,paid\n');
  for (let i = 1; i <= rows; i += 1000) {
    let chunk = '';
    for (let id = i; id < i + 1000 && id <= rows; id++)
      chunk += `${id},customer ${id % 5000},${(id % 100000) / 100},2024-01-01T00:00:${String(id % 60).padStart(2, '0')}Z,${id % 2 === 0}\n`;
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

try {
  for (const name of [names.destination, names.framework]) await sql('postgres', `create database ${name}`);
  await writeCsv(ROWS);
  const bytes = (await stat(csvPath)).size;

  // Baseline: psql's \copy into a table of the types the ingestion infers.
  await sql(
    names.destination,
    'create table t_psql (id integer, customer text, amount double precision, placed_at timestamptz, paid boolean)',
  );
  let started = performance.now();
  await sh(`psql "${databaseUrl(ADMIN_URL, names.destination)}" -q -c "\\copy t_psql from '${csvPath}' csv header"`);
  const psqlRate = ROWS / ((performance.now() - started) / 1000);

  const service = await startBenchService({
    databaseUrl: databaseUrl(ADMIN_URL, names.framework),
    redisUrl: REDIS_URL,
    redisKeyPrefix: `${names.framework}:`,
    dataDir: path.join(dataDir, 'svc'),
    // GET /health counts against the per-client limit: several rounds of it must not meet a 429.
    env: { SVC_RATE_LIMIT_PER_MINUTE: '100000000' },
  });
  try {
    const { call } = service;
    const project = (await call('POST', '/api/v1/admin/projects', { name: 'bench' }))['id'] as string;
    const connector = (
      await call('POST', '/api/v1/data-connectors', {
        project_id: project,
        name: 'dst',
        kind: 'postgres',
        config: postgresConnectorConfig(ADMIN_URL, names.destination),
      })
    )['id'] as string;
    const token = service.token;
    const ingestion = (
      await call('POST', '/api/v1/file-ingestions', {
        project_id: project,
        name: 'orders',
        source: { kind: 'upload' },
        format: { type: 'csv' },
        destination: { connector_id: connector, table: 't_svc', mode: 'append' },
      })
    )['id'] as string;

    started = performance.now();
    const form = new FormData();
    form.append('file', await openAsBlob(csvPath), 'orders.csv');
    const uploaded = await fetch(`${service.base}/api/v1/file-ingestions/${ingestion}/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const file = (await uploaded.json()) as { execution_id: string };
    if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status} ${JSON.stringify(file)}`);
    const uploadSeconds = (performance.now() - started) / 1000;
    for (;;) {
      const execution = await call('GET', `/api/v1/executions/${file.execution_id}`);
      if (execution['status'] === 'succeeded') break;
      if (execution['status'] === 'failed') throw new Error(`load failed: ${JSON.stringify(execution)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const svcRate = ROWS / ((performance.now() - started) / 1000);
    for (const table of ['t_psql', 't_svc']) {
      const { rows } = await sql(names.destination, `select count(*)::int as n from ${table}`);
      if (rows[0].n !== ROWS) throw new Error(`${table} has ${rows[0].n} rows, not ${ROWS}`);
    }
    // The same file dropped in a folder of the project's files root: the load alone, as psql's.
    const folder = path.join(dataDir, 'svc', 'files', project, 'incoming');
    await mkdir(folder, { recursive: true });
    await copyFile(csvPath, path.join(folder, 'orders.csv'));
    const folderIngestion = (
      await call('POST', '/api/v1/file-ingestions', {
        project_id: project,
        name: 'orders from a folder',
        source: { kind: 'folder', path: 'incoming', glob: '*.csv' },
        format: { type: 'csv' },
        destination: { connector_id: connector, table: 't_folder', mode: 'append' },
      })
    )['id'] as string;
    started = performance.now();
    const run = await call('POST', `/api/v1/file-ingestions/${folderIngestion}/run`);
    for (;;) {
      const execution = await call('GET', `/api/v1/executions/${String(run['id'])}`);
      if (execution['status'] === 'succeeded') break;
      if (execution['status'] === 'failed') throw new Error(`load failed: ${JSON.stringify(execution)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const folderRate = ROWS / ((performance.now() - started) / 1000);
    const { rows: folderRows } = await sql(names.destination, 'select count(*)::int as n from t_folder');
    if (folderRows[0].n !== ROWS) throw new Error(`t_folder has ${folderRows[0].n} rows, not ${ROWS}`);

    // Inbox: 1 KB JSON bodies with a bearer token, against GET /health of the same server.
    const inbox = await call('POST', '/api/v1/inboxes', {
      project_id: project,
      name: 'events',
      auth: { kind: 'bearer' },
      rate_limit_per_minute: 10_000_000,
      destination: { connector_id: connector, table: 't_inbox', mode: 'append' },
    });
    const body = JSON.stringify({ id: 1, kind: 'order.paid', payload: 'x'.repeat(960) });
    const load = (options: autocannon.Options) =>
      autocannon({ connections: 50, duration: SECONDS, ...options }).then((r) => ({
        rps: r.requests.average,
        p99: r.latency.p99,
        non2xx: r.non2xx,
      }));
    const healthCase = { url: `${service.base}/health` };
    const inboxCase: autocannon.Options = {
      url: `${service.base}${String(inbox['receive_path'])}`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${String(inbox['secret'])}` },
      body,
    };
    // Interleaved rounds (health, inbox, health, inbox, ...), each round's ratio of its own pair: on a
    // shared machine one pair measured apart can be off by a third either way.
    const rounds: Array<{ health: Awaited<ReturnType<typeof load>>; received: Awaited<ReturnType<typeof load>> }> = [];
    for (let round = 0; round < INBOX_ROUNDS; round++)
      rounds.push({ health: await load(healthCase), received: await load(inboxCase) });
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const health = {
      rps: median(rounds.map((r) => r.health.rps)),
      p99: median(rounds.map((r) => r.health.p99)),
      non2xx: rounds.reduce((n, r) => n + r.health.non2xx, 0),
    };
    const received = {
      rps: median(rounds.map((r) => r.received.rps)),
      p99: median(rounds.map((r) => r.received.p99)),
      non2xx: rounds.reduce((n, r) => n + r.received.non2xx, 0),
    };
    const ratios = rounds.map((r) => (r.received.rps / r.health.rps) * 100);
    if (health.non2xx || received.non2xx)
      throw new Error(
        `non-2xx answers (health ${health.non2xx}, inbox ${received.non2xx}): the figures would not compare`,
      );
    const inboxLines = [
      '',
      `inbox, ${Buffer.byteLength(body)}-byte JSON bodies, 50 connections, ${SECONDS} s each, ${INBOX_ROUNDS} interleaved rounds (medians):`,
      '| case | requests/s | p99 | non-2xx | vs GET /health |',
      '|---|---:|---:|---:|---:|',
      `| GET /health (baseline) | ${Math.round(health.rps).toLocaleString('en')} | ${health.p99} ms | ${health.non2xx} | 100% |`,
      `| POST /api/v1/inboxes/{id}/receive (202 once recorded) | ${Math.round(received.rps).toLocaleString('en')} | ${received.p99} ms | ${received.non2xx} | ${median(ratios).toFixed(0)}% |`,
      `rounds (inbox / health): ${rounds.map((r, i) => `${Math.round(r.received.rps)} / ${Math.round(r.health.rps)} = ${ratios[i]!.toFixed(0)}%`).join('; ')}`,
    ];

    const row = (label: string, rate: number) =>
      `| ${label} | ${Math.round(rate).toLocaleString('en')} | ${((rate / psqlRate) * 100).toFixed(0)}% |`;
    process.stdout.write(
      [
        `machine: ${os.cpus().length} cores, node ${process.version}; CSV of ${ROWS.toLocaleString('en')} rows, ${(bytes / 1e6).toFixed(1)} MB (int, text, decimal, timestamptz, boolean); upload took ${uploadSeconds.toFixed(2)} s of the svc time`,
        '| case | rows/s | vs psql \\copy |',
        '|---|---:|---:|',
        row("psql \\copy t from 'file.csv' csv header (baseline)", psqlRate),
        row('svc file ingestion, folder source: run (checksum + load) into PostgreSQL', folderRate),
        row('svc file ingestion: upload through the API + load into PostgreSQL', svcRate),
        ...inboxLines,
      ].join('\n') + '\n',
    );
  } finally {
    await service.stop();
  }
} finally {
  await dropBenchDatabases(ADMIN_URL, names.framework, [names.destination]);
  await rm(dataDir, { recursive: true, force: true });
}
