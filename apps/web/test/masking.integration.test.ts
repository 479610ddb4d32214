/**
 * The masking screen in Chromium: a project's warehouse table discovered into the catalog, a policy
 * created through the form (a 422 naming the field first) covering a column picked from that table,
 * a value tried and seen masked, the policy changed and tried again, then deleted; axe-clean, and
 * within 390 px.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectSchemaName } from '../../server/src/areas/connectivity/warehouse.js';
import { NO_RATE_LIMITS, TEST_ADMIN_PASSWORD, startTestApp, type TestApp } from '../../server/test/support/app.js';
import { api, createProject, login } from '../../server/test/support/http.js';
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

const PASSWORD = 'a-masking-Password-42';

interface Policy {
  name: string;
  method: string;
  options: Record<string, unknown>;
  columns: string[];
  tags: string[];
  exempt: { capabilities: string[]; roles: string[] };
}

describe('masking screen', () => {
  let t: TestApp;
  let browser: Browser;
  let token: string;
  let project: { id: string; name: string };

  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS });
    token = (await login(t, 'admin', TEST_ADMIN_PASSWORD)).accessToken;
    project = await createProject(t, token, 'masked');
    // The project's warehouse, with a table of customers discovered into the catalog.
    const connector = await api<{ id: string }>(t, 'POST', '/api/v1/data-connectors', {
      token,
      body: { project_id: project.id, name: 'warehouse', kind: 'warehouse', config: {} },
    });
    expect(connector.status, JSON.stringify(connector.body)).toBe(201);
    const tested = await api<{ ok: boolean }>(t, 'POST', `/api/v1/data-connectors/${connector.body.id}/test`, {
      token,
    });
    expect(tested.body.ok, JSON.stringify(tested.body)).toBe(true);
    const warehouseUrl = t.config.db.url!.replace(/\/([^/?]+)(\?.*)?$/, '/$1_warehouse$2');
    const schema = projectSchemaName(project.id, 'main');
    const owner = (
      await query(warehouseUrl, 'select pg_get_userbyid(nspowner) as owner from pg_namespace where nspname = $1', [
        schema,
      ])
    ).rows[0].owner as string;
    await query(warehouseUrl, `create table "${schema}".customers (id int primary key, email text)`);
    await query(warehouseUrl, `alter table "${schema}".customers owner to "${owner}"`);
    await query(warehouseUrl, `insert into "${schema}".customers values (1, 'alice@example.com')`);
    const discovered = await api<{ datasets: Array<{ name: string }> }>(
      t,
      'POST',
      `/api/v1/data-connectors/${connector.body.id}/discover`,
      { token },
    );
    expect(discovered.body.datasets.map((d) => d.name)).toEqual(['customers']);
    await mkdir(SHOTS, { recursive: true });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const policies = async () =>
    (
      await api<{ items: Policy[] }>(t, 'GET', `/api/v1/masking-policies?project_id=${project.id}`, {
        token,
      })
    ).body.items;

  it('creates a policy from a catalog column, tries a value, edits and deletes it', { timeout: 120_000 }, async () => {
    const page = await browser.context.newPage();
    await signInAsNewAdmin(page, t.url, TEST_ADMIN_PASSWORD, PASSWORD, 'Masking');
    // The password changed: the API checks below sign in with the new one.
    token = (await login(t, 'admin', PASSWORD)).accessToken;
    await page.getByText('No masking policies in this project yet.').waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);

    const form = await openCreateForm(page, 'New masking policy');
    await form.getByText(`In project ${project.name}.`).waitFor();
    await form.getByLabel('Name', { exact: true }).fill('e-mails');
    await form.getByText('e-mail domain', { exact: true }).click();
    // Neither a column nor a tag: the API's 422 names the field.
    await form.getByRole('button', { name: 'Create policy' }).click();
    await form.getByRole('alert').filter({ hasText: 'give at least one column name or tag' }).waitFor();
    expect(await form.getByRole('alert').locator('code').allTextContents()).toContain('columns');

    // The column, picked from the warehouse table in the catalog.
    await form.getByRole('button', { name: /Pick columns from a dataset/ }).click();
    await page.getByRole('option', { name: /\.customers$/ }).click();
    const columns = form.getByRole('group', { name: /^Columns of .*\.customers$/ });
    await columns.getByText('email (string)', { exact: true }).click();
    expect(await columns.getByRole('checkbox', { name: 'email (string)' }).isChecked()).toBe(true);
    expect(await form.getByLabel('Column names').inputValue()).toBe('email');
    // An administrator holds every capability: with none exempt, the administrator sees masked values too.
    expect(await form.getByLabel('Exempt capabilities').inputValue()).toBe('data:read_unmasked');
    await form.getByLabel('Exempt capabilities').fill('');
    await form.getByRole('button', { name: 'Create policy' }).click();

    const table = page.getByRole('table', { name: 'Masking policies' });
    const row = table.getByRole('row', { name: /^e-mails / });
    await row.waitFor();
    expect(await row.textContent()).toContain('e-mail domain');
    expect(await row.textContent()).toContain('nobody');
    // Created: back on the list, the form gone.
    expect(page.url()).toBe(`${t.url}/masking`);
    expect(await form.count()).toBe(0);
    expect(await policies()).toEqual([
      expect.objectContaining({
        name: 'e-mails',
        method: 'email_domain',
        columns: ['email'],
        tags: [],
        exempt: { capabilities: [], roles: [] },
      }),
    ]);

    const tryIt = page.getByRole('region', { name: 'Try it' });
    await tryIt.getByLabel('Column', { exact: true }).fill('email');
    await tryIt.getByLabel('Value', { exact: true }).fill('alice@example.com');
    await tryIt.getByRole('button', { name: 'Show masked value' }).click();
    const result = tryIt.getByRole('status');
    await result.filter({ hasText: '****@example.com' }).waitFor();
    expect(await result.textContent()).toContain('e-mails (e-mail domain)');
    expect(await accessibilityProblems(page)).toEqual([]);

    // Changed to a partial mask keeping the last 3 characters.
    await table.getByRole('button', { name: 'Edit e-mails' }).click();
    const edit = page.getByRole('region', { name: 'Edit e-mails' });
    expect(await edit.getByLabel('Column names').inputValue()).toBe('email');
    await edit.getByText('partial', { exact: true }).click();
    await edit.getByLabel('Characters kept at the end').fill('3');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'detached' });
    await row.filter({ hasText: 'partial (first 0, last 3 kept)' }).waitFor();
    expect((await policies())[0]).toMatchObject({ method: 'partial', options: { keep_last: 3 }, columns: ['email'] });
    await tryIt.getByRole('button', { name: 'Show masked value' }).click();
    await result.filter({ hasText: `${'*'.repeat(14)}com` }).waitFor();
    expect(await result.textContent()).toContain('e-mails (partial)');
    expect(await result.textContent()).not.toContain('alice');
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'masking.png'), fullPage: true });

    expect(await narrowOverflow(page)).toBe(0);

    await table.getByRole('button', { name: 'Delete e-mails' }).click();
    await page
      .getByRole('group', { name: 'Confirm deleting the masking policy e-mails' })
      .getByRole('button', { name: 'Delete for good' })
      .click();
    await page.getByText('No masking policies in this project yet.').waitFor();
    expect(await policies()).toEqual([]);
    // Without a policy the value comes back clear.
    await tryIt.getByRole('button', { name: 'Show masked value' }).click();
    await result.filter({ hasText: 'No policy' }).waitFor();
    expect(await result.textContent()).toContain('alice@example.com');
    await page.close();
  });
});
