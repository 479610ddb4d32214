/**
 * The catalog's enrichment: personal-data tags suggested by column name at discovery and by a sample
 * of values on request, confirmed or dismissed by a user and kept across discoveries; descriptions,
 * owners and tags; search by text, tag and column; freshness from the last run that wrote a dataset;
 * and masking policies by tag applied through the catalog's tags to a preview and an export.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser } from '../support/http.js';
import { createPostgresConnector, query, waitForStatus, type Execution } from '../support/runs.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';

interface Column {
  name: string;
  tags: string[];
  suggested_tags: string[];
  description: string | null;
}
interface Dataset {
  id: string;
  name: string;
  description: string | null;
  owners: string[];
  tags: string[];
  last_written_at: string | null;
  last_row_count: number | null;
  columns: Column[];
}

describe('catalog enrichment', () => {
  let t: TestApp;
  let admin: string;
  let projectId: string;
  let source: TestDatabase;
  let connectorId: string;
  let customers: string;

  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS, worker: true });
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
    source = await createTestDatabase();
    await query(
      source.url,
      `create table customers (id int primary key, contact text, phone_number text, note text);
       insert into customers
         select g, 'person' || g || '@example.com', '+49 30 ' || (1000000 + g), 'likes tea ' || g
           from generate_series(1, 50) g`,
    );
    connectorId = await createPostgresConnector(t, admin, projectId, 'crm', source.name);
    expect((await api(t, 'POST', `/api/v1/data-connectors/${connectorId}/discover`, { token: admin })).status).toBe(
      200,
    );
    const listed = await api<{ items: Dataset[] }>(t, 'GET', `/api/v1/catalog/datasets?connector_id=${connectorId}`, {
      token: admin,
    });
    customers = listed.body.items.find((d) => d.name === 'customers')!.id;
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
  });

  const dataset = async (id = customers) =>
    (await api<Dataset>(t, 'GET', `/api/v1/catalog/datasets/${id}`, { token: admin })).body;
  const column = (d: Dataset, name: string) => d.columns.find((c) => c.name === name)!;
  const search = async (query: string) =>
    (
      await api<{ items: Dataset[] }>(t, 'GET', `/api/v1/catalog/datasets?project_id=${projectId}&${query}`, {
        token: admin,
      })
    ).body.items.map((d) => d.name);
  const patchColumn = (name: string, body: Record<string, unknown>) =>
    api<Dataset & { errors?: Array<{ path: string }> }>(
      t,
      'PATCH',
      `/api/v1/catalog/datasets/${customers}/columns/${name}`,
      { token: admin, body },
    );

  it('suggests tags by name at discovery and by values on request; confirmed and dismissed tags stay', async () => {
    let found = await dataset();
    expect(column(found, 'phone_number').suggested_tags).toEqual(['phone', 'pii']);
    // "contact" says nothing by its name; its values are e-mail addresses.
    expect(column(found, 'contact').suggested_tags).toEqual([]);
    expect(column(found, 'note').suggested_tags).toEqual([]);

    const classified = await api<Dataset & { sampled_rows: number }>(
      t,
      'POST',
      `/api/v1/catalog/datasets/${customers}/classify`,
      { token: admin },
    );
    expect(classified.status, JSON.stringify(classified.body)).toBe(200);
    expect(classified.body.sampled_rows).toBe(50);
    expect(column(classified.body, 'contact').suggested_tags).toEqual(['email', 'pii']);
    expect(column(classified.body, 'note').suggested_tags).toEqual([]);
    expect(column(classified.body, 'id').suggested_tags).toEqual([]);

    // Confirm the e-mail tags with a description; dismiss the phone suggestion.
    const confirmed = await patchColumn('contact', { tags: ['email', 'pii'], description: 'Where we write to' });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(column(confirmed.body, 'contact')).toMatchObject({
      tags: ['email', 'pii'],
      suggested_tags: [],
      description: 'Where we write to',
    });
    const dismissed = await patchColumn('phone_number', { dismiss: ['phone', 'pii'] });
    expect(column(dismissed.body, 'phone_number')).toMatchObject({ tags: [], suggested_tags: [] });

    // A new discovery keeps what users wrote and suggests nothing dismissed again.
    await api(t, 'POST', `/api/v1/data-connectors/${connectorId}/discover`, { token: admin });
    found = await dataset();
    expect(column(found, 'contact')).toMatchObject({ tags: ['email', 'pii'], description: 'Where we write to' });
    expect(column(found, 'phone_number').suggested_tags).toEqual([]);

    // Wrong input names the field and changes nothing.
    const unknown = await patchColumn('no_such_column', { tags: ['x'] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors!.map((e) => e.path)).toEqual(['column']);
    const badTag = await patchColumn('contact', { tags: ['Not A Tag'] });
    expect([400, 422]).toContain(badTag.status);
    expect(JSON.stringify(badTag.body)).toContain('tags');
    expect(column(await dataset(), 'contact').tags).toEqual(['email', 'pii']);
  });

  it('keeps descriptions, owners and tags of datasets, and finds datasets by text, tag and column', async () => {
    const changed = await api<Dataset>(t, 'PATCH', `/api/v1/catalog/datasets/${customers}`, {
      token: admin,
      body: { description: 'Customers of the shop', owners: ['crm-team', 'crm-team', 'ana'], tags: ['crm'] },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({
      description: 'Customers of the shop',
      owners: ['crm-team', 'ana'],
      tags: ['crm'],
    });
    await api(t, 'POST', `/api/v1/data-connectors/${connectorId}/discover`, { token: admin });
    expect(await dataset()).toMatchObject({ description: 'Customers of the shop', tags: ['crm'] });

    expect(await search('tag=crm')).toEqual(['customers']);
    expect(await search('tag=email')).toEqual(['customers']); // a column's tag
    expect(await search('tag=nothing')).toEqual([]);
    expect(await search('column=CONTACT')).toEqual(['customers']);
    expect(await search('column=missing')).toEqual([]);
    expect(await search('q=of%20the%20shop')).toEqual(['customers']);
    expect(await search('q=100%25')).toEqual([]); // % is a character, not a wildcard

    // Reading is catalog:read; changing is catalog:write.
    const viewer = await createUser(t, admin);
    await api(t, 'PUT', `/api/v1/admin/projects/${projectId}/members/${viewer.id}`, {
      token: admin,
      body: { role: 'viewer' },
    });
    const token = viewer.session.accessToken;
    expect((await api(t, 'GET', `/api/v1/catalog/datasets/${customers}`, { token })).status).toBe(200);
    expect(
      (await api(t, 'PATCH', `/api/v1/catalog/datasets/${customers}`, { token, body: { tags: ['mine'] } })).status,
    ).toBe(403);
    expect((await api(t, 'POST', `/api/v1/catalog/datasets/${customers}/classify`, { token })).status).toBe(403);
    const outsider = await createUser(t, admin);
    const other = (
      await api<{ items: Dataset[] }>(t, 'GET', '/api/v1/catalog/datasets?tag=crm', {
        token: outsider.session.accessToken,
      })
    ).body.items;
    expect(other).toEqual([]);
  });

  it('shows when a run last wrote a dataset and how many rows', async () => {
    const pipeline = await api<{ id: string }>(t, 'POST', '/api/v1/etl/pipelines', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'copy customers',
        sources: [{ connector_id: connectorId, dataset: 'customers' }],
        destination: { connector_id: connectorId, table: 'customers_copy', mode: 'overwrite' },
      },
    });
    expect(pipeline.status, JSON.stringify(pipeline.body)).toBe(201);
    const started = await api<Execution>(t, 'POST', `/api/v1/etl/pipelines/${pipeline.body.id}/run`, { token: admin });
    expect((await waitForStatus(t, admin, started.body.id, ['succeeded', 'failed'])).status).toBe('succeeded');
    await api(t, 'POST', `/api/v1/data-connectors/${connectorId}/discover`, { token: admin });
    const items = (
      await api<{ items: Dataset[] }>(t, 'GET', `/api/v1/catalog/datasets?connector_id=${connectorId}`, {
        token: admin,
      })
    ).body.items;
    const copy = items.find((d) => d.name === 'customers_copy')!;
    expect(copy.last_row_count).toBe(50);
    expect(Date.now() - Date.parse(copy.last_written_at!)).toBeLessThan(60_000);
    // Nothing has written into the source table.
    expect(items.find((d) => d.name === 'customers')).toMatchObject({ last_written_at: null, last_row_count: null });
  });

  it('masks the columns a policy covers by tag, through the catalog, in a preview and an export', async () => {
    const policy = await api<{ id: string }>(t, 'POST', '/api/v1/masking-policies', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'e-mail addresses',
        method: 'email_domain',
        tags: ['email'],
        exempt: { capabilities: [], roles: [] },
      },
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    try {
      const pipeline = await api<{ id: string }>(t, 'POST', '/api/v1/etl/pipelines', {
        token: admin,
        body: {
          project_id: projectId,
          name: 'preview customers',
          sources: [{ connector_id: connectorId, namespace: 'public', dataset: 'customers' }],
          destination: { connector_id: connectorId, table: 'never_written', mode: 'append' },
        },
      });
      const preview = await api<{ rows: Array<Record<string, unknown>> }>(
        t,
        'POST',
        `/api/v1/etl/pipelines/${pipeline.body.id}/preview`,
        { token: admin, body: { limit: 5 } },
      );
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      expect(preview.body.rows.map((r) => r['contact'])).toEqual(Array(5).fill('****@example.com'));
      // A column no tag covers stays clear.
      expect(String(preview.body.rows[0]!['note'])).toMatch(/^likes tea \d+$/);

      const created = await api<{ id: string }>(t, 'POST', '/api/v1/exports', {
        token: admin,
        body: {
          project_id: projectId,
          name: 'customers out',
          source: { kind: 'connector', connector_id: connectorId, namespace: 'public', dataset: 'customers' },
          destination: { kind: 'files', folder: 'catalog-test' },
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const run = await api<Execution>(t, 'POST', `/api/v1/exports/${created.body.id}/run`, { token: admin });
      expect((await waitForStatus(t, admin, run.body.id, ['succeeded', 'failed'])).status).toBe('succeeded');
      const runs = await api<{ items: Array<{ files: Array<{ name: string }> }> }>(
        t,
        'GET',
        `/api/v1/exports/${created.body.id}/runs`,
        { token: admin },
      );
      const folder = path.join(t.config.files.root ?? path.join(t.config.dataDir, 'files'), projectId);
      const text = await readFile(path.join(folder, runs.body.items[0]!.files[0]!.name), 'utf8');
      expect(text).not.toContain('person1@example.com');
      expect(text).toContain('****@example.com');
    } finally {
      await api(t, 'DELETE', `/api/v1/masking-policies/${policy.body.id}`, { token: admin });
    }
  });
});
