/**
 * The inboxes screen in Chromium, against a server with a worker: an inbox created through the form
 * (its bearer token shown once), a request sent to its URL with that token and loaded into a
 * PostgreSQL table, the request in its history; axe-clean, within 390 px.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, TEST_ADMIN_PASSWORD, startTestApp, type TestApp } from '../../server/test/support/app.js';
import { api, createProject, login } from '../../server/test/support/http.js';
import { createPostgresConnector, query } from '../../server/test/support/runs.js';
import { createTestDatabase, type TestDatabase } from '../../server/test/support/services.js';
import {
  SHOTS,
  accessibilityProblems,
  launchBrowser,
  openCreateForm,
  signInAsNewAdmin,
  type Browser,
} from './browser.js';

const PASSWORD = 'an-inboxes-Password-42';

describe('inboxes screen', () => {
  let t: TestApp;
  let browser: Browser;
  let destination: TestDatabase;

  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS, worker: true });
    const token = (await login(t, 'admin', TEST_ADMIN_PASSWORD)).accessToken;
    const project = await createProject(t, token, 'hooked');
    destination = await createTestDatabase();
    await createPostgresConnector(t, token, project.id, 'warehouse db', destination.name);
    await mkdir(SHOTS, { recursive: true });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await destination?.drop();
  });

  it('creates an inbox, shows its token once, and lists the request sent to it', { timeout: 120_000 }, async () => {
    const page = await browser.context.newPage();
    await signInAsNewAdmin(page, t.url, TEST_ADMIN_PASSWORD, PASSWORD, 'Inboxes');
    await page.getByText('No inboxes in this project yet.').waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);

    const form = await openCreateForm(page, 'New inbox');
    await form.getByLabel('Name', { exact: true }).fill('orders hook');
    await form.getByLabel('Table', { exact: true }).fill('hooked_orders');
    await form.getByRole('button', { name: /Destination connector/ }).click();
    await page.getByRole('option', { name: 'warehouse db' }).click();
    await form.getByRole('button', { name: 'Create inbox' }).click();
    const shown = form.getByRole('status');
    await shown.getByText('shown this once').waitFor();
    const token = (await shown.locator('code').nth(1).textContent())!;
    const receivePath = (await shown.locator('code').first().textContent())!;
    expect(token).toMatch(/^svc_inbox_/);
    expect(receivePath).toMatch(/^\/api\/v1\/inboxes\/.+\/receive$/);
    // The token is in this answer only.
    const listed = await api(t, 'GET', '/api/v1/inboxes', { token: (await login(t, 'admin', PASSWORD)).accessToken });
    expect(JSON.stringify(listed.body)).not.toContain(token);
    // The token stays on the form's page until the way back is taken.
    await page.getByRole('button', { name: 'Back to Inboxes' }).click();

    const sent = await fetch(`${t.url}${receivePath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify([
        { id: 1, item: 'tea' },
        { id: 2, item: 'cake' },
      ]),
    });
    expect(sent.status).toBe(202);
    await page
      .getByRole('table', { name: 'Inboxes' })
      .getByRole('button', { name: 'Show the requests of orders hook' })
      .click();
    const history = page.getByRole('region', { name: /orders hook/ }).last();
    await history.getByRole('cell', { name: 'loaded', exact: true }).waitFor({ timeout: 30_000 });
    expect((await query(destination.url, 'select count(*)::int as n from hooked_orders')).rows[0].n).toBe(2);
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'inboxes.png'), fullPage: true });

    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth);
    expect(overflow).toBe(0);
    await page.close();
  });
});
