/**
 * Debian's Chromium driven by playwright-core, for the browser tests: a persistent headless context
 * and an axe-core check of the page as it is.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const CHROMIUM = process.env['SVC_TEST_CHROMIUM'] ?? '/usr/bin/chromium';
const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Where the browser tests leave their screenshots. */
export const SHOTS = path.resolve('test-output/ui');

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(viewport = { width: 1280, height: 800 }): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (scripts/ensure-services.sh installs it)`);
  const profile = await mkdtemp(path.join(os.tmpdir(), 'svc-ui-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Serious and critical axe violations on the page as it is now. */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the app's CSP (rightly) refuses inline scripts.
  await page.evaluate(await axeSource);
  const result = (await page.evaluate(async () =>
    (
      globalThis as unknown as {
        axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; help: string }> }> };
      }
    ).axe.run(),
  )) as {
    violations: Array<{ id: string; impact: string; help: string }>;
  };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help}`);
}

/**
 * Signs the seeded administrator in on a fresh instance (`password` is the seeded one), changes the
 * password to `newPassword` as the first sign-in demands, and opens the screen `screen` from the
 * main navigation (or stays on the overview).
 */
export async function signInAsNewAdmin(
  page: Page,
  url: string,
  password: string,
  newPassword: string,
  screen?: string,
): Promise<void> {
  await page.goto(`${url}/`);
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Current password').fill(password);
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('New password again').fill(newPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  if (!screen) {
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    return;
  }
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: screen, exact: true }).click();
  await page.getByRole('heading', { name: screen, level: 1 }).waitFor();
}

/** How far the page scrolls sideways in a 390 px wide window (0: it fits); the window is 1280 px wide again after. */
export async function narrowOverflow(page: Page): Promise<number> {
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth);
  await page.setViewportSize({ width: 1280, height: 800 });
  return overflow;
}

/** Opens a screen's create form (lists come first; the form is behind its "New ..." button) and answers its region. */
export async function openCreateForm(page: Page, label: string) {
  await page.getByRole('button', { name: label, exact: true }).click();
  const form = page.getByRole('region', { name: label });
  await form.waitFor();
  return form;
}
