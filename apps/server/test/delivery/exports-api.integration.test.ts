import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser } from '../support/http.js';

interface ExportView {
  id: string;
  name: string;
  destination: Record<string, unknown>;
  format: Record<string, unknown>;
  mode: string;
}

interface Problem {
  detail: string;
  errors: Array<{ path: string; message: string }>;
}

describe('exports API', () => {
  let t: TestApp;
  let admin: string;
  let projectId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS });
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
  });
  afterAll(async () => t?.close());

  const body = (overrides: Record<string, unknown> = {}) => ({
    project_id: projectId,
    name: `export-${Math.random().toString(36).slice(2, 8)}`,
    source: { kind: 'warehouse_query', query: 'select 1 as one' },
    destination: { kind: 'files' },
    ...overrides,
  });

  it('creates, lists, changes and deletes an export, filling in the defaults', async () => {
    const created = await api<ExportView>(t, 'POST', '/api/v1/exports', { token: admin, body: body() });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.destination).toEqual({
      kind: 'files',
      folder: 'exports',
      file_name: '{export}_{run_time}_{part}.{ext}',
    });
    expect(created.body.format).toEqual({
      type: 'csv',
      delimiter: ',',
      header: true,
      quote: '"',
      quoting: 'minimal',
      null_value: '',
      gzip: false,
    });
    expect(created.body.mode).toBe('full');

    const list = await api<{ items: ExportView[] }>(t, 'GET', `/api/v1/exports?project_id=${projectId}`, {
      token: admin,
    });
    expect(list.body.items.map((e) => e.id)).toContain(created.body.id);

    const changed = await api<ExportView>(t, 'PATCH', `/api/v1/exports/${created.body.id}`, {
      token: admin,
      body: { format: { type: 'ndjson', gzip: true } },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.format).toEqual({ type: 'ndjson', gzip: true });

    const duplicate = await api(t, 'POST', '/api/v1/exports', {
      token: admin,
      body: body({ name: created.body.name }),
    });
    expect(duplicate.status).toBe(409);

    expect((await api(t, 'DELETE', `/api/v1/exports/${created.body.id}`, { token: admin })).status).toBe(204);
    expect((await api(t, 'GET', `/api/v1/exports/${created.body.id}`, { token: admin })).status).toBe(404);
  });

  it('answers 422 naming the field of a bad destination or format', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ destination: { kind: 'ftp' } }, 'destination.kind'],
      [{ destination: { kind: 'files', folder: '../other-project' } }, 'destination.folder'],
      [{ destination: { kind: 'files', folder: '/etc' } }, 'destination.folder'],
      [{ destination: { kind: 'files', file_name: '{export}_{when}.csv' } }, 'destination.file_name'],
      [{ destination: { kind: 'files', file_name: 'fixed.csv' } }, 'destination.file_name'],
      [{ destination: { kind: 'files', max_rows_per_file: 10, file_name: '{run_time}.csv' } }, 'destination.file_name'],
      [{ destination: { kind: 'files', max_rows_per_file: 0 } }, 'destination.max_rows_per_file'],
      [{ destination: { kind: 'files', colour: 'red' } }, 'destination.colour'],
      [{ format: { type: 'csv', delimiter: ';;' } }, 'format.delimiter'],
      [{ format: { type: 'csv', delimiter: '"' } }, 'format.delimiter'],
      [{ format: { type: 'xml' } }, 'format.type'],
      [{ mode: 'diff' }, 'key_columns'],
      [{ mode: 'incremental' }, 'cursor_column'],
      [{ source: { kind: 'warehouse_query' } }, 'source.query'],
      [{ source: { kind: 'connector', connector_id: projectId, dataset: 'x' } }, 'source.connector_id'],
    ];
    for (const [overrides, path] of cases) {
      const result = await api<Problem>(t, 'POST', '/api/v1/exports', { token: admin, body: body(overrides) });
      expect(result.status, `${JSON.stringify(overrides)}: ${JSON.stringify(result.body)}`).toBe(422);
      expect(
        result.body.errors.map((e) => e.path),
        JSON.stringify(overrides),
      ).toContain(path);
    }
  });

  it('shows an export only to members of its project', async () => {
    const created = await api<ExportView>(t, 'POST', '/api/v1/exports', { token: admin, body: body() });
    const outsider = await createUser(t, admin);
    const other = await createProject(t, admin);
    await api(t, 'PUT', `/api/v1/admin/projects/${other.id}/members/${outsider.id}`, {
      token: admin,
      body: { role: 'owner' },
    });
    const token = outsider.session.accessToken;
    // Not a member of the export's project: refused (the platform answers 403 permission_denied to non-members).
    expect((await api(t, 'GET', `/api/v1/exports/${created.body.id}`, { token })).status).toBe(403);
    expect((await api(t, 'GET', `/api/v1/exports/${created.body.id}/runs`, { token })).status).toBe(403);
    const list = await api<{ items: ExportView[] }>(t, 'GET', '/api/v1/exports', { token });
    expect(list.body.items.map((e) => e.id)).not.toContain(created.body.id);
    const viewer = await createUser(t, admin);
    await api(t, 'PUT', `/api/v1/admin/projects/${projectId}/members/${viewer.id}`, {
      token: admin,
      body: { role: 'viewer' },
    });
    const view = viewer.session.accessToken;
    expect((await api(t, 'GET', `/api/v1/exports/${created.body.id}`, { token: view })).status).toBe(200);
    expect((await api(t, 'DELETE', `/api/v1/exports/${created.body.id}`, { token: view })).status).toBe(403);
  });
});
