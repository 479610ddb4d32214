import type { ImapFlow } from 'imapflow';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDovecot, type Dovecot, withMailbox as withMailboxOf } from '../support/dovecot.js';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject } from '../support/http.js';
import { createPostgresConnector, query } from '../support/runs.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';

interface Feed {
  id: string;
  idle: boolean;
  status: string;
  status_reason: string | null;
  destination: { table: string };
}

const compose = (subject: string) =>
  new MailComposer({
    from: 'Reports <reports@example.test>',
    to: 'feed@example.test',
    subject,
    messageId: `<${subject}@example.test>`,
    text: `body of ${subject}`,
  })
    .compile()
    .build();

describe('e-mail feeds with IMAP IDLE (a real IMAP server: dovecot)', () => {
  let t: TestApp;
  let admin: string;
  let destination: TestDatabase;
  let projectId: string;
  let connectorId: string;
  let imap: Dovecot;

  beforeAll(async () => {
    imap = await startDovecot();
    t = await startTestApp({ env: { ...NO_RATE_LIMITS }, worker: true });
    admin = (await adminLogin(t)).accessToken;
    destination = await createTestDatabase();
    projectId = (await createProject(t, admin)).id;
    connectorId = await createPostgresConnector(t, admin, projectId, 'dest', destination.name);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await destination?.drop();
    await imap?.close();
  });

  /** The test's own IMAP client on the mailbox. */
  const withMailbox = <T>(work: (client: ImapFlow) => Promise<T>) => withMailboxOf(imap, work);
  const append = (mailbox: string, subjects: string[]) =>
    withMailbox(async (client) => {
      for (const subject of subjects) await client.append(mailbox, await compose(subject));
    });
  const subjectsIn = async (table: string) =>
    (
      (await query(destination.url, `select subject from ${table} order by subject`).catch(() => ({ rows: [] }))) as {
        rows: Array<{ subject: string }>;
      }
    ).rows.map((r) => r.subject);
  const waitFor = async <T>(what: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number) => {
    const until = Date.now() + timeoutMs;
    let value = await what();
    while (!done(value) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      value = await what();
    }
    return value;
  };

  it('new mail is loaded within seconds, without waiting for the poll; a restart of the server is caught up', async () => {
    await withMailbox((c) => c.mailboxCreate('Pushed'));
    await append('Pushed', ['a1']);
    const created = await api<Feed>(t, 'POST', '/api/v1/email-feeds', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'pushed',
        host: '127.0.0.1',
        port: imap.port,
        tls: false,
        username: imap.user,
        password: imap.password,
        mailbox: 'Pushed',
        load: { kind: 'message_fields' },
        destination: { connector_id: connectorId, table: 'pushed_mail', mode: 'append' },
        // The poll is an hour away: only IDLE can bring the mail in during the test.
        poll_interval_seconds: 3600,
        idle: true,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.idle).toBe(true);
    const table = created.body.destination.table;

    // The message already there is loaded by the first look (the poll's first one, or the watch's catch-up).
    expect(
      await waitFor(
        () => subjectsIn(table),
        (s) => s.length === 1,
        30_000,
      ),
    ).toEqual(['a1']);

    // A message appended now arrives through IDLE.
    const sent = Date.now();
    await append('Pushed', ['a2']);
    expect(
      await waitFor(
        () => subjectsIn(table),
        (s) => s.length === 2,
        15_000,
      ),
    ).toEqual(['a1', 'a2']);
    expect(Date.now() - sent).toBeLessThan(15_000);
    // Several at once, while a run may be going: none is left behind, none loaded twice.
    await append('Pushed', ['a3', 'a4']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await append('Pushed', ['a5']);
    expect(
      await waitFor(
        () => subjectsIn(table),
        (s) => s.length >= 5,
        20_000,
      ),
    ).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);

    // The server goes away: the feed says why; when it is back, the watch reconnects and catches up
    // on what came meanwhile (appended right after the restart, before the watch is back).
    await imap.stop();
    const degraded = await waitFor(
      async () => (await api<Feed>(t, 'GET', `/api/v1/email-feeds/${created.body.id}`, { token: admin })).body,
      (f) => f.status === 'degraded',
      20_000,
    );
    expect(degraded.status).toBe('degraded');
    expect(degraded.status_reason).toBeTruthy();
    await imap.start();
    await append('Pushed', ['b1']);
    expect(
      await waitFor(
        () => subjectsIn(table),
        (s) => s.length >= 6,
        30_000,
      ),
    ).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'b1']);
    await append('Pushed', ['b2']);
    expect(
      await waitFor(
        () => subjectsIn(table),
        (s) => s.length >= 7,
        15_000,
      ),
    ).toHaveLength(7);
    const active = await api<Feed>(t, 'GET', `/api/v1/email-feeds/${created.body.id}`, { token: admin });
    expect(active.body.status).toBe('active');

    // The watch is one per feed, whatever the number of messages: no duplicate loads.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await subjectsIn(table)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'b1', 'b2']);
  });

  it('validates idle as a boolean', async () => {
    const result = await api(t, 'POST', '/api/v1/email-feeds', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'bad-idle',
        host: '127.0.0.1',
        port: imap.port,
        tls: false,
        username: imap.user,
        password: imap.password,
        load: { kind: 'message_fields' },
        destination: { connector_id: connectorId, table: 'x', mode: 'append' },
        idle: 'yes',
      },
    });
    expect(result.status).toBe(422);
    expect(JSON.stringify(result.body)).toContain('idle');
  });
});
