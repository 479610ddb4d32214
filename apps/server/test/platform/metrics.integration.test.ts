import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

function promtool(text: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile('promtool', ['check', 'metrics'], (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') return reject(error);
      resolve({ code: typeof error?.code === 'number' ? error.code : 0, output: `${stdout}${stderr}` });
    });
    child.stdin?.end(text);
  });
}

describe('GET /metrics', () => {
  let t: TestApp;
  // Clients are told apart by X-Forwarded-For, so one client can spend its window while another reads.
  const as = (client: string) => ({ headers: { 'x-forwarded-for': client } });
  beforeAll(async () => {
    t = await startTestApp({ env: { SVC_RATE_LIMIT_PER_MINUTE: '3', SVC_TRUST_PROXY: 'true' } });
  });
  afterAll(async () => t?.close());

  it('exposes runtime, HTTP, rate-limit and pool metrics, and passes promtool', async () => {
    expect((await fetch(`${t.url}/api/v1/me`, as('198.51.100.1'))).status).toBe(401);
    expect((await fetch(`${t.url}/api/v1/nothing/here`, as('198.51.100.1'))).status).toBe(404);
    expect((await fetch(`${t.url}/health`, as('198.51.100.1'))).status).toBe(200);
    expect((await fetch(`${t.url}/health`, as('198.51.100.1'))).status).toBe(429);

    const response = await fetch(`${t.url}/metrics`, as('198.51.100.2'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toMatch(/svc_http_requests_total\{method="GET",route="\/api\/v1\/me",status_code="401"\} 1\n/);
    expect(text).toMatch(/svc_http_requests_total\{method="GET",route="unmatched",status_code="404"\} 1\n/);
    expect(text).toMatch(/svc_http_requests_total\{method="GET",route="\/health",status_code="429"\} 1\n/);
    expect(text).toMatch(
      /svc_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/health",status_code="200"\} \d+/,
    );
    expect(text).toMatch(/svc_rate_limit_refusals_total\{limit="global"\} 1\n/);
    expect(text).toMatch(/svc_db_pool_connections\{state="total"\} \d+/);
    expect(text).toMatch(/svc_db_pool_connections\{state="waiting"\} 0/);
    expect(text).toContain('svc_process_cpu_user_seconds_total');
    expect(text).toContain('svc_nodejs_eventloop_lag_seconds');

    const check = await promtool(text);
    expect(check.output).toBe('');
    expect(check.code).toBe(0);
  });
});
