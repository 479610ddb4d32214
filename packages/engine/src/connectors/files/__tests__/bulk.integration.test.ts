/**
 * A CSV or TSV file into PostgreSQL without decoding a value: the file's bytes go to COPY ... CSV.
 * The table it makes must equal what the batch path (read, then write) makes of the same file.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quiet } from '../../../__tests__/support.js';
import type { ConnectorHandle } from '../../../types.js';
import { openPostgres } from '../../postgres/definition.js';
import { openFiles, type FilesConfig } from '../definition.js';

const ADMIN_URL = process.env['SVC_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const admin = new URL(ADMIN_URL);
const database = `svc_filesbulk_${randomBytes(5).toString('hex')}`;
const config = {
  host: admin.hostname,
  port: Number(admin.port || 5432),
  database,
  user: decodeURIComponent(admin.username),
  password: decodeURIComponent(admin.password),
};

async function sql(text: string, params: unknown[] = []) {
  const client = new pg.Client(config);
  await client.connect();
  try {
    return await client.query(text, params);
  } finally {
    await client.end();
  }
}

const CSV = [
  'id,name,amount,ratio,flag,day,at,local,clock,big',
  '1,"comma, ""quote""\nnewline",12.50,0.1,true,2024-02-29,2024-02-29T12:34:56.123456+02:00,2024-02-29 01:02:03.5,23:59:59,9223372036854775807',
  '2,,,,,,,,,',
  '3,"",-0.001,1e5,FALSE,1999-12-31,2024-01-01T00:00:00Z,2024-01-01T00:00,00:00:00.000001,-9223372036854775808',
  '4,tab\there back\\slash 😀,123456789012345678901234.5678,-Infinity,True,0001-01-01,1970-01-01T00:00:00.5-05:30,1970-01-01T00:00:00,12:00,0',
  '5,\\N,0,NaN,false,2024-01-01,2024-06-30T23:59:59.999999Z,2024-06-30T23:59:59.999999,12:30:45.25,1',
].join('\r\n');

describe('files to PostgreSQL as CSV', () => {
  let dir: string;
  let destination: ConnectorHandle;
  const open = (extra: Partial<FilesConfig> = {}) => openFiles({ path: dir, format: 'csv', ...extra }, quiet);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-files-bulk-'));
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    await client.query(`create database ${database}`);
    await client.end();
    destination = openPostgres(config);
  });
  afterAll(async () => {
    await destination?.close();
    await rm(dir, { recursive: true, force: true });
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    await client.query(`drop database if exists ${database} with (force)`);
    await client.end();
  });

  /** The file through the batch path: read, then written. */
  async function batchPath(source: ConnectorHandle, name: string, table: string) {
    const first = source.read!({ dataset: { namespace: null, name } });
    const batches = [];
    for await (const batch of first) batches.push(batch);
    await destination.write!(
      { dataset: { namespace: null, name: table }, mode: 'overwrite', columns: batches[0]!.columns, runId: table },
      (async function* () {
        yield* batches;
      })(),
    );
  }

  const contents = async (table: string) =>
    (await sql(`select to_jsonb(t)::text as row from ${table} t order by id`)).rows.map((r) => r.row as string);
  const types = async (table: string) =>
    (
      await sql(
        `select format_type(atttypid, atttypmod) as type from pg_attribute
          where attrelid = $1::regclass and attnum > 0 and not attisdropped order by attnum`,
        [table],
      )
    ).rows.map((r) => r.type as string);

  it('streams the file into COPY and makes the table the batch path makes', async () => {
    await writeFile(join(dir, 'mixed.csv'), CSV);
    const source = open();
    try {
      const bulk = await source.exportBulk!({ dataset: { namespace: null, name: 'mixed' } });
      expect(bulk).toBeDefined();
      expect(bulk!.format).toBe('csv');
      const summary = await destination.importBulk!(
        { dataset: { namespace: null, name: 'mixed_bulk' }, mode: 'overwrite', columns: bulk!.columns, runId: 'b' },
        bulk!,
      );
      expect(summary.rowsWritten).toBe(5);
      await batchPath(source, 'mixed', 'mixed_batch');
    } finally {
      await source.close();
    }
    expect(await types('mixed_bulk')).toEqual(await types('mixed_batch'));
    expect(await contents('mixed_bulk')).toEqual(await contents('mixed_batch'));
    const row2 = (await sql(`select name, amount from mixed_bulk where id = 2`)).rows[0];
    expect(row2).toEqual({ name: null, amount: null });
    expect((await sql(`select name from mixed_bulk where id = 3`)).rows[0].name).toBe('');
  });

  it('takes TSV with its tab delimiter', async () => {
    await writeFile(join(dir, 'tabbed.tsv'), 'id\tname\n1\t"a, b"\n2\tc\n');
    const source = open({ format: 'tsv' });
    try {
      const bulk = await source.exportBulk!({ dataset: { namespace: null, name: 'tabbed' } });
      expect(bulk?.csv).toEqual({ delimiter: '\t', header: true });
      await destination.importBulk!(
        { dataset: { namespace: null, name: 'tabbed' }, mode: 'overwrite', columns: bulk!.columns, runId: 't' },
        bulk!,
      );
    } finally {
      await source.close();
    }
    expect((await sql('select id, name from tabbed order by id')).rows).toEqual([
      { id: 1, name: 'a, b' },
      { id: 2, name: 'c' },
    ]);
  });

  it('declines what the two parsers would read apart', async () => {
    await writeFile(join(dir, 'quotedempty.csv'), 'id,n\n1,""\n2,3\n');
    await writeFile(join(dir, 'ragged.csv'), 'id,n\n1,2\n2\n');
    await writeFile(join(dir, 'fine.csv'), 'id,at\n1,2024-01-01T00:00:00.1234567Z\n');
    await writeFile(join(dir, 'single.csv'), 'id\n1\n\n2\n');
    await writeFile(join(dir, 'noheader.csv'), '1,2\n');
    await writeFile(join(dir, 'split.csv'), 'id,n\n1,2\n');
    await writeFile(join(dir, 'split-run1.csv'), 'id,n\n3,4\n');
    const source = open();
    const headerless = open({ header: false });
    try {
      for (const name of ['quotedempty', 'ragged', 'fine', 'single', 'split'])
        expect(await source.exportBulk!({ dataset: { namespace: null, name } }), name).toBeUndefined();
      expect(await headerless.exportBulk!({ dataset: { namespace: null, name: 'noheader' } })).toBeUndefined();
      expect(
        await source.exportBulk!({ dataset: { namespace: null, name: 'mixed' }, incremental: { cursorColumn: 'id' } }),
      ).toBeUndefined();
    } finally {
      await source.close();
      await headerless.close();
    }
  });

  it('answers a row the server refuses with its line number', async () => {
    const lines = ['id,n'];
    for (let i = 1; i <= 1500; i++) lines.push(`${i},${i === 1400 ? 'x' : i}`);
    await writeFile(join(dir, 'late.csv'), `${lines.join('\n')}\n`);
    const source = open();
    try {
      const bulk = await source.exportBulk!({ dataset: { namespace: null, name: 'late' } });
      await expect(
        destination.importBulk!(
          { dataset: { namespace: null, name: 'late' }, mode: 'overwrite', columns: bulk!.columns, runId: 'l' },
          bulk!,
        ),
      ).rejects.toThrow(/invalid input syntax for type integer: "x" \(COPY late, line 1401, column n: "x"\)/);
    } finally {
      await source.close();
    }
  });
});
