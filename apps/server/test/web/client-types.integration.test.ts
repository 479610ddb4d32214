/**
 * The web UI's API types are generated from the running server's /openapi.json (openapi-typescript):
 * no hand-written request types. This test regenerates them and fails when the committed file is
 * stale; SVC_UPDATE_WEB_CLIENT=1 writes the new file instead.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

const SCHEMA_FILE = fileURLToPath(new URL('../../../web/src/api/schema.d.ts', import.meta.url));
const HEADER =
  "/* Generated from the server's /openapi.json by openapi-typescript (apps/server/test/web/client-types.integration.test.ts). Do not edit. */\n";

describe('the web UI API types', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('match the OpenAPI document the server serves', async () => {
    const document = (await (await fetch(`${t.url}/openapi.json`)).json()) as Record<string, unknown>;
    const generated = HEADER + astToString(await openapiTS(document as never));
    if (process.env['SVC_UPDATE_WEB_CLIENT'] === '1') await writeFile(SCHEMA_FILE, generated);
    const committed = await readFile(SCHEMA_FILE, 'utf8').catch(() => '');
    expect(
      committed === generated,
      'apps/web/src/api/schema.d.ts is stale: run the test with SVC_UPDATE_WEB_CLIENT=1',
    ).toBe(true);
  });
});
