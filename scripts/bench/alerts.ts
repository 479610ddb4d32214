/**
 * npm run bench:alerts: audit events forwarded per second to Debian's rsyslogd over TCP (RFC 5424,
 * octet counting). A backlog of BENCH_ALERTS_EVENTS (default 200,000) audit events is written into
 * the framework database; then the built service (`svc start`) forwards it to one rsyslogd from a
 * syslog destination created through the API, and, side by side in the same run, a minimal client
 * reads the same events from the same database in the same batches and writes the same RFC 5424
 * lines over one TCP connection to a second rsyslogd. Both are timed from the start until rsyslogd
 * has written every line to its file.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { asForwarded, formatRfc5424, frame } from '../../apps/server/src/areas/audit/forwarder/syslog.js';
import { startRsyslog, type Rsyslog } from '../../apps/server/test/audit/rsyslog.js';
import { databaseUrl, dropBenchDatabases, runSql, startBenchService } from './support.js';

const ADMIN_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env['SVC_TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const EVENTS = Number(process.env['BENCH_ALERTS_EVENTS'] ?? 200_000);
const BATCH = 500;
const framework = `svc_bench_fw_${Date.now()}`;
const run = promisify(execFile);

/** Lines rsyslogd has written so far (wc -l of its file, without reading it here). */
async function linesOf(syslog: Rsyslog): Promise<number> {
  const { stdout } = await run('wc', ['-l', syslog.file]).catch(() => ({ stdout: '0' }));
  return Number(stdout.trim().split(/\s+/)[0] ?? 0);
}

async function untilLines(syslog: Rsyslog, count: number, started: number): Promise<number> {
  for (;;) {
    if ((await linesOf(syslog)) >= count) return (performance.now() - started) / 1000;
    if (performance.now() - started > 600_000) throw new Error(`rsyslogd has not written ${count} lines`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The baseline: the same reads and the same lines over one TCP connection, nothing else. */
async function minimalClient(port: number, firstId: string) {
  const client = new pg.Client({ connectionString: databaseUrl(ADMIN_URL, framework) });
  await client.connect();
  const socket = net.connect({ host: '127.0.0.1', port });
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const options = { facility: 'local0' as const, hostname: os.hostname(), appName: 'svc' };
  let cursor = firstId;
  try {
    for (;;) {
      const { rows } = await client.query(
        `select id::text, occurred_at, kind, actor_user_id, actor_token_id, client_address, user_agent, request_id,
                target_type, target_id, details
           from audit_log where audit_log.id > $1 order by audit_log.id limit ${BATCH}`,
        [cursor],
      );
      if (rows.length === 0) break;
      const payload = rows.map((row) => frame(formatRfc5424(asForwarded(row), options), 'octet-counting')).join('');
      await new Promise<void>((resolve, reject) =>
        socket.write(payload, (error) => (error ? reject(error) : resolve())),
      );
      cursor = rows[rows.length - 1].id as string;
    }
  } finally {
    socket.end();
    await client.end();
  }
}

async function main() {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-alerts-'));
  await runSql(ADMIN_URL, 'postgres', `create database ${framework}`);
  const forwarded = await startRsyslog();
  const baseline = await startRsyslog();
  const service = await startBenchService({
    databaseUrl: databaseUrl(ADMIN_URL, framework),
    redisUrl: REDIS_URL,
    redisKeyPrefix: `${framework}:`,
    dataDir,
    env: {
      SVC_AUDIT_FORWARD_POLL_MS: '100',
      SVC_AUDIT_FORWARD_BATCH_SIZE: String(BATCH),
      // The whole backlog is delivered, none of it passed over.
      SVC_AUDIT_FORWARD_MAX_BACKLOG: String(EVENTS * 2),
    },
  });
  try {
    const before = String(
      (await runSql(ADMIN_URL, framework, 'select coalesce(max(id), 0)::text as id from audit_log')).rows[0].id,
    );
    await runSql(
      ADMIN_URL,
      framework,
      `insert into audit_log (kind, actor_user_id, client_address, user_agent, request_id, target_type, target_id, details)
       select 'bench_event', gen_random_uuid(), '127.0.0.1', 'bench', gen_random_uuid(), 'pipeline', gen_random_uuid()::text,
              jsonb_build_object('n', g, 'fields', jsonb_build_array('name', 'config'))
         from generate_series(1, $1::int) g`,
      [EVENTS],
    );
    const count = Number(
      (await runSql(ADMIN_URL, framework, 'select count(*)::int as n from audit_log where id > $1', [before])).rows[0]
        .n,
    );

    // The baseline first, while the service idles (no destination yet).
    let started = performance.now();
    await minimalClient(baseline.port, before);
    const baselineSeconds = await untilLines(baseline, count, started);

    const destination = await service.call('POST', '/api/v1/audit-forwarder-settings', {
      name: 'bench rsyslog',
      type: 'syslog',
      enabled: false,
      start_from: 'beginning',
      config: { host: '127.0.0.1', port: forwarded.port, transport: 'tcp', framing: 'octet-counting' },
    });
    // Skip the events written before the backlog (the service's own: sign-in, the destination).
    await runSql(ADMIN_URL, framework, 'update audit_forwarders set cursor = $1 where id = $2', [
      before,
      destination['id'],
    ]);
    started = performance.now();
    await service.call('PATCH', `/api/v1/audit-forwarder-settings/${String(destination['id'])}`, { enabled: true });
    // The service's own progress is read from its API (cheap), the file only once it says it is done.
    const last = String(
      (await runSql(ADMIN_URL, framework, 'select max(id)::text as id from audit_log')).rows[0].id as string,
    );
    for (;;) {
      const status = await service.call('GET', `/api/v1/audit-forwarder-settings/${String(destination['id'])}`);
      if (BigInt(status['cursor'] as string) >= BigInt(last)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const svcSeconds = await untilLines(forwarded, count, started);

    const rate = (seconds: number) => Math.round(count / seconds).toLocaleString('en-US');
    const lines = [
      '',
      `Audit events forwarded to rsyslogd over TCP (RFC 5424, octet counting), ${count.toLocaleString('en-US')} events, batches of ${BATCH}`,
      '',
      '| case | seconds | events/s |',
      '|---|---:|---:|',
      `| minimal client (baseline): the same reads and lines, one connection | ${baselineSeconds.toFixed(2)} | ${rate(baselineSeconds)} |`,
      `| svc audit forwarder (leader, cursor committed per batch) | ${svcSeconds.toFixed(2)} | ${rate(svcSeconds)} |`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await service.stop();
    await forwarded.stop();
    await baseline.stop();
    await dropBenchDatabases(ADMIN_URL, framework, []);
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
