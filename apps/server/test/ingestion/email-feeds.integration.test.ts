import ExcelJS from 'exceljs';
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { ImapFlow } from 'imapflow';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDovecot, type Dovecot, withMailbox as withMailboxOf } from '../support/dovecot.js';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject } from '../support/http.js';
import { createPostgresConnector, query, waitForStatus } from '../support/runs.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';

interface Feed {
  id: string;
  status: string;
  status_reason: string | null;
  uid_validity: string | null;
  last_uid: string;
  destination: { table: string };
}
interface Message {
  uid: string;
  uid_validity: string;
  message_id: string | null;
  subject: string | null;
  status: string;
  rows_loaded: number;
  error: string | null;
  attachments: Array<{ filename: string; loaded: boolean; rows_loaded: number; error: string | null }>;
}

const compose = (options: ConstructorParameters<typeof MailComposer>[0]) =>
  new MailComposer({ from: 'Reports <reports@example.test>', to: 'feed@example.test', ...options }).compile().build();

async function xlsxOf(rows: Array<[number, string]>) {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('data');
  sheet.addRow(['id', 'name']);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('e-mail feeds (a real IMAP server: dovecot)', () => {
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
  const append = (mailbox: string, messages: Buffer[]) =>
    withMailbox(async (client) => {
      for (const message of messages) await client.append(mailbox, message);
    });

  const create = async (body: Record<string, unknown>) => {
    const result = await api<Feed>(t, 'POST', '/api/v1/email-feeds', {
      token: admin,
      body: {
        project_id: projectId,
        name: `feed-${Math.random().toString(36).slice(2, 8)}`,
        host: '127.0.0.1',
        port: imap.port,
        tls: false,
        username: imap.user,
        password: imap.password,
        load: { kind: 'attachments' },
        destination: {
          connector_id: connectorId,
          table: `m_${Math.random().toString(36).slice(2, 8)}`,
          mode: 'append',
        },
        ...body,
      },
    });
    expect(result.status, JSON.stringify(result.body)).toBe(201);
    return result.body;
  };
  const run = async (id: string) => {
    const started = await api<{ id: string }>(t, 'POST', `/api/v1/email-feeds/${id}/run`, { token: admin });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    return waitForStatus(t, admin, started.body.id, ['succeeded', 'failed'], 60_000);
  };
  const feedOf = async (id: string) => (await api<Feed>(t, 'GET', `/api/v1/email-feeds/${id}`, { token: admin })).body;
  const messagesOf = async (id: string) =>
    (await api<{ items: Message[] }>(t, 'GET', `/api/v1/email-feeds/${id}/messages`, { token: admin })).body.items;
  const rowsOf = async (table: string, order = 'id') =>
    (await query(destination.url, `select * from ${table} order by ${order}`)).rows as Array<Record<string, unknown>>;

  it('validates a definition, naming the field; the password is never shown', async () => {
    const bad = await api(t, 'POST', '/api/v1/email-feeds', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'bad',
        host: '127.0.0.1',
        port: imap.port,
        tls: false,
        username: 'x',
        password: 'y',
        load: { kind: 'attachments' },
        post_action: 'move',
        filters: { subject_pattern: '([' },
        destination: { connector_id: connectorId, table: 't', mode: 'upsert' },
      },
    });
    expect(bad.status).toBe(422);
    const paths = (bad.body['errors'] as Array<{ path: string }>).map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['move_to', 'filters.subject_pattern', 'destination.key_columns']));
    const feed = await create({ mailbox: 'INBOX' });
    const shown = JSON.stringify(await feedOf(feed.id));
    expect(shown).not.toContain(imap.password);
    expect(shown).toContain('"has_password":true');
  });

  it('loads an attachment in each format (CSV, JSON, NDJSON, .xlsx, Parquet) once, by UID; filters and glob apply', async () => {
    await withMailbox((c) => c.mailboxCreate('Formats'));
    const parquet = Buffer.from(
      parquetWriteBuffer({
        columnData: [
          { name: 'id', data: Int32Array.from([9, 10]), type: 'INT32' },
          { name: 'name', data: ['iota', 'kappa'], type: 'STRING' },
        ],
      }),
    );
    await append('Formats', [
      await compose({
        subject: 'report csv',
        attachments: [{ filename: 'a.csv', content: 'id,name\n1,alpha\n2,beta\n' }],
      }),
      await compose({
        subject: 'report json',
        attachments: [
          {
            filename: 'b.json',
            content: JSON.stringify([
              { id: 3, name: 'gamma' },
              { id: 4, name: 'delta' },
            ]),
          },
        ],
      }),
      await compose({
        subject: 'report ndjson',
        attachments: [{ filename: 'c.ndjson', content: '{"id":5,"name":"epsilon"}\n{"id":6,"name":"zeta"}\n' }],
      }),
      await compose({
        subject: 'report xlsx',
        attachments: [
          {
            filename: 'd.xlsx',
            content: await xlsxOf([
              [7, 'eta'],
              [8, 'theta'],
            ]),
          },
        ],
      }),
      await compose({ subject: 'report parquet', attachments: [{ filename: 'e.parquet', content: parquet }] }),
      // Not loaded: another subject; an attachment the glob leaves out.
      await compose({ subject: 'holiday photos', attachments: [{ filename: 'x.csv', content: 'id,name\n99,no\n' }] }),
      await compose({
        subject: 'report notes',
        attachments: [{ filename: 'notes.txt', content: 'id,name\n98,no\n', contentType: 'text/plain' }],
      }),
    ]);
    const feed = await create({
      mailbox: 'Formats',
      filters: { subject_pattern: '^report', from: 'reports@example.test' },
      load: { kind: 'attachments', glob: '*.{csv,json,ndjson,xlsx,parquet}' },
      post_action: 'mark_seen',
    });
    const execution = await run(feed.id);
    expect(execution.status, JSON.stringify(execution)).toBe('succeeded');
    // The run's lineage: the mailbox in, the destination table out, as the feed's job.
    const lineage = await api<{
      items: Array<{
        event_type: string;
        event: {
          job: { name: string };
          inputs: Array<{ namespace: string; name: string }>;
          outputs: Array<{ name: string }>;
        };
      }>;
    }>(t, 'GET', `/api/v1/lineage/events?run_id=${execution.id}`, { token: admin });
    const complete = lineage.body.items.find((e) => e.event_type === 'COMPLETE')!.event;
    expect(complete.job.name).toBe(`email_feed.${feed.id}`);
    expect(complete.inputs.map((i) => [i.namespace, i.name])).toEqual([[`imap://127.0.0.1:${imap.port}`, 'Formats']]);
    expect(complete.outputs.map((o) => o.name)).toEqual([`${destination.name}.public.${feed.destination.table}`]);
    const rows = await rowsOf(feed.destination.table);
    expect(rows.map((r) => [Number(r['id']), r['name']])).toEqual([
      [1, 'alpha'],
      [2, 'beta'],
      [3, 'gamma'],
      [4, 'delta'],
      [5, 'epsilon'],
      [6, 'zeta'],
      [7, 'eta'],
      [8, 'theta'],
      [9, 'iota'],
      [10, 'kappa'],
    ]);
    const messages = await messagesOf(feed.id);
    const bySubject = Object.fromEntries(messages.map((m) => [m.subject, m]));
    expect(bySubject['holiday photos']).toBeUndefined();
    expect(bySubject['report notes']).toMatchObject({ status: 'skipped', rows_loaded: 0 });
    for (const kind of ['csv', 'json', 'ndjson', 'xlsx', 'parquet'])
      expect(bySubject[`report ${kind}`], kind).toMatchObject({ status: 'loaded', rows_loaded: 2 });
    expect((await feedOf(feed.id)).last_uid).toBe('7');
    // The post action: loaded messages are marked seen.
    const seen = await withMailbox(async (c) => {
      await c.mailboxOpen('Formats', { readOnly: true });
      return c.search({ seen: true }, { uid: true });
    });
    expect(seen).toEqual([1, 2, 3, 4, 5]);

    // Read again: nothing new, nothing loaded twice.
    expect((await run(feed.id)).status).toBe('succeeded');
    expect(await rowsOf(feed.destination.table)).toHaveLength(10);
    // A reload loads that message again, on request.
    const csv = bySubject['report csv']!;
    const reload = await api<{ id: string }>(
      t,
      'POST',
      `/api/v1/email-feeds/${feed.id}/messages/${(csv as unknown as { id: string }).id}/reload`,
      { token: admin },
    );
    expect(reload.status).toBe(201);
    expect((await waitForStatus(t, admin, reload.body.id, ['succeeded', 'failed'])).status).toBe('succeeded');
    expect(await rowsOf(feed.destination.table)).toHaveLength(12);
  });

  it('starts over when UIDVALIDITY changes; a message loaded before (same Message-ID) is not loaded again', async () => {
    await withMailbox((c) => c.mailboxCreate('Rebuilt'));
    const first = await compose({
      subject: 'one',
      messageId: '<one@example.test>',
      attachments: [{ filename: 'a.csv', content: 'id\n1\n' }],
    });
    await append('Rebuilt', [
      first,
      await compose({
        subject: 'two',
        messageId: '<two@example.test>',
        attachments: [{ filename: 'b.csv', content: 'id\n2\n' }],
      }),
    ]);
    const feed = await create({ mailbox: 'Rebuilt' });
    expect((await run(feed.id)).status).toBe('succeeded');
    const before = await feedOf(feed.id);
    expect(before.last_uid).toBe('2');
    // The mailbox is rebuilt: a new UIDVALIDITY, UIDs from 1 again.
    await new Promise((r) => setTimeout(r, 1100));
    await withMailbox(async (c) => {
      await c.mailboxDelete('Rebuilt');
      await c.mailboxCreate('Rebuilt');
    });
    await append('Rebuilt', [
      first,
      await compose({
        subject: 'three',
        messageId: '<three@example.test>',
        attachments: [{ filename: 'c.csv', content: 'id\n3\n' }],
      }),
    ]);
    expect((await run(feed.id)).status).toBe('succeeded');
    const after = await feedOf(feed.id);
    expect(after.uid_validity).not.toBe(before.uid_validity);
    expect(after.last_uid).toBe('2');
    expect((await rowsOf(feed.destination.table)).map((r) => Number(r['id']))).toEqual([1, 2, 3]);
    const messages = await messagesOf(feed.id);
    const again = messages.find((m) => m.uid_validity === after.uid_validity && m.uid === '1')!;
    expect(again).toMatchObject({ status: 'skipped', message_id: '<one@example.test>' });
    expect(again.error).toContain('loaded already');
  });

  it('the server stopped mid-feed: the feed is degraded with the reason; after the restart nothing is lost or loaded twice', async () => {
    await withMailbox((c) => c.mailboxCreate('Restart'));
    const batch = async (from: number, count: number) =>
      Promise.all(
        Array.from({ length: count }, (_, i) =>
          compose({ subject: `m${from + i}`, messageId: `<m${from + i}@example.test>`, text: `body ${from + i}` }),
        ),
      );
    await append('Restart', await batch(1, 40));
    const feed = await create({ mailbox: 'Restart', load: { kind: 'message_fields' }, post_action: 'mark_seen' });
    const started = await api<{ id: string }>(t, 'POST', `/api/v1/email-feeds/${feed.id}/run`, { token: admin });
    // Stopped as soon as the first messages are loaded (or when the run is over, if it was faster).
    const until = Date.now() + 30_000;
    while ((await messagesOf(feed.id)).length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    await imap.stop();
    await waitForStatus(t, admin, started.body.id, ['succeeded', 'failed'], 60_000);

    // While it is down: the run fails and the feed says why.
    const down = await run(feed.id);
    expect(down.status).toBe('failed');
    const degraded = await feedOf(feed.id);
    expect(degraded.status).toBe('degraded');
    expect(degraded.status_reason).toMatch(/ECONNREFUSED|connect/i);

    await imap.start();
    await append('Restart', await batch(41, 5));
    const up = await run(feed.id);
    expect(up.status, JSON.stringify(up)).toBe('succeeded');
    expect((await feedOf(feed.id)).status).toBe('active');
    const rows = await rowsOf(feed.destination.table, 'message_id');
    const ids = rows.map((r) => r['message_id']);
    expect(ids).toHaveLength(45);
    expect(new Set(ids).size).toBe(45);
    expect((await messagesOf(feed.id)).filter((m) => m.status === 'loaded')).toHaveLength(45);
  });
});
