/**
 * The egress policy, over real HTTP: connectors pointed at this machine (where the service's own
 * database, Redis and any private service listen) are refused, and nothing the remote sent comes back.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject } from '../support/http.js';
import { TEST_DATABASE_URL } from '../support/services.js';

const SECRET = 'private-body-only-for-loopback-7d41';

async function listen(
  host: string,
  handler: (path: string, res: ServerResponse) => void,
): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => handler(req.url ?? '/', res));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

const close = (server: Server | undefined) =>
  new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));

/** A service that answers only on loopback, with a body that must never leave it. */
function secretHandler(path: string, res: ServerResponse) {
  if (path.includes('broken')) {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: SECRET }));
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify([{ id: 1, secret: SECRET }]));
}

const database = new URL(TEST_DATABASE_URL);
const pgConfig = {
  host: '127.0.0.1',
  port: Number(database.port || 5432),
  database: 'postgres',
  user: decodeURIComponent(database.username),
};
const mysqlConfig = { host: '127.0.0.1', port: 3306, database: 'mysql', user: 'root' };
// Nothing listens on port 1: past the policy, the connection itself is refused.
const sftpConfig = { host: '127.0.0.1', port: 1, username: 'nobody', password: 'not-used', path: '/', format: 'csv' };

describe('egress policy', () => {
  let secretServer: Server;
  let secretPort: number;
  let otherLoopback: Server;
  let otherPort: number;
  let redirector: Server;
  let redirectorPort: number;

  beforeAll(async () => {
    ({ server: secretServer, port: secretPort } = await listen('127.0.0.1', secretHandler));
    // 127.0.0.2 is loopback too, but outside the allowed 127.0.0.1/32 of the listed app below.
    ({ server: otherLoopback, port: otherPort } = await listen('127.0.0.2', secretHandler));
    ({ server: redirector, port: redirectorPort } = await listen('127.0.0.1', (_path, res) => {
      res.writeHead(302, { location: `http://127.0.0.2:${otherPort}/v1/items` });
      res.end();
    }));
  });
  afterAll(async () => {
    await close(secretServer);
    await close(otherLoopback);
    await close(redirector);
  });

  const httpConnector = (baseUrl: string, path = 'items') => ({
    kind: 'http_api',
    config: { base_url: baseUrl, endpoints: [{ name: 'items', path }] },
  });

  async function setUp(t: TestApp) {
    const admin = (await adminLogin(t)).accessToken;
    const project = await createProject(t, admin);
    const create = async (name: string, connector: { kind: string; config: Record<string, unknown> }) => {
      const created = await api<{ id: string }>(t, 'POST', '/api/v1/data-connectors', {
        token: admin,
        body: { project_id: project.id, name, ...connector },
      });
      expect(created.status).toBe(201);
      return created.body.id;
    };
    const check = async (id: string) =>
      (
        await api<{ ok: boolean; code?: string; message?: string }>(t, 'POST', `/api/v1/data-connectors/${id}/test`, {
          token: admin,
        })
      ).body;
    const discover = (id: string) =>
      api<{ detail: string }>(t, 'POST', `/api/v1/data-connectors/${id}/discover`, { token: admin });
    const preview = async (sourceId: string, destinationId: string) => {
      const pipeline = await api<{ id: string }>(t, 'POST', '/api/v1/etl/pipelines', {
        token: admin,
        body: {
          project_id: project.id,
          name: `p-${sourceId.slice(0, 8)}`,
          sources: [{ connector_id: sourceId, dataset: 'items' }],
          destination: { connector_id: destinationId, table: 'items', mode: 'append' },
        },
      });
      expect(pipeline.status).toBe(201);
      return api<{ detail: string; rows: unknown[] }>(t, 'POST', `/api/v1/etl/pipelines/${pipeline.body.id}/preview`, {
        token: admin,
        body: { limit: 5 },
      });
    };
    return { admin, project, create, check, discover, preview };
  }

  describe('with no allowed hosts (private networks allowed)', () => {
    let t: TestApp;
    let s: Awaited<ReturnType<typeof setUp>>;
    let destinationId: string;
    beforeAll(async () => {
      t = await startTestApp({
        env: { ...NO_RATE_LIMITS, SVC_CONNECTOR_ALLOWED_HOSTS: '', SVC_CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' },
      });
      s = await setUp(t);
      destinationId = await s.create('destination', { kind: 'postgres', config: pgConfig });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('refuses an http_api connector on loopback in test, discover and preview, and never shows its body', async () => {
      const id = await s.create('loopback api', httpConnector(`http://127.0.0.1:${secretPort}/v1`));
      const checked = await s.check(id);
      expect(checked).toMatchObject({ ok: false });
      expect(checked.message).toContain('not allowed by the egress policy');
      const discovered = await s.discover(id);
      expect(discovered.status).toBe(422);
      expect(discovered.body.detail).toContain('not allowed by the egress policy');
      const previewed = await s.preview(id, destinationId);
      expect(previewed.status).toBe(422);
      expect(previewed.body.detail).toContain('not allowed by the egress policy');
      for (const answer of [checked, discovered.body, previewed.body])
        expect(JSON.stringify(answer)).not.toContain(SECRET);
      expect(t.logText()).not.toContain(SECRET);
    });

    it('refuses a host name that resolves to loopback, and loopback written as IPv6', async () => {
      for (const base of [
        `http://localhost:${secretPort}/v1`,
        `http://[::ffff:127.0.0.1]:${secretPort}/v1`,
        `http://[::1]:${secretPort}/v1`,
      ]) {
        const checked = await s.check(await s.create(`api ${base}`, httpConnector(base)));
        expect(checked, base).toMatchObject({ ok: false });
        expect(checked.message, base).toContain('not allowed by the egress policy');
        expect(JSON.stringify(checked)).not.toContain(SECRET);
      }
    });

    it('refuses PostgreSQL, MySQL and SFTP connectors on loopback before connecting', async () => {
      for (const [kind, config] of [
        ['postgres', pgConfig],
        ['mysql', mysqlConfig],
        ['sftp', sftpConfig],
      ] as const) {
        const checked = await s.check(await s.create(`${kind} on loopback`, { kind, config }));
        expect(checked, kind).toMatchObject({ ok: false });
        expect(checked.message, kind).toContain('not allowed by the egress policy');
      }
    });

    it("names the service's own database as the reason, even with private networks allowed", async () => {
      const framework = new URL(t.config.db.url!);
      const checked = await s.check(
        await s.create('own database', {
          kind: 'postgres',
          config: { ...pgConfig, host: framework.hostname, port: Number(framework.port || 5432) },
        }),
      );
      expect(checked).toMatchObject({ ok: false });
      expect(checked.message).toContain("not allowed by the egress policy (the service's own database)");
    });
  });

  describe('with allowed hosts "localhost,127.0.0.1/32"', () => {
    let t: TestApp;
    let s: Awaited<ReturnType<typeof setUp>>;
    beforeAll(async () => {
      t = await startTestApp({ env: { ...NO_RATE_LIMITS, SVC_CONNECTOR_ALLOWED_HOSTS: 'localhost,127.0.0.1/32' } });
      s = await setUp(t);
    });
    afterAll(async () => {
      await t?.close();
    });

    it('reaches an address in an allowed CIDR and an allowed name, and refuses an address outside', async () => {
      expect(
        await s.check(await s.create('by cidr', httpConnector(`http://127.0.0.1:${secretPort}/v1`))),
      ).toMatchObject({ ok: true });
      expect(
        await s.check(await s.create('by name', httpConnector(`http://localhost:${secretPort}/v1`))),
      ).toMatchObject({ ok: true });
      const outside = await s.check(await s.create('outside', httpConnector(`http://127.0.0.2:${otherPort}/v1`)));
      expect(outside).toMatchObject({ ok: false });
      expect(outside.message).toContain('not allowed by the egress policy');
    });

    it('checks a redirect again: an allowed server redirecting to a refused address is refused', async () => {
      const checked = await s.check(
        await s.create('redirects', httpConnector(`http://127.0.0.1:${redirectorPort}/v1`)),
      );
      expect(checked).toMatchObject({ ok: false });
      expect(checked.message).toContain('127.0.0.2');
      expect(checked.message).toContain('not allowed by the egress policy');
      expect(JSON.stringify(checked)).not.toContain(SECRET);
    });

    it('echoes no remote body in the error of an allowed server, only the status', async () => {
      const id = await s.create('broken', httpConnector(`http://127.0.0.1:${secretPort}/v1`, 'broken'));
      const discovered = await s.discover(id);
      expect(discovered.status).toBe(422);
      expect(discovered.body.detail).toContain('answered 500');
      const checked = await s.check(id);
      expect(checked).toMatchObject({ ok: false, code: 'failed' });
      for (const answer of [discovered.body, checked]) expect(JSON.stringify(answer)).not.toContain(SECRET);
      expect(t.logText()).not.toContain(SECRET);
    });

    it('lets PostgreSQL, MySQL and SFTP connectors through, keeping their own errors', async () => {
      expect(await s.check(await s.create('postgres allowed', { kind: 'postgres', config: pgConfig }))).toMatchObject({
        ok: true,
      });
      expect(await s.check(await s.create('mysql allowed', { kind: 'mysql', config: mysqlConfig }))).toMatchObject({
        ok: true,
      });
      // PostgreSQL still tells a refused login from a refused connection, for hosts the policy allows.
      expect(
        await s.check(
          await s.create('postgres bad role', { kind: 'postgres', config: { ...pgConfig, user: 'no_such_role_here' } }),
        ),
      ).toMatchObject({ ok: false, code: 'auth_failed' });
      const sftp = await s.check(await s.create('sftp allowed', { kind: 'sftp', config: sftpConfig }));
      expect(sftp).toMatchObject({ ok: false, code: 'unreachable' });
      expect(sftp.message).not.toContain('egress policy');
    });
  });
});
