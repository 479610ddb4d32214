/**
 * Bounded reading of HTTP sources: a preview of one row of a 120 MB JSON endpoint reads a few
 * chunks, not the body; a body over SVC_HTTP_MAX_RESPONSE_BYTES fails once it crosses the limit; the
 * numbers of an http_api configuration have maximums.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject } from '../support/http.js';
import { createPostgresConnector, query } from '../support/runs.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';

const MB = 1024 * 1024;
const HUGE_BYTES = 120 * MB;
const RECORD = (id: number) => JSON.stringify({ id, name: `record number ${id}`, padding: 'x'.repeat(200) });

/** A JSON array of about `bytes`, generated as the client reads it (chunked, no Content-Length): never held in memory. */
function streamArray(res: ServerResponse, bytes: number) {
  res.writeHead(200, { 'content-type': 'application/json' });
  let sent = 0;
  let id = 0;
  res.write('[');
  const pump = () => {
    while (sent < bytes) {
      const chunk: string[] = [];
      for (let i = 0; i < 200; i++) chunk.push(`${id === 0 ? '' : ','}${RECORD(++id)}`);
      const text = chunk.join('');
      sent += text.length;
      if (!res.write(text)) {
        res.once('drain', pump);
        return;
      }
    }
    res.end(']');
  };
  res.on('error', () => undefined);
  pump();
}

describe('HTTP response caps', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.socket.on('error', () => undefined);
      streamArray(res, req.url?.includes('small') ? 2 * MB : HUGE_BYTES);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  describe('with the default limit', () => {
    let t: TestApp;
    let admin: string;
    let projectId: string;
    let destination: TestDatabase;
    beforeAll(async () => {
      t = await startTestApp({ env: NO_RATE_LIMITS });
      admin = (await adminLogin(t)).accessToken;
      projectId = (await createProject(t, admin)).id;
      destination = await createTestDatabase();
    });
    afterAll(async () => {
      await t?.close();
      await destination?.drop();
    });

    it('previews one row of a 120 MB endpoint without reading it into memory', async () => {
      const source = await api<{ id: string }>(t, 'POST', '/api/v1/data-connectors', {
        token: admin,
        body: {
          project_id: projectId,
          name: 'huge api',
          kind: 'http_api',
          config: { base_url: `${base}/v1`, endpoints: [{ name: 'items', path: 'huge' }] },
        },
      });
      expect(source.status).toBe(201);
      const destinationId = await createPostgresConnector(t, admin, projectId, 'destination', destination.name);
      const pipeline = await api<{ id: string }>(t, 'POST', '/api/v1/etl/pipelines', {
        token: admin,
        body: {
          project_id: projectId,
          name: 'huge preview',
          sources: [{ connector_id: source.body.id, dataset: 'items' }],
          destination: { connector_id: destinationId, table: 'items', mode: 'append' },
        },
      });
      expect(pipeline.status).toBe(201);

      const before = process.memoryUsage().rss;
      const preview = await api<{ rows: Array<Record<string, unknown>>; truncated: boolean }>(
        t,
        'POST',
        `/api/v1/etl/pipelines/${pipeline.body.id}/preview`,
        { token: admin, body: { limit: 1 } },
      );
      const growth = process.memoryUsage().rss - before;
      expect(preview.status).toBe(200);
      expect(preview.body.rows).toHaveLength(1);
      expect(preview.body.rows[0]).toMatchObject({ id: 1, name: 'record number 1' });
      expect(growth).toBeLessThan(100 * MB);
    });

    it('caps the bytes of a preview answer, saying that rows were left out', async () => {
      // 1,000 rows of 20 kB: 20 MB of rows, over the 5 MB a preview answers with.
      await query(
        destination.url,
        "create table wide as select g as id, repeat('w', 20000) as filler from generate_series(1, 1000) g",
      );
      const sourceId = await createPostgresConnector(t, admin, projectId, 'wide source', destination.name);
      const pipeline = await api<{ id: string }>(t, 'POST', '/api/v1/etl/pipelines', {
        token: admin,
        body: {
          project_id: projectId,
          name: 'wide preview',
          sources: [{ connector_id: sourceId, dataset: 'wide' }],
          destination: { connector_id: sourceId, table: 'wide_copy', mode: 'append' },
        },
      });
      const preview = await api<{ rows: unknown[]; truncated: boolean }>(
        t,
        'POST',
        `/api/v1/etl/pipelines/${pipeline.body.id}/preview`,
        { token: admin, body: { limit: 1000 } },
      );
      expect(preview.status).toBe(200);
      expect(preview.body.truncated).toBe(true);
      expect(preview.body.rows.length).toBeGreaterThan(0);
      expect(preview.body.rows.length).toBeLessThan(1000);
      expect(JSON.stringify(preview.body).length).toBeLessThan(6 * MB);
    });

    it('refuses timeout_ms, max_pages and page_size above their maximums, naming the field', async () => {
      const endpoint = (pagination?: Record<string, unknown>) => [
        { name: 'items', path: 'small', ...(pagination ? { pagination } : {}) },
      ];
      for (const [field, config] of [
        ['config.timeout_ms', { base_url: base, endpoints: endpoint(), timeout_ms: 3_600_000 }],
        ['config.max_pages', { base_url: base, endpoints: endpoint(), max_pages: 10_000_000 }],
        [
          'config.endpoints.0.pagination',
          { base_url: base, endpoints: endpoint({ type: 'offset', page_size: 1_000_000 }) },
        ],
      ] as const) {
        const created = await api<{ errors: Array<{ path: string }> }>(t, 'POST', '/api/v1/data-connectors', {
          token: admin,
          body: { project_id: projectId, name: `too big ${field}`, kind: 'http_api', config },
        });
        expect(created.status, field).toBe(422);
        expect(created.body.errors.map((e) => e.path).join(' '), field).toContain(field);
      }
    });
  });

  describe('with SVC_HTTP_MAX_RESPONSE_BYTES=1048576', () => {
    let t: TestApp;
    let admin: string;
    let projectId: string;
    beforeAll(async () => {
      t = await startTestApp({ env: { ...NO_RATE_LIMITS, SVC_HTTP_MAX_RESPONSE_BYTES: String(MB) } });
      admin = (await adminLogin(t)).accessToken;
      projectId = (await createProject(t, admin)).id;
    });
    afterAll(async () => {
      await t?.close();
    });

    it('fails a larger body once it crosses the limit, naming the limit', async () => {
      const created = await api<{ id: string }>(t, 'POST', '/api/v1/data-connectors', {
        token: admin,
        body: {
          project_id: projectId,
          name: 'over the limit',
          kind: 'http_api',
          config: { base_url: base, endpoints: [{ name: 'items', path: 'small' }] },
        },
      });
      const checked = await api<{ ok: boolean; message: string }>(
        t,
        'POST',
        `/api/v1/data-connectors/${created.body.id}/test`,
        { token: admin },
      );
      expect(checked.body).toMatchObject({ ok: false });
      expect(checked.body.message).toContain(`limit of ${MB} bytes`);
    });
  });
});
