import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createApiToken, createUser } from '../support/http.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';

interface AuditEvent {
  id: string;
  kind: string;
  actor_user_id: string | null;
  actor_token_id: string | null;
  client_address: string | null;
  user_agent: string | null;
  request_id: string | null;
  target_type: string | null;
  target_id: string | null;
  details: Record<string, unknown>;
  occurred_at: string;
}
type Page = { items: AuditEvent[]; next_cursor: string | null };

describe('audit log', () => {
  let t: TestApp;
  let admin: string;
  let adminId: string;
  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS });
    admin = (await adminLogin(t)).accessToken;
    adminId = (await api<{ id: string }>(t, 'GET', '/api/v1/me', { token: admin })).body.id;
  });
  afterAll(async () => t?.close());

  const events = (query: string) => api<Page>(t, 'GET', `/api/v1/audit-log?${query}`, { token: admin });

  it('records who did what, from where, in which request, without secrets', async () => {
    const since = new Date().toISOString();
    const user = await createUser(t, admin);
    await api(t, 'POST', '/api/v1/auth/login', {
      body: { username: user.username, password: 'wrong-password-here' },
      headers: { 'user-agent': 'audit-test/1.0' },
    });
    const token = await createApiToken(t, admin, { scope: 'read', name: 'audited' });
    await api(t, 'DELETE', `/api/v1/api-tokens/${token.id}`, { token: admin });
    await api(t, 'PATCH', `/api/v1/users/${user.id}`, { token: admin, body: { disabled: true } });
    await api(t, 'POST', '/api/v1/auth/logout', { token: user.session.accessToken });

    const page = await events(`since=${encodeURIComponent(since)}&limit=100`);
    const kinds = page.body.items.map((e) => e.kind);
    for (const kind of [
      'user_created',
      'login_succeeded',
      'login_failed',
      'api_token_created',
      'api_token_revoked',
      'user_disabled',
    ]) {
      expect(kinds, kind).toContain(kind);
    }
    const failed = page.body.items.find((e) => e.kind === 'login_failed')!;
    expect(failed).toMatchObject({
      target_type: 'user',
      target_id: user.id,
      client_address: '127.0.0.1',
      user_agent: 'audit-test/1.0',
      details: { username: user.username, reason: 'wrong_password' },
    });
    expect(failed.request_id).toMatch(/^[0-9a-f-]{36}$/);
    const created = page.body.items.find((e) => e.kind === 'api_token_created')!;
    expect(created.actor_user_id).toBe(adminId);
    expect(JSON.stringify(page.body)).not.toContain(token.token);
    expect(JSON.stringify(page.body)).not.toContain('wrong-password-here');
  });

  it('filters by kind, actor and time, and pages with a cursor, newest first', async () => {
    const user = await createUser(t, admin);
    for (let i = 0; i < 3; i++)
      await api(t, 'PATCH', '/api/v1/me', { token: user.session.accessToken, body: { display_name: `n${i}` } });
    const byActor = await events(`actor_id=${user.id}&kind=user_changed`);
    expect(byActor.body.items).toHaveLength(3);
    expect(byActor.body.items.every((e) => e.actor_user_id === user.id && e.kind === 'user_changed')).toBe(true);
    const ids = byActor.body.items.map((e) => Number(e.id));
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);

    const first = await events(`actor_id=${user.id}&kind=user_changed&limit=2`);
    expect(first.body.items).toHaveLength(2);
    const second = await events(`actor_id=${user.id}&kind=user_changed&limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.items.map((e) => e.id)).toEqual([byActor.body.items[2]!.id]);
    expect(second.body.next_cursor).toBeNull();

    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await events(`since=${encodeURIComponent(future)}`)).body.items).toHaveLength(0);
    expect((await events('since=yesterday')).status).toBe(422);
    expect((await events('cursor=!!!')).status).toBe(422);
  });
});

describe('retention sweep', () => {
  let database: TestDatabase;
  const apps: TestApp[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
    await database?.drop();
  });

  it('runs on exactly one leader and prunes expired deny-list entries and refresh tokens', async () => {
    const env = { SVC_RETENTION_SWEEP_SECONDS: '1' };
    const a = await startTestApp({ database, leader: true, env });
    apps.push(a);
    const b = await startTestApp({ database, leader: true, env });
    apps.push(b);
    await adminLogin(a);

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query(`insert into revoked_credentials (id, kind, expires_at) values
        (gen_random_uuid(), 'access_token', now() - interval '1 minute'),
        (gen_random_uuid(), 'access_token', now() + interval '1 hour')`);
      const { rows } = await client.query<{ id: string }>(`select id from sessions limit 1`);
      await client.query(
        `insert into refresh_tokens (session_id, token_hash, expires_at) values ($1, 'expired-hash', now() - interval '1 minute')`,
        [rows[0]!.id],
      );

      const deadline = Date.now() + 10_000;
      let remaining = { expired: 1, live: 0, refresh: 1 };
      while (Date.now() < deadline) {
        const counts = await client.query<{ expired: string; live: string; refresh: string }>(`select
          (select count(*) from revoked_credentials where expires_at < now()) as expired,
          (select count(*) from revoked_credentials where expires_at > now()) as live,
          (select count(*) from refresh_tokens where token_hash = 'expired-hash') as refresh`);
        remaining = {
          expired: Number(counts.rows[0]!.expired),
          live: Number(counts.rows[0]!.live),
          refresh: Number(counts.rows[0]!.refresh),
        };
        if (remaining.expired === 0 && remaining.refresh === 0) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(remaining).toEqual({ expired: 0, live: 1, refresh: 0 });
      expect([a.leadership!.isLeader(), b.leadership!.isLeader()].filter(Boolean)).toHaveLength(1);

      // The leader goes away: the other process takes over.
      const [leader, follower] = a.leadership!.isLeader() ? [a, b] : [b, a];
      await leader.leadership!.stop();
      const deadline2 = Date.now() + 5000;
      while (!follower.leadership!.isLeader() && Date.now() < deadline2) await new Promise((r) => setTimeout(r, 50));
      expect(follower.leadership!.isLeader()).toBe(true);
    } finally {
      await client.end();
    }
  });
});
