/**
 * Backpressure of a capture against the machine's PostgreSQL (wal_level=logical): a destination
 * slower than the source holds the stream, so the changes read but not applied stay under their
 * bound, the slot is never confirmed past what the destination committed, and a capture stopped in
 * the middle of a backlog resumes with no change lost or applied twice.
 */
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unrestrictedEgress } from '../../egress.js';
import { captureName, lsnValue, postgresChangeSource } from '../../connectors/postgres/cdc.js';
import { postgresChangeSink } from '../../connectors/postgres/cdc-sink.js';
import { mysqlChangeSource } from '../../connectors/mysql/cdc.js';
import { postgresConnector } from '../../connectors/postgres/definition.js';
import { ConnectorError } from '../../types.js';
import { runCapture } from '../run.js';
import { CaptureThread } from '../thread.js';
import type { ChangeSink, ChangeSource } from '../types.js';

const ADMIN_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const admin = new URL(ADMIN_URL);
const suffix = randomBytes(5).toString('hex');
const configOf = (database: string) => ({
  host: admin.hostname,
  port: Number(admin.port || 5432),
  database,
  user: decodeURIComponent(admin.username),
  password: decodeURIComponent(admin.password),
});
const source = configOf(`svc_cdcbp_src_${suffix}`);
const MYSQL_URL = new URL(process.env['SVC_TEST_MYSQL_URL'] ?? 'mysql://root@127.0.0.1:3306');
const mysqlAdmin = {
  host: MYSQL_URL.hostname,
  port: Number(MYSQL_URL.port || 3306),
  user: decodeURIComponent(MYSQL_URL.username),
  password: decodeURIComponent(MYSQL_URL.password),
};
const mysqlSource = { ...mysqlAdmin, database: `svc_cdcbp_${suffix}` };
const destination = configOf(`svc_cdcbp_dst_${suffix}`);

async function sql(database: string, text: string, params: unknown[] = []) {
  const client = new pg.Client(database === 'postgres' ? { connectionString: ADMIN_URL } : configOf(database));
  await client.connect();
  try {
    return await client.query(text, params);
  } finally {
    await client.end();
  }
}

/** `count` transactions of `size` inserts each (ids from `first`), then as many of updates of those rows. */
async function writeBacklog(table: string, first: number, count: number, size: number) {
  const client = new pg.Client(source);
  await client.connect();
  try {
    for (let tx = 0; tx < count; tx++) {
      const from = first + tx * size;
      await client.query(
        `insert into ${table} (id, v, payload) select g, 0, md5(g::text) from generate_series($1::bigint, $2::bigint) g`,
        [from, from + size - 1],
      );
    }
    for (let tx = 0; tx < count; tx++) {
      const from = first + tx * size;
      await client.query(`update ${table} set v = v + 1 where id between $1 and $2`, [from, from + size - 1]);
    }
  } finally {
    await client.end();
  }
}

/**
 * The real sink, made slow: each apply waits first, like a destination that cannot keep up. Records
 * the positions it committed (the snapshot's too) and the changes of each apply.
 */
function slowSink(sink: ChangeSink, delayMs: number, applied: string[], batches: number[] = []): ChangeSink {
  return {
    ...sink,
    async loadSnapshot(...args) {
      const rows = await sink.loadSnapshot(...args);
      applied.push(args[3].position);
      return rows;
    },
    async apply(...args) {
      await new Promise((r) => setTimeout(r, delayMs));
      const changes = await sink.apply(...args);
      applied.push(args[4].at(-1)!.position);
      batches.push(args[4].reduce((sum, tx) => sum + tx.changes.length, 0));
      return changes;
    },
  };
}

const waitUntil = async (check: () => Promise<boolean>, what: string, timeoutMs = 90_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('capture backpressure', () => {
  const sources: ChangeSource[] = [];
  const sinks: ChangeSink[] = [];
  const open = (captureId: string) => {
    const s = postgresChangeSource(source, 'public', captureId, unrestrictedEgress);
    const k = postgresChangeSink(destination, 'public', unrestrictedEgress);
    sources.push(s);
    sinks.push(k);
    return { changeSource: s, sink: k };
  };

  beforeAll(async () => {
    await sql('postgres', `create database ${source.database}`);
    await sql('postgres', `create database ${destination.database}`);
    for (const table of ['held', 'resumed', 'threaded', 'untemped'])
      await sql(source.database, `create table ${table} (id bigint primary key, v int, payload text)`);
    await sql(source.database, 'create table keyless (id bigint, v int)');
  });
  afterAll(async () => {
    for (const s of sources) await s.drop().catch(() => undefined);
    for (const s of [...sources, ...sinks]) await s.close().catch(() => undefined);
    await sql(
      'postgres',
      'select pg_drop_replication_slot(slot_name) from pg_replication_slots where database = $1 and not active',
      [source.database],
    ).catch(() => undefined);
    await sql('postgres', `drop database if exists ${source.database} with (force)`);
    await sql('postgres', `drop database if exists ${destination.database} with (force)`);
    await sql('postgres', `drop role if exists svc_cdcbp_notemp_${suffix}`);
  });

  it(
    'holds the stream while the destination is behind: in-flight changes stay bounded, nothing is confirmed before it is applied',
    { timeout: 120_000 },
    async () => {
      const captureId = `held-${suffix}`;
      const { changeSource, sink } = open(captureId);
      const applied: string[] = [];
      const batches: number[] = [];
      const confirmed: string[] = [];
      const inFlight: number[] = [];
      // Every position the source is told must already be committed at the destination.
      const watchedSource: ChangeSource = {
        ...changeSource,
        async confirm(position) {
          const committed = applied.at(-1);
          if (committed === undefined || lsnValue(position) > lsnValue(committed))
            confirmed.push(`${position} confirmed before it was applied (last applied ${committed})`);
          else confirmed.push(position);
          await changeSource.confirm(position);
        },
      };
      const controller = new AbortController();
      let streaming!: () => void;
      const started = new Promise<void>((resolve) => (streaming = resolve));
      const run = runCapture({
        captureId,
        source: watchedSource,
        sink: slowSink(sink, 100, applied, batches),
        table: { namespace: null, name: 'held' },
        target: { namespace: null, name: 'held' },
        mode: 'mirror',
        resync: false,
        signal: controller.signal,
        heartbeatMs: 500,
        log: () => undefined,
        maxInFlightChanges: 500,
        maxBatchChanges: 200,
        onInFlight: (n) => inFlight.push(n),
        async onPhase(phase) {
          if (phase === 'streaming') streaming();
        },
        onApplied: () => undefined,
      });
      run.catch(() => undefined);
      await started;

      // The slot's confirmed position, sampled while the backlog drains, against the destination's saved one.
      const slotAhead: string[] = [];
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          const slot = await sql(
            source.database,
            'select confirmed_flush_lsn::text as lsn from pg_replication_slots where slot_name = $1',
            [captureName(captureId)],
          );
          const saved = await sql(
            destination.database,
            'select position from _svc_cdc_positions where capture_id = $1',
            [captureId],
          );
          const lsn = slot.rows[0]?.lsn as string | undefined;
          const position = saved.rows[0]?.position as string | undefined;
          // The acknowledgement names the byte after the applied position (the protocol's "flushed up to").
          if (lsn && position && lsnValue(lsn) > lsnValue(position) + 1n) slotAhead.push(`${lsn} > ${position}`);
          await new Promise((r) => setTimeout(r, 20));
        }
      })();

      // 40 transactions of 100 inserts, then 40 of 100 updates: 8,000 changes against a bound of 500.
      await writeBacklog('held', 1, 40, 100);
      await waitUntil(
        async () =>
          Number((await sql(destination.database, 'select count(*) filter (where v = 1) as n from held')).rows[0].n) ===
          4_000,
        'the destination to catch up',
      );
      sampling = false;
      await sampler;
      controller.abort();
      await run;

      expect(Math.max(...inFlight)).toBeLessThanOrEqual(500);
      // The bound was reached: the reader was really held, not just fast enough.
      expect(Math.max(...inFlight)).toBeGreaterThan(300);
      expect(confirmed.filter((c) => c.includes('before'))).toEqual([]);
      expect(slotAhead).toEqual([]);
      // Applies took whole transactions (100 changes each), never more than the batch bound.
      expect(Math.max(...batches)).toBe(200);
      expect(batches.filter((n) => n % 100 !== 0)).toEqual([]);
    },
  );

  it(
    'resumes after a stop in the middle of a backlog with no change lost or applied twice',
    { timeout: 120_000 },
    async () => {
      const captureId = `resumed-${suffix}`;
      const capture = async (stopAfterApplies: number | undefined) => {
        const { changeSource, sink } = open(captureId);
        const applied: string[] = [];
        const controller = new AbortController();
        let streaming!: () => void;
        const started = new Promise<void>((resolve) => (streaming = resolve));
        const run = runCapture({
          captureId,
          source: changeSource,
          sink: slowSink(sink, 50, applied),
          table: { namespace: null, name: 'resumed' },
          target: { namespace: null, name: 'resumed_log' },
          mode: 'changelog',
          resync: false,
          signal: controller.signal,
          heartbeatMs: 500,
          log: () => undefined,
          maxInFlightChanges: 300,
          maxBatchChanges: 100,
          async onPhase(phase) {
            if (phase === 'streaming') streaming();
          },
          onApplied() {
            if (stopAfterApplies !== undefined && applied.length >= stopAfterApplies) controller.abort();
          },
        });
        run.catch(() => undefined);
        return { run, started, stop: () => controller.abort(), applied };
      };

      // The snapshot (empty), then a stop partway through a backlog of 6,000 changes.
      const first = await capture(undefined);
      await first.started;
      await writeBacklog('resumed', 1, 30, 100);
      first.stop();
      await first.run;
      const before = Number((await sql(destination.database, 'select count(*) as n from resumed_log')).rows[0].n);

      // Once more, stopped after a few applies: still mid-backlog.
      const second = await capture(3);
      await second.run;
      const middle = Number((await sql(destination.database, 'select count(*) as n from resumed_log')).rows[0].n);
      expect(middle).toBeGreaterThan(before);
      expect(middle).toBeLessThan(6_000);

      // Then to the end.
      const third = await capture(undefined);
      await waitUntil(
        async () =>
          Number(
            (await sql(destination.database, `select count(*) as n from resumed_log where _svc_op <> 'snapshot'`))
              .rows[0].n,
          ) >= 6_000,
        'the backlog to be applied',
      );
      await new Promise((r) => setTimeout(r, 1_000)); // anything applied twice would show up by now
      third.stop();
      await third.run;

      const { rows } = await sql(
        destination.database,
        `select _svc_op as op, count(*)::int as n, count(distinct id)::int as ids, min(id)::int as lo, max(id)::int as hi
         from resumed_log where _svc_op <> 'snapshot' group by 1 order by 1`,
      );
      expect(rows).toEqual([
        { op: 'insert', n: 3_000, ids: 3_000, lo: 1, hi: 3_000 },
        { op: 'update', n: 3_000, ids: 3_000, lo: 1, hi: 3_000 },
      ]);
      const mirrored = await sql(destination.database, 'select count(*)::int as n from resumed_log where v = 1');
      expect(mirrored.rows[0].n).toBe(3_000);
    },
  );

  it(
    'runs a capture in a capture thread: connectors opened there, egress asked here, progress and failures reported here',
    { timeout: 120_000 },
    async () => {
      const thread = new CaptureThread({ maxHeapMb: 64 });
      try {
        const captureId = `threaded-${suffix}`;
        const endpoint = (config: typeof source) => ({
          kind: 'postgres',
          version: postgresConnector.version,
          config: { ...config },
        });
        const asked: string[] = [];
        const egress = {
          resolve: async (host: string, port: number) => {
            asked.push(`${host}:${port}`);
            return unrestrictedEgress.resolve(host, port);
          },
        };
        const phases: string[] = [];
        const logs: string[] = [];
        let changes = 0;
        const controller = new AbortController();
        const run = thread.run({
          captureId,
          source: endpoint(source),
          sink: endpoint(destination),
          egress,
          table: { namespace: null, name: 'threaded' },
          target: { namespace: null, name: 'threaded' },
          mode: 'mirror',
          resync: false,
          signal: controller.signal,
          heartbeatMs: 500,
          log: (_level, message) => logs.push(message),
          async onPhase(phase) {
            phases.push(phase);
          },
          onApplied: (progress) => (changes += progress.changes),
        });
        run.catch(() => undefined);
        await waitUntil(async () => phases.includes('streaming'), 'the capture to stream');
        await writeBacklog('threaded', 1, 10, 100);
        await waitUntil(
          async () =>
            Number(
              (await sql(destination.database, 'select count(*) filter (where v = 1) as n from threaded')).rows[0].n,
            ) === 1_000,
          'the destination to catch up',
        );
        controller.abort();
        await run;
        expect(phases).toEqual(['snapshotting', 'streaming']);
        expect(changes).toBe(2_000);
        expect(logs.some((line) => line.startsWith('snapshot loaded'))).toBe(true);
        expect(asked.length).toBeGreaterThan(0);

        // A failure in the thread arrives as the error thrown there: a table without a primary key is permanent.
        const refused = await thread
          .run({
            captureId: `keyless-${suffix}`,
            source: endpoint(source),
            sink: endpoint(destination),
            egress,
            table: { namespace: null, name: 'keyless' },
            target: { namespace: null, name: 'keyless' },
            mode: 'mirror',
            resync: false,
            signal: new AbortController().signal,
            log: () => undefined,
            async onPhase() {},
            onApplied: () => undefined,
          })
          .catch((error: unknown) => error);
        expect(refused).toBeInstanceOf(ConnectorError);
        expect(refused).toMatchObject({ code: 'unsupported', retryable: false });
        expect((refused as Error).message).toMatch(/no primary key/);
      } finally {
        await thread.close();
      }
    },
  );

  it('holds a MySQL/MariaDB binlog reader the same way', { timeout: 120_000 }, async () => {
    const admin = await mysql.createConnection(mysqlAdmin);
    try {
      await admin.query(`create database \`${mysqlSource.database}\``);
      await admin.query(
        `create table \`${mysqlSource.database}\`.binlogged (id bigint primary key, v int, payload text)`,
      );
    } finally {
      await admin.end();
    }
    const captureId = `binlogged-${suffix}`;
    const changeSource = mysqlChangeSource(mysqlSource, captureId, { egress: unrestrictedEgress });
    const sink = postgresChangeSink(destination, 'public', unrestrictedEgress);
    sinks.push(sink);
    const inFlight: number[] = [];
    const applied: string[] = [];
    const controller = new AbortController();
    let streaming!: () => void;
    const started = new Promise<void>((resolve) => (streaming = resolve));
    try {
      const run = runCapture({
        captureId,
        source: changeSource,
        sink: slowSink(sink, 100, applied),
        table: { namespace: mysqlSource.database, name: 'binlogged' },
        target: { namespace: null, name: 'binlogged' },
        mode: 'mirror',
        resync: false,
        signal: controller.signal,
        heartbeatMs: 500,
        log: () => undefined,
        maxInFlightChanges: 500,
        maxBatchChanges: 200,
        onInFlight: (n) => inFlight.push(n),
        async onPhase(phase) {
          if (phase === 'streaming') streaming();
        },
        onApplied: () => undefined,
      });
      run.catch(() => undefined);
      await started;
      const writer = await mysql.createConnection(mysqlSource);
      try {
        // 40 transactions of 100 inserts: 4,000 changes against a bound of 500.
        for (let tx = 0; tx < 40; tx++) {
          const rows = Array.from({ length: 100 }, (_, i) => [tx * 100 + i + 1, 0, `p${tx * 100 + i + 1}`]);
          await writer.query('insert into binlogged (id, v, payload) values ?', [rows]);
        }
      } finally {
        await writer.end();
      }
      await waitUntil(
        async () =>
          Number((await sql(destination.database, 'select count(*) as n from binlogged')).rows[0].n) === 4_000,
        'the destination to catch up',
      );
      controller.abort();
      await run;
      expect(Math.max(...inFlight)).toBeLessThanOrEqual(500);
      expect(Math.max(...inFlight)).toBeGreaterThan(300);
    } finally {
      await changeSource.close();
      const drop = await mysql.createConnection(mysqlAdmin);
      await drop.query(`drop database if exists \`${mysqlSource.database}\``).finally(() => drop.end());
    }
  });

  it(
    'fails the captures of a thread that ends with a retryable error, and starts a new thread for the next',
    { timeout: 120_000 },
    async () => {
      const thread = new CaptureThread({ maxHeapMb: 64 });
      const endpoint = (config: typeof source) => ({
        kind: 'postgres',
        version: postgresConnector.version,
        config: { ...config },
      });
      const capture = (signal: AbortSignal, onStreaming: () => void) =>
        thread.run({
          captureId: `ended-${suffix}`,
          source: endpoint(source),
          sink: endpoint(destination),
          egress: unrestrictedEgress,
          table: { namespace: null, name: 'threaded' },
          target: { namespace: null, name: 'ended' },
          mode: 'mirror',
          resync: false,
          signal,
          heartbeatMs: 500,
          log: () => undefined,
          async onPhase(phase) {
            if (phase === 'streaming') onStreaming();
          },
          onApplied: () => undefined,
        });
      try {
        let streaming!: () => void;
        const started = new Promise<void>((resolve) => (streaming = resolve));
        const first = capture(new AbortController().signal, streaming).catch((error: unknown) => error);
        await started;
        await thread.close();
        expect(await first).toMatchObject({
          retryable: true,
          message: expect.stringMatching(/capture thread stopped/),
        });

        const controller = new AbortController();
        let again!: () => void;
        const restarted = new Promise<void>((resolve) => (again = resolve));
        const second = capture(controller.signal, again);
        await restarted;
        // Aborted before its stream starts (the phase was just reported): it must still end.
        controller.abort();
        await second;
      } finally {
        await thread.close();
      }
    },
  );

  it(
    'applies through multi-row statements when the destination login may not create temporary tables',
    { timeout: 120_000 },
    async () => {
      const role = `svc_cdcbp_notemp_${suffix}`;
      await sql('postgres', `create role ${role} login`);
      await sql('postgres', `revoke temporary on database ${destination.database} from public`);
      await sql('postgres', `grant connect on database ${destination.database} to ${role}`);
      await sql(destination.database, `create schema untemped authorization ${role}`);
      const captureId = `untemped-${suffix}`;
      const changeSource = postgresChangeSource(source, 'public', captureId, unrestrictedEgress);
      const sink = postgresChangeSink({ ...destination, user: role, password: '' }, 'untemped', unrestrictedEgress);
      sources.push(changeSource);
      sinks.push(sink);
      const controller = new AbortController();
      let streaming!: () => void;
      const started = new Promise<void>((resolve) => (streaming = resolve));
      const run = runCapture({
        captureId,
        source: changeSource,
        sink,
        table: { namespace: null, name: 'untemped' },
        target: { namespace: 'untemped', name: 'untemped' },
        mode: 'mirror',
        resync: false,
        signal: controller.signal,
        heartbeatMs: 500,
        log: () => undefined,
        async onPhase(phase) {
          if (phase === 'streaming') streaming();
        },
        onApplied: () => undefined,
      });
      let failure: unknown;
      run.catch((error: unknown) => (failure = error));
      await Promise.race([started, run]);
      // Transactions of 100 upserts: groups large enough to be staged, were staging allowed.
      await writeBacklog('untemped', 1, 10, 100);
      await waitUntil(async () => {
        // An apply that failed (a temporary table refused) fails the test at once.
        if (failure) throw failure;
        const { rows } = await sql(
          destination.database,
          'select count(*) filter (where v = 1) as n from untemped.untemped',
        );
        return Number(rows[0].n) === 1_000;
      }, 'the destination to catch up');
      controller.abort();
      await run;
    },
  );
});
