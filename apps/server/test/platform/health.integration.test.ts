import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { PrivateRedis } from '../support/redis-server.js';

interface Health {
  status: string;
  version: string;
  commit: string;
  deps: { framework_db: string; redis: string };
}

describe('GET /health', () => {
  let redis: PrivateRedis;
  let t: TestApp;
  beforeAll(async () => {
    redis = await PrivateRedis.start();
    t = await startTestApp({ env: { SVC_REDIS_URL: redis.url, SVC_COMMIT: 'abc1234' } });
  });
  afterAll(async () => {
    await t?.close();
    await redis?.kill();
  });

  async function health() {
    const started = Date.now();
    const response = await fetch(`${t.url}/health`);
    return { status: response.status, body: (await response.json()) as Health, elapsedMs: Date.now() - started };
  }

  /** Polls until 200 (ioredis reconnects with back-off), for at most 15 s. */
  async function healthyAgain() {
    const deadline = Date.now() + 15_000;
    let last = await health();
    while (last.status !== 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      last = await health();
    }
    return last;
  }

  it('answers 200 with the documented body when both dependencies are ok', async () => {
    const { status, body } = await health();
    expect(status).toBe(200);
    expect(body).toEqual({
      status: 'ok',
      version: expect.any(String),
      commit: 'abc1234',
      deps: { framework_db: 'ok', redis: 'ok' },
    });
  });

  it('answers 503 within 2 s while Redis is down, and 200 again once it is back', async () => {
    await redis.kill();
    const down = await health();
    expect(down.status).toBe(503);
    expect(down.body.deps.redis).not.toBe('ok');
    expect(down.body.deps.framework_db).toBe('ok');
    expect(down.elapsedMs).toBeLessThan(2000);

    await redis.restart();
    const last = await healthyAgain();
    expect(last.status).toBe(200);
    expect(last.body.deps.redis).toBe('ok');
  });

  it('answers 503 within 2 s while Redis hangs without answering', async () => {
    redis.pause();
    try {
      const hung = await health();
      expect(hung.status).toBe(503);
      expect(hung.body.deps.redis).not.toBe('ok');
      expect(hung.elapsedMs).toBeLessThan(2000);
    } finally {
      redis.resume();
    }
    expect((await healthyAgain()).status).toBe(200);
  });

  it.each(['/ready', '/readyz', '/healthz'])('has no %s endpoint', async (path) => {
    const response = await fetch(`${t.url}${path}`);
    expect(response.status).toBe(404);
  });
});
