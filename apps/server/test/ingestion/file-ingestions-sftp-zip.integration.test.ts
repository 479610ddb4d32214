import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { sftpConnectorConfig, startSshd, type TestSshd } from '../delivery/sshd.js';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject } from '../support/http.js';
import { createPostgresConnector, query, waitForStatus } from '../support/runs.js';
import { createTestDatabase, uniqueName, type TestDatabase } from '../support/services.js';

interface FileRecord {
  id: string;
  name: string;
  size: number;
  status: string;
  forced: boolean;
  rows_parsed: number;
  rows_loaded: number;
  error_count: number;
  first_error: { line: number; column: string | null; message: string } | null;
  available: boolean;
  archive_id: string | null;
  archive_member: string | null;
  execution_id: string | null;
}

/** A real zip archive, made here: files (deflated unless `store`) and folders (names ending in /). */
async function zipOf(entries: Array<[string, string | Buffer] | [string]>, store = false): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of entries) {
    if (content === undefined) zip.addEmptyDirectory(name);
    else zip.addBuffer(Buffer.from(content), name, { compress: !store });
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const ARCHIVE_MAX_BYTES = 3 * 1024 * 1024;
const ARCHIVE_MAX_MEMBERS = 40;

describe('file ingestions: SFTP directories and zip archives', () => {
  let t: TestApp;
  let admin: string;
  let destination: TestDatabase;
  let projectId: string;
  let connectorId: string;
  let sshd: TestSshd;
  let remote: string;
  let sftpConnectorId: string;

  beforeAll(async () => {
    sshd = await startSshd();
    remote = await mkdtemp(path.join(os.tmpdir(), 'svc-sftp-source-'));
    t = await startTestApp({
      env: {
        ...NO_RATE_LIMITS,
        SVC_FILE_ARCHIVE_MAX_BYTES: String(ARCHIVE_MAX_BYTES),
        SVC_FILE_ARCHIVE_MAX_MEMBERS: String(ARCHIVE_MAX_MEMBERS),
      },
      worker: true,
    });
    admin = (await adminLogin(t)).accessToken;
    destination = await createTestDatabase();
    projectId = (await createProject(t, admin)).id;
    connectorId = await createPostgresConnector(t, admin, projectId, 'dest', destination.name);
    const sftp = await api<{ id: string; secrets_set: string[] }>(t, 'POST', '/api/v1/data-connectors', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'drop-server',
        kind: 'sftp',
        config: sftpConnectorConfig(sshd, remote),
      },
    });
    expect(sftp.status, JSON.stringify(sftp.body)).toBe(201);
    expect(sftp.body.secrets_set).toEqual(['private_key']);
    sftpConnectorId = sftp.body.id;
  });
  afterAll(async () => {
    await t?.close();
    await destination?.drop();
    await sshd?.close();
    if (remote) await rm(remote, { recursive: true, force: true });
  });

  const create = async (body: Record<string, unknown>) => {
    const result = await api<{ id: string; destination: { table: string } }>(t, 'POST', '/api/v1/file-ingestions', {
      token: admin,
      body: {
        project_id: projectId,
        name: uniqueName('ingest'),
        source: { kind: 'upload' },
        format: { type: 'csv' },
        destination: { connector_id: connectorId, table: uniqueName('t').replace(/-/g, '_'), mode: 'append' },
        ...body,
      },
    });
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    return result.body;
  };
  const run = async (id: string) => {
    const started = await api<{ id: string }>(t, 'POST', `/api/v1/file-ingestions/${id}/run`, { token: admin });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    return waitForStatus(t, admin, started.body.id, ['succeeded', 'failed']);
  };
  const history = async (id: string) =>
    (await api<{ items: FileRecord[] }>(t, 'GET', `/api/v1/file-ingestions/${id}/files`, { token: admin })).body.items;
  const upload = async (id: string, name: string, content: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([content]), name);
    const response = await fetch(`${t.url}/api/v1/file-ingestions/${id}/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
      body: form,
    });
    expect(response.status).toBe(201);
    const file = (await response.json()) as FileRecord;
    if (file.execution_id) await waitForStatus(t, admin, file.execution_id, ['succeeded', 'failed']);
    return (await api<FileRecord>(t, 'GET', `/api/v1/file-ingestions/${id}/files/${file.id}`, { token: admin })).body;
  };
  const rowsOf = async (table: string) =>
    (await query(destination.url, `select * from ${table} order by 1`)).rows as Array<Record<string, unknown>>;

  it('validates an SFTP source: the connector must be an sftp connector of the project', async () => {
    const notSftp = await api(t, 'POST', '/api/v1/file-ingestions', {
      token: admin,
      body: {
        project_id: projectId,
        name: uniqueName('bad'),
        source: { kind: 'sftp', connector_id: connectorId },
        format: { type: 'csv' },
        destination: { connector_id: connectorId, table: 'x', mode: 'append' },
      },
    });
    expect(notSftp.status).toBe(422);
    expect((notSftp.body['errors'] as Array<{ path: string }>).map((e) => e.path)).toEqual(['source.connector_id']);
    const malformed = await api(t, 'POST', '/api/v1/file-ingestions', {
      token: admin,
      body: {
        project_id: projectId,
        name: uniqueName('bad'),
        source: { kind: 'sftp', connector_id: 'not-a-uuid', password: 'x' },
        format: { type: 'csv', compression: 'rar' },
        destination: { connector_id: connectorId, table: 'x', mode: 'append' },
      },
    });
    expect(malformed.status).toBe(422);
    // An sftp connector of another project is not this project's.
    const other = (await createProject(t, admin)).id;
    const foreign = await api(t, 'POST', '/api/v1/file-ingestions', {
      token: admin,
      body: {
        project_id: other,
        name: uniqueName('bad'),
        source: { kind: 'sftp', connector_id: sftpConnectorId },
        format: { type: 'csv' },
        destination: { connector_id: connectorId, table: 'x', mode: 'append' },
      },
    });
    expect(foreign.status).toBe(422);
    expect((foreign.body['errors'] as Array<{ path: string }>).map((e) => e.path)).toContain('source.connector_id');
  });

  it('an SFTP directory (real sshd): new files by glob, loaded once, archived on the server; zips expanded; delete', async () => {
    const incoming = path.join(remote, 'incoming');
    await mkdir(incoming, { recursive: true });
    await writeFile(path.join(incoming, '2024-01.csv'), 'id,city\n1,Oslo\n2,Bergen\n');
    await writeFile(path.join(incoming, '2024-02.csv.gz'), gzipSync('id,city\n3,Tromsø\n'));
    await writeFile(
      path.join(incoming, 'bundle.zip'),
      await zipOf([['north/'], ['north/2024-03.csv', 'id,city\n5,Alta\n'], ['README.md', 'not loaded']]),
    );
    await writeFile(path.join(incoming, 'readme.txt'), 'not matched');
    const ingestion = await create({
      source: { kind: 'sftp', connector_id: sftpConnectorId, path: 'incoming', glob: '*.{csv,csv.gz,zip}' },
      post_action: 'archive',
    });
    const first = await run(ingestion.id);
    expect(first.status, first.error ?? '').toBe('succeeded');
    expect((await rowsOf(ingestion.destination.table)).map((r) => r['city'])).toEqual([
      'Oslo',
      'Bergen',
      'Tromsø',
      'Alta',
    ]);
    // Archived on the server, under the source's own archive directory; what did not match stays.
    expect((await readdir(incoming)).sort()).toEqual(['archive', 'readme.txt']);
    expect((await readdir(path.join(incoming, 'archive'))).sort()).toEqual([
      '2024-01.csv',
      '2024-02.csv.gz',
      'bundle.zip',
    ]);
    const files = await history(ingestion.id);
    expect(files.map((f) => `${f.name}:${f.status}:${f.rows_loaded}`).sort()).toEqual([
      '2024-01.csv:loaded:2',
      '2024-02.csv.gz:loaded:1',
      'bundle.zip/north/2024-03.csv:loaded:1',
      'bundle.zip:loaded:1',
    ]);
    const bundle = files.find((f) => f.name === 'bundle.zip')!;
    expect(files.find((f) => f.archive_member === 'north/2024-03.csv')!.archive_id).toBe(bundle.id);

    // The run's lineage names the server's files by sftp://host:port and their absolute paths.
    const lineage = await api<{
      items: Array<{ event_type: string; event: { inputs: Array<{ namespace: string; name: string }> } }>;
    }>(t, 'GET', `/api/v1/lineage/events?run_id=${first.id}`, { token: admin });
    const complete = lineage.body.items.find((e) => e.event_type === 'COMPLETE')!.event;
    expect(complete.inputs.map((i) => `${i.namespace}${i.name}`).sort()).toEqual(
      ['2024-01.csv', '2024-02.csv.gz', 'bundle.zip'].map((n) => `sftp://127.0.0.1:${sshd.port}${incoming}/${n}`),
    );

    // Nothing new: a second look loads nothing; a new file is loaded alone.
    expect((await run(ingestion.id)).status).toBe('succeeded');
    expect(await rowsOf(ingestion.destination.table)).toHaveLength(4);
    await writeFile(path.join(incoming, '2024-04.csv'), 'id,city\n4,Bodø\n');
    expect((await run(ingestion.id)).status).toBe('succeeded');
    expect(await rowsOf(ingestion.destination.table)).toHaveLength(5);
    expect((await history(ingestion.id)).filter((f) => f.status === 'loaded')).toHaveLength(5);

    // Delete as the post action: the file is gone from the server once loaded, and the service keeps no copy.
    const drop = path.join(remote, 'drop');
    await mkdir(drop);
    await writeFile(path.join(drop, 'once.csv'), 'id,city\n7,Narvik\n');
    const deleting = await create({
      source: { kind: 'sftp', connector_id: sftpConnectorId, path: drop },
      post_action: 'delete',
    });
    expect((await run(deleting.id)).status).toBe('succeeded');
    expect(await readdir(drop)).toEqual([]);
    expect((await rowsOf(deleting.destination.table)).map((r) => r['city'])).toEqual(['Narvik']);
    expect((await history(deleting.id)).map((f) => [f.name, f.status, f.available])).toEqual([
      ['once.csv', 'loaded', false],
    ]);
  });

  it('an SFTP server whose host key is not the pinned one fails the run with the reason', async () => {
    const broken = await api<{ id: string }>(t, 'POST', '/api/v1/data-connectors', {
      token: admin,
      body: {
        project_id: projectId,
        name: uniqueName('wrong-key'),
        kind: 'sftp',
        config: sftpConnectorConfig(sshd, remote, { host_key_sha256: sshd.otherHostKeySha256 }),
      },
    });
    expect(broken.status).toBe(201);
    const ingestion = await create({ source: { kind: 'sftp', connector_id: broken.body.id } });
    const execution = await run(ingestion.id);
    expect(execution.status).toBe('failed');
    expect(execution.error).toContain('host key');
  });

  it('an uploaded zip: each matching member is its own history row; duplicates by member; a member reloads', async () => {
    const ingestion = await create({ on_error: 'skip_file' });
    const archive = await zipOf([
      ['orders/'],
      ['orders/2024-01.csv', 'id,item\n1,apple\n2,pear\n'],
      ['orders/2024-02.csv.gz', gzipSync('id,item\n3,plum\n')],
      ['orders/broken.csv', 'id,item\n"4,unterminated\n'],
      ['notes.md', '# not a member to load'],
      ['__MACOSX/orders/._2024-01.csv', 'resource fork'],
    ]);
    const loaded = await upload(ingestion.id, 'bundle.zip', archive);
    expect(loaded).toMatchObject({
      name: 'bundle.zip',
      status: 'partially_loaded',
      rows_loaded: 3,
      archive_id: null,
      archive_member: null,
      available: true,
    });
    expect(loaded.first_error?.message).toMatch(/^orders\/broken\.csv: /);
    const members = (await history(ingestion.id)).filter((f) => f.archive_id === loaded.id);
    expect(members.map((f) => `${f.archive_member}:${f.status}:${f.rows_loaded}`).sort()).toEqual([
      'orders/2024-01.csv:loaded:2',
      'orders/2024-02.csv.gz:loaded:1',
      'orders/broken.csv:failed:0',
    ]);
    expect(members.every((m) => m.name === `bundle.zip/${m.archive_member}`)).toBe(true);
    expect((await rowsOf(ingestion.destination.table)).map((r) => r['item'])).toEqual(['apple', 'pear', 'plum']);

    // The same archive again is a duplicate as a whole.
    expect((await upload(ingestion.id, 'bundle.zip', archive)).status).toBe('skipped_duplicate');
    // A new archive of the same name with one member unchanged: that member is skipped, the new one loaded.
    const next = await upload(
      ingestion.id,
      'bundle.zip',
      await zipOf([
        ['orders/2024-01.csv', 'id,item\n1,apple\n2,pear\n'],
        ['orders/2024-03.csv', 'id,item\n5,fig\n'],
      ]),
    );
    expect(next).toMatchObject({ status: 'loaded', rows_loaded: 1 });
    const nextMembers = (await history(ingestion.id)).filter((f) => f.archive_id === next.id);
    expect(nextMembers.map((f) => `${f.archive_member}:${f.status}`).sort()).toEqual([
      'orders/2024-01.csv:skipped_duplicate',
      'orders/2024-03.csv:loaded',
    ]);
    expect(await rowsOf(ingestion.destination.table)).toHaveLength(4);

    // One member reloaded on its own: a forced row that still names its archive and member.
    const member = members.find((m) => m.archive_member === 'orders/2024-02.csv.gz')!;
    const reload = await api<FileRecord>(
      t,
      'POST',
      `/api/v1/file-ingestions/${ingestion.id}/files/${member.id}/reload`,
      { token: admin },
    );
    expect(reload.status, JSON.stringify(reload.body)).toBe(201);
    await waitForStatus(t, admin, reload.body.execution_id!, ['succeeded', 'failed']);
    const reloaded = (
      await api<FileRecord>(t, 'GET', `/api/v1/file-ingestions/${ingestion.id}/files/${reload.body.id}`, {
        token: admin,
      })
    ).body;
    expect(reloaded).toMatchObject({
      status: 'loaded',
      forced: true,
      rows_loaded: 1,
      archive_id: loaded.id,
      archive_member: 'orders/2024-02.csv.gz',
    });
    expect(await rowsOf(ingestion.destination.table)).toHaveLength(5);
  });

  it('refuses zip bombs: an expansion ratio, a total size or an entry count past the limits fails the archive, loading nothing', async () => {
    const ingestion = await create({ on_error: 'skip_file' });
    // 2.5 MiB of zeros deflate to a few KiB: a ratio near 1000.
    const bomb = await upload(
      ingestion.id,
      'bomb.zip',
      await zipOf([
        ['a.csv', 'id\n1\n'],
        ['zeros.csv', Buffer.alloc(2.5 * 1024 * 1024, 0x30)],
      ]),
    );
    expect(bomb.status).toBe('failed');
    expect(bomb.first_error?.message).toMatch(/zeros\.csv expands \d+ times .*more than the limit of 200.*zip bomb/);
    // Two members of random text (hardly compressible) that together pass the total limit.
    const text = () => randomBytes(1.2 * 1024 * 1024).toString('base64');
    const big = await upload(
      ingestion.id,
      'big.zip',
      await zipOf([
        ['one.csv', `v\n${text()}\n`],
        ['two.csv', `v\n${text()}\n`],
      ]),
    );
    expect(big.status).toBe('failed');
    expect(big.first_error?.message).toContain(`expand to more than ${ARCHIVE_MAX_BYTES} bytes`);
    // More entries than the limit (folders count too).
    const many = await upload(
      ingestion.id,
      'many.zip',
      await zipOf(
        Array.from({ length: ARCHIVE_MAX_MEMBERS + 1 }, (_, i) => [`m${i}.csv`, `id\n${i}\n`] as [string, string]),
      ),
    );
    expect(many.status).toBe('failed');
    expect(many.first_error?.message).toContain(`${ARCHIVE_MAX_MEMBERS + 1} entries, more than the limit`);
    // Not a zip at all.
    const junk = await upload(ingestion.id, 'junk.zip', Buffer.from('this is not an archive'));
    expect(junk.status).toBe('failed');
    expect(junk.first_error?.message).toContain('not a readable zip archive');
    // Nothing of them was expanded or loaded.
    const all = await history(ingestion.id);
    expect(all.filter((f) => f.archive_id !== null)).toEqual([]);
    const tables = await query(destination.url, `select 1 from information_schema.tables where table_name = $1`, [
      ingestion.destination.table,
    ]);
    expect(tables.rows).toHaveLength(0);
  });
});
