/**
 * Server-Sent Events end with the credential that opened them: at the access token's expiry, and
 * within 5 s of a logout, a revoked session family (refresh-token reuse), a disabled user, a removed
 * membership or a removed capability, also when the change is made on another API process. Before
 * closing, the server sends `event: end` with the reason. Each stream writes one access-log line.
 * The heartbeat stays at its default (15 s), so only the pub/sub path can meet the 5 s bound.
 */
import { randomUUID } from 'node:crypto';
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccessTokens } from '../../src/areas/identity/tokens.js';
import { logChannel } from '../../src/areas/ingestion/cdc/logs.js';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser, login, refreshCookieOf } from '../support/http.js';
import { createPostgresConnector } from '../support/runs.js';
import { createTestDatabase, uniqueName, type TestDatabase } from '../support/services.js';

const JWT_SECRET = 'shared-secret-of-the-instance-0123456789';
const CLOSE_WITHIN_MS = 5000;

interface OpenStream {
  /** Everything received so far. */
  text(): string;
  /** Resolves with the time the server closed the stream. */
  closed: Promise<number>;
  cancel(): Promise<void>;
}

/** Reads a stream over plain HTTP, to see the server close it (an EventSource would reconnect). */
async function openStream(url: string): Promise<OpenStream> {
  const response = await fetch(url);
  expect(response.status, await (response.status === 200 ? '' : response.text())).toBe(200);
  const reader = response.body!.getReader();
  let text = '';
  let opened!: () => void;
  const ready = new Promise<void>((resolve) => (opened = resolve));
  const closed = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return Date.now();
      text += Buffer.from(value).toString();
      if (text.includes('retry:')) opened();
    }
  })();
  await ready;
  return { text: () => text, closed, cancel: () => reader.cancel() };
}

/** The stream must close within the bound; returns the `end` event's data. */
async function expectEndsWithin(stream: OpenStream, since: number, ms = CLOSE_WITHIN_MS): Promise<{ reason: string }> {
  const outcome = await Promise.race([
    stream.closed,
    new Promise<'open'>((r) => setTimeout(() => r('open'), ms + 500)),
  ]);
  if (outcome === 'open') {
    await stream.cancel();
    throw new Error(`stream still open ${ms + 500} ms later; received: ${stream.text()}`);
  }
  expect(outcome - since).toBeLessThanOrEqual(ms);
  const match = /event: end\ndata: (.*)\n\n$/.exec(stream.text());
  expect(match, stream.text()).not.toBeNull();
  return JSON.parse(match![1]!) as { reason: string };
}

describe('event streams end with their credential', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let admin: string;
  let projectA: string;
  let projectB: string;
  let cdcA: string;
  let cdcB: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const redisKeyPrefix = uniqueName('svcsse');
    const env = { ...NO_RATE_LIMITS, SVC_JWT_SECRET: JWT_SECRET };
    a = await startTestApp({ database, redisKeyPrefix, env });
    b = await startTestApp({ database, redisKeyPrefix, env });
    admin = (await adminLogin(a)).accessToken;
    const cdcIn = async (projectId: string) => {
      const source = await createPostgresConnector(a, admin, projectId, 'source', database.name);
      const destination = await createPostgresConnector(a, admin, projectId, 'destination', database.name);
      const created = await api<{ id: string }>(a, 'POST', '/api/v1/cdc-tables', {
        token: admin,
        body: {
          project_id: projectId,
          name: 'orders',
          source: { connector_id: source, table: 'orders' },
          destination: { connector_id: destination, table: 'orders_copy' },
          mode: 'mirror',
          start: false,
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return created.body.id;
    };
    projectA = (await createProject(a, admin)).id;
    projectB = (await createProject(a, admin)).id;
    cdcA = await cdcIn(projectA);
    cdcB = await cdcIn(projectB);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  const member = async (projectId: string, role = 'viewer') => {
    const user = await createUser(a, admin);
    expect(
      (await api(a, 'PUT', `/api/v1/admin/projects/${projectId}/members/${user.id}`, { token: admin, body: { role } }))
        .status,
    ).toBe(200);
    return user;
  };
  const streamUrl = (app: TestApp, cdcId: string, token: string) =>
    `${app.url}/api/v1/cdc-tables/${cdcId}/logs/stream?token=${encodeURIComponent(token)}`;

  it('a logout on another process ends the stream within 5 s, with a final end event, and the stream writes one access-log line', async () => {
    const user = await member(projectA);
    const session = await login(a, user.username, user.password);
    const stream = await openStream(streamUrl(b, cdcA, session.accessToken));
    // A stream the client closes writes its line too.
    const closedByClient = await openStream(streamUrl(b, cdcA, user.session.accessToken));
    await closedByClient.cancel();
    const since = Date.now();
    expect((await api(a, 'POST', '/api/v1/auth/logout', { token: session.accessToken })).status).toBe(204);
    expect((await expectEndsWithin(stream, since)).reason).toBe('unauthenticated');

    // The access line comes when the stream ends: status, duration, and the token redacted.
    const deadline = Date.now() + 2000;
    const lines = () =>
      b.logs.filter(
        (l) =>
          l['msg'] === 'request completed' &&
          l['route'] === '/api/v1/cdc-tables/:id/logs/stream' &&
          l['user_id'] === user.id,
      );
    while (lines().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 200)); // a second line for the same request would show now
    expect(lines(), JSON.stringify(lines())).toHaveLength(2);
    expect(new Set(lines().map((l) => l['request_id'])).size).toBe(2);
    for (const line of lines()) {
      expect(line['status']).toBe(200);
      expect(line['duration_ms']).toBeGreaterThan(0);
      expect(line['url']).toBe(`/api/v1/cdc-tables/${cdcA}/logs/stream?token=[redacted]`);
    }
    expect(b.logText()).not.toContain(session.accessToken.split('.')[2]);
  });

  it('disabling the user ends its stream (EventSource sees the end event), other users keep theirs', async () => {
    const user = await member(projectA);
    const other = await member(projectA);
    const ended: Array<{ reason: string; at: number }> = [];
    const source = new EventSource(streamUrl(b, cdcA, user.session.accessToken));
    source.addEventListener('end', (event) => {
      ended.push({ ...(JSON.parse(event.data) as { reason: string }), at: Date.now() });
      source.close();
    });
    const opened = new Promise<void>((resolve, reject) => {
      source.onopen = () => resolve();
      source.onerror = () => reject(new Error('stream did not open'));
    });
    const otherStream = await openStream(streamUrl(b, cdcA, other.session.accessToken));
    await opened;
    const since = Date.now();
    expect((await api(a, 'PATCH', `/api/v1/users/${user.id}`, { token: admin, body: { disabled: true } })).status).toBe(
      200,
    );
    const deadline = since + CLOSE_WITHIN_MS + 500;
    while (ended.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    source.close();
    expect(ended.map((e) => e.reason)).toEqual(['unauthenticated']);
    expect(ended[0]!.at - since).toBeLessThanOrEqual(CLOSE_WITHIN_MS);

    // The other member's stream still delivers.
    await a.platform.shared.publish(
      logChannel(cdcA),
      JSON.stringify({ id: '999999', ts: new Date().toISOString(), level: 'info', message: 'still here' }),
    );
    const until = Date.now() + 3000;
    while (!otherStream.text().includes('still here') && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
    expect(otherStream.text()).toContain('still here');
    expect(otherStream.text()).not.toContain('event: end');
    await otherStream.cancel();
  });

  it('removing the membership ends the stream of project A; a member of project B keeps its stream', async () => {
    const user = await member(projectA);
    const memberOfB = await member(projectB);
    const stream = await openStream(streamUrl(b, cdcA, user.session.accessToken));
    const streamOfB = await openStream(streamUrl(b, cdcB, memberOfB.session.accessToken));
    const since = Date.now();
    expect(
      (await api(a, 'DELETE', `/api/v1/admin/projects/${projectA}/members/${user.id}`, { token: admin })).status,
    ).toBe(204);
    expect((await expectEndsWithin(stream, since)).reason).toBe('forbidden');
    await a.platform.shared.publish(
      logChannel(cdcB),
      JSON.stringify({ id: '999999', ts: new Date().toISOString(), level: 'info', message: 'project B line' }),
    );
    const until = Date.now() + 3000;
    while (!streamOfB.text().includes('project B line') && Date.now() < until)
      await new Promise((r) => setTimeout(r, 50));
    expect(streamOfB.text()).toContain('project B line');
    await streamOfB.cancel();
    // And the member may not open it again.
    expect((await fetch(streamUrl(b, cdcA, user.session.accessToken))).status).toBe(403);
  });

  it('losing the capability (a role without cdc:read) ends the stream', async () => {
    const role = await api<{ id: string; name: string }>(a, 'POST', '/api/v1/admin/roles', {
      token: admin,
      body: { name: `no-cdc-${randomUUID().slice(0, 8)}`, capabilities: ['project:read', 'connector:read'] },
    });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    const user = await member(projectA);
    const stream = await openStream(streamUrl(b, cdcA, user.session.accessToken));
    const since = Date.now();
    expect(
      (
        await api(a, 'PUT', `/api/v1/admin/projects/${projectA}/members/${user.id}`, {
          token: admin,
          body: { role: role.body.name },
        })
      ).status,
    ).toBe(200);
    expect((await expectEndsWithin(stream, since)).reason).toBe('forbidden');
  });

  it('reuse of a consumed refresh token revokes the family and ends its stream', async () => {
    const user = await member(projectA);
    const session = await login(a, user.username, user.password);
    const stream = await openStream(streamUrl(b, cdcA, session.accessToken));
    const rotated = await api(a, 'POST', '/api/v1/auth/refresh', { cookie: session.cookie });
    expect(rotated.status).toBe(200);
    expect(refreshCookieOf(rotated.setCookies)).not.toBe(session.cookie);
    const since = Date.now();
    expect((await api(a, 'POST', '/api/v1/auth/refresh', { cookie: session.cookie })).status).toBe(401);
    expect((await expectEndsWithin(stream, since)).reason).toBe('unauthenticated');
  });

  it("ends at the access token's expiry", async () => {
    const user = await member(projectA);
    // A token of the instance's own signer with a 3-second lifetime.
    const shortLived = createAccessTokens(JWT_SECRET, a.config.auth.jwtAlgorithm, 0.05).issue(user.id, randomUUID());
    const stream = await openStream(streamUrl(b, cdcA, shortLived.token));
    const reason = await expectEndsWithin(
      stream,
      Date.now(),
      shortLived.claims.expiresAt.getTime() - Date.now() + 1000,
    );
    expect(reason.reason).toBe('expired');
    expect(Date.now()).toBeGreaterThanOrEqual(shortLived.claims.expiresAt.getTime());
  });
});

describe('event streams over the in-process shared state (one process, no Redis)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ sharedState: 'memory', env: NO_RATE_LIMITS });
  });
  afterAll(async () => t?.close());

  it('a logout and a removed membership end their streams within 5 s', async () => {
    const admin = (await adminLogin(t)).accessToken;
    const projectId = (await createProject(t, admin)).id;
    const source = await createPostgresConnector(t, admin, projectId, 'source', 'postgres');
    const destination = await createPostgresConnector(t, admin, projectId, 'destination', 'postgres');
    const created = await api<{ id: string }>(t, 'POST', '/api/v1/cdc-tables', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'orders',
        source: { connector_id: source, table: 'orders' },
        destination: { connector_id: destination, table: 'orders_copy' },
        mode: 'mirror',
        start: false,
      },
    });
    expect(created.status).toBe(201);
    const url = (token: string) =>
      `${t.url}/api/v1/cdc-tables/${created.body.id}/logs/stream?token=${encodeURIComponent(token)}`;
    const [leaving, removed] = [await createUser(t, admin), await createUser(t, admin)];
    for (const user of [leaving, removed]) {
      expect(
        (
          await api(t, 'PUT', `/api/v1/admin/projects/${projectId}/members/${user.id}`, {
            token: admin,
            body: { role: 'viewer' },
          })
        ).status,
      ).toBe(200);
    }
    const signedOut = await openStream(url(leaving.session.accessToken));
    const lostMembership = await openStream(url(removed.session.accessToken));
    const since = Date.now();
    expect((await api(t, 'POST', '/api/v1/auth/logout', { token: leaving.session.accessToken })).status).toBe(204);
    expect(
      (await api(t, 'DELETE', `/api/v1/admin/projects/${projectId}/members/${removed.id}`, { token: admin })).status,
    ).toBe(204);
    expect((await expectEndsWithin(signedOut, since)).reason).toBe('unauthenticated');
    expect((await expectEndsWithin(lostMembership, since)).reason).toBe('forbidden');
  });
});
