/**
 * The e-mail feeds screen in Chromium, against a real IMAP server (dovecot): a message with a CSV
 * attachment put into the mailbox, a feed created through the form (a 422 naming the field first)
 * pointing at it with a PostgreSQL destination, read with Run now, the message found in the history
 * as loaded with its row count and the rows in the destination table; a message reloaded, the feed
 * edited (the password kept, never shown) and deleted; axe-clean, and within 390 px.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { ImapFlow } from 'imapflow';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, TEST_ADMIN_PASSWORD, startTestApp, type TestApp } from '../../server/test/support/app.js';
import { startDovecot, type Dovecot, withMailbox as withMailboxOf } from '../../server/test/support/dovecot.js';
import { api, createProject, login } from '../../server/test/support/http.js';
import { createPostgresConnector, query, waitForStatus } from '../../server/test/support/runs.js';
import { createTestDatabase, type TestDatabase } from '../../server/test/support/services.js';
import {
  accessibilityProblems,
  launchBrowser,
  narrowOverflow,
  openCreateForm,
  SHOTS,
  signInAsNewAdmin,
  type Browser,
} from './browser.js';

const PASSWORD = 'an-email-feeds-Password-42';
const TABLE = 'mailed_orders';

interface Feed {
  id: string;
  name: string;
  port: number;
  tls: boolean;
  has_password: boolean;
  mailbox: string;
  filters: Record<string, unknown>;
  load: Record<string, unknown>;
  post_action: string;
  poll_interval_seconds: number | null;
  destination: Record<string, unknown>;
}

/** Waits until `read` gives what `done` accepts, or fails with the last value read. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('e-mail feeds screen (a real IMAP server: dovecot)', () => {
  let t: TestApp;
  let browser: Browser;
  let imap: Dovecot;
  let destination: TestDatabase;
  let token: string;
  let project: { id: string; name: string };

  /** The test's own IMAP client on the mailbox. */
  const withMailbox = <T>(work: (client: ImapFlow) => Promise<T>) => withMailboxOf(imap, work);

  beforeAll(async () => {
    imap = await startDovecot();
    // Test apps allow loopback addresses in the egress policy, so the feed may reach dovecot.
    t = await startTestApp({ worker: true, env: NO_RATE_LIMITS });
    token = (await login(t, 'admin', TEST_ADMIN_PASSWORD)).accessToken;
    project = await createProject(t, token, 'mailed');
    destination = await createTestDatabase();
    await createPostgresConnector(t, token, project.id, 'dest', destination.name);
    const message = await new MailComposer({
      from: 'Reports <reports@example.test>',
      to: 'feed@example.test',
      subject: 'daily orders',
      text: 'The orders of the day.',
      attachments: [{ filename: 'orders.csv', content: 'id,name\n1,alpha\n2,beta\n3,gamma\n' }],
    })
      .compile()
      .build();
    await withMailbox((client) => client.append('INBOX', message));
    await mkdir(SHOTS, { recursive: true });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await destination?.drop();
    await imap?.close();
  });

  const feeds = async () =>
    (await api<{ items: Feed[] }>(t, 'GET', `/api/v1/email-feeds?project_id=${project.id}`, { token })).body.items;
  const rows = async () =>
    (await query(destination.url, `select id, name from ${TABLE} order by id`)).rows.map(
      (r: Record<string, unknown>) => [Number(r['id']), r['name']],
    );
  const seenUids = () =>
    withMailbox(async (client) => {
      await client.mailboxOpen('INBOX', { readOnly: true });
      return client.search({ seen: true }, { uid: true });
    });

  const signIn = async (page: Page) => {
    await signInAsNewAdmin(page, t.url, TEST_ADMIN_PASSWORD, PASSWORD);
  };

  it(
    'creates a feed through the form, runs it and shows the loaded message; reload, edit, delete',
    { timeout: 180_000 },
    async () => {
      const page = await browser.context.newPage();
      await signIn(page);
      // The password change ends the sessions the administrator had: the test's own calls sign in again.
      token = (await login(t, 'admin', PASSWORD)).accessToken;
      await page.getByRole('button', { name: /Current project/ }).click();
      await page.getByRole('option', { name: project.name, exact: true }).click();
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Email feeds', exact: true })
        .click();
      await page.getByRole('heading', { name: 'Email feeds', level: 1 }).waitFor();
      await page.getByText('No e-mail feeds in this project yet.').waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);

      const form = await openCreateForm(page, 'New e-mail feed');
      await form.getByText(`In project ${project.name}.`).waitFor();
      await form.getByLabel('Name', { exact: true }).fill('orders mail');
      await form.getByLabel('IMAP host').fill('127.0.0.1');
      await form.getByLabel('Port', { exact: true }).fill(String(imap.port));
      // The test's dovecot speaks plain IMAP.
      const tls = form.getByRole('checkbox', { name: /IMAP over TLS/ });
      expect(await tls.isChecked()).toBe(true);
      await form.getByText(/IMAP over TLS/).click();
      expect(await tls.isChecked()).toBe(false);
      await form.getByLabel('User', { exact: true }).fill(imap.user);
      await form.getByLabel('Password', { exact: true }).fill(imap.password);
      await form.getByLabel('Sender contains').fill('reports@example.test');
      await form.getByLabel('Subject pattern').fill('([');
      await form.getByLabel('File name glob').fill('*.csv');
      await form.getByText('mark it seen', { exact: true }).click();
      await form.getByRole('button', { name: /Destination connector/ }).click();
      await page.getByRole('option', { name: 'dest', exact: true }).click();
      await form.getByLabel('Table', { exact: true }).fill(TABLE);
      // A pattern that is no regular expression: the API's 422 names the field.
      await form.getByRole('button', { name: 'Create feed' }).click();
      const refusal = form.getByRole('alert');
      await refusal.filter({ hasText: 'is not a valid regular expression' }).waitFor();
      expect(await refusal.locator('code').allTextContents()).toContain('filters.subject_pattern');
      expect(await feeds()).toEqual([]);
      await form.getByLabel('Subject pattern').fill('^daily');
      await form.getByRole('button', { name: 'Create feed' }).click();

      const table = page.getByRole('table', { name: 'E-mail feeds' });
      const row = table.getByRole('row', { name: /^orders mail / });
      await row.waitFor();
      expect(await row.textContent()).toContain(`${imap.user} @ 127.0.0.1:${imap.port} INBOX`);
      expect(await row.textContent()).toContain(`${TABLE} (append)`);
      // Created: back on the list, the form gone.
      expect(page.url()).toBe(`${t.url}/email-feeds`);
      expect(await form.count()).toBe(0);
      const [feed] = await feeds();
      expect(feed).toMatchObject({
        name: 'orders mail',
        port: imap.port,
        tls: false,
        has_password: true,
        mailbox: 'INBOX',
        filters: { from: 'reports@example.test', subject_pattern: '^daily' },
        load: { kind: 'attachments', glob: '*.csv' },
        post_action: 'mark_seen',
        poll_interval_seconds: null,
        destination: { table: TABLE, mode: 'append' },
      });
      expect(JSON.stringify(feed)).not.toContain(imap.password);

      // Run now reads the mailbox and opens the feed's message history.
      await table.getByRole('button', { name: 'Run now for orders mail' }).click();
      const messages = page.getByRole('region', { name: 'Messages of orders mail' });
      const history = messages.getByRole('table', { name: 'Message history of orders mail' });
      const message = history.getByRole('row', { name: /daily orders/ });
      await message.getByRole('cell', { name: 'loaded', exact: true }).waitFor({ timeout: 60_000 });
      // Read, message (subject and sender), status, reason, attachments, rows loaded, actions.
      const cells = await message.getByRole('cell').allTextContents();
      expect(cells[1]).toContain('daily orders');
      expect(cells[1]).toContain('reports@example.test');
      expect(cells.slice(2, 6)).toEqual(['loaded', '—', 'orders.csv: 3 rows', '3']);
      expect(await rows()).toEqual([
        [1, 'alpha'],
        [2, 'beta'],
        [3, 'gamma'],
      ]);
      // The post action: the loaded message is marked seen.
      expect(await seenUids()).toEqual([1]);
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, 'email-feeds.png'), fullPage: true });

      expect(await narrowOverflow(page)).toBe(0);

      // Reload loads the message again, on request.
      await history.getByRole('button', { name: 'Reload the message daily orders' }).click();
      expect(await until(rows, (loaded) => loaded.length === 6)).toHaveLength(6);

      // Edited: the password is never shown back, and an empty field keeps it.
      await table.getByRole('button', { name: 'Edit orders mail' }).click();
      const edit = page.getByRole('region', { name: 'Edit orders mail' });
      expect(await edit.getByLabel('Password', { exact: true }).inputValue()).toBe('');
      expect(await edit.getByText('A value is stored (encrypted); leave empty to keep it.').isVisible()).toBe(true);
      expect(await edit.getByLabel('Subject pattern').inputValue()).toBe('^daily');
      expect(await edit.getByRole('checkbox', { name: /IMAP over TLS/ }).isChecked()).toBe(false);
      await edit.getByLabel('Look for new messages every (seconds)').fill('3600');
      // Watched as well as polled: the IMAP IDLE box.
      expect(await edit.getByRole('checkbox', { name: /IMAP IDLE/ }).isChecked()).toBe(false);
      await edit.getByText(/Also watch the mailbox \(IMAP IDLE\)/).click();
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await edit.waitFor({ state: 'detached' });
      expect((await feeds())[0]).toMatchObject({
        poll_interval_seconds: 3600,
        idle: true,
        has_password: true,
        tls: false,
        filters: { from: 'reports@example.test', subject_pattern: '^daily' },
        destination: { table: TABLE, mode: 'append' },
      });
      // The stored password still reads the mailbox: a run after the edit succeeds.
      const run = await api<{ id: string }>(t, 'POST', `/api/v1/email-feeds/${feed!.id}/run`, { token });
      expect(run.status).toBe(201);
      const execution = await waitForStatus(t, token, run.body.id, ['succeeded', 'failed']);
      expect(execution.status, JSON.stringify(execution)).toBe('succeeded');

      await table.getByRole('button', { name: 'Delete orders mail' }).click();
      await page
        .getByRole('group', { name: 'Confirm deleting the e-mail feed orders mail' })
        .getByRole('button', { name: 'Delete for good' })
        .click();
      await page.getByText('No e-mail feeds in this project yet.').waitFor();
      expect(await messages.count()).toBe(0);
      expect(await feeds()).toEqual([]);
      await page.close();
    },
  );
});
