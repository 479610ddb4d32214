/**
 * The web UI end to end, in Debian's Chromium driven by playwright-core, against a server started by
 * the test that serves the built UI (npm test builds it first): the seeded administrator's first
 * sign-in, the password change that blocks every other screen, the overview and executions screens,
 * sessions in two tabs that outlive the access token, the SPA fallback's limits, and an axe-core
 * check of every screen. Screenshots go to test-output/ui/.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, TEST_ADMIN_PASSWORD, startTestApp, type TestApp } from '../support/app.js';
import { createPostgresConnector, query } from '../support/runs.js';
import { createTestDatabase } from '../support/services.js';

const CHROMIUM = process.env['SVC_TEST_CHROMIUM'] ?? '/usr/bin/chromium';
const SHOTS = path.resolve('test-output/ui');
const NEW_PASSWORD = 'a-new-Admin-password-77';
const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Serious and critical axe violations on the page as it is now. */
async function accessibilityProblems(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the app's CSP (rightly) refuses inline scripts.
  await page.evaluate(await axeSource);
  const result = (await page.evaluate(async () => (globalThis as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; help: string }> }> } }).axe.run())) as {
    violations: Array<{ id: string; impact: string; help: string }>;
  };
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
}

describe('web UI', () => {
  let t: TestApp;
  let context: BrowserContext;
  let profile: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (scripts/ensure-services.sh installs it)`);
    // Access tokens of 1 minute: the two-tab test outlives several.
    t = await startTestApp({ worker: true, env: { ...NO_RATE_LIMITS, SVC_ACCESS_TOKEN_TTL_MINUTES: '1' } });
    await mkdir(SHOTS, { recursive: true });
    profile = await mkdtemp(path.join(os.tmpdir(), 'svc-ui-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 800 },
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await t?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  it('signs the seeded administrator in, blocks everything behind the password change, then shows the overview', { timeout: 120_000 }, async () => {
    const page = await context.newPage();
    await page.goto(`${t.url}/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'login.png') });

    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const refusal = page.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/Invalid username or password.*Request id: [0-9a-f-]{36}/);

    await page.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    // Nothing else is reachable: not by navigation, not by address.
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    await page.goto(`${t.url}/executions`);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Executions' }).count()).toBe(0);
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'password-change.png') });

    await page.getByLabel('Current password').fill(TEST_ADMIN_PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    // The screen asked for (the address) comes up once the password is changed.
    await page.getByRole('heading', { name: 'Executions' }).waitFor();
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(page.url()).toBe(`${t.url}/`);
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'overview.png') });

    await page.getByRole('link', { name: 'Executions' }).click();
    await page.getByRole('heading', { name: 'Executions' }).waitFor();
    expect(page.url()).toBe(`${t.url}/executions`);
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'executions.png') });
    // A reload keeps the session (the refresh cookie) and the screen.
    await page.reload();
    await page.getByRole('heading', { name: 'Executions' }).waitFor();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'overview-390.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.close();
  });

  it('creates an API token whose value is shown once, and revokes it', { timeout: 60_000 }, async () => {
    const page = await context.newPage();
    await page.goto(`${t.url}/api-tokens`);
    await page.getByRole('heading', { name: 'API tokens' }).waitFor();
    await page.getByText('No tokens yet.').waitFor();
    await page.getByLabel('Name').fill('ci export');
    await page.getByText('Write', { exact: true }).click();
    await page.getByRole('button', { name: 'Create token' }).click();
    const value = (await page.getByLabel('Token value').textContent())!;
    expect(value).toMatch(/^svc_/);
    const me = await fetch(`${t.url}/api/v1/me`, { headers: { authorization: `Bearer ${value}` } });
    expect(me.status).toBe(200);
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'api-tokens.png') });
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByLabel('Token value').count()).toBe(0);
    await page.getByRole('button', { name: 'Revoke ci export' }).click();
    await page.getByRole('button', { name: 'Revoke ci export' }).waitFor({ state: 'detached' }).catch(() => undefined);
    const deadline = Date.now() + 10_000;
    let status = 200;
    while (status !== 401 && Date.now() < deadline) {
      status = (await fetch(`${t.url}/api/v1/me`, { headers: { authorization: `Bearer ${value}` } })).status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(401);
    await page.close();
  });

  it('tails a CDC table live: lines written while the page is open arrive over SSE', { timeout: 60_000 }, async () => {
    const call = async <T,>(method: string, route: string, token: string | undefined, body?: unknown) => {
      const response = await fetch(`${t.url}${route}`, {
        method,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return (await response.json()) as T;
    };
    const { access_token: admin } = await call<{ access_token: string }>('POST', '/api/v1/auth/login', undefined, { username: 'admin', password: NEW_PASSWORD });
    const project = await call<{ id: string }>('POST', '/api/v1/admin/projects', admin, { name: 'ui cdc' });
    const connector = (name: string) =>
      call<{ id: string }>('POST', '/api/v1/data-connectors', admin, { project_id: project.id, name, kind: 'postgres', config: { host: '127.0.0.1', database: 'postgres', user: 'postgres', password: 'unused' } });
    const [source, target] = [await connector('source'), await connector('target')];
    const cdc = await call<{ id: string }>('POST', '/api/v1/cdc-tables', admin, {
      project_id: project.id,
      name: 'orders feed',
      source: { connector_id: source.id, table: 'orders' },
      destination: { connector_id: target.id, table: 'orders' },
      mode: 'mirror',
      start: false,
    });
    const page = await context.newPage();
    await page.goto(`${t.url}/cdc-tables`);
    await page.getByRole('button', { name: 'Show the live log of orders feed' }).click();
    await page.getByText('(live)').waitFor();
    await call('POST', `/api/v1/cdc-tables/${cdc.id}/start`, admin);
    await call('POST', `/api/v1/cdc-tables/${cdc.id}/stop`, admin);
    await page.getByText('start requested').waitFor();
    await page.getByText('stop requested').waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'cdc-tables.png') });
    await page.close();
  });

  it('creates a data connector from the form its kind describes, tests it and discovers its tables', { timeout: 60_000 }, async () => {
    const login = await fetch(`${t.url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: NEW_PASSWORD }) });
    const { access_token: admin } = (await login.json()) as { access_token: string };
    await fetch(`${t.url}/api/v1/admin/projects`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` }, body: JSON.stringify({ name: 'ui connectors' }) });
    const database = new URL(t.config.db.url!);
    const page = await context.newPage();
    await page.goto(`${t.url}/connectors`);
    await page.getByRole('heading', { name: 'New connector' }).waitFor();
    await page.getByRole('button', { name: /Project/ }).click();
    await page.getByRole('option', { name: 'ui connectors' }).click();
    await page.getByRole('button', { name: /Kind/ }).click();
    await page.getByRole('option', { name: 'PostgreSQL' }).click();
    await page.getByLabel('Name').fill('framework db');
    await page.getByLabel('Host').fill(database.hostname);
    await page.getByLabel('Port').fill(database.port || '5432');
    await page.getByLabel('Database').fill(database.pathname.slice(1));
    await page.getByLabel('User').fill(decodeURIComponent(database.username));
    await page.getByLabel('Password').fill('a-secret-value');
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'connectors-new.png') });
    await page.getByRole('button', { name: 'Create connector' }).click();
    await page.getByRole('cell', { name: 'framework db', exact: true }).waitFor();
    // The secret is set, and shown nowhere.
    await page.getByRole('row', { name: /^framework db/ }).getByRole('cell', { name: 'password', exact: true }).waitFor();
    expect(await page.content()).not.toContain('a-secret-value');
    await page.getByRole('button', { name: 'Test framework db' }).click();
    await page.getByText(/Connection works/).waitFor();
    await page.getByRole('button', { name: 'Discover framework db' }).click();
    await page.getByText(/Discovered \d+ datasets/).waitFor();
    await page.screenshot({ path: path.join(SHOTS, 'connectors.png') });
    await page.close();
  });

  it('previews a pipeline and runs it, watching the execution reach succeeded', { timeout: 60_000 }, async () => {
    const data = await createTestDatabase();
    try {
      await query(data.url, `create table items as select g as id, 'item ' || g as label from generate_series(1, 30) g`);
      const login = await fetch(`${t.url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: NEW_PASSWORD }) });
      const { access_token: admin } = (await login.json()) as { access_token: string };
      const post = async (route: string, body: unknown) =>
        (await (await fetch(`${t.url}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` }, body: JSON.stringify(body) })).json()) as { id: string };
      const project = await post('/api/v1/admin/projects', { name: 'ui pipelines' });
      const connector = await createPostgresConnector(t, admin, project.id, 'items db', data.name);
      await post('/api/v1/etl/pipelines', {
        project_id: project.id,
        name: 'even items',
        sources: [{ connector_id: connector, dataset: 'items' }],
        transforms: [{ type: 'filter', expression: 'id % 2 == 0' }, { type: 'derive', column: 'shout', expression: 'upper(label)' }],
        destination: { connector_id: connector, table: 'even_items', mode: 'overwrite' },
      });
      const page = await context.newPage();
      await page.goto(`${t.url}/pipelines`);
      await page.getByRole('button', { name: 'Open even items' }).click();
      await page.getByRole('button', { name: 'Preview' }).click();
      await page.getByRole('cell', { name: 'ITEM 2', exact: true }).waitFor();
      expect(await page.getByRole('cell', { name: 'ITEM 1', exact: true }).count()).toBe(0);
      await page.getByRole('button', { name: 'Run now' }).click();
      await page.getByText(/succeeded 15 rows read, 15 written|succeeded 30 rows read, 15 written/).waitFor({ timeout: 30_000 });
      expect((await query(data.url, 'select count(*)::int as n from even_items')).rows[0].n).toBe(15);
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, 'pipelines.png'), fullPage: true });

      // The schedules dashboard and the audit log show what happened.
      const pipelines = (await (await fetch(`${t.url}/api/v1/etl/pipelines?project_id=${project.id}`, { headers: { authorization: `Bearer ${admin}` } })).json()) as { items: Array<{ id: string }> };
      await post('/api/v1/etl/schedules', { pipeline_id: pipelines.items[0]!.id, interval_seconds: 3600, paused: true });
      await page.getByRole('link', { name: 'Schedules' }).click();
      const row = page.getByRole('row', { name: /^even items/ });
      await row.waitFor();
      expect(await row.textContent()).toMatch(/every 3600 s.*paused.*succeeded/);
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, 'schedules.png') });
      await page.getByRole('link', { name: 'Audit log' }).click();
      await page.getByRole('cell', { name: 'pipeline_created', exact: true }).waitFor();
      await page.getByRole('cell', { name: 'schedule_created', exact: true }).waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, 'audit-log.png') });
      await page.close();
    } finally {
      await data.drop();
    }
  });

  it('keeps two tabs signed in for longer than the access token lives', { timeout: 240_000 }, async () => {
    const first = await context.newPage();
    const second = await context.newPage();
    for (const page of [first, second]) {
      await page.goto(`${t.url}/`);
      await page.getByRole('heading', { name: 'Overview' }).waitFor();
    }
    // Access tokens live 1 minute; each tab refreshes its own a minute before expiry at the latest
    // (so at once, here), serialised across tabs. A refresh token presented twice would end both.
    await new Promise((r) => setTimeout(r, 75_000));
    for (const page of [first, second]) {
      await page.getByRole('link', { name: 'Executions' }).click();
      await page.getByRole('heading', { name: 'Executions' }).waitFor();
      expect(await page.getByRole('heading', { name: 'Sign in' }).count()).toBe(0);
    }
    // No refresh token was ever presented twice.
    const login = await fetch(`${t.url}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: NEW_PASSWORD }) });
    const { access_token } = (await login.json()) as { access_token: string };
    const reuse = (await (await fetch(`${t.url}/api/v1/audit-log?kind=refresh_token_reuse_detected`, { headers: { authorization: `Bearer ${access_token}` } })).json()) as { items: unknown[] };
    expect(reuse.items).toEqual([]);
    await first.close();
    await second.close();
  });

  it('serves the app only where no API route, health, metrics or docs answer', async () => {
    const page = await fetch(`${t.url}/some/app/page`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const api = await fetch(`${t.url}/api/v1/no-such-route`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ request_id: expect.any(String) });
    for (const reserved of ['/ready', '/readyz', '/healthz']) expect((await fetch(`${t.url}${reserved}`)).status).toBe(404);
    expect((await fetch(`${t.url}/health`)).headers.get('content-type')).toMatch(/json/);
    expect((await fetch(`${t.url}/openapi.json`)).headers.get('content-type')).toMatch(/json/);
    expect(await (await fetch(`${t.url}/metrics`)).text()).toMatch(/^# HELP/m);
  });
});
