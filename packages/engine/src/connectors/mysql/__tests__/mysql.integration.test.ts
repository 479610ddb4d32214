import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { connectorContract } from '../../../__tests__/contract.js';
import { CANONICAL_COLUMNS, CANONICAL_ROWS, parsedRows, quiet } from '../../../__tests__/support.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonicalType, ColumnSchema, ConnectorHandle, RecordBatch, Value, WriteRequest } from '../../../types.js';
import { CANONICAL_TYPES } from '../../../types.js';
import { copyLines } from '../../postgres/copy-text.js';
import { openPostgres } from '../../postgres/definition.js';
import { MysqlClient } from '../client.js';
import { mysqlConnector, openMysql } from '../definition.js';

const ADMIN_URL = new URL(process.env['SVC_TEST_MYSQL_URL'] ?? 'mysql://root@127.0.0.1:3306');
const suffix = randomBytes(5).toString('hex');
const database = `svc_myconn_${suffix}`;
const limitedUser = `svc_myconn_${suffix}`;
const admin = {
  host: ADMIN_URL.hostname,
  port: Number(ADMIN_URL.port || 3306),
  user: decodeURIComponent(ADMIN_URL.username),
  password: decodeURIComponent(ADMIN_URL.password),
};
const config = { ...admin, database };

async function sql<T = mysql.RowDataPacket[]>(text: string, params: unknown[] = []): Promise<T> {
  const conn = await mysql.createConnection({
    ...config,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  try {
    const [rows] = await conn.query(text, params);
    return rows as T;
  } finally {
    await conn.end();
  }
}

async function collect(iterable: AsyncIterable<RecordBatch>): Promise<RecordBatch[]> {
  const batches: RecordBatch[] = [];
  for await (const batch of iterable) batches.push(batch);
  return batches;
}

async function* batchesOf(columns: ColumnSchema[], ...chunks: Value[][][]): AsyncIterable<RecordBatch> {
  for (const rows of chunks) yield { columns, rows };
}

const col = (name: string, type: CanonicalType, extra: Partial<ColumnSchema> = {}): ColumnSchema => ({
  name,
  type,
  sourceType: type,
  nullable: true,
  ...extra,
});
const dataset = (name: string) => ({ namespace: database, name });
const request = (
  name: string,
  mode: WriteRequest['mode'],
  columns: ColumnSchema[],
  keyColumns?: string[],
): WriteRequest => ({
  dataset: dataset(name),
  mode,
  columns,
  runId: `run-${name}-${mode}`,
  ...(keyColumns ? { keyColumns } : {}),
});
const rowsOf = (batches: RecordBatch[]) => parsedRows(batches.flatMap((b) => b.rows));

describe('MySQL / MariaDB connector', () => {
  let handle: ConnectorHandle;

  beforeAll(async () => {
    const conn = await mysql.createConnection(admin);
    await conn.query(`create database \`${database}\` character set utf8mb4`);
    await conn.query(`create user '${limitedUser}'@'%' identified by 'limited-pw-123'`);
    await conn.end();
    handle = await mysqlConnector.open(config, quiet);
  });

  afterAll(async () => {
    await handle?.close();
    const conn = await mysql.createConnection(admin);
    await conn.query(`drop database if exists \`${database}\``);
    await conn.query(`drop user if exists '${limitedUser}'@'%'`);
    await conn.end();
  });

  connectorContract('mysql', {
    capabilities: mysqlConnector.capabilities,
    open: () => openMysql(config, quiet),
    broken: { open: () => openMysql({ ...config, database: 'no_such_database_here' }, quiet), code: 'not_found' },
    dataset,
    incremental: true,
    // Times and timestamps are stored with six fraction digits and read back with all six.
    canonical: {
      columns: CANONICAL_COLUMNS,
      rows: CANONICAL_ROWS,
      back: {
        types: CANONICAL_COLUMNS.map((c) => c.type),
        rows: CANONICAL_ROWS.map((row) =>
          row[0] === 2 ? [...row.slice(0, 10), '00:00:00.000000', '1970-01-01T00:00:00.000000', ...row.slice(12)] : row,
        ),
      },
    },
  });

  it('declares its kind, config spec and write modes', () => {
    expect(mysqlConnector).toMatchObject({
      kind: 'mysql',
      title: 'MySQL / MariaDB',
      version: 1,
      capabilities: { read: true, write: true },
    });
    expect(mysqlConnector.capabilities.writeModes).toEqual(['append', 'overwrite', 'upsert']);
    expect(mysqlConnector.spec.required).toEqual(['host', 'database', 'user']);
    expect(mysqlConnector.spec).toMatchObject({ additionalProperties: false });
    expect(Object.keys(mysqlConnector.spec.properties)).toEqual([
      'host',
      'port',
      'database',
      'user',
      'password',
      'ssl',
    ]);
    expect(mysqlConnector.spec.properties['password']).toMatchObject({ 'x-secret': true });
    expect(mysqlConnector.spec.properties['port']).toMatchObject({ type: 'integer', default: 3306 });
    expect(mysqlConnector.spec.properties['ssl']).toMatchObject({ type: 'boolean', default: false });
  });

  it('checks a good connection', async () => {
    expect(await handle.check()).toEqual({ ok: true });
  });

  it('runs its sessions in UTC and strict mode, whatever the server default', async () => {
    const client = new MysqlClient(config, quiet);
    try {
      const conn = await client.connection();
      const [rows] = await conn
        .promise()
        .query<mysql.RowDataPacket[]>('select @@session.time_zone as tz, @@session.sql_mode as mode');
      conn.release();
      expect(rows[0]?.['tz']).toBe('+00:00');
      expect(String(rows[0]?.['mode']).split(',')).toContain('STRICT_ALL_TABLES');
    } finally {
      await client.close();
    }
  });

  it('reports a wrong password as auth_failed without echoing it', async () => {
    const password = 'Wr0ng-S3cret-Pa55word';
    const logged: unknown[] = [];
    const bad = await mysqlConnector.open({ ...config, password }, { ...quiet, log: (...args) => logged.push(args) });
    const result = await bad.check();
    await bad.close();
    expect(result).toMatchObject({ ok: false, code: 'auth_failed' });
    expect(JSON.stringify(result)).not.toContain(password);
    expect(JSON.stringify(logged)).not.toContain(password);
  });

  it('reports a closed port as unreachable and an unknown database as not_found', async () => {
    const closed = openMysql({ ...config, port: 1 }, quiet);
    expect(await closed.check()).toMatchObject({ ok: false, code: 'unreachable' });
    await closed.close();
    const missing = openMysql({ ...config, database: `${database}_missing` }, quiet);
    expect(await missing.check()).toMatchObject({ ok: false, code: 'not_found' });
    await missing.close();
  });

  it('reports a user without access to the database as missing_privilege', async () => {
    const limited = openMysql({ ...config, user: limitedUser, password: 'limited-pw-123' }, quiet);
    const result = await limited.check();
    await limited.close();
    expect(result).toMatchObject({ ok: false, code: 'missing_privilege' });
  });

  it('discovers tables with columns, types, primary keys and row estimates', async () => {
    await sql(`create table people (
      id bigint not null, name varchar(50) not null, active tinyint(1), score decimal(10,2), born date,
      wakes time(6), seen datetime(6), changed timestamp(6) null, doc json, photo blob, small smallint, n int,
      primary key (id))`);
    await sql(`create table pairs (a int not null, b int not null, primary key (b, a))`);
    await sql(`insert into people (id, name) values (1, 'a'), (2, 'b'), (3, 'c')`);
    await sql(`analyze table people`);
    const tables = await handle.discover();
    const people = tables.find((t) => t.name === 'people');
    expect(people).toBeDefined();
    expect(people!.namespace).toBe(database);
    expect(people!.primaryKey).toEqual(['id']);
    expect(people!.rowEstimate).toBe(3);
    const byName = Object.fromEntries(people!.columns.map((c) => [c.name, c]));
    expect(people!.columns.map((c) => c.name)).toEqual([
      'id',
      'name',
      'active',
      'score',
      'born',
      'wakes',
      'seen',
      'changed',
      'doc',
      'photo',
      'small',
      'n',
    ]);
    expect(byName['id']).toMatchObject({ type: 'int64', nullable: false });
    expect(byName['name']).toMatchObject({ type: 'string', sourceType: 'varchar(50)', nullable: false });
    expect(byName['active']).toMatchObject({ type: 'boolean', nullable: true });
    expect(byName['score']).toMatchObject({ type: 'decimal', precision: 10, scale: 2 });
    expect(byName['born']?.type).toBe('date');
    expect(byName['wakes']?.type).toBe('time');
    expect(byName['seen']?.type).toBe('timestamp');
    expect(byName['changed']?.type).toBe('timestamptz');
    expect(byName['doc']?.type).toBe('json');
    expect(byName['photo']?.type).toBe('binary');
    expect(byName['small']?.type).toBe('int16');
    expect(byName['n']?.type).toBe('int32');
    expect(tables.find((t) => t.name === 'pairs')?.primaryKey).toEqual(['b', 'a']);
  });

  it('writes every canonical type and reads back exactly what it wrote', async () => {
    const columns: ColumnSchema[] = [
      col('id', 'int32'),
      col('flag', 'boolean'),
      col('i16', 'int16'),
      col('i32', 'int32'),
      col('i64', 'int64'),
      col('f32', 'float32'),
      col('f64', 'float64'),
      col('amount', 'decimal', { precision: 20, scale: 6 }),
      col('label', 'string'),
      col('ident', 'uuid'),
      col('day', 'date'),
      col('clock', 'time'),
      col('local_at', 'timestamp'),
      col('utc_at', 'timestamptz'),
      col('doc', 'json'),
      col('bytes', 'binary'),
    ];
    expect(new Set(columns.map((c) => c.type))).toEqual(new Set(CANONICAL_TYPES));
    const rows: Value[][] = [
      [
        1,
        true,
        -32768,
        2147483647,
        '9007199254740993', // 2^53 + 1: a double would round it
        0.1,
        0.30000000000000004,
        '12345678901234.567890',
        'héllo wörld 😀 世界',
        '123e4567-e89b-12d3-a456-426614174000',
        '2024-02-29',
        '12:34:56.123456',
        '2024-02-29T23:59:59.999999',
        '2024-03-10T02:30:00.123456Z',
        { a: 1, nested: { b: [1, 'x', null, true] }, text: 'é"\\' },
        Buffer.from([0, 1, 2, 127, 128, 254, 255]),
      ],
      [2, ...columns.slice(1).map(() => null)],
      [
        3,
        false,
        32767,
        -2147483648,
        '-9223372036854775808',
        16777216,
        -1e308,
        '-0.000001',
        '',
        '00000000-0000-0000-0000-000000000000',
        '0001-01-01',
        '00:00:00.000001',
        '1000-01-01T00:00:00.000000',
        '1970-01-01T00:00:00.000001Z',
        [1, 'two', { three: 3 }],
        Buffer.alloc(0),
      ],
    ];
    const summary = await handle.write!(
      request('all_types', 'append', columns),
      batchesOf(columns, rows.slice(0, 2), rows.slice(2)),
    );
    expect(summary).toEqual({ rowsWritten: 3 });

    const batches = await collect(handle.read!({ dataset: dataset('all_types') }));
    expect(batches.map((b) => b.columns.map((c) => [c.name, c.type]))[0]).toEqual(columns.map((c) => [c.name, c.type]));
    const read = rowsOf(batches).sort((a, b) => Number(a[0]) - Number(b[0]));
    expect(read).toEqual(rows);
    expect(Buffer.isBuffer(read[0]![15])).toBe(true);

    // The stored values themselves: bigint exact, timestamptz in UTC, unicode intact.
    const [stored] = await sql(
      `select cast(i64 as char) as i64, cast(utc_at as char) as utc_at, label, cast(amount as char) as amount from all_types where id = 1`,
    );
    expect(stored).toMatchObject({
      i64: '9007199254740993',
      utc_at: '2024-03-10 02:30:00.123456',
      label: 'héllo wörld 😀 世界',
      amount: '12345678901234.567890',
    });
  });

  it('stores a timestamptz with an offset as its UTC instant', async () => {
    const columns = [col('id', 'int32'), col('at', 'timestamptz')];
    await handle.write!(
      request('zoned', 'append', columns),
      batchesOf(columns, [
        [1, '2024-01-01T01:00:00.5+02:00'],
        [2, '2024-06-30T20:15:00.000001-05:30'],
      ]),
    );
    const read = rowsOf(await collect(handle.read!({ dataset: dataset('zoned') })));
    expect(read).toEqual([
      [1, '2023-12-31T23:00:00.500000Z'],
      [2, '2024-07-01T01:45:00.000001Z'],
    ]);
  });

  it('reads incrementally: only rows after the cursor, in cursor order, with the chosen columns', async () => {
    // No primary key and rows inserted in reverse: only ORDER BY puts them in cursor order.
    await sql(`create table events (id int, name varchar(20), at timestamp(6) null)`);
    const values = Array.from({ length: 10 }, (_, i) => [10 - i, `e${10 - i}`, `2024-01-01 00:00:00.00000${i}`]);
    await sql(`insert into events (id, name, at) values ${values.map(() => '(?, ?, ?)').join(', ')}`, values.flat());

    const after7 = rowsOf(
      await collect(
        handle.read!({
          dataset: dataset('events'),
          columns: ['name', 'id'],
          incremental: { cursorColumn: 'id', after: 7 },
        }),
      ),
    );
    expect(after7).toEqual([
      ['e8', 8],
      ['e9', 9],
      ['e10', 10],
    ]);
    const all = rowsOf(
      await collect(handle.read!({ dataset: dataset('events'), columns: ['id'], incremental: { cursorColumn: 'id' } })),
    );
    expect(all.map((r) => r[0])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const afterLast = await collect(
      handle.read!({ dataset: dataset('events'), incremental: { cursorColumn: 'id', after: 10 } }),
    );
    expect(rowsOf(afterLast)).toEqual([]);
    // A timestamptz cursor compares as the same UTC instant (id 1 has the latest time).
    const byTime = rowsOf(
      await collect(
        handle.read!({
          dataset: dataset('events'),
          columns: ['id', 'at'],
          incremental: { cursorColumn: 'at', after: '2024-01-01T00:00:00.000006Z' },
        }),
      ),
    );
    expect(byTime).toEqual([
      [3, '2024-01-01T00:00:00.000007Z'],
      [2, '2024-01-01T00:00:00.000008Z'],
      [1, '2024-01-01T00:00:00.000009Z'],
    ]);
  });

  it('refuses to read a table or column that does not exist', async () => {
    await expect(collect(handle.read!({ dataset: dataset('no_such_table') }))).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(collect(handle.read!({ dataset: dataset('events'), columns: ['nope'] }))).rejects.toMatchObject({
      code: 'schema_mismatch',
    });
  });

  it('overwrites: the table holds only the new rows, and the staging table is gone', async () => {
    const columns = [col('id', 'int32'), col('name', 'string')];
    await handle.write!(
      request('snapshot', 'append', columns),
      batchesOf(columns, [
        [1, 'old-1'],
        [2, 'old-2'],
        [3, 'old-3'],
      ]),
    );
    const wider = [...columns, col('extra', 'int64')];
    const summary = await handle.write!(
      request('snapshot', 'overwrite', wider),
      batchesOf(wider, [[10, 'new-10', '5']], [[11, 'new-11', null]]),
    );
    expect(summary).toEqual({ rowsWritten: 2 });
    const read = rowsOf(await collect(handle.read!({ dataset: dataset('snapshot') })));
    expect(read.sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
      [10, 'new-10', '5'],
      [11, 'new-11', null],
    ]);
    const leftovers = await sql(
      `select table_name from information_schema.tables where table_schema = ? and table_name like 'snapshot%'`,
      [database],
    );
    expect(leftovers).toHaveLength(1);
    // Overwriting a table that does not exist creates it.
    await handle.write!(request('fresh', 'overwrite', columns), batchesOf(columns, [[1, 'x']]));
    expect(rowsOf(await collect(handle.read!({ dataset: dataset('fresh') })))).toEqual([[1, 'x']]);
  });

  it('upserts: existing keys are updated, new keys inserted, no duplicates', async () => {
    const columns = [col('tenant', 'string'), col('id', 'int64'), col('name', 'string'), col('seen', 'timestamp')];
    const keys = ['tenant', 'id'];
    await handle.write!(
      request('accounts', 'upsert', columns, keys),
      batchesOf(columns, [
        ['t1', '1', 'alice', '2024-01-01T00:00:00.000000'],
        ['t1', '2', 'bob', '2024-01-01T00:00:00.000000'],
        ['T1', '1', 'other tenant', null],
      ]),
    );
    const summary = await handle.write!(
      request('accounts', 'upsert', columns, keys),
      batchesOf(columns, [
        ['t1', '2', 'bobby', '2024-02-02T00:00:00.000000'],
        ['t1', '3', 'carol', null],
      ]),
    );
    expect(summary).toEqual({ rowsWritten: 2 });
    const read = rowsOf(await collect(handle.read!({ dataset: dataset('accounts') })));
    expect(read.sort((a, b) => (`${a[0]}${a[1]}` < `${b[0]}${b[1]}` ? -1 : 1))).toEqual([
      ['T1', '1', 'other tenant', null],
      ['t1', '1', 'alice', '2024-01-01T00:00:00.000000'],
      ['t1', '2', 'bobby', '2024-02-02T00:00:00.000000'],
      ['t1', '3', 'carol', null],
    ]);
    const schema = (await handle.discover()).find((t) => t.name === 'accounts');
    expect(schema?.primaryKey).toEqual(keys);
  });

  it('refuses an upsert into a table without a key on the key columns', async () => {
    await sql(`create table keyless (id int, name varchar(10))`);
    const columns = [col('id', 'int32'), col('name', 'string')];
    await expect(
      handle.write!(request('keyless', 'upsert', columns, ['id']), batchesOf(columns, [[1, 'a']])),
    ).rejects.toMatchObject({ code: 'schema_mismatch' });
    await expect(
      handle.write!(request('keyless', 'upsert', columns), batchesOf(columns, [[1, 'a']])),
    ).rejects.toMatchObject({ code: 'invalid_config' });
  });

  it('adds missing columns to an existing table and keeps its rows', async () => {
    await sql(`create table evolving (id int primary key, name varchar(10))`);
    await sql(`insert into evolving values (1, 'one')`);
    const columns = [
      col('id', 'int32'),
      col('name', 'string'),
      col('score', 'decimal', { precision: 8, scale: 3 }),
      col('tags', 'json'),
    ];
    await handle.write!(request('evolving', 'append', columns), batchesOf(columns, [[2, 'two', '12.500', ['a']]]));
    const read = rowsOf(await collect(handle.read!({ dataset: dataset('evolving') })));
    expect(read).toEqual([
      [1, 'one', null, null],
      [2, 'two', '12.500', ['a']],
    ]);
    const schema = (await handle.discover()).find((t) => t.name === 'evolving');
    expect(schema?.columns.find((c) => c.name === 'name')?.sourceType).toBe('varchar(10)');
  });

  it('rolls an append back when a batch fails, so a retry does not write twice', async () => {
    const columns = [col('id', 'int32'), col('n', 'int16')];
    await handle.write!(request('atomic', 'append', columns), batchesOf(columns, [[1, 1]]));
    const failing = handle.write!(
      { ...request('atomic', 'append', columns), runId: 'second-run' },
      batchesOf(
        columns,
        [
          [2, 2],
          [3, 3],
        ],
        [[4, 'not a number']],
      ),
    );
    await expect(failing).rejects.toMatchObject({ code: 'schema_mismatch' });
    const [count] = await sql(`select count(*) as n from atomic`);
    expect(Number(count?.['n'])).toBe(1);
  });

  it('appends and overwrites through LOAD DATA LOCAL, which refuses what INSERT refuses (a duplicate key, a value out of range)', async () => {
    const loads = async () => Number((await sql(`show global status like 'Com_load'`))[0]?.['Value']);
    const columns = [col('id', 'int32'), col('n', 'int16'), col('label', 'string'), col('raw', 'binary')];
    await sql(
      'create table loaded (id int primary key, n smallint, label longtext, raw longblob) default charset=utf8mb4 collate=utf8mb4_bin',
    );
    const before = await loads();
    const written = await handle.write!(
      request('loaded', 'append', columns, ['id']),
      batchesOf(columns, [
        [1, 7, 'a\tb\nc\\d \0 😀', Buffer.from([0, 9, 10, 92, 255])],
        [2, null, null, null],
      ]),
    );
    expect(written).toEqual({ rowsWritten: 2 });
    expect(await loads()).toBeGreaterThan(before);
    const rows = await sql(`select id, n, label, hex(raw) as raw from loaded order by id`);
    expect(rows.map((r) => ({ ...r }))).toEqual([
      { id: 1, n: 7, label: 'a\tb\nc\\d \0 😀', raw: '00090A5CFF' },
      { id: 2, n: null, label: null, raw: null },
    ]);
    // LOAD DATA LOCAL would skip a duplicate and clamp 99999 to 32767, each with a warning: both fail,
    // and the append is rolled back.
    for (const bad of [
      [
        [3, 1, 'x', null],
        [1, 1, 'duplicate', null],
      ],
      [[4, 99999, 'too big', null]],
    ] as Value[][][]) {
      await expect(
        handle.write!(
          { ...request('loaded', 'append', columns, ['id']), runId: `bad-${String(bad[0]![0])}` },
          batchesOf(columns, bad),
        ),
      ).rejects.toMatchObject({ retryable: false });
    }
    expect(await sql(`select id from loaded order by id`)).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('appends once per run: a retried run writes nothing twice, and the marker table stays out of discovery', async () => {
    const columns = [col('id', 'int32')];
    const once = (runId: string, rows: Value[][]) =>
      handle.write!({ ...request('once_per_run', 'append', columns), runId }, batchesOf(columns, rows));
    expect(await once('run-1', [[1], [2]])).toEqual({ rowsWritten: 2 });
    expect(await once('run-1', [[1], [2]])).toEqual({ rowsWritten: 0 });
    expect(await once('run-2', [[3]])).toEqual({ rowsWritten: 1 });
    const rows = await sql(`select id from once_per_run order by id`);
    expect(rows.map((r) => r['id'])).toEqual([1, 2, 3]);
    expect((await handle.discover()).map((t) => t.name)).not.toContain('_svc_runs');
  });

  it('reads key ranges and finds the bounds of a key, for parallel copies', async () => {
    const columns = [col('id', 'int32'), col('label', 'string')];
    await handle.write!(
      request('ranged', 'append', columns),
      batchesOf(
        columns,
        Array.from({ length: 100 }, (_, i) => [i + 1, `r${i + 1}`]),
      ),
    );
    expect(await handle.keyBounds!(dataset('ranged'), 'id')).toEqual({ min: '1', max: '100' });
    const middle = rowsOf(
      await collect(handle.read!({ dataset: dataset('ranged'), range: { column: 'id', from: 40, to: 60 } })),
    );
    expect(middle.map((r) => r[0])).toEqual(Array.from({ length: 20 }, (_, i) => i + 40));
    const tail = rowsOf(
      await collect(handle.read!({ dataset: dataset('ranged'), range: { column: 'id', from: 95, to: null } })),
    );
    expect(tail.map((r) => r[0])).toEqual([95, 96, 97, 98, 99, 100]);
    await sql(`create table empty_keys (id int primary key)`);
    expect(await handle.keyBounds!(dataset('empty_keys'), 'id')).toBeNull();
  });

  it('reads a large table in several batches, streaming', async () => {
    const columns = [col('id', 'int32'), col('payload', 'string')];
    const total = 25_000;
    async function* generated(): AsyncIterable<RecordBatch> {
      for (let start = 0; start < total; start += 4_000) {
        const rows = Array.from({ length: Math.min(4_000, total - start) }, (_, i) => [
          start + i + 1,
          `row ${start + i + 1}`,
        ]);
        yield { columns, rows };
      }
    }
    expect(await handle.write!(request('large', 'append', columns), generated())).toEqual({ rowsWritten: total });

    const batches = await collect(handle.read!({ dataset: dataset('large') }));
    expect(batches.map((b) => b.rows.length)).toEqual([10_000, 10_000, 5_000]);
    const ids = new Set(rowsOf(batches).map((r) => r[0]));
    expect(ids.size).toBe(total);

    const small = await collect(handle.read!({ dataset: dataset('large'), batchSize: 7_000 }));
    expect(small.length).toBe(4);
    expect(small.reduce((sum, b) => sum + b.rows.length, 0)).toBe(total);
  });

  it('stops cleanly when the consumer stops early, and the handle stays usable', async () => {
    let seen = 0;
    for await (const batch of handle.read!({ dataset: dataset('large'), batchSize: 1_000 })) {
      seen += batch.rows.length;
      break;
    }
    expect(seen).toBe(1_000);
    const controller = new AbortController();
    const aborted = (async () => {
      for await (const _batch of handle.read!({ dataset: dataset('large'), batchSize: 1_000 }, controller.signal))
        controller.abort();
    })();
    await expect(aborted).rejects.toThrow();
    expect(await handle.check()).toEqual({ ok: true });
    const [count] = rowsOf(await collect(handle.read!({ dataset: dataset('events'), columns: ['id'] })));
    expect(count).toBeDefined();
  });
});

describe('MySQL / MariaDB bulk path (COPY text for PostgreSQL)', () => {
  let handle: ConnectorHandle;
  const bulkDatabase = `svc_mybulk_${suffix}`;
  const bulkConfig = { ...admin, database: bulkDatabase };

  async function bulkSql(text: string): Promise<void> {
    const conn = await mysql.createConnection({ ...bulkConfig, multipleStatements: true });
    try {
      await conn.query("set time_zone = '+00:00', sql_mode = ''");
      await conn.query(text);
    } finally {
      await conn.end();
    }
  }

  /** What the batch path sends the PostgreSQL writer: the decoded rows as COPY text. */
  async function batchText(name: string): Promise<string> {
    const batches = await collect(handle.read!({ dataset: { namespace: null, name } }));
    return batches
      .map((b) =>
        copyLines(
          b.rows,
          b.columns.map((c) => c.type),
        ),
      )
      .join('');
  }

  async function bulkText(name: string): Promise<{ text: string; columns: ColumnSchema[] }> {
    const bulk = await handle.exportBulk!({ dataset: { namespace: null, name } });
    expect(bulk?.format).toBe('postgres-copy-text');
    const chunks: Buffer[] = [];
    for await (const chunk of bulk!.stream as AsyncIterable<Buffer>) chunks.push(chunk);
    return { text: Buffer.concat(chunks).toString('utf8'), columns: bulk!.columns };
  }

  beforeAll(async () => {
    const conn = await mysql.createConnection(admin);
    await conn.query(`create database \`${bulkDatabase}\` character set utf8mb4`);
    await conn.end();
    handle = await mysqlConnector.open(bulkConfig, quiet);
  });

  afterAll(async () => {
    await handle?.close();
    const conn = await mysql.createConnection(admin);
    await conn.query(`drop database if exists \`${bulkDatabase}\``);
    await conn.end();
  });

  it('sends every type exactly as the batch path does: zero dates, bit, binary, unsigned bigint, tinyint(1), JSON, escapes', async () => {
    await bulkSql(`
      create table types (
        id int primary key, flag tinyint(1), bflag bit(1), bits bit(10), ti tinyint, tu tinyint unsigned,
        si smallint, su smallint unsigned, mi mediumint, mu mediumint unsigned, i int, iu int unsigned,
        bi bigint, bu bigint unsigned, yr year, zf int(6) zerofill,
        f float, f2 float(7,3), d double, dec1 decimal(38,10), dec2 decimal(5,0),
        c char(5), vc varchar(100), tx text, en enum('a','quo''te','😀'), st set('x','y'),
        lat varchar(20) character set latin1,
        dt date, tm time, tm3 time(3), dtm datetime, dtm6 datetime(6), ts timestamp(6) null,
        doc json, bin binary(4), vb varbinary(10), bl blob
      ) character set utf8mb4`);
    await bulkSql(`insert into types values
      (1, 1, b'1', b'1010101010', -128, 255, -32768, 65535, -8388608, 16777215, -2147483648, 4294967295,
       -9223372036854775808, 18446744073709551615, 2024, 42,
       0.1, 1234.567, 0.30000000000000004, 1234567890123456789012345678.0123456789, -12345,
       'ab', 'tab\\there\\nnew\\rret \\\\ back', 'héllo wörld 😀 世界', 'quo''te', 'x,y',
       'café',
       '2024-02-29', '-838:59:59', '12:34:56.5', '2024-02-29 23:59:59', '1000-01-01 00:00:00.000001', '2024-03-10 02:30:00.123456',
       '{"a": 1, "big": 123456789012345678901234567890, "e": 1e400, "s": "t\\\\tab"}', x'00010280', x'5c090a0dff', x'00'),
      (2, 0, b'0', b'0', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
       -0.0, 0, -1e308, 0, 0,
       '', '', '', 'a', '',
       '',
       '0000-00-00', '00:00:00', '00:00:00', '0000-00-00 00:00:00', '0000-00-00 00:00:00.000000', '0000-00-00 00:00:00',
       'null', x'', x'', x''),
      (3, -5, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
       16777216, null, 5e-324, null, null,
       null, null, null, null, null, null,
       null, null, null, null, null, null,
       '[1, "two", {"three": 3}]', null, null, null),
      (4, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
       3.4028235e38, null, 1.7976931348623157e308, null, null,
       null, '\\\\N', null, null, null, null,
       '2024-00-00', '838:59:59', '-00:00:00.001', '2024-01-01 00:00:00', '9999-12-31 23:59:59.999999', '1970-01-01 00:00:01',
       null, null, null, null)`);
    const batch = await batchText('types');
    const bulk = await bulkText('types');
    const [described] = await collect(handle.read!({ dataset: { namespace: null, name: 'types' }, batchSize: 1 }));
    expect(bulk.columns).toEqual(described!.columns);
    expect(bulk.text.split('\n')).toEqual(batch.split('\n'));
    expect(bulk.text).toContain('\\\\x00010280');
    expect(bulk.text).toContain('tab\\there\\nnew\\rret \\\\ back');

    // Loaded into PostgreSQL both ways: the same rows (times and dates PostgreSQL has no room for changed first).
    await bulkSql("update types set tm = '12:00:00', tm3 = '01:02:03.004', dt = '2024-01-01' where id in (1, 4)");
    const pgAdmin = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const pgDatabase = `svc_mybulk_${suffix}`;
    const admin = new pg.Client({ connectionString: pgAdmin });
    await admin.connect();
    await admin.query(`create database ${pgDatabase}`);
    const url = new URL(pgAdmin);
    const destination = openPostgres({
      host: url.hostname,
      port: Number(url.port || 5432),
      database: pgDatabase,
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
    });
    try {
      const target = (name: string): WriteRequest => ({
        dataset: { namespace: null, name },
        mode: 'overwrite',
        columns: bulk.columns,
        runId: `run-${name}`,
      });
      await destination.write!(target('by_batch'), handle.read!({ dataset: { namespace: null, name: 'types' } }));
      const exported = await handle.exportBulk!({ dataset: { namespace: null, name: 'types' } });
      expect(await destination.importBulk!(target('by_bulk'), exported!)).toMatchObject({ rowsWritten: 4 });
      const check = new pg.Client({
        connectionString: Object.assign(new URL(pgAdmin), { pathname: `/${pgDatabase}` }).href,
      });
      await check.connect();
      try {
        const differ = await check.query(
          `with a as (select t::text as r from by_batch t), b as (select t::text as r from by_bulk t)
           select count(*)::int as n from ((table a except all table b) union all (table b except all table a)) d`,
        );
        expect(differ.rows[0].n).toBe(0);
        const sample = await check.query(
          `select bu::text, doc::text, encode(vb, 'hex') as vb, vc, f::text, d::text, dtm, ts from by_bulk where id = 1`,
        );
        expect(sample.rows[0]).toMatchObject({
          bu: '18446744073709551615',
          vb: '5c090a0dff',
          vc: 'tab\there\nnew\rret \\ back',
          f: '0.1',
          d: '0.30000000000000004',
        });
        expect(sample.rows[0].doc).toContain('123456789012345678901234567890');
        const nulls = await check.query(`select doc::text from by_bulk where id = 2`);
        expect(nulls.rows[0].doc).toBe('null');
      } finally {
        await check.end();
      }
    } finally {
      await destination.close();
      await admin.query(`drop database if exists ${pgDatabase} with (force)`);
      await admin.end();
    }
  });

  it('reads spatial columns as WKT text on both paths', async () => {
    await bulkSql(
      "create table shapes (id int primary key, g point, p polygon, m geometry); insert into shapes values (1, point(1.5, -2), ST_GeomFromText('POLYGON((0 0,4 0,4 4,0 0))'), ST_GeomFromText('LINESTRING(0 0,1 1)')), (2, null, null, null)",
    );
    const { text } = await bulkText('shapes');
    expect(text).toBe('1\tPOINT(1.5 -2)\tPOLYGON((0 0,4 0,4 4,0 0))\tLINESTRING(0 0,1 1)\n2\t\\N\t\\N\t\\N\n');
    expect(text).toBe(await batchText('shapes'));
  });

  it('declines incremental reads and types it has no text rule for (inet6), and names a missing table', async () => {
    await bulkSql('create table small (id int primary key, v text)');
    await bulkSql('create table addresses (id int primary key, a inet6)');
    expect(await handle.exportBulk!({ dataset: { namespace: null, name: 'addresses' } })).toBeUndefined();
    expect(
      await handle.exportBulk!({ dataset: { namespace: null, name: 'addresses' }, columns: ['id'] }),
    ).toBeDefined();
    expect(
      await handle.exportBulk!({
        dataset: { namespace: null, name: 'small' },
        incremental: { cursorColumn: 'id' },
      }),
    ).toBeUndefined();
    await expect(handle.exportBulk!({ dataset: { namespace: null, name: 'nope' } })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('streams a large table with backpressure, and a stream destroyed unread or half read leaves the handle usable', async () => {
    await bulkSql(
      "create table big (id int primary key, v text); insert into big select seq, concat('value ', seq) from seq_1_to_60000",
    );
    const unread = await handle.exportBulk!({ dataset: { namespace: null, name: 'big' } });
    unread!.stream.destroy();
    const half = await handle.exportBulk!({ dataset: { namespace: null, name: 'big' } });
    for await (const _chunk of half!.stream as AsyncIterable<Buffer>) break;
    const { text } = await bulkText('big');
    const lines = text.split('\n');
    expect(lines.length).toBe(60_001);
    expect(lines[59_999]).toBe('60000\tvalue 60000');
    expect(text).toBe(await batchText('big'));
    expect(await handle.check()).toEqual({ ok: true });
  });
});
