import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject } from '../support/http.js';
import { createPostgresConnector, query, waitForStatus, type Execution } from '../support/runs.js';
import { startS3, type TestS3 } from '../support/s3.js';
import { createTestDatabase, uniqueName, type TestDatabase } from '../support/services.js';

describe('exports to an S3-compatible object store', () => {
  let t: TestApp;
  let admin: string;
  let projectId: string;
  let source: TestDatabase;
  let sourceId: string;
  let store: TestS3;
  let endpoint: string;
  let s3: S3Client;

  beforeAll(async () => {
    store = await startS3(['exports-bucket']);
    ({ endpoint, client: s3 } = store);
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
    await store?.close();
  });

  it('uploads each whole part as an object (lib-storage Upload: multipart above 8 MB), under the prefix', async () => {
    const created = await api<{ id: string; secrets_set: string[] }>(t, 'POST', '/api/v1/exports', {
      token: admin,
      body: {
        project_id: projectId,
        name: uniqueName('to-s3'),
        source: { kind: 'connector', connector_id: sourceId, dataset: 'items' },
        destination: {
          kind: 's3',
          endpoint,
          bucket: 'exports-bucket',
          prefix: 'daily/',
          max_rows_per_file: 20,
          access_key_id: 'S3RVER',
          secret_access_key: 'S3RVER',
          force_path_style: true,
        },
        format: { type: 'ndjson' },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.secrets_set).toEqual(['secret_access_key']);
    const started = await api<Execution>(t, 'POST', `/api/v1/exports/${created.body.id}/run`, { token: admin });
    const execution = await waitForStatus(t, admin, started.body.id, ['succeeded', 'partially_failed', 'failed']);
    expect(execution.status, execution.error ?? '').toBe('succeeded');
    const runs = await api<{ items: Array<{ files: Array<{ name: string; rows: number }>; delivered: number }> }>(
      t,
      'GET',
      `/api/v1/exports/${created.body.id}/runs`,
      { token: admin },
    );
    const files = runs.body.items[0]!.files;
    expect(files.map((f) => f.rows)).toEqual([20, 20, 5]);
    expect(files.every((f) => f.name.startsWith('s3://exports-bucket/daily/'))).toBe(true);

    const listed = await s3.send(new ListObjectsV2Command({ Bucket: 'exports-bucket', Prefix: 'daily/' }));
    const keys = (listed.Contents ?? []).map((o) => o.Key!).sort();
    expect(keys).toEqual(files.map((f) => f.name.replace('s3://exports-bucket/', '')).sort());
    const ids: number[] = [];
    for (const key of keys) {
      const object = await s3.send(new GetObjectCommand({ Bucket: 'exports-bucket', Key: key }));
      const text = await object.Body!.transformToString();
      ids.push(
        ...text
          .trim()
          .split('\n')
          .map((line) => (JSON.parse(line) as { id: number }).id),
      );
    }
    expect(ids.sort((a, b) => a - b)).toEqual(Array.from({ length: 45 }, (_, i) => i + 1));

    // A signed link streams the object from the bucket through the API.
    const run = runs.body.items[0] as unknown as { execution_id: string };
    const link = await api<{ url: string; file: string }>(
      t,
      'POST',
      `/api/v1/exports/${created.body.id}/runs/${run.execution_id}/download-link?file=1`,
      { token: admin },
    );
    expect(link.status, JSON.stringify(link.body)).toBe(201);
    expect(link.body.file).toBe(files[1]!.name);
    const download = await fetch(`${t.url}${link.body.url}`, { headers: { authorization: `Bearer ${admin}` } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toContain('application/x-ndjson');
    const object = await s3.send(
      new GetObjectCommand({ Bucket: 'exports-bucket', Key: files[1]!.name.replace('s3://exports-bucket/', '') }),
    );
    expect(await download.text()).toBe(await object.Body!.transformToString());
    const forged = link.body.url.replace(/signature=[^&]+/, 'signature=AAAA');
    expect((await fetch(`${t.url}${forged}`, { headers: { authorization: `Bearer ${admin}` } })).status).toBe(403);
  });
});
