/**
 * The alerting and audit forwarding screens in Chromium: an alert rule scoped through the picker to
 * chosen items of the current project (a pipeline, a sync, an export), chosen with the keyboard, the
 * saved scope read back through the API and shown in the list; an audit destination over mutual TLS
 * (Debian's rsyslogd demanding a client certificate) whose key is typed into a write-only field, tested
 * from the row, shown as set and kept by an edit that leaves it empty. Axe-clean, and within 390 px.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, TEST_ADMIN_PASSWORD, startTestApp, type TestApp } from '../../server/test/support/app.js';
import { api, createProject, login } from '../../server/test/support/http.js';
import { createPostgresConnector, query } from '../../server/test/support/runs.js';
import { startRsyslog } from '../../server/test/audit/rsyslog.js';
import { until } from '../../server/test/alerting/receivers.js';
import {
  SHOTS,
  accessibilityProblems,
  launchBrowser,
  narrowOverflow,
  openCreateForm,
  signInAsNewAdmin,
  type Browser,
} from './browser.js';

const PASSWORD = 'an-alerting-Password-42';

interface Rule {
  name: string;
  kind: string;
  scope: Array<{ kind: string; id: string }>;
}
interface Forwarder {
  id: string;
  name: string;
  config: Record<string, unknown>;
  secrets_set: string[];
}

describe('alerting screens', () => {
  let t: TestApp;
  let browser: Browser;
  let project: { id: string; name: string };
  let page: Page;
  const ids = { pipeline: '', export: '', sync: '' };
  const token = () => login(t, 'admin', PASSWORD).then((s) => s.accessToken);

  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS });
    const admin = (await login(t, 'admin', TEST_ADMIN_PASSWORD)).accessToken;
    project = await createProject(t, admin, 'watched');
    const crm = await createPostgresConnector(t, admin, project.id, 'crm', 'postgres');
    const warehouse = await createPostgresConnector(t, admin, project.id, 'warehouse', 'postgres');
    const pipeline = await api<{ id: string }>(t, 'POST', '/api/v1/etl/pipelines', {
      token: admin,
      body: {
        project_id: project.id,
        name: 'orders pipeline',
        sources: [{ connector_id: crm, dataset: 'orders' }],
        destination: { connector_id: warehouse, table: 'orders', mode: 'overwrite' },
      },
    });
    expect(pipeline.status, JSON.stringify(pipeline.body)).toBe(201);
    ids.pipeline = pipeline.body.id;
    const daily = await api<{ id: string }>(t, 'POST', '/api/v1/exports', {
      token: admin,
      body: {
        project_id: project.id,
        name: 'daily export',
        source: { kind: 'warehouse_query', query: 'select 1 as one' },
        destination: { kind: 'files' },
      },
    });
    expect(daily.status, JSON.stringify(daily.body)).toBe(201);
    ids.export = daily.body.id;
    // A sync of crm into warehouse has run in the project: the pair is an item a rule can watch.
    await query(
      t.config.db.url!,
      `insert into executions (project_id, kind, status, params, created_at, started_at, finished_at)
       values ($1, 'sync', 'succeeded', jsonb_build_object('source_connector_id', $2::text, 'destination_connector_id', $3::text),
               now(), now(), now())`,
      [project.id, crm, warehouse],
    );
    ids.sync = `${crm}>${warehouse}`;
    // An export of another project, not offered.
    const elsewhere = await createProject(t, admin, 'elsewhere');
    await api(t, 'POST', '/api/v1/exports', {
      token: admin,
      body: {
        project_id: elsewhere.id,
        name: 'their export',
        source: { kind: 'warehouse_query', query: 'select 1 as one' },
        destination: { kind: 'files' },
      },
    });
    await mkdir(SHOTS, { recursive: true });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await signInAsNewAdmin(page, t.url, TEST_ADMIN_PASSWORD, PASSWORD, 'Alerts');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it(
    'scopes a rule to chosen items of the project through the picker, with the keyboard',
    { timeout: 90_000 },
    async () => {
      await page.getByRole('button', { name: /Current project/ }).click();
      await page.getByRole('option', { name: 'watched', exact: true }).click();
      const form = await openCreateForm(page, 'New alert rule');
      await form.getByText('In project watched.').waitFor();
      await form.getByLabel('Name', { exact: true }).fill('watched items');

      // "All runs of the project" is chosen; the arrow key moves to "Chosen items".
      const all = form.getByRole('radio', { name: 'All runs of the project' });
      expect(await all.isChecked()).toBe(true);
      await all.focus();
      await page.keyboard.press('ArrowDown');
      expect(await form.getByRole('radio', { name: 'Chosen items' }).isChecked()).toBe(true);
      const picker = form.getByRole('group', { name: 'Items watched' });
      await picker.getByRole('checkbox', { name: 'orders pipeline' }).waitFor();
      expect(await picker.getByRole('group', { name: 'Pipelines' }).isVisible()).toBe(true);
      expect(await picker.getByRole('checkbox', { name: 'crm → warehouse' }).count()).toBe(1);
      expect(await picker.getByRole('checkbox', { name: 'daily export' }).count()).toBe(1);
      expect(await picker.getByRole('checkbox', { name: 'their export' }).count()).toBe(0);
      await form.screenshot({ path: path.join(SHOTS, 'alert-rule-scope-picker.png') });
      expect(await accessibilityProblems(page)).toEqual([]);
      expect(await narrowOverflow(page)).toBe(0);

      // Nothing chosen: refused by the form, not saved as "everything".
      await form.getByRole('button', { name: 'Create rule' }).click();
      await form.getByRole('alert').filter({ hasText: 'Choose the items to watch' }).waitFor();

      // A CDC lag rule watches CDC tables, and the project has none.
      await form.getByText('CDC lag', { exact: true }).click();
      await form.getByText('The project has no CDC tables yet.').waitFor();
      expect(await form.getByRole('radio', { name: 'All CDC tables of the project' }).count()).toBe(1);
      await form.getByText('a run failed', { exact: true }).click();

      // Ticked with the keyboard: Tab from the pipeline's box to the sync's, Space on each.
      const pipeline = picker.getByRole('checkbox', { name: 'orders pipeline' });
      await pipeline.focus();
      await page.keyboard.press('Space');
      expect(await pipeline.isChecked()).toBe(true);
      await page.keyboard.press('Tab');
      expect(
        await picker
          .getByRole('checkbox', { name: 'crm → warehouse' })
          .evaluate((e) => e.ownerDocument.activeElement === e),
      ).toBe(true);
      await page.keyboard.press('Space');
      await picker.getByText('daily export', { exact: true }).click();
      await form.getByRole('button', { name: 'Create rule' }).click();

      const row = page.getByRole('row', { name: /^watched items/ });
      await row.waitFor();
      const watches = await row.getByRole('cell').nth(3).textContent();
      expect(watches).toBe('pipeline orders pipeline, sync crm → warehouse, export daily export');
      const rules = (await api<{ items: Rule[] }>(t, 'GET', '/api/v1/alert-rules', { token: await token() })).body
        .items;
      const saved = rules.find((r) => r.name === 'watched items')!;
      expect(saved.kind).toBe('run_failed');
      expect([...saved.scope].sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
        { kind: 'export', id: ids.export },
        { kind: 'pipeline', id: ids.pipeline },
        { kind: 'sync', id: ids.sync },
      ]);
      // Created: back on the list; a new form watches everything again.
      expect(page.url()).toMatch(/\/alerts$/);
      const next = await openCreateForm(page, 'New alert rule');
      expect(await next.getByRole('radio', { name: 'All runs of the project' }).isChecked()).toBe(true);
      expect(await accessibilityProblems(page)).toEqual([]);
      expect(await narrowOverflow(page)).toBe(0);
      await page.screenshot({ path: path.join(SHOTS, 'alert-rule-scope.png'), fullPage: true });
    },
  );

  it(
    'forwards the audit log over mutual TLS with a client key typed into a write-only field',
    { timeout: 90_000 },
    async () => {
      const siem = await startRsyslog({ mutual: true });
      try {
        const client = siem.client!;
        const keyLine = client.key.split('\n')[5]!;
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Audit forwarding' }).click();
        const form = await openCreateForm(page, 'New destination');
        await form.getByLabel('Name', { exact: true }).fill('siem');
        await form.getByLabel('Host', { exact: true }).fill('127.0.0.1');
        await form.getByLabel('Port', { exact: true }).fill(String(siem.port));
        await form.getByText('TLS', { exact: true }).click();
        await form.getByLabel('CA certificate (PEM)').fill(siem.ca!);
        await form.getByLabel('Client certificate (PEM)').fill(client.cert);
        // A one-line password field: the key's line breaks are lost on the way, and put back by the server.
        const key = form.getByLabel('Client key (PEM)');
        expect(await key.getAttribute('type')).toBe('password');
        await key.fill(client.key);
        await form.screenshot({ path: path.join(SHOTS, 'audit-forwarding-mtls-form.png') });
        expect(await accessibilityProblems(page)).toEqual([]);
        expect(await narrowOverflow(page)).toBe(0);
        await form.getByRole('button', { name: 'Create destination' }).click();

        const row = page.getByRole('row', { name: /^siem/ });
        await row.waitFor();
        await row.getByRole('cell', { name: 'set', exact: true }).waitFor();
        await page.getByRole('button', { name: 'Test siem' }).click();
        await row.getByText(/^Delivered: 1 message\(s\) written/).waitFor({ timeout: 15_000 });
        const tests = async () => (await siem.messages()).filter((m) => m.includes(' audit_forwarding_test ')).length;
        expect(await tests()).toBe(1);
        expect(await page.content()).not.toContain(keyLine);

        // Edited with the key left empty: it stays stored.
        await page.getByRole('button', { name: 'Edit siem' }).click();
        const edit = page.getByRole('region', { name: 'Edit siem' });
        await edit.getByText('A value is stored (encrypted); leave empty to keep it.').waitFor();
        await edit.getByLabel('Facility', { exact: true }).fill('local5');
        expect(await accessibilityProblems(page)).toEqual([]);
        await edit.getByRole('button', { name: 'Save changes' }).click();
        await edit.waitFor({ state: 'detached' });
        const saved = (
          await api<{ items: Forwarder[] }>(t, 'GET', '/api/v1/audit-forwarder-settings', { token: await token() })
        ).body.items.find((f) => f.name === 'siem')!;
        expect(saved.secrets_set).toEqual(['client_key']);
        expect(saved.config).toMatchObject({ transport: 'tls', facility: 'local5', client_cert: client.cert });
        expect(JSON.stringify(saved)).not.toContain(keyLine);
        await page.getByRole('button', { name: 'Test siem' }).click();
        await until(async () => (await tests()) === 2, 15_000, 'the second test event');
        await page.screenshot({ path: path.join(SHOTS, 'audit-forwarding-mtls.png'), fullPage: true });
      } finally {
        await siem.stop();
      }
    },
  );
});
