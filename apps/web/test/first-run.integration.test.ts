/**
 * A brand-new instance as a newcomer meets it, in Chromium: sign in with the seeded password, choose
 * a new one, and on the overview's `default` project move the built-in sample into the built-in
 * warehouse with three clicks; the first sync succeeds and the overview's chart counts it, all within
 * two minutes of wall time. Then the same screen in the dark theme.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, TEST_ADMIN_PASSWORD, startTestApp, type TestApp } from '../../server/test/support/app.js';
import { SHOTS, accessibilityProblems, launchBrowser, type Browser } from './browser.js';

describe('first run in the browser', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestApp({ worker: true, env: { ...NO_RATE_LIMITS, SVC_CREATE_DEFAULT_PROJECT: 'true' } });
    await mkdir(SHOTS, { recursive: true });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('moves the sample into the warehouse from a new instance in under two minutes', { timeout: 150_000 }, async () => {
    const started = Date.now();
    const page = await browser.context.newPage();
    await page.goto(`${t.url}/`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(TEST_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Current password').fill(TEST_ADMIN_PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill('a-first-run-Password-42');
    await page.getByLabel('New password again').fill('a-first-run-Password-42');
    await page.getByRole('button', { name: 'Change password' }).click();

    await page.getByRole('heading', { name: 'default' }).waitFor();
    const guide = page.getByRole('region', { name: 'Getting started' });
    await guide.waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await guide.getByRole('button', { name: 'Add the sample' }).click();
    await page.getByRole('region', { name: 'Notifications' }).getByText('Sample source added.').waitFor();
    await guide.getByRole('button', { name: 'Add the warehouse' }).click();
    await guide.getByRole('button', { name: 'Start the sync' }).click();
    const status = guide.getByRole('status');
    await status.filter({ hasText: /Sync succeeded: \d+ rows written/ }).waitFor({ timeout: 90_000 });
    // The overview's chart of the day's executions counts the run.
    await page.getByRole('img', { name: /Executions of the last 24 hours by status: .*succeeded 1/ }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'first-run.png'), fullPage: true });
    expect(Date.now() - started).toBeLessThan(120_000);

    // The dark theme follows the system setting, and keeps every contrast axe checks.
    const background = () =>
      page.locator('html').evaluate((html) => html.ownerDocument.defaultView!.getComputedStyle(html).backgroundColor);
    const light = await background();
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await background();
    expect(dark).not.toBe(light);
    const channels = (color: string) => (color.match(/\d+/g) ?? []).slice(0, 3).map(Number);
    expect(Math.max(...channels(dark))).toBeLessThan(64);
    expect(Math.min(...channels(light))).toBeGreaterThan(192);
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'first-run-dark.png'), fullPage: true });
    await page.close();
  });
});
