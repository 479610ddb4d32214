/**
 * The exports screen in Chromium, against a server with a worker and a leader: an export of a
 * warehouse query created through the form (a bad cron first: the 422 names schedule.cron) on an
 * interval, its scheduled runs seen in its history, the schedule paused, a manual run and its file
 * downloaded through the signed link, then the export deleted; axe-clean, and within 390 px.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, TEST_ADMIN_PASSWORD, startTestApp, type TestApp } from '../../server/test/support/app.js';
import { api, createProject, login } from '../../server/test/support/http.js';
import {
  accessibilityProblems,
  launchBrowser,
  narrowOverflow,
  openCreateForm,
  SHOTS,
  signInAsNewAdmin,
  type Browser,
} from './browser.js';

const PASSWORD = 'an-exports-Password-42';

interface ExportItem {
  id: string;
  name: string;
  schedule: { interval_seconds: number | null; paused: boolean; next_due_at: string | null } | null;
}
interface ExportRun {
  execution_id: string;
  status: string;
  trigger: string;
}

describe('exports screen', () => {
  let t: TestApp;
  let browser: Browser;
  let token: string;
  let project: { id: string; name: string };

  beforeAll(async () => {
    t = await startTestApp({
      env: { ...NO_RATE_LIMITS, SVC_SCHEDULER_TICK_MS: '200' },
      worker: true,
      leader: true,
    });
    token = (await login(t, 'admin', TEST_ADMIN_PASSWORD)).accessToken;
    project = await createProject(t, token, 'exported');
    await mkdir(SHOTS, { recursive: true });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const exportsOfProject = async () =>
    (await api<{ items: ExportItem[] }>(t, 'GET', `/api/v1/exports?project_id=${project.id}`, { token })).body.items;
  const runsOf = async (id: string) =>
    (await api<{ items: ExportRun[] }>(t, 'GET', `/api/v1/exports/${id}/runs`, { token })).body.items;

  it(
    'creates a scheduled export, shows its runs, pauses it, downloads a file and deletes it',
    { timeout: 180_000 },
    async () => {
      const page = await browser.context.newPage();
      await signInAsNewAdmin(page, t.url, TEST_ADMIN_PASSWORD, PASSWORD, 'Exports');
      token = (await login(t, 'admin', PASSWORD)).accessToken;
      await page.getByText('No exports in this project yet.').waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);

      const form = await openCreateForm(page, 'New export');
      await form.getByText(`In project ${project.name}.`).waitFor();
      await form.getByLabel('Name', { exact: true }).fill('numbers');
      await form
        .getByRole('textbox', { name: 'Warehouse query' })
        .fill("select g as id, 'row ' || g as label from generate_series(1, 30) g");
      // A cron expression the service cannot read: its 422 names the field.
      await form.getByText('cron', { exact: true }).click();
      await form.getByLabel('Cron expression').fill('every day at noon');
      await form.getByLabel('Time zone').fill('UTC');
      await form.getByRole('button', { name: 'Create export' }).click();
      await form.getByRole('alert').filter({ hasText: 'schedule.cron' }).waitFor();
      expect(await exportsOfProject()).toEqual([]);

      // Every second instead.
      await form.getByText('interval', { exact: true }).click();
      await form.getByLabel('Every (seconds)').fill('1');
      await form.getByRole('button', { name: 'Create export' }).click();
      const table = page.getByRole('table', { name: 'Exports' });
      const row = table.getByRole('row', { name: /^numbers / });
      await row.filter({ hasText: 'every 1 s; next' }).waitFor();
      expect(await row.textContent()).toContain('warehouse query');
      const [created] = await exportsOfProject();
      expect(created).toMatchObject({ name: 'numbers', schedule: { interval_seconds: 1, paused: false } });
      // Created: back on the list, the form gone, the new export open at its own address.
      expect(page.url()).toBe(`${t.url}/exports/${created!.id}`);
      expect(await form.count()).toBe(0);

      // The schedule's runs in the history, each marked as the schedule's.
      const runs = page.getByRole('table', { name: 'Runs of numbers' });
      await runs.getByRole('row').filter({ hasText: 'schedule' }).filter({ hasText: 'succeeded' }).first().waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);

      await table.getByRole('button', { name: 'Pause the schedule of numbers' }).click();
      await row.filter({ hasText: 'every 1 s; paused' }).waitFor();
      expect((await exportsOfProject())[0]!.schedule).toMatchObject({ paused: true, next_due_at: null });
      await page.waitForTimeout(500); // a run the schedule started just before the pause finishes
      const scheduled = (await runsOf(created!.id)).length;

      // A manual run, and its file through the signed link.
      await table.getByRole('button', { name: 'Run numbers' }).click();
      const manualRow = runs.getByRole('row').filter({ hasText: 'manual' });
      await manualRow.filter({ hasText: 'succeeded' }).waitFor();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        manualRow.getByRole('button', { name: /^Download the file of the run of / }).click(),
      ]);
      const lines = (await readFile((await download.path())!, 'utf8')).trim().split('\n');
      expect(lines).toHaveLength(31);
      expect(lines[0]).toBe('id,label');
      expect(lines[30]).toBe('30,row 30');
      // Paused: no scheduled run came after the pause.
      const after = await runsOf(created!.id);
      expect(after.filter((r) => r.trigger === 'schedule')).toHaveLength(scheduled);
      expect(after.filter((r) => r.trigger === 'manual')).toHaveLength(1);
      await page.screenshot({ path: path.join(SHOTS, 'exports.png'), fullPage: true });

      expect(await narrowOverflow(page)).toBe(0);

      await table.getByRole('button', { name: 'Delete numbers' }).click();
      await page
        .getByRole('group', { name: 'Confirm deleting numbers' })
        .getByRole('button', { name: 'Delete for good' })
        .click();
      await page.getByText('No exports in this project yet.').waitFor();
      expect(await exportsOfProject()).toEqual([]);
      await page.close();
    },
  );
});
