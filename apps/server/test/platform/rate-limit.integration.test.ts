import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestApp, type SharedStateKind, type TestApp } from '../support/app.js';
import { createTestDatabase, uniqueName } from '../support/services.js';

const opened: TestApp[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((t) => t.close()));
});

async function open(options: Parameters<typeof startTestApp>[0]) {
  const t = await startTestApp(options);
  opened.push(t);
  return t;
}

async function hit(t: TestApp, path = '/health', headers: Record<string, string> = {}) {
  const response = await fetch(`${t.url}${path}`, { headers });
  await response.arrayBuffer();
  return response;
}

describe.each<SharedStateKind>(['redis', 'memory'])('rate limits over %s shared state', (sharedState) => {
  it('answers the 101st request in a minute with 429, the envelope and both headers', async () => {
    const t = await open({ sharedState });
    for (let i = 1; i <= 100; i++) {
      const response = await hit(t);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(100 - i));
    }
    const refused = await fetch(`${t.url}/health`);
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as Record<string, unknown>;
    expect(body['detail']).toMatch(/rate limit/i);
    expect(body['request_id']).toBe(refused.headers.get('x-request-id'));
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    const reset = Number(refused.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThanOrEqual(1);
    expect(reset).toBeLessThanOrEqual(60);
    // Other endpoints share the client's one global window.
    expect((await hit(t, '/api/v1/me')).status).toBe(429);
  });

  it('limits logins to 10 per minute on top of the global limit', async () => {
    const t = await open({ sharedState });
    const login = () =>
      fetch(`${t.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'nobody', password: 'wrong-password-123' }),
      });
    for (let i = 1; i <= 10; i++) {
      const response = await login();
      expect(response.status).toBe(401);
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(10 - i));
    }
    const refused = await login();
    expect(refused.status).toBe(429);
    // The global window still has room: other routes are not refused.
    expect((await hit(t)).status).toBe(200);
  });

  it('honours X-Forwarded-For only when SVC_TRUST_PROXY is on', async () => {
    const direct = await open({ sharedState, env: { SVC_RATE_LIMIT_PER_MINUTE: '2' } });
    await hit(direct, '/health', { 'x-forwarded-for': '203.0.113.1' });
    await hit(direct, '/health', { 'x-forwarded-for': '203.0.113.2' });
    expect((await hit(direct, '/health', { 'x-forwarded-for': '203.0.113.3' })).status).toBe(429);

    const proxied = await open({ sharedState, env: { SVC_RATE_LIMIT_PER_MINUTE: '2', SVC_TRUST_PROXY: 'true' } });
    await hit(proxied, '/health', { 'x-forwarded-for': '203.0.113.1' });
    await hit(proxied, '/health', { 'x-forwarded-for': '203.0.113.1' });
    expect((await hit(proxied, '/health', { 'x-forwarded-for': '203.0.113.1' })).status).toBe(429);
    expect((await hit(proxied, '/health', { 'x-forwarded-for': '203.0.113.2' })).status).toBe(200);
  });
});

describe('rate-limit headers on the wire', () => {
  it('spells the header names as the interface document does', async () => {
    const t = await open({});
    const rawHeaders = await new Promise<string[]>((resolve, reject) => {
      http
        .get(`${t.url}/health`, (response) => {
          response.resume();
          resolve(response.rawHeaders);
        })
        .on('error', reject);
    });
    expect(rawHeaders).toContain('X-RateLimit-Remaining');
    expect(rawHeaders).toContain('X-RateLimit-Reset');
  });
});

describe('rate limits across processes', () => {
  it('two app instances on one Redis enforce one counter', async () => {
    const database = await createTestDatabase();
    try {
      const prefix = uniqueName('svcshared');
      const a = await open({ database, redisKeyPrefix: prefix });
      const b = await open({ database, redisKeyPrefix: prefix });
      for (let i = 0; i < 60; i++) expect((await hit(a)).status).toBe(200);
      for (let i = 0; i < 40; i++) expect((await hit(b)).status).toBe(200);
      expect((await hit(a)).status).toBe(429);
      expect((await hit(b)).status).toBe(429);
    } finally {
      await Promise.all(opened.splice(0).map((t) => t.close()));
      await database.drop();
    }
  });
});

describe.each<SharedStateKind>(['redis', 'memory'])(
  'the login limit over %s shared state is a sliding window',
  (sharedState) => {
    // The window shortened to 2 s (AppOptions), so that crossing its edge takes seconds, not a minute.
    const windowMs = 2000;
    const limit = 5;
    const sleepUntil = (time: number) => new Promise((r) => setTimeout(r, Math.max(0, time - Date.now())));

    it('lets no span of one window see more than the limit across a window edge, with exact headers', async () => {
      const t = await open({
        sharedState,
        env: { SVC_LOGIN_RATE_LIMIT_PER_MINUTE: String(limit) },
        loginRateLimitWindowMs: windowMs,
      });
      /** A login attempt, with the times it was sent and answered (the server counted it in between). */
      const login = async () => {
        const sent = Date.now();
        const response = await fetch(`${t.url}/api/v1/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'nobody', password: 'wrong-password-123' }),
        });
        await response.arrayBuffer();
        return { response, sent, answered: Date.now() };
      };
      /** X-RateLimit-Reset is exact: the whole seconds until `slotFreesAt`, known to lie between two times. */
      const expectResetUntil = (
        header: string | null,
        earliest: number,
        latest: number,
        call: { sent: number; answered: number },
      ) => {
        const reset = Number(header);
        expect(reset).toBeGreaterThanOrEqual(Math.ceil((earliest - call.answered) / 1000));
        expect(reset).toBeLessThanOrEqual(Math.ceil((latest - call.sent) / 1000));
      };

      const first = await login();
      expect(first.response.status).toBe(401);
      expect(first.response.headers.get('x-ratelimit-remaining')).toBe(String(limit - 1));
      expect(first.response.headers.get('x-ratelimit-reset')).toBe('2');
      // The first login leaves the window (and frees its slot) between these two times.
      const firstLeaves = [first.sent + windowMs, first.answered + windowMs] as const;

      // Later in the window, the rest of the limit.
      await sleepUntil(first.sent + 1300);
      let lastOfLimit = first;
      for (let i = 2; i <= limit; i++) {
        lastOfLimit = await login();
        expect(lastOfLimit.response.status).toBe(401);
        expect(lastOfLimit.response.headers.get('x-ratelimit-remaining')).toBe(String(limit - i));
        expectResetUntil(lastOfLimit.response.headers.get('x-ratelimit-reset'), ...firstLeaves, lastOfLimit);
      }
      const refused = await login();
      expect(refused.response.status).toBe(429);
      expect(refused.response.headers.get('x-ratelimit-remaining')).toBe('0');
      expectResetUntil(refused.response.headers.get('retry-after'), ...firstLeaves, refused);

      // Past the first login's window, within the others': one slot is free, not a whole new window.
      await sleepUntil(firstLeaves[1] + 100);
      const edge = [];
      for (let i = 0; i < limit; i++) edge.push(await login());
      expect(edge.map((call) => call.response.status)).toEqual([401, 429, 429, 429, 429]);

      // Once every earlier login has left the window, the whole limit is there again.
      await sleepUntil(edge[0]!.answered + windowMs + 100);
      const again = await login();
      expect(again.response.status).toBe(401);
      expect(again.response.headers.get('x-ratelimit-remaining')).toBe(String(limit - 1));
    });
  },
);
