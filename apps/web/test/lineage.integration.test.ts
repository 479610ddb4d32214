/**
 * The lineage screen in Chromium: a pipeline run records its lineage; the graph around the pipeline
 * is drawn (React Flow, laid out by dagre) and listed; a dataset becomes the graph's start; a run's
 * node opens its pipeline; the catalog's Lineage button starts from a dataset; axe-clean.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, TEST_ADMIN_PASSWORD, startTestApp, type TestApp } from '../../server/test/support/app.js';
import { api, createProject, login } from '../../server/test/support/http.js';
import { createPostgresConnector, query, waitForStatus, type Execution } from '../../server/test/support/runs.js';
import { createTestDatabase, type TestDatabase } from '../../server/test/support/services.js';
import { SHOTS, accessibilityProblems, launchBrowser, signInAsNewAdmin, type Browser } from './browser.js';

const PASSWORD = 'a-lineage-Password-42';

describe('lineage screen', () => {
  let t: TestApp;
  let browser: Browser;
  let data: TestDatabase;
  let pipelineId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: NO_RATE_LIMITS, worker: true });
    const token = (await login(t, 'admin', TEST_ADMIN_PASSWORD)).accessToken;
    const project = await createProject(t, token, 'traced');
    data = await createTestDatabase();
    await query(
      data.url,
      `create table orders (id int primary key, amount numeric); insert into orders select g, g from generate_series(1, 10) g`,
    );
    const connector = await createPostgresConnector(t, token, project.id, 'shop', data.name);
    const pipeline = await api<{ id: string }>(t, 'POST', '/api/v1/etl/pipelines', {
      token,
      body: {
        project_id: project.id,
        name: 'big orders',
        sources: [{ connector_id: connector, dataset: 'orders' }],
        transforms: [{ type: 'filter', expression: 'amount > 5' }],
        destination: { connector_id: connector, table: 'big_orders', mode: 'overwrite' },
      },
    });
    expect(pipeline.status, JSON.stringify(pipeline.body)).toBe(201);
    pipelineId = pipeline.body.id;
    const run = await api<Execution>(t, 'POST', `/api/v1/etl/pipelines/${pipelineId}/run`, { token });
    expect((await waitForStatus(t, token, run.body.id, ['succeeded', 'failed'])).status).toBe('succeeded');
    expect((await api(t, 'POST', `/api/v1/data-connectors/${connector}/discover`, { token })).status).toBe(200);
    await mkdir(SHOTS, { recursive: true });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await data?.drop();
  });

  it(
    'draws the graph around a pipeline, recenters on a dataset and opens a run’s pipeline',
    { timeout: 120_000 },
    async () => {
      const page = await browser.context.newPage();
      await signInAsNewAdmin(page, t.url, TEST_ADMIN_PASSWORD, PASSWORD, 'Lineage');
      await page.getByText('Choose a pipeline or a dataset').waitFor();

      await page.getByRole('button', { name: /A pipeline/ }).click();
      await page.getByRole('option', { name: 'big orders' }).click();
      // orders -> the pipeline's run -> big_orders, drawn and listed.
      await page.getByRole('figure', { name: 'Lineage graph: 3 nodes, 2 edges; listed in the table below' }).waitFor();
      const listed = page.getByRole('table', { name: 'Datasets and runs in the graph' });
      await listed.getByRole('row', { name: /^run \(pipeline\) / }).waitFor();
      expect(await listed.getByRole('row', { name: /^dataset .*\.public\.orders / }).textContent()).toContain(
        'pipeline',
      );
      expect(await page.locator('.react-flow__node').count()).toBe(3);
      expect(await page.locator('.react-flow__edge').count()).toBe(2);
      // Laid out left to right: the source left of the run, the run left of its output.
      const xOf = async (text: string) =>
        (await page.locator('.react-flow__node', { hasText: text }).first().boundingBox())!.x;
      expect(await xOf('orders')).toBeLessThan(await xOf('pipeline'));
      expect(await xOf('pipeline')).toBeLessThan(await xOf('big_orders'));
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, 'lineage.png'), fullPage: true });

      // A dataset becomes the start: downstream of big_orders there is nothing more.
      await listed.getByRole('button', { name: 'Center here: big_orders' }).click();
      await page.waitForURL(/\/lineage\/dataset%3A/);
      await page.getByText('downstream', { exact: true }).click();
      await page.getByRole('figure', { name: 'Lineage graph: 1 nodes, 0 edges; listed in the table below' }).waitFor();
      await page.getByText('upstream', { exact: true }).click();
      await page.getByRole('figure', { name: 'Lineage graph: 3 nodes, 2 edges; listed in the table below' }).waitFor();

      // The run's node opens its pipeline.
      await page.locator('.react-flow__node', { hasText: 'pipeline' }).click();
      await page.waitForURL(new RegExp(`/pipelines/${pipelineId}$`));
      await page.getByRole('region', { name: 'big orders' }).waitFor();

      // From the catalog: a dataset's Lineage button.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Catalog', exact: true }).click();
      await page.getByRole('button', { name: 'Columns of public.big_orders' }).click();
      await page.getByRole('region', { name: 'public.big_orders' }).getByRole('button', { name: 'Lineage' }).click();
      await page.waitForURL(/\/lineage\/catalog%3A/);
      await page.getByRole('figure', { name: /^Lineage graph: 3 nodes/ }).waitFor();
      await page.close();
    },
  );
});
