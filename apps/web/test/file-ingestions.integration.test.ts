/**
 * The file ingestions screen in Chromium, against a server with a worker: an ingestion of uploads
 * created through the form (a folder outside the project first: the 422 names it), a CSV uploaded from the
 * file picker and loaded into a PostgreSQL table, its history row, a reload; axe-clean, within 390 px.
 * Then the other remote sources picked in the form: a zip on an SFTP server, objects of an S3-compatible
 * bucket (s3rver) with the secret access key typed once and never shown.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { sftpConnectorConfig, startSshd } from '../../server/test/delivery/sshd.js';
import { NO_RATE_LIMITS, TEST_ADMIN_PASSWORD, startTestApp, type TestApp } from '../../server/test/support/app.js';
import { api, createProject, login } from '../../server/test/support/http.js';
import { createPostgresConnector, query } from '../../server/test/support/runs.js';
import { startS3 } from '../../server/test/support/s3.js';
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

const PASSWORD = 'a-files-Password-42';

describe('file ingestions screen', () => {
  let t: TestApp;
  let browser: Browser;
  let destination: TestDatabase;
  let work: string;
  let projectId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS, worker: true });
    const token = (await login(t, 'admin', TEST_ADMIN_PASSWORD)).accessToken;
    const project = await createProject(t, token, 'filed');
    projectId = project.id;
    destination = await createTestDatabase();
    await createPostgresConnector(t, token, project.id, 'warehouse db', destination.name);
    work = await mkdtemp(path.join(os.tmpdir(), 'svc-upload-'));
    await mkdir(SHOTS, { recursive: true });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await destination?.drop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it(
    'creates an ingestion of uploads, uploads a CSV, shows its load and reloads it',
    { timeout: 120_000 },
    async () => {
      const page = await browser.context.newPage();
      await signInAsNewAdmin(page, t.url, TEST_ADMIN_PASSWORD, PASSWORD, 'File ingestions');
      await page.getByText('No file ingestions in this project yet.').waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);

      const form = await openCreateForm(page, 'New file ingestion');
      await form.getByText('In project filed.', { exact: false }).waitFor();
      await form.getByLabel('Name', { exact: true }).fill('orders drop');
      await form.getByLabel('Table', { exact: true }).fill('orders');
      await form.getByRole('button', { name: /Destination connector/ }).click();
      await page.getByRole('option', { name: 'warehouse db' }).click();
      // A folder outside the project's own: the API's 422 names the field.
      await form.getByText("a folder of the project's files", { exact: true }).click();
      await form.getByLabel('Folder', { exact: true }).fill('../another-project');
      await form.getByRole('button', { name: 'Create file ingestion' }).click();
      await form.getByRole('alert').filter({ hasText: 'source.path' }).waitFor();
      // Uploads instead.
      await form.getByText('uploads', { exact: true }).click();
      await form.getByRole('button', { name: 'Create file ingestion' }).click();
      const table = page.getByRole('table', { name: 'File ingestions' });
      await table.getByRole('cell', { name: 'orders drop', exact: true }).waitFor();

      await table.getByRole('button', { name: 'Show the files of orders drop' }).click();
      const history = page.getByRole('region', { name: 'Files of orders drop' });
      const csv = path.join(work, 'orders.csv');
      await writeFile(csv, 'id,name,amount\n1,alpha,1.5\n2,beta,2.5\n3,gamma,3.5\n');
      await history.getByLabel('File to upload to orders drop').setInputFiles(csv);
      const row = history.getByRole('row', { name: /^orders\.csv / });
      await row.filter({ hasText: 'loaded' }).filter({ hasText: '3 of 3' }).waitFor({ timeout: 30_000 });
      expect((await query(destination.url, 'select count(*)::int as n from orders')).rows[0].n).toBe(3);
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, 'file-ingestions.png'), fullPage: true });

      // A reload loads the kept copy again, as a new history row.
      await history.getByRole('button', { name: 'Reload orders.csv' }).first().click();
      await expect
        .poll(async () => (await query(destination.url, 'select count(*)::int as n from orders')).rows[0].n, {
          timeout: 30_000,
        })
        .toBe(6);

      expect(await narrowOverflow(page)).toBe(0);
      await page.close();
    },
  );

  it(
    'loads the members of a zip found on an SFTP server, through the SFTP connector picked in the form',
    { timeout: 120_000 },
    async () => {
      const sshd = await startSshd();
      const remote = await mkdtemp(path.join(os.tmpdir(), 'svc-sftp-drop-'));
      try {
        const token = (await login(t, 'admin', PASSWORD)).accessToken;
        const server = await api(t, 'POST', '/api/v1/data-connectors', {
          token,
          body: {
            project_id: projectId,
            name: 'drop server',
            kind: 'sftp',
            config: sftpConnectorConfig(sshd, remote),
          },
        });
        expect(server.status, JSON.stringify(server.body)).toBe(201);
        const zip = new yazl.ZipFile();
        zip.addBuffer(Buffer.from('id,item\n1,tea\n2,cake\n'), 'a.csv');
        zip.addBuffer(Buffer.from('id,item\n3,jam\n'), 'b.csv');
        zip.addBuffer(Buffer.from('not a member to load'), 'notes.md');
        zip.end();
        const chunks: Buffer[] = [];
        for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
        await writeFile(path.join(remote, 'orders.zip'), Buffer.concat(chunks));

        // Signed in already: the browser context keeps the session.
        const page = await browser.context.newPage();
        await page.goto(`${t.url}/file-ingestions`);
        const form = await openCreateForm(page, 'New file ingestion');
        await form.getByLabel('Name', { exact: true }).fill('sftp drop');
        await form.getByText('an SFTP server', { exact: true }).click();
        await form.getByRole('button', { name: /SFTP connector/ }).click();
        await page.getByRole('option', { name: 'drop server' }).click();
        await form.getByLabel('File names').fill('*.zip');
        await form.getByLabel('Table', { exact: true }).fill('drop_orders');
        await form.getByRole('button', { name: /Destination connector/ }).click();
        await page.getByRole('option', { name: 'warehouse db' }).click();
        expect(await accessibilityProblems(page)).toEqual([]);
        await form.getByRole('button', { name: 'Create file ingestion' }).click();

        const table = page.getByRole('table', { name: 'File ingestions' });
        await table.getByRole('button', { name: 'Look for new files of sftp drop now' }).click();
        await table.getByRole('button', { name: 'Show the files of sftp drop' }).click();
        const history = page.getByRole('region', { name: 'Files of sftp drop' });
        for (const [member, rows] of [
          ['a.csv', '2 of 2'],
          ['b.csv', '1 of 1'],
        ] as const)
          await history
            .getByRole('row', { name: new RegExp(`^orders\\.zip/${member.replace('.', '\\.')} `) })
            .filter({ hasText: 'loaded' })
            .filter({ hasText: rows })
            .waitFor({ timeout: 30_000 });
        expect(await history.getByRole('row', { name: /notes\.md/ }).count()).toBe(0);
        expect((await query(destination.url, 'select count(*)::int as n from drop_orders')).rows[0].n).toBe(3);
        await page.screenshot({ path: path.join(SHOTS, 'file-ingestions-sftp.png'), fullPage: true });
        await page.close();
      } finally {
        await sshd.close();
        await rm(remote, { recursive: true, force: true });
      }
    },
  );

  it(
    'loads the objects of an S3-compatible bucket prefix set up in the form; the secret is not shown again',
    { timeout: 120_000 },
    async () => {
      const s3 = await startS3(['landing']);
      const { endpoint } = s3;
      try {
        const put = (key: string, body: string) => s3.put('landing', key, body);
        await put('daily/2024-05-01.csv', 'id,item\n1,tea\n2,cake\n');
        await put('daily/2024-05-02.csv', 'id,item\n3,jam\n');
        await put('daily/notes.txt', 'not matched');
        await put('other/2024-05-03.csv', 'id,item\n9,outside the prefix\n');

        const page = await browser.context.newPage();
        await page.goto(`${t.url}/file-ingestions`);
        const form = await openCreateForm(page, 'New file ingestion');
        await form.getByLabel('Name', { exact: true }).fill('bucket drop');
        await form.getByText('an S3 bucket', { exact: true }).click();
        await form.getByLabel('Bucket', { exact: true }).fill('landing');
        await form.getByLabel('Prefix', { exact: true }).fill('daily');
        await form.getByLabel('File names').fill('*.csv');
        await form.getByLabel('Endpoint', { exact: true }).fill(endpoint);
        await form.getByLabel('Access key id', { exact: true }).fill('S3RVER');
        await form.getByLabel('Secret access key', { exact: true }).fill('S3RVER');
        await form.getByLabel('Table', { exact: true }).fill('bucket_orders');
        await form.getByRole('button', { name: /Destination connector/ }).click();
        await page.getByRole('option', { name: 'warehouse db' }).click();
        expect(await accessibilityProblems(page)).toEqual([]);
        expect(await narrowOverflow(page)).toBe(0);
        await form.getByRole('button', { name: 'Create file ingestion' }).click();

        const table = page.getByRole('table', { name: 'File ingestions' });
        await table.getByRole('button', { name: 'Look for new files of bucket drop now' }).click();
        await table.getByRole('button', { name: 'Show the files of bucket drop' }).click();
        const history = page.getByRole('region', { name: 'Files of bucket drop' });
        for (const [name, rows] of [
          ['2024-05-01.csv', '2 of 2'],
          ['2024-05-02.csv', '1 of 1'],
        ] as const)
          await history
            .getByRole('row', { name: new RegExp(`^${name.replace('.', '\\.')} `) })
            .filter({ hasText: 'loaded' })
            .filter({ hasText: rows })
            .waitFor({ timeout: 30_000 });
        expect((await query(destination.url, 'select id, item from bucket_orders order by id')).rows).toEqual([
          { id: 1, item: 'tea' },
          { id: 2, item: 'cake' },
          { id: 3, item: 'jam' },
        ]);
        // Typed once, kept encrypted: nowhere in what the screen was sent.
        const token = (await login(t, 'admin', PASSWORD)).accessToken;
        const listed = await api<{ items: Array<{ name: string; source: Record<string, unknown> }> }>(
          t,
          'GET',
          `/api/v1/file-ingestions?project_id=${projectId}`,
          { token },
        );
        const created = listed.body.items.find((i) => i.name === 'bucket drop')!;
        expect(created.source).toMatchObject({
          kind: 's3',
          bucket: 'landing',
          prefix: 'daily',
          endpoint,
          has_secret_access_key: true,
        });
        expect(Object.keys(created.source).filter((key) => key.startsWith('secret'))).toEqual([]);
        await page.close();
      } finally {
        await s3.close();
      }
    },
  );
});
