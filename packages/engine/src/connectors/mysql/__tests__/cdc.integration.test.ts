import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import { quiet } from '../../../__tests__/support.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RowChange, SourceTransaction } from '../../../cdc/types.js';
import type { RecordBatch, Value } from '../../../types.js';
import { ConnectorError, JsonText } from '../../../types.js';
import { binlogSettingsProblem } from '../cdc-checks.js';
import { truncatedTable, statementText } from '../cdc-stream.js';
import { binlogBytesBetween, mysqlChangeSource, type MysqlChangeSource } from '../cdc.js';
import { openMysql } from '../definition.js';

const ADMIN_URL = new URL(process.env['SVC_TEST_MYSQL_URL'] ?? 'mysql://root@127.0.0.1:3306');
const suffix = randomBytes(5).toString('hex');
const database = `svc_mycdc_${suffix}`;
const limitedUser = `svc_mycdc_${suffix}`;
const admin = {
  host: ADMIN_URL.hostname,
  port: Number(ADMIN_URL.port || 3306),
  user: decodeURIComponent(ADMIN_URL.username),
  password: decodeURIComponent(ADMIN_URL.password),
};
const config = { ...admin, database };
const items = { namespace: database, name: 'items' };

/** Runs statements on one UTC session, in a transaction when `transaction` is 'commit' or 'rollback'. */
async function sql(statements: string | string[], transaction?: 'commit' | 'rollback'): Promise<void> {
  const conn = await mysql.createConnection(config);
  try {
    await conn.query("set time_zone = '+00:00'");
    if (transaction) await conn.query('begin');
    for (const statement of [statements].flat()) await conn.query(statement);
    if (transaction) await conn.query(transaction);
  } finally {
    await conn.end();
  }
}

const COLUMNS = 'id, big, amount, ratio, flag, name, day, happened, stamped, doc, payload, note';
/** A row of `items` as SQL values, and the canonical values capture must give for it. */
function itemRow(id: number): { sql: string; canonical: Value[] } {
  return {
    sql: `(${id}, 9007199254740993, -12345.678, 0.1, 1, 'Grüße 👋 世界 ${id}', '2024-02-29', '2024-02-29 23:59:59.123456', '2024-03-01 12:00:00', '{"a": [1, 2], "b": "x"}', x'0001ff', null)`,
    canonical: [
      id,
      '9007199254740993',
      '-12345.678',
      0.1,
      true,
      `Grüße 👋 世界 ${id}`,
      '2024-02-29',
      '2024-02-29T23:59:59.123456',
      '2024-03-01T12:00:00.000000Z',
      new JsonText('{"a": [1, 2], "b": "x"}'),
      Buffer.from([0, 1, 255]),
      null,
    ],
  };
}

const withChanges = (txs: SourceTransaction[]) => txs.filter((tx) => tx.changes.length > 0);
const allChanges = (txs: SourceTransaction[]) => withChanges(txs).flatMap((tx) => tx.changes);
const idOf = (change: RowChange) => (change.values ?? change.oldKey)?.[0];
const valuesByName = (change: RowChange) =>
  Object.fromEntries(change.columns.map((c, i) => [c.name, change.values?.[i]]));

describe('MySQL / MariaDB change source', () => {
  let source: MysqlChangeSource;

  /** Streams from `position` until `done` holds for what arrived (then aborts), failing after 20 s. */
  async function streamUntil(
    position: string,
    done: (txs: SourceTransaction[]) => boolean,
    heartbeatMs = 60_000,
    table = items,
  ): Promise<SourceTransaction[]> {
    const controller = new AbortController();
    const received: SourceTransaction[] = [];
    const timeout = setTimeout(() => controller.abort(), 20_000);
    try {
      await source.stream(
        table,
        position,
        async (tx) => {
          received.push(tx);
          if (done(received)) controller.abort();
        },
        { signal: controller.signal, heartbeatMs },
      );
    } finally {
      clearTimeout(timeout);
    }
    if (!done(received))
      throw new Error(`the stream ended before the expected transactions arrived: ${JSON.stringify(received)}`);
    return received;
  }

  const changedUntil = (predicate: (change: RowChange) => boolean) => (txs: SourceTransaction[]) =>
    allChanges(txs).some(predicate);

  beforeAll(async () => {
    const conn = await mysql.createConnection(admin);
    await conn.query(`create database \`${database}\` character set utf8mb4`);
    await conn.query(`create user '${limitedUser}'@'%' identified by 'limited-pw-123'`);
    await conn.query(`grant select on \`${database}\`.* to '${limitedUser}'@'%'`);
    await conn.end();
    await sql(`create table items (
      id int not null primary key, big bigint, amount decimal(12,3), ratio float, flag tinyint(1), name varchar(100),
      day date, happened datetime(6), stamped timestamp null default null, doc json, payload blob, note varchar(20) null)`);
    await sql('create table nokey (id int, name varchar(10))');
    await sql('create table other (id int auto_increment primary key, v int)');
    source = mysqlChangeSource(config, `test-capture-${suffix}`, quiet);
  });

  afterAll(async () => {
    await source?.close();
    const conn = await mysql.createConnection(admin);
    await conn.query(`drop database if exists \`${database}\``);
    await conn.query(`drop user if exists '${limitedUser}'@'%'`);
    await conn.end();
  });

  it('is what the connector handle offers', async () => {
    const handle = openMysql(config, quiet);
    try {
      const offered = handle.changeSource?.('x');
      expect(offered).toBeDefined();
      await offered?.close();
    } finally {
      await handle.close();
    }
  });

  it('describes a table: canonical columns and primary key', async () => {
    const described = await source.describe(items);
    expect(described.primaryKey).toEqual(['id']);
    expect(described.columns.map((c) => [c.name, c.type])).toEqual([
      ['id', 'int32'],
      ['big', 'int64'],
      ['amount', 'decimal'],
      ['ratio', 'float32'],
      ['flag', 'boolean'],
      ['name', 'string'],
      ['day', 'date'],
      ['happened', 'timestamp'],
      ['stamped', 'timestamptz'],
      ['doc', 'json'],
      ['payload', 'binary'],
      ['note', 'string'],
    ]);
  });

  it('refuses a table without a primary key', async () => {
    const refused = source.describe({ namespace: database, name: 'nokey' });
    await expect(refused).rejects.toBeInstanceOf(ConnectorError);
    await expect(refused).rejects.toMatchObject({
      code: 'unsupported',
      retryable: false,
      message: `table "${database}"."nokey" has no primary key: change capture needs one to apply updates and deletes; add a primary key`,
    });
  });

  it('names the replication privileges a user lacks', async () => {
    const limited = mysqlChangeSource({ ...config, user: limitedUser, password: 'limited-pw-123' }, 'limited', quiet);
    try {
      const refused = limited.describe(items);
      await expect(refused).rejects.toMatchObject({ code: 'missing_privilege' });
      await expect(refused).rejects.toThrow(/REPLICATION SLAVE, REPLICATION CLIENT:/);
    } finally {
      await limited.close();
    }
  });

  it('names the server setting to change when the binlog cannot serve capture', () => {
    expect(binlogSettingsProblem({ logBin: true, format: 'ROW', rowImage: 'FULL' })).toBeUndefined();
    expect(binlogSettingsProblem({ logBin: false, format: 'ROW', rowImage: 'FULL' })).toMatch(/log_bin/);
    expect(binlogSettingsProblem({ logBin: true, format: 'MIXED', rowImage: 'FULL' })).toMatch(/binlog_format=ROW/);
    expect(binlogSettingsProblem({ logBin: true, format: 'ROW', rowImage: 'MINIMAL' })).toMatch(
      /binlog_row_image=FULL/,
    );
  });

  it('orders positions by file sequence, then offset', () => {
    expect(source.compare('mariadb-bin.000002:4', 'mariadb-bin.000001:99999')).toBeGreaterThan(0);
    expect(source.compare('mariadb-bin.000001:120', 'mariadb-bin.000001:4500;gtid=0-1-7')).toBeLessThan(0);
    expect(source.compare('mariadb-bin.000001:120;gtid=0-1-3', 'mariadb-bin.000001:120')).toBe(0);
    expect(() => source.compare('nonsense', 'mariadb-bin.000001:4')).toThrow(ConnectorError);
    const logs = [
      { file: 'b.000001', size: 1000 },
      { file: 'b.000002', size: 500 },
      { file: 'b.000003', size: 800 },
    ];
    expect(binlogBytesBetween({ file: 'b.000001', offset: 400 }, { file: 'b.000003', offset: 100 }, logs)).toBe(
      600 + 500 + 100,
    );
    expect(binlogBytesBetween({ file: 'b.000003', offset: 400 }, { file: 'b.000003', offset: 100 }, logs)).toBe(0);
    expect(binlogBytesBetween({ file: 'b.000000', offset: 4 }, { file: 'b.000003', offset: 100 }, logs)).toBeNull();
  });

  it('recognises the table a TRUNCATE empties', () => {
    expect(truncatedTable(statementText('/* by app */ TRUNCATE TABLE `items`'), 'db')).toEqual({
      database: 'db',
      table: 'items',
    });
    expect(truncatedTable('truncate other_db.`odd``name`', 'db')).toEqual({ database: 'other_db', table: 'odd`name' });
    expect(truncatedTable('ALTER TABLE items ADD COLUMN x int', 'db')).toBeUndefined();
  });

  let snapshotPosition = '';
  let lastPosition = '';

  it('snapshots exactly the rows present, consistent with its position', async () => {
    await sql(`insert into items (${COLUMNS}) values ${itemRow(1).sql}, ${itemRow(2).sql}`);
    const snapshot = await source.snapshot(items);
    try {
      // Changes made while the snapshot is open are not in it: they follow its position.
      await sql(`insert into items (${COLUMNS}) values ${itemRow(3).sql}`);
      await sql(
        [
          "update items set name = 'renamed', note = 'n' where id = 1",
          'delete from items where id = 2',
          `insert into items (${COLUMNS}) values ${itemRow(4).sql}`,
        ],
        'commit',
      );
      await sql(`insert into items (${COLUMNS}) values ${itemRow(99).sql}`, 'rollback');
      await sql('update items set id = 30 where id = 3');
      await sql(`insert into items (${COLUMNS}) values ${itemRow(5).sql}`);

      expect(snapshot.primaryKey).toEqual(['id']);
      expect(snapshot.position).toMatch(/^[\w.-]+\.\d+:\d+(;gtid=[\d,-]+)?$/);
      const batches: RecordBatch[] = [];
      for await (const batch of snapshot.rows) batches.push(batch);
      expect(batches.flatMap((b) => b.rows)).toEqual([itemRow(1).canonical, itemRow(2).canonical]);
      expect(batches[0]?.columns).toEqual(snapshot.columns);
      snapshotPosition = snapshot.position;
    } finally {
      await snapshot.close();
    }
    expect(await source.lagBytes!(snapshotPosition)).toBeGreaterThan(0);
  });

  it('streams the changes after the snapshot as whole transactions, in commit order', async () => {
    const received = await streamUntil(
      snapshotPosition,
      changedUntil((c) => idOf(c) === 5),
    );
    const txs = withChanges(received);
    const ops = txs.map((tx) => tx.changes.map((c) => [c.op, idOf(c)]));
    // Nothing from before the snapshot again, the rolled-back insert never, the multi-statement transaction as one.
    expect(ops).toEqual([
      [['insert', 3]],
      [
        ['update', 1],
        ['delete', 2],
        ['insert', 4],
      ],
      [['update', 30]],
      [['insert', 5]],
    ]);

    const [insert3, multi, keyChange] = txs;
    expect(insert3!.changes[0]).toEqual({
      op: 'insert',
      columns: expect.any(Array),
      values: itemRow(3).canonical,
      oldKey: null,
    });
    const [update1, delete2, insert4] = multi!.changes;
    expect(update1).toMatchObject({ op: 'update', oldKey: [1] });
    expect(valuesByName(update1!)).toMatchObject({ id: 1, name: 'renamed', note: 'n', big: '9007199254740993' });
    expect(delete2).toEqual({ op: 'delete', columns: expect.any(Array), values: null, oldKey: [2] });
    expect(insert4!.values).toEqual(itemRow(4).canonical);
    expect(keyChange!.changes[0]).toMatchObject({ op: 'update', oldKey: [3], values: expect.arrayContaining([30]) });
    expect(insert3!.changes[0]!.columns).toEqual((await source.describe(items)).columns);

    // The same canonical values as the connector's own reads.
    const handle = openMysql(config, quiet);
    try {
      const read: Value[][] = [];
      for await (const batch of handle.read!({ dataset: items })) read.push(...batch.rows);
      expect(read.find((row) => row[0] === 4)).toEqual(insert4!.values);
      expect(read.find((row) => row[0] === 1)).toEqual(update1!.values);
    } finally {
      await handle.close();
    }

    for (const tx of txs) expect(tx.commitTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const positions = txs.map((tx) => tx.position);
    expect(source.compare(snapshotPosition, positions[0]!)).toBeLessThan(0);
    for (let i = 1; i < positions.length; i++) expect(source.compare(positions[i - 1]!, positions[i]!)).toBeLessThan(0);
    lastPosition = positions.at(-1)!;
  });

  it('resumes from a saved position with exactly the later transactions', async () => {
    await sql(`insert into items (${COLUMNS}) values ${itemRow(10).sql}`);
    await sql(`insert into items (${COLUMNS}) values ${itemRow(11).sql}`);
    await sql(`insert into items (${COLUMNS}) values ${itemRow(12).sql}`);
    const first = await streamUntil(lastPosition, (txs) => withChanges(txs).length === 1);
    expect(allChanges(first).map(idOf)).toEqual([10]);
    const saved = withChanges(first)[0]!.position;
    const rest = await streamUntil(
      saved,
      changedUntil((c) => idOf(c) === 12),
    );
    expect(allChanges(rest).map(idOf)).toEqual([11, 12]);
    lastPosition = withChanges(rest).at(-1)!.position;
    await source.confirm(lastPosition);
    expect(source.confirmedPosition).toBe(lastPosition);
  });

  it('captures a truncate', async () => {
    await sql('truncate table items');
    const received = await streamUntil(
      lastPosition,
      changedUntil((c) => c.op === 'truncate'),
    );
    const [truncate] = withChanges(received);
    expect(truncate!.changes).toEqual([{ op: 'truncate', columns: expect.any(Array), values: null, oldKey: null }]);
    expect(truncate!.changes[0]!.columns.map((c) => c.name)).toContain('payload');
    lastPosition = truncate!.position;
  });

  it('carries a column added at the source in later changes', async () => {
    const before = lastPosition;
    await sql(`insert into items (${COLUMNS}) values ${itemRow(20).sql}`);
    const controller = new AbortController();
    const received: SourceTransaction[] = [];
    let heartbeats = 0;
    let altered: Promise<void> | undefined;
    const timeout = setTimeout(() => controller.abort(), 20_000);
    await source.stream(
      items,
      before,
      async (tx) => {
        received.push(tx);
        // Once caught up (the first heartbeat), change the table while the stream runs.
        if (tx.changes.length === 0 && ++heartbeats === 1) {
          altered = sql([
            "alter table items add column extra varchar(10) not null default 'x'",
            `insert into items (${COLUMNS}, extra) values ${itemRow(21).sql.slice(0, -1)}, 'y')`,
          ]);
        }
        if (allChanges(received).some((c) => idOf(c) === 21)) controller.abort();
      },
      { signal: controller.signal, heartbeatMs: 300 },
    );
    clearTimeout(timeout);
    await altered;
    const [insert20, insert21] = allChanges(received);
    expect(idOf(insert20!)).toBe(20);
    expect(insert20!.columns.map((c) => c.name)).not.toContain('extra');
    expect(insert20!.values).toEqual(itemRow(20).canonical);
    expect(insert21!.columns.map((c) => c.name).at(-1)).toBe('extra');
    expect(insert21!.columns.at(-1)).toMatchObject({ type: 'string', nullable: false });
    expect(valuesByName(insert21!)).toMatchObject({ id: 21, extra: 'y', big: '9007199254740993' });

    // Read again later: the older row images keep their own columns although the table has more now.
    const replayed = allChanges(
      await streamUntil(
        before,
        changedUntil((c) => idOf(c) === 21),
      ),
    );
    expect(replayed.map((c) => c.columns.length)).toEqual([12, 13]);
    expect(replayed[0]!.values).toEqual(itemRow(20).canonical);
    lastPosition = withChanges(received).at(-1)!.position;
  });

  it('loses and reorders nothing for a slow consumer', async () => {
    const count = 3_000;
    const conn = await mysql.createConnection(config);
    try {
      for (let id = 1_000; id < 1_000 + count; id++)
        await conn.query('insert into items (id, name) values (?, ?)', [id, `n${id}`]);
    } finally {
      await conn.end();
    }
    const ids: unknown[] = [];
    const controller = new AbortController();
    await source.stream(
      items,
      lastPosition,
      async (tx) => {
        ids.push(...tx.changes.map(idOf));
        if (tx.changes.length > 0) lastPosition = tx.position;
        // Slower than the binlog arrives, so that events pile up behind the consumer.
        if (ids.length % 100 === 0) await new Promise((resolve) => setTimeout(resolve, 20));
        if (ids.length === count) controller.abort();
      },
      { signal: controller.signal },
    );
    expect(ids).toEqual(Array.from({ length: count }, (_, i) => 1_000 + i));
  });

  it('sends heartbeats at moving positions while only other tables change', async () => {
    const writes = setInterval(() => void sql('insert into other (v) values (1)'), 150);
    const started = Date.now();
    let received: SourceTransaction[];
    try {
      received = await streamUntil(lastPosition, (txs) => txs.length >= 3, 500);
    } finally {
      clearInterval(writes);
    }
    expect(received.every((tx) => tx.changes.length === 0)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    expect(source.compare(received.at(-1)!.position, lastPosition)).toBeGreaterThan(0);
    for (const tx of received) expect(Date.parse(tx.commitTime)).toBeGreaterThan(started - 60_000);
  });

  it('gives every column type the same canonical value as the connector reads', async () => {
    const wide = { namespace: database, name: 'wide' };
    await sql(`create table wide (
      id int primary key, ti tinyint, b1 tinyint(1), bit1 bit(1), bit8 bit(8), si smallint unsigned, mi mediumint, iu int unsigned,
      bi bigint, bu bigint unsigned, f float, d double, dec1 decimal(30,10), vc varchar(20), tx text, en enum('a','b','quo''te','😀','c,d'), st set('x','y'),
      u uuid, dt date, tm time(3), tm0 time, dtm datetime(6), dtm0 datetime, ts timestamp null, ts6 timestamp(6) null, yr year,
      js json, bl longblob, vb varbinary(8), bn binary(4))`);
    const snapshot = await source.snapshot(wide);
    await snapshot.close();
    await sql([
      `insert into wide values (1, -5, 1, b'1', b'10100101', 65535, -8388608, 4294967295, -9007199254740993, 18446744073709551615, 16777216,
        0.30000000000000004, '-12345678901234567890.0123456789', 'é😀', 'tëxt', 'b', 'x,y', '123e4567-e89b-12d3-a456-426614174000', '2024-02-29',
        '-12:34:56.789', '838:59:59', '2024-02-29 23:59:59.000001', '1000-01-01 00:00:00', '2038-01-19 03:14:07', '1970-01-01 00:00:01.5',
        2024, '{"a": 1, "n": null}', x'00ff', x'01', x'02')`,
      'insert into wide (id) values (2)',
      // enum labels with a quote, a character outside the BMP and a comma, exactly as defined
      `insert into wide (id, en) values (3, 'quo''te'), (4, '😀'), (5, 'c,d')`,
    ]);
    const captured = allChanges(
      await streamUntil(
        snapshot.position,
        changedUntil((c) => idOf(c) === 5),
        60_000,
        wide,
      ),
    ).map((c) => c.values);
    const handle = openMysql(config, quiet);
    try {
      const read: Value[][] = [];
      for await (const batch of handle.read!({ dataset: wide })) read.push(...batch.rows);
      expect(captured).toEqual(read);
      expect(read[0]).toContain('2038-01-19T03:14:07.000000Z');
      expect(read.slice(2).map((row) => row[15])).toEqual(["quo'te", '😀', 'c,d']);
    } finally {
      await handle.close();
    }
  });

  it('keeps JSON exact in the snapshot, the stream and the read: JSON null apart from SQL NULL, every digit', async () => {
    const docs = { namespace: database, name: 'docs' };
    await sql('create table docs (id int primary key, js json)');
    const texts = [
      'null',
      null,
      '123456789012345678901234567890',
      '1e400',
      '{"b": 1,  "a": [0.1, -5e-7]}',
      '"quo\'te 😀"',
    ];
    const insert = texts.map((_, i) => `(${i + 1}, ?)`).join(', ');
    const conn = await mysql.createConnection(config);
    try {
      await conn.query(`insert into docs values ${insert}`, texts);
    } finally {
      await conn.end();
    }
    const expected = texts.map((text, i) => [i + 1, text === null ? null : new JsonText(text)]);
    const snapshot = await source.snapshot(docs);
    const snapshotRows: Value[][] = [];
    try {
      for await (const batch of snapshot.rows) snapshotRows.push(...batch.rows);
    } finally {
      await snapshot.close();
    }
    expect(snapshotRows).toEqual(expected);
    const again = await mysql.createConnection(config);
    try {
      await again.query(`insert into docs values ${texts.map((_, i) => `(${i + 11}, ?)`).join(', ')}`, texts);
    } finally {
      await again.end();
    }
    const captured = allChanges(
      await streamUntil(
        snapshot.position,
        changedUntil((c) => idOf(c) === 16),
        60_000,
        docs,
      ),
    ).map((c) => c.values);
    expect(captured).toEqual(texts.map((text, i) => [i + 11, text === null ? null : new JsonText(text)]));
    const handle = openMysql(config, quiet);
    try {
      const read: Value[][] = [];
      for await (const batch of handle.read!({ dataset: docs, incremental: { cursorColumn: 'id' } }))
        read.push(...batch.rows);
      expect(read.slice(0, texts.length)).toEqual(expected);
    } finally {
      await handle.close();
    }
  });

  it('resolves promptly when aborted', async () => {
    const controller = new AbortController();
    const streaming = source.stream(items, lastPosition, async () => undefined, {
      signal: controller.signal,
      heartbeatMs: 60_000,
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const aborted = Date.now();
    controller.abort();
    await streaming;
    expect(Date.now() - aborted).toBeLessThan(1500);
  });

  it('fails with a resync hint when the position is no longer in the binlog', async () => {
    const file = lastPosition.split(':')[0]!.replace(/\d+$/, (digits) => '9'.repeat(digits.length));
    const streaming = source.stream(items, `${file}:4`, async () => undefined, {
      signal: new AbortController().signal,
    });
    await expect(streaming).rejects.toBeInstanceOf(ConnectorError);
    await expect(streaming).rejects.toThrow(/resync is needed/);
  });
});
