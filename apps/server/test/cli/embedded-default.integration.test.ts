/**
 * The quick start: `svc start` with no database or Redis configured boots a real embedded PostgreSQL
 * from an empty data dir, serves the API, shuts down gracefully on SIGTERM (finishing a request in
 * flight), and finds its data again on the next start.
 */
import { readFile, rm, stat } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, waitForHealth, type CliProcess } from '../support/cli.js';
import { freePort } from '../support/redis-server.js';

const PASSWORD = 'embedded-Admin-pass-77';

async function login(url: string) {
  return fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: PASSWORD }),
  });
}

/** Sends the headers and half the body of a login, and returns a function that sends the rest. */
function startSlowRequest(port: number) {
  const body = JSON.stringify({ username: 'admin', password: PASSWORD });
  const socket = net.connect(port, '127.0.0.1');
  let response = '';
  socket.on('data', (chunk) => (response += chunk.toString()));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(
    `POST /api/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
  );
  return async () => {
    socket.write(body.slice(10));
    await closed;
    return response;
  };
}

describe('embedded default', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  it(
    'boots from an empty data dir, shuts down gracefully, and keeps its data across a restart',
    { timeout: 240_000 },
    async () => {
      const root = await mkdtemp(path.join(os.tmpdir(), 'svc-embedded-'));
      const dataDir = path.join(root, 'data');
      const passwordFile = path.join(root, 'initial-password.txt');
      cleanups.push(async () => {
        // As root with a private parent directory, the cluster lives elsewhere: remove it too.
        const note = await readFile(path.join(dataDir, 'EMBEDDED_POSTGRES_LOCATION.txt'), 'utf8').catch(() => '');
        const relocated = /kept in (\S+)\.$/m.exec(note)?.[1];
        if (relocated) await rm(relocated, { recursive: true, force: true });
        await rm(root, { recursive: true, force: true });
      });
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const env = {
        SVC_PORT: String(port),
        SVC_DATA_DIR: dataDir,
        SVC_INITIAL_ADMIN_PASSWORD: PASSWORD,
        SVC_INITIAL_PASSWORD_FILE: passwordFile,
        SVC_BCRYPT_ROUNDS: '4',
      };

      let cli: CliProcess = runCli(['start'], env);
      cleanups.push(async () => void cli.child.kill('SIGKILL'));
      const health = await waitForHealth(url, cli);
      expect(await health.json()).toMatchObject({ status: 'ok', deps: { framework_db: 'ok', redis: 'ok' } });

      expect((await login(url)).status).toBe(200);
      const fileStat = await stat(passwordFile);
      expect(fileStat.mode & 0o777).toBe(0o600);
      expect((await readFile(passwordFile, 'utf8')).trim()).toBe(PASSWORD);

      // SIGTERM while a request is in flight: it still gets its answer, then the process exits 0.
      const finish = startSlowRequest(port);
      await new Promise((r) => setTimeout(r, 200));
      const signalledAt = Date.now();
      cli.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
      const response = await finish();
      expect(response).toMatch(/^HTTP\/1\.1 200/);
      const exit = await cli.exited;
      expect(exit.code, cli.output()).toBe(0);
      expect(Date.now() - signalledAt).toBeLessThan(10_000);
      expect(cli.output()).toContain('"msg":"stopped"');

      // Second start on the same data dir: same admin, password file not rewritten.
      cli = runCli(['start'], env);
      await waitForHealth(url, cli);
      const again = await login(url);
      expect(again.status).toBe(200);
      expect((await stat(passwordFile)).mtimeMs).toBe(fileStat.mtimeMs);

      // The embedded cluster gives each project's warehouse a role of its own: never the cluster's superuser.
      const call = async (method: string, route: string, token: string, body?: unknown) => {
        const res = await fetch(`${url}/api/v1${route}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
      };
      const firstToken = ((await again.json()) as { access_token: string }).access_token;
      expect(
        (
          await call('POST', '/me/password', firstToken, {
            current_password: PASSWORD,
            new_password: 'embedded-Admin-pass-78',
          })
        ).status,
      ).toBe(204);
      const token = (
        (await (
          await fetch(`${url}/api/v1/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username: 'admin', password: 'embedded-Admin-pass-78' }),
          })
        ).json()) as { access_token: string }
      ).access_token;
      const project = await call('POST', '/admin/projects', token, { name: 'embedded' });
      const warehouse = await call('POST', '/data-connectors', token, {
        project_id: project.body['id'],
        name: 'warehouse',
        kind: 'warehouse',
        config: {},
      });
      expect(warehouse.status, JSON.stringify(warehouse.body)).toBe(201);
      const pipeline = await call('POST', '/etl/pipelines', token, {
        project_id: project.body['id'],
        name: 'who',
        sources: [
          {
            name: 'who',
            connector_id: warehouse.body['id'],
            query:
              'select current_user as who, (select rolsuper from pg_roles where rolname = current_user) as superuser',
          },
        ],
        destination: { connector_id: warehouse.body['id'], table: 'who', mode: 'append' },
      });
      const preview = await call('POST', `/etl/pipelines/${pipeline.body['id']}/preview`, token, { limit: 1 });
      expect(preview.body['rows'], JSON.stringify(preview.body)).toEqual([
        { who: expect.stringMatching(/^svc_[0-9a-f]{8}_/), superuser: false },
      ]);
      const readsKey = await call('POST', '/etl/pipelines', token, {
        project_id: project.body['id'],
        name: 'key',
        sources: [
          { name: 'key', connector_id: warehouse.body['id'], query: "select pg_read_file('../encryption-key') as key" },
        ],
        destination: { connector_id: warehouse.body['id'], table: 'key', mode: 'append' },
      });
      const refused = await call('POST', `/etl/pipelines/${readsKey.body['id']}/preview`, token, { limit: 1 });
      expect(refused.status).toBe(422);
      expect(JSON.stringify(refused.body)).toMatch(/permission denied/);
      cli.child.kill('SIGTERM');
      expect((await cli.exited).code, cli.output()).toBe(0);
    },
  );

  it('stops with a message naming the variable when the configuration is invalid', async () => {
    const cli = runCli(['serve'], { SVC_PORT: 'eighty' });
    const exit = await cli.exited;
    expect(exit.code).toBe(78);
    expect(cli.output()).toContain('SVC_PORT: expected an integer');
  });
});
