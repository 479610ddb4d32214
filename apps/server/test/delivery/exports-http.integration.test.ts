import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject } from '../support/http.js';
import { createPostgresConnector, query, waitForStatus, type Execution } from '../support/runs.js';
import { createTestDatabase, uniqueName, type TestDatabase } from '../support/services.js';
import { startReceiver } from './receiver.js';

const HMAC_SECRET = 'a-signing-secret-of-some-length';

describe('exports to an HTTP endpoint', () => {
  let t: TestApp;
  let admin: string;
  let projectId: string;
  let source: TestDatabase;
  let sourceId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS, worker: true });
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
    source = await createTestDatabase();
    sourceId = await createPostgresConnector(t, admin, projectId, 'source', source.name);
    await query(source.url, 'create table orders (id int primary key, item text, qty int)');
    await query(source.url, "insert into orders select g, 'item ' || g, g % 7 from generate_series(1, 100) g");
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
  });

  const run = async (id: string) => {
    const started = await api<Execution>(t, 'POST', `/api/v1/exports/${id}/run`, { token: admin });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const execution = await waitForStatus(t, admin, started.body.id, ['succeeded', 'partially_failed', 'failed']);
    const runs = await api<{ items: Array<Record<string, unknown>> }>(t, 'GET', `/api/v1/exports/${id}/runs`, {
      token: admin,
    });
    return { execution, account: runs.body.items.find((r) => r['execution_id'] === started.body.id)! };
  };

  it('POSTs signed batches with idempotency keys, retries 503 and 429 (Retry-After), and keeps rejected rows for the next run', async () => {
    let rejectSeventySeven = true;
    const receiver = await startReceiver({
      hmacSecret: HMAC_SECRET,
      answer: (records, attempt) => {
        const first = records[0]!['id'] as number;
        if ((first === 11 || first === 41) && attempt === 1) return { status: 503 };
        if (first === 21 && attempt === 1) return { status: 429, headers: { 'retry-after': '1' } };
        if (rejectSeventySeven && records.some((r) => r['id'] === 77)) return { status: 400 };
        return { status: 200 };
      },
    });
    try {
      const created = await api<{ id: string; destination: Record<string, unknown>; secrets_set: string[] }>(
        t,
        'POST',
        '/api/v1/exports',
        {
          token: admin,
          body: {
            project_id: projectId,
            name: uniqueName('webhook'),
            source: { kind: 'connector', connector_id: sourceId, dataset: 'orders' },
            mode: 'diff',
            key_columns: ['id'],
            destination: {
              kind: 'http',
              url: receiver.url,
              auth_header_value: 'Bearer receiver-token',
              hmac_secret: HMAC_SECRET,
              batch_size: 10,
            },
          },
        },
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.secrets_set).toEqual(['auth_header_value', 'hmac_secret']);
      expect(JSON.stringify(created.body)).not.toContain('receiver-token');

      const first = await run(created.body.id);
      expect(first.execution.status).toBe('partially_failed');
      expect(first.account).toMatchObject({ extracted: 100, added: 100, delivered: 90, failed: 10 });
      // Every request carried the auth header and a valid signature; each retry the same key.
      expect(receiver.requests.every((r) => r.headers['authorization'] === 'Bearer receiver-token')).toBe(true);
      expect(receiver.requests.every((r) => r.signatureValid)).toBe(true);
      const byKey = new Map<string, number[]>();
      for (const request of receiver.requests)
        byKey.set(request.key, [...(byKey.get(request.key) ?? []), request.status]);
      expect(byKey.size).toBe(10);
      const statuses = [...byKey.values()].map((s) => s.join(',')).sort();
      // A 400 is not retried; 503 and 429 are, with the same key.
      expect(statuses).toEqual([...Array(6).fill('200'), '400', '429,200', '503,200', '503,200'].sort());
      // The 429 asked for 1 s (Retry-After), longer than the first backoff (0.5 s).
      const limited = receiver.requests.filter((r) => r.records[0]!['id'] === 21).map((r) => r.at);
      expect(limited[1]! - limited[0]!).toBeGreaterThanOrEqual(950);
      const ids = receiver.taken.map((r) => r['id'] as number);
      expect(ids).toHaveLength(90);
      expect(new Set(ids).size).toBe(90);
      expect(ids).not.toContain(77);
      const failed = await api<{ items: Array<{ row_key: string; reason: string }> }>(
        t,
        'GET',
        `/api/v1/exports/${created.body.id}/failed-rows`,
        { token: admin },
      );
      expect(failed.body.items.map((r) => r.row_key).sort()).toEqual(
        Array.from({ length: 10 }, (_, i) => `[${71 + i}]`).sort(),
      );
      expect(failed.body.items[0]!.reason).toContain('HTTP 400');

      rejectSeventySeven = false;
      const second = await run(created.body.id);
      expect(second.execution.status).toBe('succeeded');
      expect(second.account).toMatchObject({ added: 10, changed: 0, delivered: 10, failed: 0 });
      const all = receiver.taken.map((r) => r['id'] as number).sort((a, b) => a - b);
      expect(all).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    } finally {
      await receiver.close();
    }
  });

  it('answers 422 naming the field of a bad HTTP destination', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ kind: 'http', url: 'ftp://example.com/x' }, 'destination.url'],
      [{ kind: 'http', url: 'https://example.com/x', batch_size: 0 }, 'destination.batch_size'],
      [{ kind: 'http', url: 'https://example.com/x', hmac_secret: 'short' }, 'destination.hmac_secret'],
      [{ kind: 'http' }, 'destination.url'],
    ];
    for (const [destination, path] of cases) {
      const result = await api<{ errors: Array<{ path: string }> }>(t, 'POST', '/api/v1/exports', {
        token: admin,
        body: {
          project_id: projectId,
          name: uniqueName('bad'),
          source: { kind: 'connector', connector_id: sourceId, dataset: 'orders' },
          destination,
        },
      });
      expect(result.status, JSON.stringify(destination)).toBe(422);
      expect(result.body.errors.map((e) => e.path)).toContain(path);
    }
  });
});
