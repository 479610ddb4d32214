/**
 * The access log redacts credentials from the parsed query, not from the raw text: a query parameter
 * whose decoded name is `token` (any case) or `access_token` is masked whatever its encoding, on the
 * SSE routes (where `?%74oken=` authenticates, Fastify decoding the name) and on every other route.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser } from '../support/http.js';

describe('access-log redaction', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** No segment of the JWT may be in the log. */
  const expectNotLogged = (token: string) => {
    const text = t.logText();
    for (const part of token.split('.')) expect(text).not.toContain(part);
  };

  const encodings = (name: string) => [
    name,
    name.toUpperCase(),
    name[0]!.toUpperCase() + name.slice(1),
    // every character percent-encoded, and one character only
    [...name].map((c) => `%${c.charCodeAt(0).toString(16)}`).join(''),
    `%${name.charCodeAt(0).toString(16)}${name.slice(1)}`,
    `${name.slice(0, -1)}%${name
      .charCodeAt(name.length - 1)
      .toString(16)
      .toUpperCase()}`,
  ];

  it('an encoded token parameter authenticates on an SSE route, and no part of the token reaches the log', async () => {
    const admin = await adminLogin(t);
    const user = await createUser(t, admin.accessToken);
    const project = await createProject(t, admin.accessToken);
    expect(
      (
        await api(t, 'PUT', `/api/v1/admin/projects/${project.id}/members/${user.id}`, {
          token: admin.accessToken,
          body: { role: 'viewer' },
        })
      ).status,
    ).toBe(200);
    const token = user.session.accessToken;
    for (const route of [
      `/api/v1/cdc-tables/${randomUUID()}/logs/stream`,
      `/api/v1/streams/${randomUUID()}/runs/stream`,
    ]) {
      // Authenticated (404: nothing there), so the decoded name was taken as `token`.
      const response = await fetch(`${t.url}${route}?%74oken=${encodeURIComponent(token)}`);
      expect(response.status).toBe(404);
      for (const name of encodings('token')) await fetch(`${t.url}${route}?${name}=${encodeURIComponent(token)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
    const lines = t.logs.filter((l) => l['msg'] === 'request completed' && String(l['route']).endsWith('/stream'));
    expect(lines.length).toBeGreaterThanOrEqual(14);
    expectNotLogged(token);
  });

  it('on an ordinary route, token and access_token parameters in any encoding are redacted; other parameters stay', async () => {
    const session = await adminLogin(t);
    const token = session.accessToken;
    const queries = [
      ...encodings('token').map((name) => `${name}=${token}`),
      ...encodings('access_token').map((name) => `${name}=${encodeURIComponent(token)}`),
      `page=2&%74oken=${token}&x=1`,
      `token=a&token=${token}`,
      `%74oken=${token.slice(0, 20)}%2E${token.slice(21)}`,
    ];
    for (const query of queries) expect((await api(t, 'GET', `/api/v1/me?${query}`, { token })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    expectNotLogged(token);
    const urls = t.logs
      .filter((l) => l['msg'] === 'request completed' && l['route'] === '/api/v1/me')
      .map((l) => String(l['url']));
    expect(urls).toContain('/api/v1/me?page=2&%74oken=[redacted]&x=1');
  });
});
