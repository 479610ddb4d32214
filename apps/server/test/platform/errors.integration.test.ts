import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginAsAdmin, startTestApp, type TestApp } from '../support/app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('error envelope', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      env: { SVC_BODY_LIMIT_BYTES: '2048' },
      beforeReady(app) {
        // A route that fails the way a bug would: an error carrying SQL and a stack.
        app.get('/api/v1/test-failure', async () => {
          throw new Error('syntax error at or near "SELECT secret_column FROM users"');
        });
      },
    });
  });
  afterAll(async () => t?.close());

  async function call(method: string, path: string, init: RequestInit = {}) {
    const response = await fetch(`${t.url}${path}`, { method, ...init });
    const text = await response.text();
    return { response, status: response.status, text, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }

  function expectEnvelope(result: { response: Response; body: Record<string, unknown> }) {
    expect(typeof result.body['detail']).toBe('string');
    expect(result.body['request_id']).toMatch(UUID);
    expect(result.response.headers.get('x-request-id')).toBe(result.body['request_id']);
  }

  it('answers an unknown route with 404 and the envelope', async () => {
    const result = await call('GET', '/api/v1/no-such-thing');
    expect(result.status).toBe(404);
    expectEnvelope(result);
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const result = await call('DELETE', '/api/v1/auth/login');
    expect(result.status).toBe(405);
    expect(result.response.headers.get('allow')).toContain('POST');
    expectEnvelope(result);
  });

  it('answers a body that is not JSON with 400', async () => {
    const result = await call('POST', '/api/v1/auth/login', {
      headers: { 'content-type': 'application/json' },
      body: '{"username": "a",',
    });
    expect(result.status).toBe(400);
    expectEnvelope(result);
  });

  it('answers a parsed body with invalid fields with 422 naming each field', async () => {
    const result = await call('POST', '/api/v1/auth/login', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 42 }),
    });
    expect(result.status).toBe(422);
    expectEnvelope(result);
    const errors = result.body['errors'] as Array<{ path: string; message: string }>;
    expect(errors.map((e) => e.path)).toEqual(expect.arrayContaining(['username', 'password']));
    for (const error of errors) expect(error.message.length).toBeGreaterThan(0);
  });

  it('answers a body over the limit with 413', async () => {
    const result = await call('POST', '/api/v1/auth/login', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'a', password: 'x'.repeat(5000) }),
    });
    expect(result.status).toBe(413);
    expectEnvelope(result);
  });

  it('answers a request without credentials with 401 and WWW-Authenticate', async () => {
    const result = await call('GET', '/api/v1/me');
    expect(result.status).toBe(401);
    expect(result.response.headers.get('www-authenticate')).toBe('Bearer');
    expectEnvelope(result);
  });

  it('answers a forged bearer token with 401', async () => {
    const result = await call('GET', '/api/v1/me', { headers: { authorization: 'Bearer not.a.jwt' } });
    expect(result.status).toBe(401);
    expectEnvelope(result);
  });

  it('answers an unhandled failure with 500 that leaks neither SQL nor stack, and logs it under the request_id', async () => {
    const token = await loginAsAdmin(t);
    const result = await call('GET', '/api/v1/test-failure', { headers: { authorization: `Bearer ${token}` } });
    expect(result.status).toBe(500);
    expectEnvelope(result);
    expect(result.text).not.toMatch(/SELECT|secret_column|at .*\.ts/);
    const line = t.logs.find((l) => l['request_id'] === result.body['request_id'] && l['level'] === 'error');
    expect(line).toBeDefined();
    expect(JSON.stringify(line)).toContain('secret_column');
  });

  it('puts the request_id of every request in its log lines', async () => {
    const result = await call('GET', '/health');
    const id = result.response.headers.get('x-request-id');
    expect(id).toMatch(UUID);
    const lines = t.logs.filter((l) => l['request_id'] === id);
    expect(lines.map((l) => l['msg'])).toContain('request completed');
    expect(lines.find((l) => l['msg'] === 'request completed')).toMatchObject({
      method: 'GET',
      url: '/health',
      status: 200,
    });
  });

  it('sends the API security headers on JSON responses, errors included', async () => {
    for (const path of ['/health', '/api/v1/me', '/api/v1/nothing']) {
      const { response } = await call('GET', path);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });

  it('sends the full browser header set on the HTML documentation', async () => {
    const response = await fetch(`${t.url}/docs/`, { redirect: 'manual' });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('never logs the password or token of a request', async () => {
    const token = await loginAsAdmin(t);
    await call('GET', '/api/v1/me', { headers: { authorization: `Bearer ${token}` } });
    expect(t.logText()).not.toContain('initial-Admin-pass-42');
    expect(t.logText()).not.toContain(token);
  });
});
