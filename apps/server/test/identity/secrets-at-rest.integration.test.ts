import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_PASSWORD, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createApiToken, createUser } from '../support/http.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';

const run = promisify(execFile);

describe('secrets never at rest in clear, never in logs', () => {
  const opened: TestApp[] = [];
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    for (const t of opened) await t.close();
    for (const d of databases) await d.drop();
  });

  it('known passwords and token values are absent from the captured logs and from a dump of the database', async () => {
    const t = await startTestApp();
    opened.push(t);
    const admin = await adminLogin(t);
    const user = await createUser(t, admin.accessToken);
    await api(t, 'POST', '/api/v1/me/password', {
      token: user.session.accessToken,
      body: { current_password: user.password, new_password: 'the-second-password-77' },
    });
    await api(t, 'POST', '/api/v1/auth/login', {
      body: { username: user.username, password: 'a-wrong-password-guess' },
    });
    const personal = await createApiToken(t, admin.accessToken, { scope: 'write' });
    await api(t, 'GET', '/api/v1/me', { token: personal.token });
    const refreshValue = admin.cookie.slice('svc_refresh='.length);

    const secrets = [
      TEST_ADMIN_PASSWORD,
      user.password,
      'the-second-password-77',
      'a-wrong-password-guess',
      personal.token,
      refreshValue,
      admin.accessToken,
    ];
    const logs = t.logText();
    expect(logs.length).toBeGreaterThan(1000);
    for (const secret of secrets) expect(logs, 'logs').not.toContain(secret);

    const { stdout: dump } = await run('pg_dump', ['--data-only', t.config.db.url!], { maxBuffer: 64 * 1024 * 1024 });
    expect(dump).toContain('$2b$'); // bcrypt hashes are there
    expect(dump).toContain(user.username);
    for (const secret of secrets) expect(dump, 'database dump').not.toContain(secret);
  });

  it('the audit log is append-only in the database itself', async () => {
    const t = await startTestApp();
    opened.push(t);
    await adminLogin(t);
    const client = new pg.Client({ connectionString: t.config.db.url });
    await client.connect();
    try {
      await expect(client.query('update audit_log set kind = $1', ['tampered'])).rejects.toThrow(/append-only/);
      await expect(client.query('delete from audit_log')).rejects.toThrow(/append-only/);
    } finally {
      await client.end();
    }
  });

  it('writes the initial password file once with mode 0600, only on the first boot against an empty users table', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const first = await startTestApp({ database });
    const file = first.config.auth.initialPasswordFile!;
    const before = await stat(file);
    expect(before.mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toBe(TEST_ADMIN_PASSWORD);
    await first.close();

    // Second boot on the same database: the users table is not empty, so no seed and no file,
    // neither a new one nor a rewrite of an existing one.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-seed-'));
    const absent = path.join(dir, 'absent.txt');
    const existing = path.join(dir, 'existing.txt');
    await writeFile(existing, 'untouched');
    const second = await startTestApp({
      database,
      env: { SVC_INITIAL_PASSWORD_FILE: absent, SVC_INITIAL_ADMIN_PASSWORD: 'another-password-entirely' },
    });
    opened.push(second);
    const third = await startTestApp({ database, env: { SVC_INITIAL_PASSWORD_FILE: existing } });
    opened.push(third);
    await expect(stat(absent)).rejects.toThrow(/ENOENT/);
    expect(await readFile(existing, 'utf8')).toBe('untouched');
    await rm(dir, { recursive: true, force: true });
    expect(
      (await api(second, 'POST', '/api/v1/auth/login', { body: { username: 'admin', password: TEST_ADMIN_PASSWORD } }))
        .status,
    ).toBe(200);
  });
});
