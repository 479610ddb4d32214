/**
 * Retention of the ingestion area's data: kept bodies of inbox requests, stored copies of ingested
 * files, and stream dead letters, each pruned by age in a sweep whose preview counts what it deletes;
 * what is younger stays, the records stay, and a replay or reload of a pruned item is refused.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject } from '../support/http.js';
import { createPostgresConnector, query, waitForStatus } from '../support/runs.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';

interface Sweep {
  id: string;
  status: string;
  counts: Record<string, number>;
  total: number;
}

describe('retention of inbox bodies, file copies and dead letters', () => {
  let t: TestApp;
  let framework: TestDatabase;
  let destination: TestDatabase;
  let admin: string;
  let projectId: string;
  let connectorId: string;

  beforeAll(async () => {
    framework = await createTestDatabase();
    destination = await createTestDatabase();
    t = await startTestApp({ env: NO_RATE_LIMITS, database: framework, worker: true });
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
    connectorId = await createPostgresConnector(t, admin, projectId, 'destination', destination.name);
  });
  afterAll(async () => {
    await t?.close();
    await framework?.drop();
    await destination?.drop();
  });

  /** A policy of `kind` for data older than 30 days: its preview, then its sweep. */
  const sweep = async (kind: string) => {
    const policy = await api<{ id: string }>(t, 'POST', '/api/v1/retention-policies', {
      token: admin,
      body: { project_id: projectId, name: `prune ${kind}`, target: { kind }, max_age: '30d' },
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    const preview = await api<{ counts: Record<string, number> }>(
      t,
      'POST',
      `/api/v1/retention-policies/${policy.body.id}/preview`,
      { token: admin },
    );
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const started = await api<Sweep & { execution_id: string }>(
      t,
      'POST',
      `/api/v1/retention-policies/${policy.body.id}/run`,
      { token: admin },
    );
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    await waitForStatus(t, admin, started.body.execution_id, ['succeeded', 'failed']);
    const sweeps = await api<{ items: Sweep[] }>(t, 'GET', `/api/v1/retention-policies/${policy.body.id}/sweeps`, {
      token: admin,
    });
    return { preview: preview.body.counts, sweep: sweeps.body.items[0]! };
  };

  it('clears the bodies of old inbox requests; the records stay and an old one can no longer be replayed', async () => {
    const inbox = await api<{ id: string; secret: string; receive_path: string }>(t, 'POST', '/api/v1/inboxes', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'orders in',
        auth: { kind: 'bearer' },
        destination: { connector_id: connectorId, table: 'inbox_orders', mode: 'append' },
      },
    });
    expect(inbox.status, JSON.stringify(inbox.body)).toBe(201);
    for (let i = 1; i <= 3; i++) {
      const sent = await fetch(`${t.url}${inbox.body.receive_path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${inbox.body.secret}` },
        body: JSON.stringify({ id: i }),
      });
      expect(sent.status).toBe(202);
    }
    const requests = async () =>
      (
        await api<{ items: Array<{ id: string; load_status: string | null }> }>(
          t,
          'GET',
          `/api/v1/inboxes/${inbox.body.id}/requests`,
          { token: admin },
        )
      ).body.items;
    const deadline = Date.now() + 30_000;
    while ((await requests()).some((r) => r.load_status !== 'loaded') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    const [newest, ...older] = await requests();
    // Two of them 40 days old.
    await query(
      framework.url,
      `update inbox_requests set received_at = now() - interval '40 days' where id = any($1)`,
      [older.map((r) => r.id)],
    );

    const { preview, sweep: done } = await sweep('inbox_request_bodies');
    expect(preview).toEqual({ inbox_requests: 2 });
    expect(done).toMatchObject({ status: 'succeeded', counts: { inbox_requests: 2 }, total: 2 });
    const kept = await query(
      framework.url,
      'select id, body is not null as kept from inbox_requests where inbox_id = $1 order by received_at',
      [inbox.body.id],
    );
    expect(kept.rows).toHaveLength(3);
    expect(kept.rows.filter((r) => r.kept).map((r) => r.id)).toEqual([newest!.id]);
    const replayOld = await api(t, 'POST', `/api/v1/inboxes/${inbox.body.id}/requests/${older[0]!.id}/replay`, {
      token: admin,
    });
    expect(replayOld.status).toBe(409);
    const replayNew = await api(t, 'POST', `/api/v1/inboxes/${inbox.body.id}/requests/${newest!.id}/replay`, {
      token: admin,
    });
    expect(replayNew.status).toBe(201);
  });

  it('removes the stored copies of old ingested files; the history stays and a reload is refused', async () => {
    const ingestion = await api<{ id: string }>(t, 'POST', '/api/v1/file-ingestions', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'uploads',
        source: { kind: 'upload' },
        format: { type: 'csv' },
        destination: { connector_id: connectorId, table: 'uploaded', mode: 'append' },
      },
    });
    expect(ingestion.status, JSON.stringify(ingestion.body)).toBe(201);
    const files: Array<{ id: string; execution_id: string }> = [];
    for (const name of ['old.csv', 'new.csv']) {
      const form = new FormData();
      form.append('file', new Blob([`id,name\n1,${name}\n`]), name);
      const response = await fetch(`${t.url}/api/v1/file-ingestions/${ingestion.body.id}/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}` },
        body: form,
      });
      expect(response.status).toBe(201);
      const file = (await response.json()) as { id: string; execution_id: string };
      await waitForStatus(t, admin, file.execution_id, ['succeeded']);
      files.push(file);
    }
    const stored = async () =>
      (
        await query(framework.url, 'select id, stored_path from file_ingestion_files where ingestion_id = $1', [
          ingestion.body.id,
        ])
      ).rows as Array<{ id: string; stored_path: string | null }>;
    const before = await stored();
    const oldCopy = before.find((f) => f.id === files[0]!.id)!.stored_path!;
    expect(existsSync(oldCopy) || existsSync(path.resolve(oldCopy))).toBe(true);
    await query(
      framework.url,
      `update file_ingestion_files set created_at = now() - interval '40 days', finished_at = now() - interval '40 days' where id = $1`,
      [files[0]!.id],
    );

    // A folder source's file is the user's own: never pruned, however old.
    const folder = path.join(t.config.files.root ?? path.join(t.config.dataDir, 'files'), projectId, 'drop');
    await mkdir(folder, { recursive: true });
    const own = path.join(folder, 'own.csv');
    await writeFile(own, 'id,name\n1,own\n');
    const watched = await api<{ id: string }>(t, 'POST', '/api/v1/file-ingestions', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'drop folder',
        source: { kind: 'folder', path: 'drop' },
        format: { type: 'csv' },
        destination: { connector_id: connectorId, table: 'dropped', mode: 'append' },
      },
    });
    expect(watched.status, JSON.stringify(watched.body)).toBe(201);
    const scan = await api<{ id: string }>(t, 'POST', `/api/v1/file-ingestions/${watched.body.id}/run`, {
      token: admin,
    });
    expect((await waitForStatus(t, admin, scan.body.id, ['succeeded', 'failed'])).status).toBe('succeeded');
    await query(
      framework.url,
      `update file_ingestion_files set created_at = now() - interval '40 days', finished_at = now() - interval '40 days' where ingestion_id = $1`,
      [watched.body.id],
    );

    const { preview, sweep: done } = await sweep('ingested_file_copies');
    expect(preview).toEqual({ file_ingestion_files: 1 });
    expect(done).toMatchObject({ status: 'succeeded', counts: { file_ingestion_files: 1 } });
    const after = await stored();
    expect(after).toHaveLength(2);
    expect(after.find((f) => f.id === files[0]!.id)!.stored_path).toBeNull();
    expect(after.find((f) => f.id === files[1]!.id)!.stored_path).not.toBeNull();
    expect(existsSync(oldCopy)).toBe(false);
    expect(existsSync(own)).toBe(true);
    const kept = await query(framework.url, 'select stored_path from file_ingestion_files where ingestion_id = $1', [
      watched.body.id,
    ]);
    expect(kept.rows.map((r) => r.stored_path)).toEqual([own]);
    const reload = await api(t, 'POST', `/api/v1/file-ingestions/${ingestion.body.id}/files/${files[0]!.id}/reload`, {
      token: admin,
    });
    expect([409, 410]).toContain(reload.status);
  });

  it('deletes old dead letters of the project’s streams', async () => {
    const broker = await api<{ id: string }>(t, 'POST', '/api/v1/data-connectors', {
      token: admin,
      body: { project_id: projectId, name: 'redis', kind: 'redis_streams', config: { host: '127.0.0.1', port: 6379 } },
    });
    expect(broker.status, JSON.stringify(broker.body)).toBe(201);
    const stream = await api<{ id: string }>(t, 'POST', '/api/v1/streams', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'events',
        source_connector_id: broker.body.id,
        source: { name: `retention-${Math.random().toString(36).slice(2, 8)}` },
        destination_connector_id: connectorId,
        table: 'events',
      },
    });
    expect(stream.status, JSON.stringify(stream.body)).toBe(201);
    // Dead letters as a run leaves them: three of 40 days ago, one of today.
    await query(
      framework.url,
      `insert into stream_dead_letters (stream_id, message_id, payload, reason, deliveries, created_at)
       select $1, 'm' || g, convert_to('{}', 'utf8'), 'not valid json', 5,
              case when g <= 3 then now() - interval '40 days' else now() end
         from generate_series(1, 4) g`,
      [stream.body.id],
    );
    const { preview, sweep: done } = await sweep('stream_dead_letters');
    expect(preview).toEqual({ stream_dead_letters: 3 });
    expect(done).toMatchObject({ status: 'succeeded', counts: { stream_dead_letters: 3 } });
    const left = await api<{ items: Array<{ message_id: string }> }>(
      t,
      'GET',
      `/api/v1/streams/${stream.body.id}/dead-letters`,
      { token: admin },
    );
    expect(left.body.items.map((d) => d.message_id)).toEqual(['m4']);
  });

  it('refuses max_rows for what is pruned by age only, naming the field', async () => {
    const refused = await api<{ errors: Array<{ path: string }> }>(t, 'POST', '/api/v1/retention-policies', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'by rows',
        target: { kind: 'stream_dead_letters' },
        max_age: '30d',
        max_rows: 10,
      },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e) => e.path)).toEqual(['max_rows']);
  });
});
