/**
 * The catalog screen in Chromium: a PostgreSQL table discovered; a tag suggested by a column's name
 * confirmed; personal data found in a sample of values, its suggestion dismissed; the dataset's
 * description, owners and tags saved; the datasets filtered by tag; axe-clean, and within 390 px.
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
  narrowOverflow,
  signInAsNewAdmin,
  type Browser,
} from './browser.js';

const PASSWORD = 'a-catalog-Password-42';

interface Dataset {
  id: string;
  name: string;
  description: string | null;
  owners: string[];
  tags: string[];
  columns: Array<{ name: string; tags: string[]; suggested_tags: string[] }>;
}

describe('catalog screen', () => {
  let t: TestApp;
  let browser: Browser;
  let token: string;
  let source: TestDatabase;
  let datasetId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS });
    token = (await login(t, 'admin', TEST_ADMIN_PASSWORD)).accessToken;
    const project = await createProject(t, token, 'catalogued');
    source = await createTestDatabase();
    await query(
      source.url,
      `create table customers (id int primary key, contact text, phone_number text);
       insert into customers select g, 'person' || g || '@example.com', '+1 202 555 ' || (1000 + g)
         from generate_series(1, 20) g`,
    );
    const connector = await createPostgresConnector(t, token, project.id, 'crm', source.name);
    expect((await api(t, 'POST', `/api/v1/data-connectors/${connector}/discover`, { token })).status).toBe(200);
    const listed = await api<{ items: Dataset[] }>(t, 'GET', `/api/v1/catalog/datasets?connector_id=${connector}`, {
      token,
    });
    datasetId = listed.body.items.find((d) => d.name === 'customers')!.id;
    await mkdir(SHOTS, { recursive: true });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await source?.drop();
  });

  const stored = async () => (await api<Dataset>(t, 'GET', `/api/v1/catalog/datasets/${datasetId}`, { token })).body;
  const columnOf = (dataset: Dataset, name: string) => dataset.columns.find((c) => c.name === name)!;

  it('confirms and dismisses suggested tags, finds personal data, and keeps notes', { timeout: 120_000 }, async () => {
    const page = await browser.context.newPage();
    await signInAsNewAdmin(page, t.url, TEST_ADMIN_PASSWORD, PASSWORD, 'Catalog');
    token = (await login(t, 'admin', PASSWORD)).accessToken;

    await page.getByRole('button', { name: 'Columns of public.customers' }).click();
    const detail = page.getByRole('region', { name: 'public.customers' });
    const columns = detail.getByRole('table', { name: 'Columns of public.customers' });
    // phone_number: suggested by its name; confirmed.
    await columns.getByText('suggested: phone, pii').waitFor();
    await columns.getByRole('button', { name: 'Confirm phone, pii on phone_number' }).click();
    await columns
      .getByRole('row', { name: /^2 phone_number / })
      .getByText('phone', { exact: true })
      .waitFor();
    expect(columnOf(await stored(), 'phone_number')).toMatchObject({ tags: ['phone', 'pii'], suggested_tags: [] });

    // contact: found by its values.
    await detail.getByRole('button', { name: 'Find personal data' }).click();
    await detail.getByRole('status').filter({ hasText: '20 rows sampled' }).waitFor();
    await columns.getByText('suggested: email, pii').waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await columns.getByRole('button', { name: 'Dismiss email, pii on contact' }).click();
    await columns.getByText('suggested: email, pii').waitFor({ state: 'detached' });
    expect(columnOf(await stored(), 'contact')).toMatchObject({ tags: [], suggested_tags: [] });

    // The dataset's notes.
    const notes = detail.getByRole('form', { name: 'Notes of customers' });
    await notes.getByLabel('Description').fill('Customers of the shop');
    await notes.getByLabel('Owners').fill('crm-team, ana');
    await notes.getByLabel('Dataset tags').fill('crm gold');
    await notes.getByRole('button', { name: 'Save notes' }).click();
    await page.getByText('Dataset notes saved.').waitFor();
    expect(await stored()).toMatchObject({
      description: 'Customers of the shop',
      owners: ['crm-team', 'ana'],
      tags: ['crm', 'gold'],
    });
    await page.screenshot({ path: path.join(SHOTS, 'catalog.png'), fullPage: true });

    // Filtered by a tag: of the dataset, or of a column.
    const table = page.getByRole('table', { name: 'Datasets in the catalog' });
    await page.getByLabel('Tag', { exact: true }).fill('phone');
    await table.getByRole('cell', { name: 'public.customers', exact: true }).waitFor();
    await page.getByLabel('Tag', { exact: true }).fill('nothing-tagged');
    await page.getByText('No datasets match with the tag “nothing-tagged”.').waitFor();
    await page.getByLabel('Tag', { exact: true }).fill('crm');
    await table.getByRole('cell', { name: 'public.customers', exact: true }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);

    expect(await narrowOverflow(page)).toBe(0);
    await page.close();
  });
});
