/**
 * A PostgreSQL table into MySQL/MariaDB through the bulk path (PostgreSQL's COPY text rewritten as
 * LOAD DATA text, no value decoded) must store exactly what the batch path stores (values decoded,
 * then written), for every type and its edges; append once per run, overwrite, and upsert on keys.
 */
import { randomBytes } from 'node:crypto';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgQuery as pgQueryOn, quiet, serverConfigOf } from '../../../__tests__/support.js';
import type { ConnectorHandle, WriteMode } from '../../../types.js';
import { openPostgres } from '../../postgres/definition.js';
import { mysqlConnector } from '../definition.js';

const PG_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MYSQL_URL = process.env['SVC_TEST_MYSQL_URL'] ?? 'mysql://root@127.0.0.1:3306';
const name = `svc_loaddata_${randomBytes(5).toString('hex')}`;
const pgConfig = serverConfigOf(PG_URL, name);
const mysqlConfig = serverConfigOf(MYSQL_URL, name);

const pgQuery = (database: string, text: string) => pgQueryOn(PG_URL, database, text);

async function mysqlQuery(text: string, database: string | null = name) {
  const conn = await mysql.createConnection({
    ...mysqlConfig,
    database: database ?? undefined,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
    multipleStatements: true,
  });
  try {
    return (await conn.query(text))[0] as mysql.RowDataPacket[];
  } finally {
    await conn.end();
  }
}

/** Every stored value as text (binary as hex), so that the two tables compare exactly. */
const stored = async (table: string) =>
  (
    await mysqlQuery(
      `select id, flag, small, big, amount, r, d, cast(label as char) as label, hex(raw) as raw, day, clock, ts, tstz, cast(doc as char) as doc, cast(b as char) as b, uid from ${table} order by id`,
    )
  ).map((row) => ({ ...row }));

describe('MySQL destination: bulk path from PostgreSQL', () => {
  let source: ConnectorHandle;
  let destination: ConnectorHandle;

  beforeAll(async () => {
    await pgQuery('postgres', `create database ${name}`);
    await pgQuery(
      name,
      `create table t (
         id int primary key, flag boolean, small smallint, big bigint, amount numeric(30,10), r real,
         d double precision, label text, raw bytea, day date, clock time, ts timestamp(6), tstz timestamptz,
         doc json, b jsonb, uid uuid
       );
       insert into t values
         (1, true, 32767, 9223372036854775807, 12345678901234567890.0123456789, 1.1, 0.30000000000000004,
          E'tab\\there\\nnew\\\\back \\f feed \\x0b vtab \\r cr 😀 ünïcödé', '\\x00010a5c09ff'::bytea, '2024-02-29', '23:59:59.123456',
          '2024-02-29 12:34:56.789012', '2024-02-29 12:34:56.5+02', '{"b": 1, "a": [1, "two", null], "n": 123456789012345678901234567890}',
          '{"z": true}', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),
         (2, false, -32768, -9223372036854775808, -0.0000000001, -2.25, -1.7976931348623157e308, '', '\\x'::bytea,
          '1000-01-01', '00:00:00', '1970-01-01 00:00:00', '1970-01-01 00:00:00+00', 'null', 'null', null),
         (3, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null),
         (4, true, 0, 0, 0, 0, 0, E'\\\\N is not null', '\\x5c4e'::bytea, '9999-12-31', '12:00:00.5',
          '2000-01-01 10:00:00.5', '2023-12-31 23:59:59.999999+00', '[]', '{}', '00000000-0000-0000-0000-000000000000')`,
    );
    await mysqlQuery(`create database \`${name}\` character set utf8mb4`, null);
    source = openPostgres(pgConfig);
    destination = await mysqlConnector.open(mysqlConfig, quiet);
  });
  afterAll(async () => {
    await source?.close();
    await destination?.close();
    await mysqlQuery(`drop database if exists \`${name}\``, null);
    await pgQuery('postgres', `drop database if exists ${name} with (force)`);
  });

  const viaBulk = async (table: string, mode: WriteMode, runId = randomBytes(4).toString('hex')) => {
    const bulk = await source.exportBulk!({ dataset: { namespace: null, name: 't' } });
    expect(bulk?.format).toBe('postgres-copy-text');
    return destination.importBulk!(
      { dataset: { namespace: null, name: table }, mode, columns: bulk!.columns, runId, keyColumns: ['id'] },
      bulk!,
    );
  };
  const viaBatches = async (table: string) => {
    const batches = source.read!({ dataset: { namespace: null, name: 't' } });
    const iterator = batches[Symbol.asyncIterator]();
    const first = await iterator.next();
    const all = async function* () {
      yield first.value;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    };
    return destination.write!(
      { dataset: { namespace: null, name: table }, mode: 'overwrite', columns: first.value.columns, runId: 'batches' },
      all(),
    );
  };

  it('stores every value as the batch path does', async () => {
    expect(await viaBulk('by_bulk', 'overwrite')).toMatchObject({ rowsWritten: 4 });
    expect(await viaBatches('by_batches')).toMatchObject({ rowsWritten: 4 });
    const bulk = await stored('by_bulk');
    expect(bulk).toEqual(await stored('by_batches'));
    // The values themselves, not only their agreement.
    expect(bulk[0]).toMatchObject({
      flag: 1,
      big: '9223372036854775807',
      amount: '12345678901234567890.0123456789',
      label: 'tab\there\nnew\\back \f feed \v vtab \r cr 😀 ünïcödé',
      raw: '00010A5C09FF',
      tstz: '2024-02-29 10:34:56.500000',
    });
    expect(bulk[0]!['doc']).toContain('123456789012345678901234567890');
    expect(bulk[1]).toMatchObject({ flag: 0, label: '', raw: '', doc: 'null', uid: null });
    expect(bulk[2]).toMatchObject({ flag: null, label: null, raw: null, doc: null });
    expect(bulk[3]).toMatchObject({ label: '\\N is not null', raw: '5C4E', tstz: '2023-12-31 23:59:59.999999' });
  });

  it('appends once per run and upserts on its key', async () => {
    expect(await viaBulk('appended', 'append', 'run-1')).toMatchObject({ rowsWritten: 4 });
    expect(await viaBulk('appended', 'append', 'run-1')).toMatchObject({ rowsWritten: 0 });
    expect(await mysqlQuery('select count(*) as n from appended')).toEqual([{ n: '4' }]);

    await mysqlQuery(
      'create table upserted (id int primary key, flag tinyint(1), small smallint, big bigint, amount decimal(30,10), r float, d double, label longtext, raw longblob, day date, clock time(6), ts datetime(6), tstz datetime(6), doc json, b json, uid char(36)) default charset=utf8mb4 collate=utf8mb4_bin; ' +
        "insert into upserted (id, label) values (1, 'old'), (99, 'kept')",
    );
    expect(await viaBulk('upserted', 'upsert')).toMatchObject({ rowsWritten: 4 });
    const rows = await mysqlQuery('select id, label from upserted order by id');
    expect(rows.map((r) => [r['id'], r['label']])).toEqual([
      [1, 'tab\there\nnew\\back \f feed \v vtab \r cr 😀 ünïcödé'],
      [2, ''],
      [3, null],
      [4, '\\N is not null'],
      [99, 'kept'],
    ]);
  });
});
