/**
 * The retention screen in Chromium: create a policy of a project's execution history, preview what it
 * would delete, run it and find the sweep with its counts in the history; axe-clean, and within 390 px.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, TEST_ADMIN_PASSWORD, startTestApp, type TestApp } from '../../server/test/support/app.js';
import { createProject, login } from '../../server/test/support/http.js';
import { query } from '../../server/test/support/runs.js';
import {
  accessibilityProblems,
  launchBrowser,
  narrowOverflow,
  openCreateForm,
  SHOTS,
  signInAsNewAdmin,
  type Browser,
} from './browser.js';

const PASSWORD = 'a-retention-Password-42';

describe('retention screen', () => {
  let t: TestApp;
  let browser: Browser;
  let project: { id: string; name: string };

  beforeAll(async () => {
    t = await startTestApp({ worker: true, env: NO_RATE_LIMITS });
    const token = (await login(t, 'admin', TEST_ADMIN_PASSWORD)).accessToken;
    project = await createProject(t, token, 'retained');
    // Three runs of the project finished 60 days ago, with a log line each.
    await query(
      t.config.db.url!,
      `with runs as (
         insert into executions (project_id, kind, status, params, created_at, finished_at)
         select $1, 'sync', 'succeeded', '{}', now() - interval '60 days', now() - interval '60 days'
         from generate_series(1, 3) returning id)
       insert into execution_logs (execution_id, level, message) select id, 'info', 'done' from runs`,
      [project.id],
    );
    await mkdir(SHOTS, { recursive: true });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('creates a policy, previews its counts, runs it and shows the sweep', { timeout: 120_000 }, async () => {
    const page = await browser.context.newPage();
    await signInAsNewAdmin(page, t.url, TEST_ADMIN_PASSWORD, PASSWORD, 'Retention');
    expect(await accessibilityProblems(page)).toEqual([]);

    const form = await openCreateForm(page, 'New retention policy');
    await form.getByLabel('Name').fill('old runs');
    await form.getByText(`In project ${project.name}.`).waitFor();
    await form.getByLabel('Maximum age').fill('bad');
    await form.getByRole('button', { name: 'Create policy' }).click();
    // The API's 422 names the field.
    await form
      .getByRole('alert')
      .filter({ hasText: /max_age/ })
      .waitFor();
    await form.getByLabel('Maximum age').fill('30d');
    await form.getByRole('button', { name: 'Create policy' }).click();

    const table = page.getByRole('table', { name: 'Retention policies' });
    await table.getByRole('cell', { name: 'old runs', exact: true }).waitFor();
    await table.getByRole('button', { name: 'Open old runs' }).click();
    const detail = page.getByRole('region', { name: 'old runs', exact: true });
    await detail.getByRole('button', { name: 'Preview' }).click();
    const preview = detail.getByRole('status');
    await preview.filter({ hasText: '6 rows older than' }).waitFor();
    expect(await preview.textContent()).toContain('execution_logs: 3');
    expect(await preview.textContent()).toContain('executions: 3');

    await detail.getByRole('button', { name: 'Run now' }).click();
    const sweeps = detail.getByRole('table', { name: 'Sweeps' });
    await sweeps.getByRole('cell', { name: 'succeeded', exact: true }).waitFor({ timeout: 60_000 });
    const row = await sweeps.getByRole('row').nth(1).textContent();
    for (const part of ['execution_logs 3', 'executions 3', 'execution_ranges 0']) expect(row).toContain(part);
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'retention.png'), fullPage: true });

    expect(await narrowOverflow(page)).toBe(0);
    await page.close();
  });
});
