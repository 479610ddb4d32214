/**
 * The cost of masking (part of npm run bench:governance): one export of a connector dataset of
 * BENCH_MASKING_ROWS rows (id, name, email, amount, ts) to a CSV file, run with no masking policy and
 * with two policies that cover two of its five columns (`email_domain` on email, `partial` on name;
 * no one exempt), in interleaved rounds (unmasked, masked, unmasked, ...), medians. Both runs take the
 * same in-process path (a connector dataset never takes COPY), so the difference is the masking. The
 * masked file is checked to hold no clear address. Target: masked >= 90% of unmasked rows/s.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { databaseUrl, dropBenchDatabases, postgresConnectorConfig, runSql, startBenchService } from './support.js';

const ADMIN_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env['SVC_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const ROWS = Number(process.env['BENCH_MASKING_ROWS'] ?? 200_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 3);
const stamp = Date.now();
const framework = `svc_bench_fw_${stamp}`;
const data = `svc_bench_mask_${stamp}`;
const sql = (database: string, text: string) => runSql(ADMIN_URL, database, text);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

try {
  await sql('postgres', `create database ${framework}`);
  await sql('postgres', `create database ${data}`);
  await sql(
    data,
    `create table people as select g as id, 'person ' || g as name, 'user' || g || '@example.com' as email,
            (g % 100000) / 100.0 as amount, timestamptz '2024-01-01' + g * interval '1 second' as ts
       from generate_series(1, ${ROWS}) g;
     alter table people add primary key (id); analyze people`,
  );
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
    const connector = (
      await call('POST', '/api/v1/data-connectors', {
        project_id: project,
        name: 'people',
        kind: 'postgres',
        config: postgresConnectorConfig(ADMIN_URL, data),
      })
    )['id'] as string;
    const exportId = (
      await call('POST', '/api/v1/exports', {
        project_id: project,
        name: 'people out',
        source: { kind: 'connector', connector_id: connector, dataset: 'people' },
        destination: { kind: 'files', folder: 'bench', file_name: '{export}_{run_id}.{ext}' },
      })
    )['id'] as string;
    const projectFolder = path.join(dataDir, 'files', project);

    /** Seconds of one run, from the call that starts it to `succeeded`; the file's text when asked. */
    const run = async (keepText: boolean) => {
      const started = performance.now();
      const execution = await call('POST', `/api/v1/exports/${exportId}/run`);
      let current = execution;
      while (current['status'] !== 'succeeded') {
        if (['failed', 'cancelled', 'partially_failed'].includes(String(current['status'])))
          throw new Error(`export ${String(current['status'])}: ${JSON.stringify(current)}`);
        await new Promise((r) => setTimeout(r, 20));
        current = await call('GET', `/api/v1/executions/${String(execution['id'])}`);
      }
      const seconds = (performance.now() - started) / 1000;
      const runs = (await call('GET', `/api/v1/exports/${exportId}/runs`))['items'] as Array<{
        delivered: number;
        files: Array<{ name: string }>;
      }>;
      if (runs[0]!.delivered !== ROWS) throw new Error(`delivered ${runs[0]!.delivered} rows, not ${ROWS}`);
      const file = path.join(projectFolder, runs[0]!.files[0]!.name);
      const text = keepText ? await readFile(file, 'utf8') : '';
      await rm(file);
      return { seconds, text };
    };

    const policies: string[] = [];
    const setMasking = async (on: boolean) => {
      if (!on) {
        for (const id of policies.splice(0)) await call('DELETE', `/api/v1/masking-policies/${id}`);
        return;
      }
      for (const policy of [
        { name: 'e-mail', method: 'email_domain', columns: ['email'] },
        { name: 'names', method: 'partial', options: { keep_first: 2, keep_last: 0 }, columns: ['name'] },
      ])
        policies.push(
          (
            await call('POST', '/api/v1/masking-policies', {
              project_id: project,
              ...policy,
              exempt: { capabilities: [], roles: [] },
            })
          )['id'] as string,
        );
    };

    await run(false); // warm-up: connections, JIT
    const plain: number[] = [];
    const masked: number[] = [];
    let checked = false;
    for (let round = 0; round < ROUNDS; round++) {
      await setMasking(false);
      plain.push((await run(false)).seconds);
      await setMasking(true);
      const { seconds, text } = await run(!checked);
      if (!checked) {
        if (text.includes('user1@example.com') || !text.includes('****@example.com'))
          throw new Error('the masked export holds clear values');
        checked = true;
      }
      masked.push(seconds);
    }
    await setMasking(false);
    const plainRate = ROWS / median(plain);
    const maskedRate = ROWS / median(masked);
    process.stdout.write(
      [
        `masking: machine ${os.cpus().length} cores, node ${process.version}; export of a connector dataset of ${ROWS.toLocaleString('en')} rows (5 columns) to CSV; median of ${ROUNDS} interleaved rounds`,
        '| case | rows/s | vs unmasked |',
        '|---|---:|---:|',
        `| export, no masking policy (baseline) | ${Math.round(plainRate).toLocaleString('en')} | 100% |`,
        `| export, 2 policies on 2 of 5 columns (email_domain, partial) | ${Math.round(maskedRate).toLocaleString('en')} | ${((maskedRate / plainRate) * 100).toFixed(0)}% |`,
        `rounds (s): unmasked ${plain.map((s) => s.toFixed(2)).join(', ')}; masked ${masked.map((s) => s.toFixed(2)).join(', ')}`,
      ].join('\n') + '\n',
    );
  } finally {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
} finally {
  await dropBenchDatabases(ADMIN_URL, framework, [data]);
}
