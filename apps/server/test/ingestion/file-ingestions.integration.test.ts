import { createHash } from 'node:crypto';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject } from '../support/http.js';
import ExcelJS from 'exceljs';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { createPostgresConnector, query, waitForStatus } from '../support/runs.js';
import { startS3 } from '../support/s3.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';

interface FileRecord {
  id: string;
  name: string;
  size: number;
  checksum: string;
  status: string;
  forced: boolean;
  reload_of: string | null;
  rows_parsed: number;
  rows_loaded: number;
  error_count: number;
  first_error: { line: number; column: string | null; message: string } | null;
  available: boolean;
  execution_id: string | null;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
// Just above the 1 GiB upload of the streaming test.
const UPLOAD_LIMIT = 1040 * 1024 * 1024;

describe('file ingestions', () => {
  let t: TestApp;
  let admin: string;
  let destination: TestDatabase;
  let projectId: string;
  let connectorId: string;

  beforeAll(async () => {
    t = await startTestApp({
      env: { ...NO_RATE_LIMITS, SVC_FILE_UPLOAD_MAX_BYTES: String(UPLOAD_LIMIT), SVC_REQUEST_TIMEOUT_MS: '120000' },
      worker: true,
    });
    admin = (await adminLogin(t)).accessToken;
    destination = await createTestDatabase();
    projectId = (await createProject(t, admin)).id;
    connectorId = await createPostgresConnector(t, admin, projectId, 'dest', destination.name);
  });
  afterAll(async () => {
    await t?.close();
    await destination?.drop();
  });

  const create = async (body: Record<string, unknown>) => {
    const result = await api<{ id: string }>(t, 'POST', '/api/v1/file-ingestions', {
      token: admin,
      body: {
        project_id: projectId,
        name: `ingest-${Math.random().toString(36).slice(2, 8)}`,
        source: { kind: 'upload' },
        format: { type: 'csv' },
        destination: {
          connector_id: connectorId,
          table: `t_${Math.random().toString(36).slice(2, 8)}`,
          mode: 'append',
        },
        ...body,
      },
    });
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    return result.body as { id: string; destination: { table: string } };
  };

  const upload = async (id: string, name: string, content: string | Buffer, force = false) => {
    const form = new FormData();
    form.append('file', new Blob([content]), name);
    const response = await fetch(`${t.url}/api/v1/file-ingestions/${id}/files${force ? '?force=true' : ''}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as FileRecord };
  };

  /** Waits for the load of a file to finish and answers its history row. */
  const settled = async (id: string, file: FileRecord, timeoutMs = 60_000) => {
    if (file.execution_id) await waitForStatus(t, admin, file.execution_id, ['succeeded', 'failed'], timeoutMs);
    const row = await api<FileRecord>(t, 'GET', `/api/v1/file-ingestions/${id}/files/${file.id}`, { token: admin });
    return row.body;
  };

  const rowsOf = async (table: string) =>
    (await query(destination.url, `select * from ${table} order by 1`)).rows as Array<Record<string, unknown>>;

  it('validates a definition, naming the field', async () => {
    const upsert = await api(t, 'POST', '/api/v1/file-ingestions', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'bad',
        source: { kind: 'folder', path: '../other-project' },
        format: { type: 'csv', encoding: 'no-such-encoding' },
        destination: { connector_id: connectorId, table: 'x', mode: 'upsert' },
      },
    });
    expect(upsert.status).toBe(422);
    const paths = (upsert.body['errors'] as Array<{ path: string }>).map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['destination.key_columns', 'source.path', 'format.encoding']));
    const wrongType = await api(t, 'POST', '/api/v1/file-ingestions', {
      token: admin,
      body: { project_id: projectId, name: 'x', source: { kind: 'upload' }, format: { type: 'xml' }, destination: {} },
    });
    expect(wrongType.status).toBe(422);
  });

  it('loads an uploaded CSV with its history row; the same file again is skipped unless forced; a reload loads it again', async () => {
    const ingestion = await create({});
    const csv =
      'id,name,amount,seen\n1,alpha,1.5,2024-01-02\n2,beta,,2024-02-03\n3,"gamma, the third",3.25,2024-03-04\n';
    const first = await upload(ingestion.id, 'orders.csv', csv);
    expect(first.status).toBe(201);
    const loaded = await settled(ingestion.id, first.body);
    expect(loaded).toMatchObject({
      name: 'orders.csv',
      size: Buffer.byteLength(csv),
      checksum: sha256(csv),
      status: 'loaded',
      rows_parsed: 3,
      rows_loaded: 3,
      error_count: 0,
      first_error: null,
    });
    // The run's lineage: the uploaded file in, the destination table out.
    const lineage = await api<{
      items: Array<{
        event_type: string;
        event: {
          job: { name: string };
          inputs: Array<{ namespace: string; name: string }>;
          outputs: Array<{ name: string; outputFacets?: { outputStatistics?: { rowCount: number } } }>;
        };
      }>;
    }>(t, 'GET', `/api/v1/lineage/events?run_id=${first.body.execution_id}`, { token: admin });
    const complete = lineage.body.items.find((e) => e.event_type === 'COMPLETE')!.event;
    expect(complete.job.name).toBe(`file_ingestion.${ingestion.id}`);
    expect(complete.inputs.map((i) => [i.namespace, i.name])).toEqual([[`upload://${ingestion.id}`, 'orders.csv']]);
    expect(complete.outputs.map((o) => o.name)).toEqual([`${destination.name}.public.${ingestion.destination.table}`]);
    expect(complete.outputs[0]!.outputFacets?.outputStatistics?.rowCount).toBe(3);
    const rows = await rowsOf(ingestion.destination.table);
    expect(rows.map((r) => [Number(r['id']), r['name'], r['amount'] === null ? null : Number(r['amount'])])).toEqual([
      [1, 'alpha', 1.5],
      [2, 'beta', null],
      [3, 'gamma, the third', 3.25],
    ]);
    const types = await query(
      destination.url,
      `select column_name, data_type from information_schema.columns where table_name = $1 order by ordinal_position`,
      [ingestion.destination.table],
    );
    expect(types.rows.map((r) => r.data_type)).toEqual(['integer', 'text', 'double precision', 'date']);

    // The same name and content: recorded as a duplicate, nothing loaded.
    const again = await upload(ingestion.id, 'orders.csv', csv);
    expect(again.status).toBe(201);
    expect(again.body.status).toBe('skipped_duplicate');
    expect(again.body.execution_id).toBeNull();
    expect(await rowsOf(ingestion.destination.table)).toHaveLength(3);

    // A changed file of the same name is loaded.
    const changed = await upload(ingestion.id, 'orders.csv', csv + '4,delta,4,2024-04-05\n');
    expect((await settled(ingestion.id, changed.body)).status).toBe('loaded');
    expect(await rowsOf(ingestion.destination.table)).toHaveLength(7);

    // Forced: loaded again although the same.
    const forced = await upload(ingestion.id, 'orders.csv', csv, true);
    const forcedRow = await settled(ingestion.id, forced.body);
    expect(forcedRow).toMatchObject({ status: 'loaded', forced: true, rows_loaded: 3 });
    expect(await rowsOf(ingestion.destination.table)).toHaveLength(10);

    // A reload of one file: a new history row pointing at the old one.
    const reload = await api<FileRecord>(
      t,
      'POST',
      `/api/v1/file-ingestions/${ingestion.id}/files/${first.body.id}/reload`,
      { token: admin },
    );
    expect(reload.status).toBe(201);
    const reloaded = await settled(ingestion.id, reload.body);
    expect(reloaded).toMatchObject({ status: 'loaded', reload_of: first.body.id, forced: true, rows_loaded: 3 });
    expect(await rowsOf(ingestion.destination.table)).toHaveLength(13);

    const history = await api<{ items: FileRecord[] }>(t, 'GET', `/api/v1/file-ingestions/${ingestion.id}/files`, {
      token: admin,
    });
    expect(history.body.items.map((f) => f.status)).toEqual([
      'loaded',
      'loaded',
      'loaded',
      'skipped_duplicate',
      'loaded',
    ]);
    const duplicates = await api<{ items: FileRecord[] }>(
      t,
      'GET',
      `/api/v1/file-ingestions/${ingestion.id}/files?status=skipped_duplicate`,
      { token: admin },
    );
    expect(duplicates.body.items).toHaveLength(1);
  });

  it('loads an uploaded JSON document, Excel workbook and Parquet file; a broken workbook fails', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('orders');
    sheet.addRow(['id', 'name', 'amount']);
    sheet.addRow([1, 'alpha', 1.5]);
    sheet.addRow([2, 'beta', 2.25]);
    const files: Record<string, Buffer> = {
      json: Buffer.from(
        JSON.stringify([
          { id: 1, name: 'alpha', amount: 1.5 },
          { id: 2, name: 'beta', amount: 2.25 },
        ]),
      ),
      xlsx: Buffer.from(await workbook.xlsx.writeBuffer()),
      parquet: Buffer.from(
        parquetWriteBuffer({
          columnData: [
            { name: 'id', data: Int32Array.from([1, 2]), type: 'INT32' },
            { name: 'name', data: ['alpha', 'beta'], type: 'STRING' },
            { name: 'amount', data: Float64Array.from([1.5, 2.25]), type: 'DOUBLE' },
          ],
        }),
      ),
    };
    for (const [type, content] of Object.entries(files)) {
      const ingestion = await create({ format: { type } });
      const uploaded = await upload(ingestion.id, `orders.${type}`, content);
      expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
      const loaded = await settled(ingestion.id, uploaded.body);
      expect(loaded, type).toMatchObject({ status: 'loaded', rows_parsed: 2, rows_loaded: 2 });
      const rows = await rowsOf(ingestion.destination.table);
      expect(
        rows.map((r) => [Number(r['id']), r['name'], Number(r['amount'])]),
        type,
      ).toEqual([
        [1, 'alpha', 1.5],
        [2, 'beta', 2.25],
      ]);
    }
    const broken = await create({ format: { type: 'xlsx' } });
    const bad = await upload(broken.id, 'broken.xlsx', Buffer.from('not a workbook'));
    const failed = await settled(broken.id, bad.body);
    expect(failed.status).toBe('failed');
    // Options of text formats do not apply to these.
    const refused = await api<{ errors: Array<{ path: string }> }>(t, 'POST', '/api/v1/file-ingestions', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'bad options',
        source: { kind: 'upload' },
        format: { type: 'parquet', delimiter: ';', compression: 'gzip' },
        destination: { connector_id: connectorId, table: 'never', mode: 'append' },
      },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e) => e.path).sort()).toEqual(['format', 'format.compression']);
  });

  it('continue: bad rows are left out and counted up to the error limit; past it the file loads nothing', async () => {
    const ingestion = await create({ on_error: 'continue', error_limit: 2 });
    const twoBad = ['id,qty', '1,10', '2,20,extra', '3,30', '4', '5,50'].join('\n') + '\n';
    const partial = await settled(ingestion.id, (await upload(ingestion.id, 'two-bad.csv', twoBad)).body);
    expect(partial).toMatchObject({ status: 'partially_loaded', rows_loaded: 3, error_count: 2 });
    expect(partial.first_error?.line).toBe(3);
    const rows = await rowsOf(ingestion.destination.table);
    expect(rows.map((r) => Number(r['id']))).toEqual([1, 3, 5]);

    // Types are inferred from the first rows: a later row that does not fit is an error at its line and column.
    const late = ['id,qty', ...Array.from({ length: 1200 }, (_, i) => `${i + 100},${i}`), '9999,oops'].join('\n');
    const lateRow = await settled(ingestion.id, (await upload(ingestion.id, 'late.csv', late)).body);
    expect(lateRow).toMatchObject({ status: 'partially_loaded', error_count: 1, rows_loaded: 1200 });
    expect(lateRow.first_error).toMatchObject({ line: 1202, column: 'qty' });

    const threeBad = ['id,qty', '1', '2,2,2', '3,3,3,3', '4,40'].join('\n');
    const failed = await settled(ingestion.id, (await upload(ingestion.id, 'three-bad.csv', threeBad)).body);
    expect(failed.status).toBe('failed');
    expect(failed.error_count).toBe(3);
    expect(failed.rows_loaded).toBe(0);
    expect(failed.first_error).toMatchObject({
      line: 2,
      column: null,
      message: expect.stringMatching(/record length/i),
    });
    expect(await rowsOf(ingestion.destination.table)).toHaveLength(3 + 1200);
  });

  it('abort: the first bad row fails the file and its run, loading nothing', async () => {
    const ingestion = await create({ on_error: 'abort' });
    const uploaded = await upload(ingestion.id, 'bad.csv', 'id,qty\n1,2\n"unterminated,3\n');
    const execution = await waitForStatus(t, admin, uploaded.body.execution_id!, ['succeeded', 'failed']);
    expect(execution.status).toBe('failed');
    const row = await settled(ingestion.id, uploaded.body);
    expect(row.status).toBe('failed');
    expect(row.first_error?.message).toMatch(/quote/i);
    expect((await query(destination.url, `select to_regclass($1) as t`, [ingestion.destination.table])).rows[0].t).toBe(
      null,
    );
  });

  it('NDJSON in another encoding, gzipped, with a fixed schema', async () => {
    const ingestion = await create({
      format: { type: 'ndjson', encoding: 'latin1', compression: 'auto' },
      schema_mode: 'fixed',
      columns: [
        { name: 'id', type: 'int64', nullable: false },
        { name: 'city', type: 'string' },
      ],
      on_error: 'continue',
      error_limit: 5,
    });
    const text = '{"id": 1, "city": "Zürich"}\n{"id": 2, "city": "Köln", "ignored": true}\n{"id": "x"}\nnot json\n';
    const row = await settled(
      ingestion.id,
      (await upload(ingestion.id, 'cities.ndjson.gz', gzipSync(Buffer.from(text, 'latin1')))).body,
    );
    expect(row).toMatchObject({ status: 'partially_loaded', rows_loaded: 2, error_count: 2 });
    expect(row.first_error).toMatchObject({ line: 3, column: 'id' });
    const rows = await rowsOf(ingestion.destination.table);
    expect(rows).toEqual([
      { id: '1', city: 'Zürich' },
      { id: '2', city: 'Köln' },
    ]);
  });

  it("a folder of the project's files root: new files by glob, archived after loading, not loaded twice", async () => {
    const folder = path.join(t.config.files.root ?? path.join(t.config.dataDir, 'files'), projectId, 'incoming');
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'a.csv'), 'id;label\n1;one\n2;two\n');
    await writeFile(path.join(folder, 'b.csv.gz'), gzipSync('id;label\n3;three\n'));
    await writeFile(path.join(folder, 'notes.txt'), 'not matched');
    const ingestion = await create({
      source: { kind: 'folder', path: 'incoming', glob: '*.{csv,csv.gz}' },
      format: { type: 'csv', delimiter: ';' },
      post_action: 'archive',
      archive_path: 'done',
    });
    const run = async () => {
      const started = await api<{ id: string }>(t, 'POST', `/api/v1/file-ingestions/${ingestion.id}/run`, {
        token: admin,
      });
      expect(started.status).toBe(201);
      return waitForStatus(t, admin, started.body.id, ['succeeded', 'failed']);
    };
    expect((await run()).status).toBe('succeeded');
    const rows = await rowsOf(ingestion.destination.table);
    expect(rows.map((r) => r['label'])).toEqual(['one', 'two', 'three']);
    expect((await readdir(folder)).sort()).toEqual(['notes.txt']);
    expect((await readdir(path.join(folder, '..', 'done'))).sort()).toEqual(['a.csv', 'b.csv.gz']);

    // The same content dropped again is a duplicate; nothing new is loaded.
    await writeFile(path.join(folder, 'a.csv'), 'id;label\n1;one\n2;two\n');
    expect((await run()).status).toBe('succeeded');
    expect(await rowsOf(ingestion.destination.table)).toHaveLength(3);
    const history = await api<{ items: FileRecord[] }>(t, 'GET', `/api/v1/file-ingestions/${ingestion.id}/files`, {
      token: admin,
    });
    expect(history.body.items.map((f) => `${f.name}:${f.status}`).sort()).toEqual([
      'a.csv:loaded',
      'a.csv:skipped_duplicate',
      'b.csv.gz:loaded',
    ]);

    // A source path outside the project's folder is refused.
    const escape = await api(t, 'PATCH', `/api/v1/file-ingestions/${ingestion.id}`, {
      token: admin,
      body: { source: { kind: 'folder', path: `../${projectId}-other` } },
    });
    expect(escape.status).toBe(422);
  });

  it('an S3-compatible bucket prefix (s3rver): new objects by glob, loaded once, archived under a prefix; the secret never shown', async () => {
    const s3 = await startS3(['drops']);
    const { endpoint, client } = s3;
    try {
      const put = (key: string, body: string | Buffer) => s3.put('drops', key, body);
      await put('incoming/2024-01.csv', 'id,city\n1,Oslo\n2,Bergen\n');
      await put('incoming/2024-02.csv.gz', gzipSync('id,city\n3,Tromsø\n'));
      await put('incoming/readme.txt', 'not matched');
      await put('elsewhere/2024-03.csv', 'id,city\n9,nowhere\n');
      const ingestion = await create({
        source: {
          kind: 's3',
          endpoint,
          bucket: 'drops',
          prefix: 'incoming',
          glob: '*.{csv,csv.gz}',
          access_key_id: 'S3RVER',
          secret_access_key: 'S3RVER',
        },
        post_action: 'archive',
      });
      const shown = await api<{ source: Record<string, unknown> }>(
        t,
        'GET',
        `/api/v1/file-ingestions/${ingestion.id}`,
        {
          token: admin,
        },
      );
      expect(shown.body.source).toMatchObject({ kind: 's3', bucket: 'drops', has_secret_access_key: true });
      expect(Object.keys(shown.body.source)).not.toContain('secret_access_key');
      expect(Object.keys(shown.body.source)).not.toContain('secret_access_key_encrypted');
      const run = async () => {
        const started = await api<{ id: string }>(t, 'POST', `/api/v1/file-ingestions/${ingestion.id}/run`, {
          token: admin,
        });
        expect(started.status).toBe(201);
        return waitForStatus(t, admin, started.body.id, ['succeeded', 'failed']);
      };
      expect((await run()).status).toBe('succeeded');
      expect((await rowsOf(ingestion.destination.table)).map((r) => r['city'])).toEqual(['Oslo', 'Bergen', 'Tromsø']);
      const keys = async () =>
        ((await client.send(new ListObjectsV2Command({ Bucket: 'drops' }))).Contents ?? []).map((o) => o.Key).sort();
      expect(await keys()).toEqual([
        'elsewhere/2024-03.csv',
        'incoming/archive/2024-01.csv',
        'incoming/archive/2024-02.csv.gz',
        'incoming/readme.txt',
      ]);
      // Nothing new: a second look loads nothing; a new object is loaded alone.
      expect((await run()).status).toBe('succeeded');
      await put('incoming/2024-04.csv', 'id,city\n4,Bodø\n');
      expect((await run()).status).toBe('succeeded');
      expect(await rowsOf(ingestion.destination.table)).toHaveLength(4);
      const history = await api<{ items: FileRecord[] }>(t, 'GET', `/api/v1/file-ingestions/${ingestion.id}/files`, {
        token: admin,
      });
      expect(history.body.items.map((f) => `${f.name}:${f.status}`).sort()).toEqual([
        '2024-01.csv:loaded',
        '2024-02.csv.gz:loaded',
        '2024-04.csv:loaded',
      ]);
    } finally {
      await s3.close();
    }
  });

  it('streams a 1 GiB upload to disk with flat memory; above the limit answers 413 and keeps nothing', async () => {
    const ingestion = await create({ on_error: 'abort' });
    const boundary = 'svc-boundary-7d1f';
    const target = 1024 * 1024 * 1024;
    /** A CSV body made while it is sent: never in memory whole. */
    const body = (bytes: number, hash: ReturnType<typeof createHash>) =>
      Readable.from(
        (async function* () {
          yield Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n`,
          );
          let sent = 0;
          let n = 0;
          const header = Buffer.from('id,payload\n');
          hash.update(header);
          yield header;
          sent += header.length;
          while (sent < bytes) {
            const lines: string[] = [];
            for (let i = 0; i < 2000; i++) lines.push(`${n++},${'x'.repeat(40)}`);
            const chunk = Buffer.from(lines.join('\n') + '\n');
            hash.update(chunk);
            sent += chunk.length;
            yield chunk;
          }
          yield Buffer.from(`\r\n--${boundary}--\r\n`);
        })(),
      );
    const send = (bytes: number, hash: ReturnType<typeof createHash>) =>
      new Promise<{ status: number; body: FileRecord }>((resolve, reject) => {
        const request = http.request(`${t.url}/api/v1/file-ingestions/${ingestion.id}/files`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${admin}`,
            'content-type': `multipart/form-data; boundary=${boundary}`,
          },
        });
        request.on('response', (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) as FileRecord }));
        });
        request.on('error', reject);
        body(bytes, hash).pipe(request);
      });

    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const hash = createHash('sha256');
    const result = await send(target, hash);
    clearInterval(sampler);
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    expect(result.body.size).toBeGreaterThanOrEqual(target);
    expect(result.body.checksum).toBe(hash.digest('hex'));
    // The server and this client share the process: a body held in memory would add 1 GiB or more.
    expect(peak - baseline).toBeLessThan(60 * 1024 * 1024);
    const loaded = await settled(ingestion.id, result.body, 300_000);
    expect(loaded.status).toBe('loaded');
    expect(loaded.rows_loaded).toBeGreaterThan(20_000_000);

    const over = await send(UPLOAD_LIMIT + 1024 * 1024, createHash('sha256'));
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ detail: expect.stringMatching(/larger than/) });
    expect((over.body as unknown as { request_id: string }).request_id).toBeTruthy();
    const kept = await readdir(
      path.join(t.config.files.root ?? path.join(t.config.dataDir, 'files'), projectId, '.uploads', ingestion.id),
    );
    expect(kept).toHaveLength(1);
  }, 400_000);
});
