/**
 * The web UI end to end, in Debian's Chromium driven by playwright-core, against a server started by
 * the test that serves the built UI (npm test builds it first): the seeded administrator's first
 * sign-in, the password change that blocks every other screen, every screen used as a user would
 * (connectors, catalog, pipeline builder, executions, CDC log tail, streams, tokens, users, projects, roles,
 * license), sessions in two tabs that outlive the access token, every screen at 390 px, the SPA
 * fallback's limits, and an axe-core check of every screen. Screenshots go to test-output/ui/.
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, TEST_ADMIN_PASSWORD, startTestApp, type TestApp } from '../../server/test/support/app.js';
import { api, login } from '../../server/test/support/http.js';
import { createPostgresConnector, query, waitForStatus } from '../../server/test/support/runs.js';
import { startLlmServer } from '../../server/test/support/llm-server.js';
import { createTestDatabase } from '../../server/test/support/services.js';
import { SHOTS, accessibilityProblems, launchBrowser, openCreateForm, type Browser } from './browser.js';
import { startHttpReceiver } from '../../server/test/alerting/receivers.js';

/** The page's localStorage, as the browser code inside page.evaluate sees it (no DOM types here). */
type BrowserStorage = { localStorage: { setItem(key: string, value: string): void; removeItem(key: string): void } };

const NEW_PASSWORD = 'a-new-Admin-password-77';

/** Chooses the project every screen works in, with the shell's project switcher. */
async function switchProject(page: Page, name: string) {
  await page.getByRole('button', { name: /Current project/ }).click();
  await page.getByRole('option', { name, exact: true }).click();
}

/** A license as the vendor signs it: an EdDSA JWT. */
function licenseJwt(privateKey: KeyObject, claims: Record<string, unknown>): string {
  const encode = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const unsigned = `${encode({ alg: 'EdDSA', typ: 'JWT' })}.${encode(claims)}`;
  return `${unsigned}.${sign(null, Buffer.from(unsigned), privateKey).toString('base64url')}`;
}

describe('web UI', () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  const licenseKeys = generateKeyPairSync('ed25519');
  /** The administrator's access token, once the first test changed the password. */
  const adminToken = async () => (await login(t, 'admin', NEW_PASSWORD)).accessToken;

  beforeAll(async () => {
    // Access tokens of 1 minute: the two-tab test outlives several.
    t = await startTestApp({
      worker: true,
      env: {
        ...NO_RATE_LIMITS,
        SVC_ACCESS_TOKEN_TTL_MINUTES: '1',
        SVC_LICENSE_PUBLIC_KEY: licenseKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      },
    });
    await mkdir(SHOTS, { recursive: true });
    browser = await launchBrowser();
    context = browser.context;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it(
    'signs the seeded administrator in, blocks everything behind the password change, then shows the overview',
    { timeout: 120_000 },
    async () => {
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

      await page.close();
    },
  );

  it('creates an API token whose value is shown once, and revokes it', { timeout: 60_000 }, async () => {
    const page = await context.newPage();
    await page.goto(`${t.url}/api-tokens`);
    await page.getByRole('heading', { name: 'API tokens' }).waitFor();
    await page.getByText('No tokens yet.').waitFor();
    await openCreateForm(page, 'New token');
    await page.getByLabel('Name').fill('ci export');
    await page.getByText('Write', { exact: true }).click();
    await page.getByRole('button', { name: 'Create token' }).click();
    const value = (await page.getByLabel('Token value').textContent())!;
    expect(value).toMatch(/^svc_/);
    const me = await fetch(`${t.url}/api/v1/me`, { headers: { authorization: `Bearer ${value}` } });
    expect(me.status).toBe(200);
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'api-tokens.png') });
    // Done leaves the value behind, for good: back on the list.
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByLabel('Token value').count()).toBe(0);
    expect(page.url()).toBe(`${t.url}/api-tokens`);
    await page.getByRole('button', { name: 'Revoke ci export' }).click();
    await page
      .getByRole('button', { name: 'Revoke ci export' })
      .waitFor({ state: 'detached' })
      .catch(() => undefined);
    const deadline = Date.now() + 10_000;
    let status = 200;
    while (status !== 401 && Date.now() < deadline) {
      status = (await fetch(`${t.url}/api/v1/me`, { headers: { authorization: `Bearer ${value}` } })).status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(401);
    await page.close();
  });

  it(
    'creates a CDC table in the form, tails its log live over SSE, and deletes it after asking',
    { timeout: 60_000 },
    async () => {
      const admin = await adminToken();
      const project = (
        await api<{ id: string }>(t, 'POST', '/api/v1/admin/projects', { token: admin, body: { name: 'ui cdc' } })
      ).body;
      for (const name of ['source', 'target']) {
        const config = { host: '127.0.0.1', database: 'postgres', user: 'postgres', password: 'unused' };
        expect(
          (
            await api(t, 'POST', '/api/v1/data-connectors', {
              token: admin,
              body: { project_id: project.id, name, kind: 'postgres', config },
            })
          ).status,
        ).toBe(201);
      }
      const page = await context.newPage();
      await page.goto(`${t.url}/cdc-tables`);
      await switchProject(page, 'ui cdc');
      const form = await openCreateForm(page, 'New CDC table');
      await form.getByLabel('Name', { exact: true }).fill('orders feed');
      await form.getByRole('button', { name: /Source connector/ }).click();
      await page.getByRole('option', { name: 'source', exact: true }).click();
      await form.getByLabel('Source table').fill('orders');
      await form.getByRole('button', { name: /Destination connector/ }).click();
      await page.getByRole('option', { name: 'target', exact: true }).click();
      await form.getByLabel('Destination table').fill('orders');
      await form.getByText('Start at once').click();
      await form.getByRole('button', { name: 'Create CDC table' }).click();
      await page.getByRole('button', { name: 'Show the live log of orders feed' }).waitFor();
      const cdc = (
        await api<{ items: Array<{ id: string; name: string; mode: string; desired_state: string }> }>(
          t,
          'GET',
          `/api/v1/cdc-tables?project_id=${project.id}`,
          { token: admin },
        )
      ).body.items;
      // Lag samples of the last hour, as the leader takes them: the chart draws them.
      await query(
        t.config.db.url!,
        `insert into lag_samples (item_kind, item_id, sampled_at, lag_seconds)
         select 'cdc_table', $1, now() - (g || ' minutes')::interval, g % 5 from generate_series(1, 30) g`,
        [cdc[0]!.id],
      );
      await page.getByRole('button', { name: 'Show the live log of orders feed' }).click();
      await page.getByRole('img', { name: /^Lag over the last hour: 30 samples .*; now 1 s, highest 4 s$/ }).waitFor();
      expect(cdc).toEqual([expect.objectContaining({ name: 'orders feed', mode: 'mirror', desired_state: 'stopped' })]);
      // Lines written by another client while the page is open arrive over SSE.
      await page.getByText('(live)').waitFor();
      expect((await api(t, 'POST', `/api/v1/cdc-tables/${cdc[0]!.id}/start`, { token: admin })).status).toBe(200);
      expect((await api(t, 'POST', `/api/v1/cdc-tables/${cdc[0]!.id}/stop`, { token: admin })).status).toBe(200);
      await page.getByText('start requested').waitFor();
      await page.getByText('stop requested').waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, 'cdc-tables.png'), fullPage: true });
      await page.getByRole('button', { name: 'Delete orders feed' }).click();
      await page
        .getByRole('group', { name: 'Confirm deleting orders feed' })
        .getByRole('button', { name: 'Delete for good' })
        .click();
      await page.getByText('No CDC tables yet.').waitFor();
      expect(
        (await api<{ items: unknown[] }>(t, 'GET', `/api/v1/cdc-tables?project_id=${project.id}`, { token: admin }))
          .body.items,
      ).toEqual([]);
      await page.close();
    },
  );

  it(
    'creates a stream from the form its broker kind describes, follows its run live over SSE, and deletes it',
    { timeout: 60_000 },
    async () => {
      const admin = await adminToken();
      const project = (
        await api<{ id: string }>(t, 'POST', '/api/v1/admin/projects', { token: admin, body: { name: 'ui streams' } })
      ).body;
      for (const [name, kind, config] of [
        ['broker', 'nats', { host: '127.0.0.1', port: 4222 }],
        ['target', 'postgres', { host: '127.0.0.1', database: 'postgres', user: 'postgres', password: 'unused' }],
      ] as const) {
        const created = await api(t, 'POST', '/api/v1/data-connectors', {
          token: admin,
          body: { project_id: project.id, name, kind, config },
        });
        expect(created.status).toBe(201);
      }
      const page = await context.newPage();
      // The screen works in the current project (chosen once for every screen, kept in localStorage).
      await page.goto(`${t.url}/`);
      // Signed in (the page's first refresh answered) before leaving it: a refresh cut off by the next
      // navigation would leave its rotated cookie unsaved, and the next one would be taken for reuse.
      await page.getByRole('heading', { name: 'Overview' }).waitFor();
      await page.evaluate(
        (id) => (globalThis as unknown as BrowserStorage).localStorage.setItem('svc.project', id),
        project.id,
      );
      await page.goto(`${t.url}/streams`);
      const form = await openCreateForm(page, 'New stream');
      await form.getByText('In project ui streams.').waitFor();
      await expect(form.getByRole('button', { name: /Project/ }).count()).resolves.toBe(0);
      await form.getByLabel('Name', { exact: true }).fill('clicks');
      await form.getByRole('button', { name: /Broker connector/ }).click();
      await page.getByRole('option', { name: 'broker', exact: true }).click();
      // The start positions are the ones the NATS kind declares.
      await form.getByText('from_sequence').waitFor();
      await form.getByLabel('Stream, queue, topic or key').fill('CLICKS');
      await form.getByLabel('Subject filter').fill('clicks.web');
      await form.getByRole('button', { name: /Destination connector/ }).click();
      await page.getByRole('option', { name: 'target', exact: true }).click();
      await form.getByLabel('Table', { exact: true }).fill('clicks');
      await form.getByText('Start at once').click();
      await form.getByRole('button', { name: 'Create stream' }).click();
      await page.getByRole('button', { name: 'Show the live run of clicks' }).click();
      const streams = (
        await api<{
          items: Array<{ id: string; name: string; source: { filter: string | null }; desired_state: string }>;
        }>(t, 'GET', `/api/v1/streams?project_id=${project.id}`, { token: admin })
      ).body.items;
      expect(streams).toEqual([
        expect.objectContaining({
          name: 'clicks',
          source: expect.objectContaining({ filter: 'clicks.web' }),
          desired_state: 'stopped',
        }),
      ]);
      await page.getByText('(live)').waitFor();
      await page.getByText('No run yet (stopped).').waitFor();
      // Started by another client, the stream is taken by the app's worker, whose precise failure (there
      // is no such JetStream stream) arrives over SSE.
      expect((await api(t, 'POST', `/api/v1/streams/${streams[0]!.id}/start`, { token: admin })).status).toBe(200);
      await page
        .getByRole('region', { name: /clicks: live run/ })
        .getByText('Last error: the JetStream stream does not exist')
        .waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, 'streams.png'), fullPage: true });
      // Its dead letters are the second tab of its page, which the address names.
      await page.getByRole('tab', { name: 'Dead letters' }).click();
      await page.getByText('No dead letters.').waitFor();
      expect(page.url()).toBe(`${t.url}/streams/${streams[0]!.id}/dead-letters`);
      await page.getByRole('button', { name: 'Delete clicks' }).click();
      await page
        .getByRole('group', { name: 'Confirm deleting clicks' })
        .getByRole('button', { name: 'Delete for good' })
        .click();
      await page.getByText('No streams yet.').waitFor();
      await page.evaluate(() => (globalThis as unknown as BrowserStorage).localStorage.removeItem('svc.project'));
      await page.close();
    },
  );

  it(
    'creates a data connector from the form its kind describes, tests it and discovers its tables',
    { timeout: 60_000 },
    async () => {
      const login = await fetch(`${t.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: NEW_PASSWORD }),
      });
      const { access_token: admin } = (await login.json()) as { access_token: string };
      await fetch(`${t.url}/api/v1/admin/projects`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
        body: JSON.stringify({ name: 'ui connectors' }),
      });
      const database = new URL(t.config.db.url!);
      const page = await context.newPage();
      await page.goto(`${t.url}/connectors`);
      await page.getByRole('button', { name: 'New connector' }).waitFor();
      await switchProject(page, 'ui connectors');
      await page.getByText('No connectors in this project yet').waitFor();
      await page.getByRole('button', { name: 'New connector' }).click();
      await page.getByRole('heading', { name: 'New connector' }).waitFor();
      expect(page.url()).toBe(`${t.url}/connectors/new`);
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
      // Created: back to the list, which shows it.
      await page.getByRole('cell', { name: 'framework db', exact: true }).waitFor();
      expect(page.url()).toBe(`${t.url}/connectors`);
      // The secret is set, and shown nowhere.
      await page
        .getByRole('row', { name: /^framework db/ })
        .getByRole('cell', { name: 'password', exact: true })
        .waitFor();
      expect(await page.content()).not.toContain('a-secret-value');
      await page.getByRole('button', { name: 'Test framework db' }).click();
      await page.getByText(/Connection works/).waitFor();
      await page.getByRole('button', { name: 'Discover framework db' }).click();
      await page.getByText(/Discovered \d+ datasets/).waitFor();
      await page.screenshot({ path: path.join(SHOTS, 'connectors.png') });

      // Editing starts from the saved values; the secret field starts empty and, left so, is kept.
      await page.getByRole('button', { name: 'Edit framework db' }).click();
      await page.getByRole('heading', { name: 'Edit framework db' }).waitFor();
      const editForm = page.getByRole('region', { name: 'Edit framework db' });
      expect(await editForm.getByLabel('Host').inputValue()).toBe(database.hostname);
      expect(await editForm.getByLabel('Password').inputValue()).toBe('');
      await editForm.getByLabel('Name').fill('framework database');
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, 'connectors-edit.png') });
      await editForm.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('cell', { name: 'framework database', exact: true }).waitFor();
      const admin2 = await adminToken();
      const saved = (
        await api<{ items: Array<{ name: string; secrets_set: string[]; config: Record<string, unknown> }> }>(
          t,
          'GET',
          '/api/v1/data-connectors',
          { token: admin2 },
        )
      ).body.items.find((c) => c.name === 'framework database');
      expect(saved).toMatchObject({ secrets_set: ['password'], config: { host: database.hostname } });

      // The catalog shows what discovery found: the framework's own users table, its key marked.
      await page.getByRole('link', { name: 'Catalog' }).click();
      await page.getByRole('heading', { name: 'Catalog' }).waitFor();
      await page.getByRole('button', { name: /Connector/ }).click();
      await page.getByRole('option', { name: 'framework database' }).click();
      await page.getByLabel('Search datasets').fill('users');
      await page.getByRole('button', { name: 'Columns of public.users', exact: true }).click();
      await page.getByRole('heading', { name: 'public.users' }).waitFor();
      const columns = page.getByRole('table', { name: 'Columns of public.users' });
      await columns.getByRole('cell', { name: 'username', exact: true }).waitFor();
      expect(await columns.getByRole('row', { name: /\bid primary key\b/ }).count()).toBe(1);
      expect(await columns.getByRole('row', { name: /\busername primary key\b/ }).count()).toBe(0);
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, 'catalog.png'), fullPage: true });
      await page.close();
    },
  );

  it(
    'builds a pipeline from the catalog, previews it, names a bad step, runs it and follows the run in the execution detail',
    { timeout: 90_000 },
    async () => {
      const data = await createTestDatabase();
      try {
        await query(
          data.url,
          `create table items (id int primary key, label text); insert into items select g, 'item ' || g from generate_series(1, 30) g`,
        );
        const admin = await adminToken();
        const post = async <T = { id: string }>(route: string, body?: unknown) =>
          (await api<T>(t, 'POST', route, { token: admin, body })).body;
        const project = await post('/api/v1/admin/projects', { name: 'ui pipelines' });
        const connector = await createPostgresConnector(t, admin, project.id, 'items db', data.name);
        await post(`/api/v1/data-connectors/${connector}/discover`);
        const page = await context.newPage();
        await page.goto(`${t.url}/pipelines`);
        await page.getByRole('button', { name: 'New pipeline' }).waitFor();
        await switchProject(page, 'ui pipelines');
        // Lists first: the form has its own address, behind the "New pipeline" button.
        await page.getByText('No pipelines yet').waitFor();
        await page.getByRole('button', { name: 'New pipeline' }).click();
        await page.waitForURL(`${t.url}/pipelines/new`);
        await page.getByRole('heading', { name: 'New pipeline' }).waitFor();
        await page.getByLabel('Name', { exact: true }).fill('even items');
        await page.getByRole('button', { name: /Source connector/ }).click();
        await page.getByRole('option', { name: 'items db' }).click();
        // The dataset comes from the catalog that discovery filled.
        await page.getByRole('combobox', { name: 'Source dataset' }).fill('ite');
        await page.getByRole('option', { name: 'public.items' }).click();
        await page.getByRole('button', { name: 'Add step' }).click();
        await page.getByRole('group', { name: 'Step 1: filter' }).getByLabel('Keep rows where').fill('id % 2 == 0');
        await page.getByRole('button', { name: /New step/ }).click();
        await page.getByRole('option', { name: 'derive' }).click();
        await page.getByRole('button', { name: 'Add step' }).click();
        const derive = page.getByRole('group', { name: 'Step 2: derive' });
        await derive.getByLabel('Column', { exact: true }).fill('shout');
        await derive.getByLabel('Expression').fill('upper(label)');
        await page.getByRole('button', { name: /Destination connector/ }).click();
        await page.getByRole('option', { name: 'items db' }).click();
        await page.getByLabel('Table', { exact: true }).fill('even_items');
        await page.getByLabel('Cursor column').fill('id');
        expect(await accessibilityProblems(page)).toEqual([]);
        await page.screenshot({ path: path.join(SHOTS, 'pipelines-new.png'), fullPage: true });
        await page.getByRole('button', { name: 'Create pipeline' }).click();

        // The new pipeline opens on its own page, in tabs: what it reads and writes, then its saved
        // steps, a preview, and a mistake the API names by field.
        const detail = page.getByRole('region', { name: 'even items' });
        await detail.waitFor();
        await page.waitForURL(new RegExp(`^${t.url}/pipelines/[0-9a-f-]{36}$`));
        const overview = detail.getByRole('tabpanel', { name: 'Overview' });
        expect(await overview.getByRole('definition').allTextContents()).toEqual([
          'public.items of items db',
          'filter → derive',
          'even_items of items db (append)',
          '—',
          '—',
        ]);
        await overview.getByText('Not run yet').waitFor();
        await detail.getByRole('tab', { name: 'Steps' }).click();
        await page.waitForURL(/\/steps$/);
        await detail.getByRole('button', { name: 'Preview' }).click();
        await detail.getByRole('cell', { name: 'ITEM 2', exact: true }).waitFor();
        expect(await detail.getByRole('cell', { name: 'ITEM 1', exact: true }).count()).toBe(0);
        await detail.getByRole('group', { name: 'Step 1: filter' }).getByLabel('Keep rows where').fill('id % 2 ==');
        await detail.getByRole('button', { name: 'Preview' }).click();
        expect(await detail.getByRole('alert').textContent()).toMatch(
          /transforms\.0\.expression.*Request id: [0-9a-f-]{36}/,
        );
        // The failure is also a toast that quotes the request id.
        await page
          .getByRole('region', { name: 'Notifications' })
          .getByText(/^Failed: .*\(request id [0-9a-f-]{36}\)/)
          .first()
          .waitFor();
        // Edited but not saved: a run would use the saved steps, so it waits for a save.
        expect(await detail.getByRole('button', { name: 'Run now' }).isDisabled()).toBe(true);
        await detail.getByRole('group', { name: 'Step 1: filter' }).getByLabel('Keep rows where').fill('id % 3 == 0');
        await detail.getByRole('button', { name: 'Save steps' }).click();
        await detail.getByText(/^Unsaved steps/).waitFor({ state: 'detached' });
        const savedSteps = async () =>
          (
            await api<{ items: Array<{ transforms: unknown[] }> }>(
              t,
              'GET',
              `/api/v1/etl/pipelines?project_id=${project.id}`,
              { token: admin },
            )
          ).body.items[0]!.transforms;
        expect(await savedSteps()).toEqual([
          { type: 'filter', expression: 'id % 3 == 0' },
          { type: 'derive', column: 'shout', expression: 'upper(label)' },
        ]);
        await page.getByRole('region', { name: 'even items' }).getByRole('button', { name: 'Run now' }).click();
        // The run is followed in the Runs tab, which its address names.
        await page.waitForURL(/\/runs$/);
        await detail
          .getByRole('tabpanel', { name: 'Runs' })
          .getByText(/succeeded 10 rows read, 10 written|succeeded 30 rows read, 10 written/)
          .waitFor({ timeout: 30_000 });
        expect((await query(data.url, 'select count(*)::int as n from even_items')).rows[0].n).toBe(10);
        // The tab survives a reload.
        await page.reload();
        await detail.getByRole('tab', { name: 'Runs', selected: true }).waitFor();
        // The run saved its cursor; a reset empties it, so the next run reads everything again.
        const opened = page.getByRole('region', { name: 'even items' });
        await opened.getByRole('tab', { name: 'Settings' }).click();
        await opened.getByText('items: past id = 30').waitFor();
        expect(await accessibilityProblems(page)).toEqual([]);
        await page.screenshot({ path: path.join(SHOTS, 'pipelines.png'), fullPage: true });

        // A pipeline that runs after it: the list drawn as a graph, a node opening its pipeline, and
        // a run followed by a bar against the rows of its last succeeded run.
        await query(data.url, 'create table knob (delay int not null); insert into knob values (0)');
        const after = await post<{ id: string; depends_on: string[] }>('/api/v1/etl/pipelines', {
          project_id: project.id,
          name: 'after evens',
          sources: [
            {
              name: 'evens',
              connector_id: connector,
              query: 'select e.id from knob k, pg_sleep(k.delay), even_items e',
            },
          ],
          destination: { connector_id: connector, table: 'after_evens', mode: 'append' },
          depends_on: [
            (
              await api<{ items: Array<{ id: string }> }>(t, 'GET', `/api/v1/etl/pipelines?project_id=${project.id}`, {
                token: admin,
              })
            ).body.items[0]!.id,
          ],
        });
        const first = await post(`/api/v1/etl/pipelines/${after.id}/run`);
        expect(await waitForStatus(t, admin, first.id, ['succeeded', 'failed'])).toMatchObject({
          status: 'succeeded',
          rows_read: 10,
        });
        // Made through the API: a fresh load of the screen lists it.
        await page.goto(`${t.url}/pipelines`);
        await page.getByRole('button', { name: 'Dependency graph' }).click();
        await page.getByRole('figure', { name: /^Pipeline dependencies: 2 pipelines, 1 edges/ }).waitFor();
        expect(await page.locator('.react-flow__edge').count()).toBe(1);
        expect(await accessibilityProblems(page)).toEqual([]);
        await page.screenshot({ path: path.join(SHOTS, 'pipelines-graph.png'), fullPage: true });
        await page.locator('.react-flow__node', { hasText: 'after evens' }).click();
        await page.waitForURL(`${t.url}/pipelines/${after.id}`);
        const following = page.getByRole('region', { name: 'after evens' });
        expect(await following.getByRole('definition').nth(3).textContent()).toBe('even items');
        await query(data.url, 'update knob set delay = 30');
        await following.getByRole('button', { name: 'Run now' }).click();
        const bar = following.getByRole('progressbar', { name: 'Progress of the run' });
        await following.getByText(/0 rows read of about 10, 0 written, [0-9,]+ rows\/s/).waitFor({ timeout: 15_000 });
        expect(await bar.getAttribute('max')).toBe('10');
        const slow = (
          await api<{ items: Array<{ id: string }> }>(
            t,
            'GET',
            `/api/v1/executions?pipeline_id=${after.id}&status=running`,
            { token: admin },
          )
        ).body.items[0]!;
        await post(`/api/v1/executions/${slow.id}/cancel`);
        await waitForStatus(t, admin, slow.id, ['cancelled', 'failed', 'succeeded'], 15_000);
        expect((await api(t, 'DELETE', `/api/v1/etl/pipelines/${after.id}`, { token: admin })).status).toBe(204);
        // Deleted elsewhere: the list, polled, lets it go.
        await page.goBack();
        await page.getByRole('figure', { name: /^Pipeline dependencies: 1 pipelines, 0 edges/ }).waitFor();

        // The run of even items in the executions screen: its counters and its log.
        const evensRun = (
          await api<{ items: Array<{ id: string }> }>(
            t,
            'GET',
            `/api/v1/executions?pipeline_id=${after.depends_on[0]}&status=succeeded`,
            { token: admin },
          )
        ).body.items[0]!;
        await page.getByRole('link', { name: 'Executions' }).click();
        // The listed runs over time: rows and bytes per run, and how many succeeded.
        const overTime = page.getByRole('region', { name: 'Runs over time' });
        await overTime.getByText('2 of 3 finished runs succeeded (67%), 1 failed or cancelled.').waitFor();
        await overTime
          .getByRole('img', { name: /^Rows written per run, 3 runs oldest first: highest 10, latest 0, in all 20$/ })
          .waitFor();
        expect(await overTime.locator('rect.failed').count()).toBe(2);
        await page.getByRole('button', { name: `Details of pipeline run ${evensRun.id.slice(0, 8)}` }).click();
        const run = page.getByRole('region', { name: /^Execution [0-9a-f]{8}$/ });
        await run.waitFor();
        await run.getByText('succeeded', { exact: true }).waitFor();
        expect(await run.getByRole('definition').allTextContents()).toEqual(
          expect.arrayContaining(['pipeline', 'manual', '10']),
        );
        await run.getByRole('list', { name: 'Log of the run' }).getByRole('listitem').first().waitFor();
        expect(await run.getByRole('progressbar').count()).toBe(0);
        expect(await accessibilityProblems(page)).toEqual([]);
        await page.screenshot({ path: path.join(SHOTS, 'execution-detail.png'), fullPage: true });
        // The open execution has its own address: a reload (or a shared link) opens it again, and
        // the back button closes it.
        expect(page.url()).toMatch(new RegExp(`^${t.url}/executions/[0-9a-f-]{36}$`));
        const shared = page.url();
        await page.reload();
        await run.getByText('succeeded', { exact: true }).waitFor();
        await page.goBack();
        await run.waitFor({ state: 'detached' });
        expect(page.url()).toBe(`${t.url}/executions`);
        await page.goto(shared);
        await run.getByText('succeeded', { exact: true }).waitFor();

        // The schedules dashboard and the audit log show what happened.
        const pipelines = (
          await api<{ items: Array<{ id: string }> }>(t, 'GET', `/api/v1/etl/pipelines?project_id=${project.id}`, {
            token: admin,
          })
        ).body;
        await page.getByRole('link', { name: 'Schedules' }).click();
        const newSchedule = await openCreateForm(page, 'New schedule');
        await newSchedule.getByRole('button', { name: /Pipeline/ }).click();
        await page.getByRole('option', { name: 'even items' }).click();
        await newSchedule.getByText('interval', { exact: true }).click();
        await newSchedule.getByLabel('Every (seconds)').fill('3600');
        await newSchedule.getByText('Start paused').click();
        await newSchedule.getByRole('button', { name: 'Create schedule' }).click();
        const row = page.getByRole('row', { name: /^even items/ });
        await row.waitFor();
        expect(await row.textContent()).toMatch(/every 3600 s.*paused.*succeeded/);
        const schedule = async () =>
          (
            await api<{ items: Array<{ pipeline_id: string; paused: boolean; interval_seconds: number | null }> }>(
              t,
              'GET',
              '/api/v1/etl/schedules',
              { token: admin },
            )
          ).body.items.find((x) => x.pipeline_id === pipelines.items[0]!.id);
        expect(await schedule()).toMatchObject({ paused: true, interval_seconds: 3600 });
        expect(await accessibilityProblems(page)).toEqual([]);
        await page.screenshot({ path: path.join(SHOTS, 'schedules.png'), fullPage: true });
        // The button flips at once (optimistic); the server's answer follows.
        await page.getByRole('button', { name: 'Resume even items' }).click();
        await page.getByRole('button', { name: 'Pause even items' }).waitFor();
        await expect.poll(async () => (await schedule())?.paused, { timeout: 10_000 }).toBe(false);
        await page.getByRole('button', { name: 'Pause even items' }).click();
        await page.getByRole('button', { name: 'Resume even items' }).waitFor();
        await expect.poll(async () => (await schedule())?.paused, { timeout: 10_000 }).toBe(true);
        await page.getByRole('link', { name: 'Audit log' }).click();
        await page.getByRole('cell', { name: 'pipeline_created', exact: true }).first().waitFor();
        await page.getByRole('cell', { name: 'schedule_created', exact: true }).waitFor();
        expect(await accessibilityProblems(page)).toEqual([]);
        await page.screenshot({ path: path.join(SHOTS, 'audit-log.png') });

        await page.getByRole('link', { name: 'Schedules' }).click();
        await page.getByRole('button', { name: 'Delete schedule of even items' }).click();
        await page
          .getByRole('group', { name: 'Confirm deleting the schedule of even items' })
          .getByRole('button', { name: 'Delete for good' })
          .click();
        await page.getByText('No schedules yet.').waitFor();
        expect(await schedule()).toBeUndefined();

        // Reset the incremental state, then delete the pipeline (asked first).
        await page.getByRole('link', { name: 'Pipelines' }).click();
        await page.getByRole('button', { name: 'Open even items' }).click();
        const again = page.getByRole('region', { name: 'even items' });
        await again.getByRole('tab', { name: 'Settings' }).click();
        await again.getByText('items: past id = 30').waitFor();
        await again.getByRole('button', { name: 'Reset incremental state' }).click();
        await again.getByText('items: past id = nothing yet (the next run reads everything)').waitFor();
        await again.getByRole('button', { name: 'Delete pipeline' }).click();
        await again
          .getByRole('group', { name: 'Confirm deleting even items' })
          .getByRole('button', { name: 'Keep' })
          .click();
        expect(
          (
            await api<{ items: unknown[] }>(t, 'GET', `/api/v1/etl/pipelines?project_id=${project.id}`, {
              token: admin,
            })
          ).body.items,
        ).toHaveLength(1);
        await again.getByRole('button', { name: 'Delete pipeline' }).click();
        await again
          .getByRole('group', { name: 'Confirm deleting even items' })
          .getByRole('button', { name: 'Delete for good' })
          .click();
        await page.getByText('No pipelines yet').waitFor();
        expect(
          (
            await api<{ items: unknown[] }>(t, 'GET', `/api/v1/etl/pipelines?project_id=${project.id}`, {
              token: admin,
            })
          ).body.items,
        ).toHaveLength(0);
        await page.close();
      } finally {
        await data.drop();
      }
    },
  );

  it(
    'starts a sync of tables the catalog found and follows it to succeeded; deletes a connector after asking',
    { timeout: 90_000 },
    async () => {
      const [from, into] = [await createTestDatabase(), await createTestDatabase()];
      try {
        await query(
          from.url,
          `create table people (id int primary key, name text); insert into people select g, 'person ' || g from generate_series(1, 25) g`,
        );
        const admin = await adminToken();
        const project = (
          await api<{ id: string }>(t, 'POST', '/api/v1/admin/projects', { token: admin, body: { name: 'ui syncs' } })
        ).body;
        const source = await createPostgresConnector(t, admin, project.id, 'people source', from.name);
        await createPostgresConnector(t, admin, project.id, 'people copy', into.name);
        await api(t, 'POST', `/api/v1/data-connectors/${source}/discover`, { token: admin });
        const page = await context.newPage();
        await page.goto(`${t.url}/executions`);
        const form = await openCreateForm(page, 'Start a sync');
        await switchProject(page, 'ui syncs');
        await form.getByRole('button', { name: /From connector/ }).click();
        await page.getByRole('option', { name: 'people source' }).click();
        await form.getByRole('button', { name: /Into connector/ }).click();
        await page.getByRole('option', { name: 'people copy' }).click();
        await form.getByText('public.people', { exact: true }).click();
        expect(await accessibilityProblems(page)).toEqual([]);
        await form.getByRole('button', { name: 'Start sync' }).click();
        // The new execution opens, polled until it settles.
        const run = page.getByRole('region', { name: /^Execution [0-9a-f]{8}$/ });
        await run.getByText('succeeded', { exact: true }).waitFor({ timeout: 30_000 });
        expect(await run.getByRole('definition').allTextContents()).toEqual(expect.arrayContaining(['sync', '25']));
        expect((await query(into.url, 'select count(*)::int as n from public.people')).rows[0].n).toBe(25);
        await page.screenshot({ path: path.join(SHOTS, 'executions-sync.png'), fullPage: true });

        await page.getByRole('link', { name: 'Connectors' }).click();
        await page.getByRole('button', { name: 'Delete people copy' }).click();
        await page
          .getByRole('group', { name: 'Confirm deleting people copy' })
          .getByRole('button', { name: 'Delete for good' })
          .click();
        await page.getByRole('cell', { name: 'people copy', exact: true }).waitFor({ state: 'detached' });
        const left = (
          await api<{ items: Array<{ name: string }> }>(t, 'GET', `/api/v1/data-connectors?project_id=${project.id}`, {
            token: admin,
          })
        ).body.items.map((c) => c.name);
        expect(left).toEqual(['people source']);
        await page.close();
      } finally {
        await from.drop();
        await into.drop();
      }
    },
  );

  it(
    'writes a warehouse model with compile and preview, shows the DAG and runs it with a line per model',
    { timeout: 90_000 },
    async () => {
      const admin = await adminToken();
      const project = (
        await api<{ id: string }>(t, 'POST', '/api/v1/admin/projects', { token: admin, body: { name: 'ui models' } })
      ).body;
      const base = await api(t, 'POST', '/api/v1/dw-models', {
        token: admin,
        body: {
          project_id: project.id,
          name: 'numbers',
          materialization: 'table',
          sql: 'select g as n from generate_series(1, 30) g',
        },
      });
      expect(base.status).toBe(201);
      const page = await context.newPage();
      await page.goto(`${t.url}/models`);
      await switchProject(page, 'ui models');
      await page.getByRole('cell', { name: 'numbers', exact: true }).waitFor();
      await page.getByRole('button', { name: 'New model' }).click();
      const editor = page.getByRole('region', { name: 'New model' });
      await editor.getByLabel('Name').fill('evens');
      await editor.getByRole('textbox', { name: 'SQL' }).fill("select n from {{ ref('numbers') }} where n % 2 = 0");
      await editor.getByRole('radio', { name: 'view' }).check();
      await editor
        .getByRole('textbox', { name: 'Data tests (JSON)' })
        .fill(
          '[{"type": "not_null", "column": "n"}, {"type": "accepted_values", "column": "n", "values": ["2"], "severity": "warn"}]',
        );
      await editor.getByRole('button', { name: 'Create model' }).click();
      await page.getByRole('cell', { name: 'evens', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Open evens' }).click();
      const opened = page.getByRole('region', { name: 'Model evens' });
      await opened.getByRole('button', { name: 'Compile' }).click();
      await opened.getByText(/from "p[0-9a-f]{16}_models"\."numbers" where n % 2 = 0/).waitFor({ timeout: 20_000 });
      // The preview of unsaved SQL needs the table built first: run everything, then preview.
      const runs = page.getByRole('region', { name: 'Run models' });
      await runs.getByRole('button', { name: 'Run', exact: true }).click();
      await runs.getByText('succeeded', { exact: true }).waitFor({ timeout: 30_000 });
      const results = runs.getByRole('table', { name: 'Results per model' });
      await results.getByRole('row', { name: /^evens success/ }).waitFor();
      expect(await results.getByRole('row', { name: /^numbers success 30/ }).count()).toBe(1);
      await results.getByText('not_null(n)').waitFor();
      await results.getByText('(14 failing row(s))').waitFor();
      await opened.getByRole('button', { name: 'Preview' }).click();
      const preview = opened.getByRole('table', { name: 'Preview: the first rows' });
      await preview.getByRole('cell', { name: '4', exact: true }).waitFor();
      expect(await preview.getByRole('row').count()).toBe(16);
      await page.getByRole('img', { name: /Dependency graph of 2 models/ }).waitFor();
      await page.getByText('Run order: numbers → evens.').waitFor();

      // A schedule of the selection: every hour in UTC, then paused.
      const scheduling = page.getByRole('region', { name: 'Scheduled model runs' });
      await scheduling.getByLabel('Schedule name').fill('hourly evens');
      await scheduling.getByLabel('Models to run').fill('+evens');
      await scheduling.getByLabel('Cron expression').fill('0 * * * *');
      await scheduling.getByLabel('Time zone').fill('UTC');
      await scheduling.getByRole('button', { name: 'Create schedule' }).click();
      const scheduleRow = scheduling
        .getByRole('table', { name: 'Schedules of model runs' })
        .getByRole('row', { name: /^hourly evens \+evens 0 \* \* \* \* \(UTC\)/ });
      await scheduleRow.waitFor();
      await scheduling.getByRole('button', { name: 'Pause hourly evens' }).click();
      // The cell, not the row's text: "Pause" followed by "Delete" reads "PauseDelete", which a
      // case-insensitive "paused" matches before the pause is saved.
      await scheduleRow.getByRole('cell', { name: 'paused', exact: true }).waitFor();
      const stored = await api<{ items: Array<{ name: string; select: string[]; cron: string; paused: boolean }> }>(
        t,
        'GET',
        `/api/v1/dw-models/schedules?project_id=${project.id}`,
        { token: admin },
      );
      expect(stored.body.items).toEqual([
        expect.objectContaining({ name: 'hourly evens', select: ['+evens'], cron: '0 * * * *', paused: true }),
      ]);
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, 'models.png'), fullPage: true });
      await page.close();
    },
  );

  it(
    'creates an AI provider, tests it, shows its usage, and uses it on its screen, in the model editor, the pipeline builder and the catalog',
    { timeout: 90_000 },
    async () => {
      const llm = await startLlmServer();
      try {
        const admin = await adminToken();
        const created = await api<{ id: string }>(t, 'POST', '/api/v1/admin/projects', {
          token: admin,
          body: { name: 'ui ai' },
        });
        expect(created.status).toBe(201);
        const page = await context.newPage();
        await page.goto(`${t.url}/ai-providers`);
        await switchProject(page, 'ui ai');
        const form = await openCreateForm(page, 'New AI provider');
        await form.getByLabel('Name').fill('local llm');
        await form.getByLabel('Base URL').fill(llm.url);
        await form.getByLabel('Model', { exact: true }).fill('local-model');
        await form.getByLabel('API key').fill('sk-ui-secret-key');
        await form.getByLabel('Limit: requests per minute').fill('30');
        await form.getByRole('button', { name: 'Create provider' }).click();
        await page.getByRole('cell', { name: 'local llm', exact: true }).waitFor();
        expect(await page.content()).not.toContain('sk-ui-secret-key');
        await page.getByRole('button', { name: 'Test local llm' }).click();
        await page.getByText('The provider answered “OK”').waitFor();
        expect(llm.seen[0]!.headers['authorization']).toBe('Bearer sk-ui-secret-key');
        await page.getByRole('button', { name: 'Usage of local llm' }).click();
        const usage = page.getByRole('region', { name: 'Usage of local llm' });
        await usage.getByText('1 requests in the last minute (30); 18 tokens this month (no limit).').waitFor();

        const assistant = page.getByRole('region', { name: 'Ask the AI' });
        await assistant.getByRole('button', { name: /Provider/ }).click();
        await page.getByRole('option', { name: 'local llm' }).click();
        llm.script.push({ text: '[{"type": "filter", "expression": "amount > 0"}]' });
        await assistant.getByLabel('Pipeline steps for').fill('positive amounts only');
        await assistant.getByRole('button', { name: 'Suggest steps' }).click();
        await assistant.getByText('"expression": "amount > 0"').waitFor();
        expect(await accessibilityProblems(page)).toEqual([]);
        await page.screenshot({ path: path.join(SHOTS, 'ai-providers.png'), fullPage: true });

        await page.getByRole('link', { name: 'Models' }).click();
        await page.getByRole('button', { name: 'New model' }).click();
        const editor = page.getByRole('region', { name: 'New model' });
        await editor.getByRole('button', { name: /AI provider/ }).click();
        await page.getByRole('option', { name: 'local llm' }).click();
        llm.script.push({ text: '```sql\nselect 42 as answer\n```' });
        await editor.getByLabel('Question').fill('the answer');
        await editor.getByRole('button', { name: 'Draft SQL' }).click();
        await editor.getByLabel('Drafted SQL').waitFor();
        await editor.getByRole('button', { name: 'Use this SQL' }).click();
        expect(await editor.getByRole('textbox', { name: 'SQL' }).inputValue()).toBe('select 42 as answer');
        expect(await accessibilityProblems(page)).toEqual([]);

        // Where the work is done: steps suggested in the pipeline builder, a dataset described in the catalog.
        const data = await createTestDatabase();
        try {
          await query(data.url, 'create table orders (id int primary key, amount numeric)');
          const connector = await createPostgresConnector(t, admin, created.body.id, 'orders db', data.name);
          await api(t, 'POST', `/api/v1/data-connectors/${connector}/discover`, { token: admin });
          await page.getByRole('link', { name: 'Pipelines' }).click();
          await page.getByRole('button', { name: 'New pipeline' }).click();
          const builder = page.getByRole('region', { name: 'New pipeline' });
          const suggest = builder.getByRole('region', { name: 'Suggest steps with AI' });
          llm.script.push({ text: '[{"type": "filter", "expression": "amount > 10"}]' });
          await suggest.getByLabel('Steps that should').fill('orders above 10');
          await suggest.getByRole('button', { name: 'Suggest steps' }).click();
          await suggest.getByRole('button', { name: 'Add these steps' }).click();
          await builder.getByText('Step 1: filter').waitFor();
          expect(await builder.getByLabel('Keep rows where').inputValue()).toBe('amount > 10');

          await page.getByRole('link', { name: 'Catalog' }).click();
          await page.getByRole('button', { name: /^Columns of (public\.)?orders$/ }).click();
          const detail = page.getByRole('region', { name: /orders$/ });
          llm.script.push({
            text: '{"description": "Orders of the shop.", "columns": {"id": "The order number.", "amount": "Its total."}}',
          });
          await detail.getByRole('button', { name: 'Describe with AI' }).click();
          const described = detail.getByRole('group', { name: 'Description by AI' });
          await described.getByText('Orders of the shop.').waitFor();
          expect(await described.getByText('Its total.').count()).toBe(1);
          expect(await accessibilityProblems(page)).toEqual([]);
        } finally {
          await data.drop();
        }
        await page.close();
      } finally {
        await llm.close();
      }
    },
  );

  it("manages users, a project's members and custom roles", { timeout: 90_000 }, async () => {
    const admin = await adminToken();
    const page = await context.newPage();
    await page.goto(`${t.url}/users`);
    await openCreateForm(page, 'New user');
    await page.getByLabel('Username').fill('ana');
    await page.getByLabel('Email').fill('ana@example.com');
    await page.getByLabel('Initial password').fill('a-first-Password-for-ana');
    await page.getByLabel('Display name').fill('Ana Lima');
    await page.getByRole('button', { name: 'Create user' }).click();
    const anaRow = page.getByRole('row', { name: /^ana ana@example\.com/ });
    await anaRow.waitFor();
    await page.getByRole('status').getByText('created: they must change the password at first sign-in').waitFor();
    expect(await anaRow.textContent()).toContain('must change password');
    await page.getByRole('button', { name: 'Disable ana' }).click();
    await page.getByRole('button', { name: 'Enable ana' }).waitFor();
    const users = (
      await api<{ items: Array<{ id: string; username: string; disabled: boolean }> }>(t, 'GET', '/api/v1/users', {
        token: admin,
      })
    ).body.items;
    const ana = users.find((u) => u.username === 'ana')!;
    expect(ana.disabled).toBe(true);
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'users.png') });
    await page.getByRole('button', { name: 'Enable ana' }).click();
    await page.getByRole('button', { name: 'Disable ana' }).waitFor();

    // A project, its members: add, change the role, remove.
    await page.getByRole('link', { name: 'Projects' }).click();
    await openCreateForm(page, 'New project');
    await page.getByLabel('Name').fill('ui access');
    await page.getByLabel('Description').fill('made in the browser');
    await page.getByRole('button', { name: 'Create project' }).click();
    const members = page.getByRole('region', { name: 'Members of ui access' });
    await members.getByText('No members yet.').waitFor();
    await members.getByRole('button', { name: /User/ }).click();
    await page.getByRole('option', { name: 'ana', exact: true }).click();
    await members.getByRole('button', { name: /Role$/ }).click();
    await page.getByRole('option', { name: 'viewer', exact: true }).click();
    await members.getByRole('button', { name: 'Add member' }).click();
    await members.getByRole('button', { name: 'Remove ana' }).waitFor();
    const projectId = (
      await api<{ items: Array<{ id: string; name: string }> }>(t, 'GET', '/api/v1/admin/projects', { token: admin })
    ).body.items.find((p) => p.name === 'ui access')!.id;
    const memberRole = async () =>
      (
        await api<{ items: Array<{ user_id: string; role: string }> }>(
          t,
          'GET',
          `/api/v1/admin/projects/${projectId}/members`,
          { token: admin },
        )
      ).body.items.find((m) => m.user_id === ana.id)?.role;
    expect(await memberRole()).toBe('viewer');
    await members.getByRole('button', { name: /Role of ana/ }).click();
    await page.getByRole('option', { name: 'editor', exact: true }).click();
    await expect.poll(memberRole, { timeout: 10_000 }).toBe('editor');
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'projects.png'), fullPage: true });
    await members.getByRole('button', { name: 'Remove ana' }).click();
    await members.getByText('No members yet.').waitFor();
    expect(await memberRole()).toBeUndefined();
    const environments = page.getByRole('region', { name: 'Environments of ui access' });
    await environments.getByLabel('Environment name').fill('staging');
    await environments.getByRole('button', { name: 'Add environment' }).click();
    await environments.getByRole('listitem').filter({ hasText: 'staging' }).waitFor();
    const stored = (
      await api<{ items: Array<{ name: string }> }>(t, 'GET', `/api/v1/admin/projects/${projectId}/environments`, {
        token: admin,
      })
    ).body.items;
    expect(stored.map((e) => e.name)).toEqual(['staging']);

    // A custom role from the capabilities the built-in roles hold; deleted again.
    await page.getByRole('link', { name: 'Roles' }).click();
    await openCreateForm(page, 'New role');
    await page.getByLabel('Name').fill('auditor');
    const capabilities = page.getByRole('group', { name: 'Capabilities' });
    await capabilities.getByText('execution:read', { exact: true }).click();
    await capabilities.getByText('pipeline:read', { exact: true }).click();
    expect(await capabilities.getByRole('checkbox', { name: 'execution:read' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Create role' }).click();
    await page.getByRole('button', { name: 'Delete auditor' }).waitFor();
    const roles = (
      await api<{ items: Array<{ name: string; capabilities: string[]; built_in: boolean }> }>(
        t,
        'GET',
        '/api/v1/admin/roles',
        { token: admin },
      )
    ).body.items;
    expect(roles.find((r) => r.name === 'auditor')).toMatchObject({
      built_in: false,
      capabilities: expect.arrayContaining(['execution:read', 'pipeline:read']),
    });
    expect(roles.find((r) => r.name === 'auditor')!.capabilities).toHaveLength(2);
    // Built-in roles cannot be deleted: no button offers it.
    expect(await page.getByRole('button', { name: 'Delete owner' }).count()).toBe(0);
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'roles.png'), fullPage: true });
    await page.getByRole('button', { name: 'Delete auditor' }).click();
    await page
      .getByRole('group', { name: 'Confirm deleting auditor' })
      .getByRole('button', { name: 'Delete for good' })
      .click();
    await page.getByRole('cell', { name: 'auditor', exact: true }).waitFor({ state: 'detached' });
    const left = (
      await api<{ items: Array<{ name: string }> }>(t, 'GET', '/api/v1/admin/roles', { token: admin })
    ).body.items.map((r) => r.name);
    expect(left).not.toContain('auditor');
    await page.close();
  });

  it(
    'adds an SSO provider (its secret kept on edit, never shown) and an LDAP directory whose check names the failure',
    { timeout: 60_000 },
    async () => {
      const admin = await adminToken();
      const page = await context.newPage();
      await page.goto(`${t.url}/sign-in-providers`);
      await page.getByText('No SSO providers yet.').waitFor();
      const sso = page.getByRole('region', { name: 'New SSO provider' });
      await sso.getByLabel('Provider name', { exact: true }).fill('Example IdP');
      await sso.getByLabel('Issuer', { exact: true }).fill('https://idp.example.com');
      await sso.getByLabel('Client ID', { exact: true }).fill('svc-client');
      await sso.getByLabel('Client secret', { exact: true }).fill('an-idp-client-secret');
      await sso.getByLabel('Allowed email domains', { exact: true }).fill('example.com');
      await sso.getByRole('button', { name: 'Create provider' }).click();
      await page.getByText('Provider Example IdP saved.').waitFor();
      await page.getByRole('cell', { name: 'Example IdP', exact: true }).waitFor();
      expect(await page.content()).not.toContain('an-idp-client-secret');
      await page.getByRole('button', { name: 'Edit Example IdP' }).click();
      const edit = page.getByRole('region', { name: 'Edit Example IdP' });
      expect(await edit.getByLabel('Client secret', { exact: true }).inputValue()).toBe('');
      await edit.getByLabel('Provider name', { exact: true }).fill('Example SSO');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('cell', { name: 'Example SSO', exact: true }).waitFor();
      const providers = (
        await api<{ items: Array<Record<string, unknown>> }>(t, 'GET', '/api/v1/sso/providers', { token: admin })
      ).body.items;
      expect(providers).toHaveLength(1);
      expect(JSON.stringify(providers)).not.toContain('an-idp-client-secret');
      expect(providers[0]).toMatchObject({
        name: 'Example SSO',
        config: expect.objectContaining({
          issuer: 'https://idp.example.com',
          client_id: 'svc-client',
          allowed_email_domains: ['example.com'],
        }),
      });
      expect(providers[0]!['secrets_set']).toEqual(['client_secret']);
      // The sign-in page offers it.
      const discovery = (await api<{ providers: Array<{ name: string }> }>(t, 'GET', '/api/v1/sso/discovery')).body
        .providers;
      expect(discovery.map((p) => p.name)).toEqual(['Example SSO']);

      const ldap = page.getByRole('region', { name: 'New LDAP directory' });
      await ldap.getByLabel('Directory name', { exact: true }).fill('HQ directory');
      await ldap.getByLabel('URL', { exact: true }).fill('ldap://127.0.0.1:9');
      await ldap.getByLabel('Bind DN', { exact: true }).fill('cn=svc,dc=example,dc=com');
      await ldap.getByLabel('Bind password', { exact: true }).fill('a-bind-password');
      await ldap.getByLabel('User base DN', { exact: true }).fill('ou=people,dc=example,dc=com');
      await ldap.getByRole('button', { name: 'Create directory' }).click();
      await page.getByText('Directory HQ directory saved.').waitFor();
      await page.getByRole('button', { name: 'Check HQ directory' }).click();
      await page
        .getByRole('row', { name: /^HQ directory/ })
        .getByText(/^Failed \(/)
        .waitFor();
      expect(await page.content()).not.toContain('a-bind-password');
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, 'sign-in-providers.png'), fullPage: true });
      for (const name of ['Example SSO', 'HQ directory']) {
        await page.getByRole('button', { name: `Delete ${name}` }).click();
        await page
          .getByRole('group', { name: `Confirm deleting ${name}` })
          .getByRole('button', { name: 'Delete for good' })
          .click();
      }
      await page.getByText('No SSO providers yet.').waitFor();
      await page.getByText('No LDAP directories yet.').waitFor();
      await page.close();
    },
  );

  it(
    'installs a license, shows the read-only banner once it expires, and lifts it with a renewed one',
    { timeout: 60_000 },
    async () => {
      const now = () => Math.floor(Date.now() / 1000);
      const claims = (seconds: number) => ({
        customer: 'Acme Data',
        seats: 25,
        features: ['sso', 'cdc'],
        iat: now(),
        exp: now() + seconds,
      });
      const page = await context.newPage();
      try {
        const page = await context.newPage();
        await page.goto(`${t.url}/license`);
        await page.getByText('Community mode: no license installed, everything writable').waitFor();
        // A license signed by another key is refused, the reason named.
        await page
          .getByRole('textbox', { name: 'License' })
          .fill(licenseJwt(generateKeyPairSync('ed25519').privateKey, claims(3600)));
        await page.getByRole('button', { name: 'Install license' }).click();
        expect(await page.getByRole('alert').textContent()).toMatch(/license.*Request id: [0-9a-f-]{36}/);

        await page.getByRole('textbox', { name: 'License' }).fill(licenseJwt(licenseKeys.privateKey, claims(4)));
        await page.getByRole('button', { name: 'Install license' }).click();
        await page.getByText('License installed.').waitFor();
        await page.getByText('Acme Data').waitFor();
        expect(await page.getByRole('status').filter({ hasText: 'read-only' }).count()).toBe(0);
        expect(await accessibilityProblems(page)).toEqual([]);
        await page.screenshot({ path: path.join(SHOTS, 'license.png') });
        await new Promise((r) => setTimeout(r, 4500));
        await page.reload();
        await page.getByText('Expired: the instance is read-only', { exact: true }).waitFor();
        await page.getByText(/The license has expired: the instance is read-only/).waitFor();
        // Read-only: a change is refused, and the envelope says why.
        await page.getByRole('link', { name: 'API tokens' }).click();
        await openCreateForm(page, 'New token');
        await page.getByLabel('Name').fill('refused');
        await page.getByRole('button', { name: 'Create token' }).click();
        expect(await page.getByRole('alert').textContent()).toMatch(/license_expired.*Request id: [0-9a-f-]{36}/);
        expect(await accessibilityProblems(page)).toEqual([]);
        await page.screenshot({ path: path.join(SHOTS, 'license-expired.png') });
        // Installing a renewed license is allowed while read-only, and lifts the banner.
        await page.getByRole('link', { name: 'License' }).click();
        await page.getByRole('textbox', { name: 'License' }).fill(licenseJwt(licenseKeys.privateKey, claims(3600)));
        await page.getByRole('button', { name: 'Install license' }).click();
        await page.getByText('License installed.').waitFor();
        await page.getByText(/The license has expired/).waitFor({ state: 'detached' });
      } finally {
        // Whatever failed above, the tests after this one need a writable instance.
        const renewed = licenseJwt(licenseKeys.privateKey, claims(3600));
        expect(
          (await api(t, 'PUT', '/api/v1/license', { token: await adminToken(), body: { license: renewed } })).status,
        ).toBe(200);
      }
      await page.close();
    },
  );

  it(
    'adds a notification channel and tests it, a rule that uses it, my alert e-mails, and an audit destination',
    { timeout: 90_000 },
    async () => {
      const admin = await adminToken();
      await api(t, 'POST', '/api/v1/admin/projects', { token: admin, body: { name: 'ui alerts' } });
      const receiver = await startHttpReceiver();
      try {
        const page = await context.newPage();
        await page.goto(`${t.url}/channels`);
        await switchProject(page, 'ui alerts');
        const form = await openCreateForm(page, 'New channel');
        await form.getByText('In project ui alerts.').waitFor();
        await form.getByLabel('Name', { exact: true }).fill('team hook');
        await form.getByText('Webhook', { exact: true }).click();
        await form.getByLabel('URL', { exact: true }).fill(`${receiver.url}/hook`);
        await form.getByLabel('Signing secret', { exact: true }).fill('a-signing-secret');
        await form.getByRole('button', { name: 'Create channel' }).click();
        await page.getByRole('cell', { name: 'team hook', exact: true }).waitFor();
        await page.getByRole('button', { name: 'Test team hook' }).click();
        await page
          .getByRole('row', { name: /^team hook/ })
          .getByText(/^Delivered \(200\)/)
          .waitFor();
        expect(receiver.on('/hook')).toHaveLength(1);
        expect(await page.content()).not.toContain('a-signing-secret');
        expect(await accessibilityProblems(page)).toEqual([]);
        await page.screenshot({ path: path.join(SHOTS, 'channels.png'), fullPage: true });

        await page.goto(`${t.url}/alerts`);
        const rule = await openCreateForm(page, 'New alert rule');
        // The project chosen in the switcher stays chosen.
        await rule.getByText('In project ui alerts.').waitFor();
        await rule.getByLabel('Name', { exact: true }).fill('failures in ui alerts');
        await rule.getByText('failures in a row', { exact: true }).click();
        await rule.getByLabel('Failures in a row', { exact: true }).fill('3');
        await rule.getByLabel('Keep firing for (seconds)', { exact: true }).fill('120');
        await rule.getByLabel('Repeat every (seconds)', { exact: true }).fill('3600');
        await rule.getByText('team hook (webhook)', { exact: true }).click();
        await rule.getByRole('button', { name: 'Create rule' }).click();
        await page.getByRole('cell', { name: 'failures in ui alerts', exact: true }).waitFor();
        const rules = (
          await api<{
            items: Array<{
              name: string;
              params: Record<string, unknown>;
              channel_ids: string[];
              keep_firing_for: number;
              repeat_interval: number | null;
            }>;
          }>(t, 'GET', '/api/v1/alert-rules', { token: admin })
        ).body.items;
        expect(rules.find((r) => r.name === 'failures in ui alerts')).toMatchObject({
          params: { count: 3 },
          keep_firing_for: 120,
          repeat_interval: 3600,
          channel_ids: [expect.any(String)],
        });
        await page.getByRole('button', { name: 'History of failures in ui alerts' }).click();
        await page.getByText('Nothing has happened yet.').waitFor();
        await page.getByRole('button', { name: 'Mute for an hour failures in ui alerts' }).click();
        await page.getByRole('button', { name: 'Unmute failures in ui alerts' }).waitFor();
        expect(await accessibilityProblems(page)).toEqual([]);

        await page.goto(`${t.url}/notifications`);
        const mine = page.getByRole('region', { name: 'My alert e-mails' });
        await mine.getByLabel('Address', { exact: true }).fill('me@example.com');
        await mine.getByRole('button', { name: 'Save' }).click();
        await page.getByRole('cell', { name: 'me@example.com', exact: true }).waitFor();
        expect(await accessibilityProblems(page)).toEqual([]);

        await page.goto(`${t.url}/audit-forwarding`);
        const destination = await openCreateForm(page, 'New destination');
        await destination.getByLabel('Name', { exact: true }).fill('siem');
        await destination.getByText('HTTP', { exact: true }).click();
        await destination.getByLabel('URL', { exact: true }).fill(`${receiver.url}/audit`);
        await destination.getByRole('button', { name: 'Create destination' }).click();
        await page.getByRole('cell', { name: 'siem', exact: true }).waitFor();
        await page.getByRole('button', { name: 'Test siem' }).click();
        await page
          .getByRole('row', { name: /^siem/ })
          .getByText(/^Delivered: HTTP 200/)
          .waitFor();
        expect(receiver.on('/audit')).toHaveLength(1);
        expect(await accessibilityProblems(page)).toEqual([]);
        await page.close();
      } finally {
        await receiver.close();
      }
    },
  );

  it('fits every screen into a 390 px wide window without sideways scrolling', { timeout: 120_000 }, async () => {
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${t.url}/`);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    // At this width the navigation waits behind the Menu button, and closes again once a link is chosen.
    const menu = page.getByRole('button', { name: 'Menu' });
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
    await menu.click();
    const links = await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();
    expect(links.length).toBeGreaterThanOrEqual(13);
    for (const title of links) {
      if ((await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: title, exact: true }).click();
      expect(await menu.getAttribute('aria-expanded')).toBe('false');
      await page.getByRole('heading', { name: title, level: 1 }).waitFor();
      await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });
      // Wide tables scroll inside their own box; the page itself never does.
      const overflow = await page.locator('html').evaluate((html) => {
        const wider = [...html.querySelectorAll('body *')].filter(
          (e) =>
            e.getBoundingClientRect().right > html.clientWidth + 0.5 &&
            !e.closest('.table-wrap')?.contains(e.parentElement),
        );
        // The innermost elements that stick out name the culprit in the failure message.
        const innermost = wider.filter((e) => !wider.some((other) => other !== e && e.contains(other)));
        return {
          by: html.scrollWidth - html.clientWidth,
          elements: innermost
            .slice(0, 5)
            .map((e) => `${e.tagName.toLowerCase()}.${e.className}: ${(e.textContent ?? '').slice(0, 30)}`),
        };
      });
      expect({ title, overflow }).toEqual({ title, overflow: { by: 0, elements: [] } });
      expect({ title, problems: await accessibilityProblems(page) }).toEqual({ title, problems: [] });
      await page.screenshot({
        path: path.join(SHOTS, `${title.toLowerCase().replaceAll(' ', '-')}-390.png`),
        fullPage: true,
      });
    }
    await page.close();
  });

  it('works by keyboard alone: the navigation, a filter select and a form', { timeout: 60_000 }, async () => {
    const page = await context.newPage();
    await page.goto(`${t.url}/`);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    /** Tab until the focused element's tag, label and text match. */
    const tabTo = async (role: 'link' | 'button' | 'textbox', name: RegExp) => {
      for (let presses = 0; presses < 40; presses++) {
        await page.keyboard.press('Tab');
        const focused = await page.evaluate(() => {
          const element = (
            globalThis as unknown as {
              document: {
                activeElement: {
                  tagName: string;
                  textContent: string | null;
                  getAttribute(name: string): string | null;
                } | null;
              };
            }
          ).document.activeElement;
          return element
            ? `${element.tagName} ${element.getAttribute('aria-label') ?? ''} ${element.textContent ?? ''}`
            : '';
        });
        if (name.test(focused)) return;
      }
      throw new Error(`no ${role} matching ${name} reached by Tab`);
    };
    await tabTo('link', /^A\s+Executions$/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Executions' }).waitFor();
    // The status filter: open with the keyboard, move to "failed", choose it.
    // The first of the two filters (status, then kind) that shows "All".
    await tabTo('button', /^BUTTON\s+All/);
    await page.keyboard.press('Enter');
    await page.getByRole('listbox').waitFor();
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await page.getByText('No executions with status failed.').waitFor();
    // A form: name a token and create it without the mouse.
    await tabTo('link', /^A\s+API tokens$/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'API tokens' }).waitFor();
    await tabTo('button', /^BUTTON\s+New token$/);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'New token' }).waitFor();
    await tabTo('textbox', /^INPUT/);
    await page.keyboard.type('keyboard token');
    await page.keyboard.press('Enter');
    await page.getByLabel('Token value').waitFor();
    await tabTo('button', /^BUTTON\s+Done$/);
    await page.keyboard.press('Enter');
    // The list refetches after the create: wait for the row, then check it is there once.
    await page.getByRole('cell', { name: 'keyboard token', exact: true }).waitFor();
    expect(await page.getByRole('cell', { name: 'keyboard token', exact: true }).count()).toBe(1);
    await page.close();
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
    const login = await fetch(`${t.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: NEW_PASSWORD }),
    });
    const { access_token } = (await login.json()) as { access_token: string };
    const reuse = (await (
      await fetch(`${t.url}/api/v1/audit-log?kind=refresh_token_reuse_detected`, {
        headers: { authorization: `Bearer ${access_token}` },
      })
    ).json()) as { items: unknown[] };
    expect(reuse.items).toEqual([]);
    await first.close();
    await second.close();
  });

  it('signs out for good, and offers the SSO providers on the sign-in page', { timeout: 60_000 }, async () => {
    const admin = await adminToken();
    const provider = {
      name: 'Company SSO',
      enabled: true,
      config: {
        issuer: 'https://idp.example.com',
        client_id: 'svc',
        client_secret: 'a-client-secret',
        group_mappings: [],
      },
    };
    const created = await api<{ id: string }>(t, 'POST', '/api/v1/sso/providers', { token: admin, body: provider });
    expect(created.status).toBe(201);
    const page = await context.newPage();
    await page.goto(`${t.url}/`);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The refresh cookie no longer restores the session.
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);
    const button = page
      .getByRole('navigation', { name: 'Single sign-on' })
      .getByRole('link', { name: 'Sign in with Company SSO' });
    expect(await button.getAttribute('href')).toBe(`/api/v1/sso/${created.body.id}/start?redirect_to=/`);
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'login-sso.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth)).toBe(0);
    await page.screenshot({ path: path.join(SHOTS, 'login-390.png'), fullPage: true });
    await page.close();
  });

  it('serves the app only where no API route, health, metrics or docs answer', async () => {
    const page = await fetch(`${t.url}/some/app/page`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const api = await fetch(`${t.url}/api/v1/no-such-route`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ request_id: expect.any(String) });
    for (const reserved of ['/ready', '/readyz', '/healthz'])
      expect((await fetch(`${t.url}${reserved}`)).status).toBe(404);
    expect((await fetch(`${t.url}/health`)).headers.get('content-type')).toMatch(/json/);
    expect((await fetch(`${t.url}/openapi.json`)).headers.get('content-type')).toMatch(/json/);
    expect(await (await fetch(`${t.url}/metrics`)).text()).toMatch(/^# HELP/m);
  });
});
