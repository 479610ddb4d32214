import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser } from '../support/http.js';
import { createPostgresConnector, query, waitForStatus, type Execution } from '../support/runs.js';
import { createTestDatabase, uniqueName, type TestDatabase } from '../support/services.js';
import { startSshd, type TestSshd } from './sshd.js';

interface ExportRun {
  execution_id: string;
  status: string;
  delivered: number;
  files: Array<{ name: string; rows: number; bytes: number }>;
  error: string | null;
}

describe('exports to an SFTP directory', () => {
  let t: TestApp;
  let admin: string;
  let projectId: string;
  let source: TestDatabase;
  let sourceId: string;
  let sshd: TestSshd;
  let remote: string;

  beforeAll(async () => {
    sshd = await startSshd();
    remote = await mkdtemp(path.join(os.tmpdir(), 'svc-sftp-export-'));
    t = await startTestApp({ env: NO_RATE_LIMITS, worker: true });
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
    source = await createTestDatabase();
    sourceId = await createPostgresConnector(t, admin, projectId, 'source', source.name);
    await query(source.url, 'create table items (id int primary key, label text)');
    await query(source.url, "insert into items select g, 'item ' || g from generate_series(1, 45) g");
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
    await sshd?.close();
    if (remote) await rm(remote, { recursive: true, force: true });
  });

  const destination = (extra: Record<string, unknown> = {}) => ({
    kind: 'sftp',
    host: '127.0.0.1',
    port: sshd.port,
    username: sshd.username,
    private_key: sshd.privateKey,
    host_key_sha256: sshd.hostKeySha256,
    directory: path.join(remote, 'daily'),
    ...extra,
  });
  const create = async (extra: Record<string, unknown> = {}, format: Record<string, unknown> = { type: 'csv' }) => {
    const created = await api<{ id: string; secrets_set: string[]; destination: Record<string, unknown> }>(
      t,
      'POST',
      '/api/v1/exports',
      {
        token: admin,
        body: {
          project_id: projectId,
          name: uniqueName('to-sftp'),
          source: { kind: 'connector', connector_id: sourceId, dataset: 'items' },
          destination: destination(extra),
          format,
        },
      },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  };
  const run = async (id: string) => {
    const started = await api<Execution>(t, 'POST', `/api/v1/exports/${id}/run`, { token: admin });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const execution = await waitForStatus(t, admin, started.body.id, ['succeeded', 'partially_failed', 'failed']);
    const runs = await api<{ items: ExportRun[] }>(t, 'GET', `/api/v1/exports/${id}/runs`, { token: admin });
    return { execution, account: runs.body.items.find((r) => r.execution_id === started.body.id)! };
  };

  it('uploads whole parts under a temporary name, renamed when whole, and downloads them by a signed link', async () => {
    const created = await create({ max_rows_per_file: 20 });
    expect(created.secrets_set).toEqual(['private_key']);
    expect(created.destination['private_key']).toBeUndefined();
    const { execution, account } = await run(created.id);
    expect(execution.status, execution.error ?? '').toBe('succeeded');
    expect(account.files.map((f) => f.rows)).toEqual([20, 20, 5]);
    const prefix = `sftp://127.0.0.1:${sshd.port}${path.join(remote, 'daily')}/`;
    expect(
      account.files.every((f) => f.name.startsWith(prefix)),
      JSON.stringify(account.files),
    ).toBe(true);
    // Only the final names are in the directory: no temporary file is left behind.
    const entries = (await readdir(path.join(remote, 'daily'))).sort();
    expect(entries).toEqual(account.files.map((f) => path.basename(f.name)).sort());
    const ids: number[] = [];
    for (const entry of entries) {
      const lines = (await readFile(path.join(remote, 'daily', entry), 'utf8')).trim().split('\n');
      expect(lines[0]).toBe('id,label');
      ids.push(...lines.slice(1).map((line) => Number(line.split(',')[0])));
    }
    expect(ids.sort((a, b) => a - b)).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));

    const link = await api<{ url: string }>(
      t,
      'POST',
      `/api/v1/exports/${created.id}/runs/${account.execution_id}/download-link?file=2`,
      { token: admin },
    );
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    const download = await fetch(`${t.url}${link.body.url}`, { headers: { authorization: `Bearer ${admin}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toContain('text/csv');
    expect(await download.text()).toBe(await readFile(path.join(remote, 'daily', entries[2]!), 'utf8'));

    // A member of another project only is refused the link and the file.
    const outsider = await createUser(t, admin);
    const other = await createProject(t, admin);
    await api(t, 'PUT', `/api/v1/admin/projects/${other.id}/members/${outsider.id}`, {
      token: admin,
      body: { role: 'owner' },
    });
    const headers = { authorization: `Bearer ${outsider.session.accessToken}` };
    expect((await fetch(`${t.url}${link.body.url}`, { headers })).status).toBe(403);
  });

  it('refuses a server whose host key is not the pinned one, and writes nothing', async () => {
    const created = await create({ host_key_sha256: sshd.otherHostKeySha256, directory: path.join(remote, 'pinned') });
    const { execution } = await run(created.id);
    expect(execution.status).toBe('failed');
    expect(execution.error).toContain(sshd.hostKeySha256);
    expect(execution.error).toContain('refusing to connect');
    expect(await readdir(path.join(remote, 'pinned')).catch(() => 'missing')).toBe('missing');
  });

  it('answers 422 naming the field of a bad SFTP destination', async () => {
    for (const [extra, field] of [
      [{ host_key_sha256: undefined }, 'destination.host_key_sha256'],
      [{ host_key_sha256: 'MD5:aa:bb' }, 'destination.host_key_sha256'],
      [{ port: 0 }, 'destination.port'],
      [{ directory: '' }, 'destination.directory'],
      [{ file_name: 'fixed.csv' }, 'destination.file_name'],
    ] as const) {
      const response = await api<{ errors: Array<{ path: string }> }>(t, 'POST', '/api/v1/exports', {
        token: admin,
        body: {
          project_id: projectId,
          name: uniqueName('bad-sftp'),
          source: { kind: 'connector', connector_id: sourceId, dataset: 'items' },
          destination: destination(extra),
        },
      });
      expect(response.status, JSON.stringify(extra)).toBe(422);
      expect(response.body.errors.map((e) => e.path)).toContain(field);
    }
  });
});
