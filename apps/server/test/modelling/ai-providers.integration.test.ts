/**
 * AI providers against a real HTTP server on loopback, started here, that speaks the OpenAI chat
 * completions API and the Anthropic Messages API (no outside provider can be reached from these
 * machines): keys forwarded, usage counted, 429 retried, our own limits, answers checked.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectSchemaName } from '../../src/areas/connectivity/warehouse.js';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject, createUser } from '../support/http.js';
import { createPostgresConnector, query } from '../support/runs.js';
import { startLlmServer } from '../support/llm-server.js';
import { createTestDatabase, type TestDatabase } from '../support/services.js';

const KEY = 'sk-test-9f8e7d6c5b4a-secret';
const ANTHROPIC_KEY = 'sk-ant-test-1234567890-secret';

describe('AI providers', () => {
  let t: TestApp;
  let admin: string;
  let projectId: string;
  let llm: Awaited<ReturnType<typeof startLlmServer>>;
  let source: TestDatabase;

  beforeAll(async () => {
    llm = await startLlmServer();
    t = await startTestApp({ env: NO_RATE_LIMITS });
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
    // The project's warehouse: its role and models schema (a preview makes them), then a raw table with personal data.
    const first = await api<{ id: string }>(t, 'POST', '/api/v1/dw-models', {
      token: admin,
      body: { project_id: projectId, name: 'first', sql: 'select 1 as one', materialization: 'view' },
    });
    await api(t, 'POST', `/api/v1/dw-models/${first.body.id}/preview`, { token: admin, body: {} });
    const warehouseUrl = t.config.db.url!.replace(/\/([^/?]+)(\?.*)?$/, '/$1_warehouse$2');
    const role = (
      await query(warehouseUrl, 'select nspowner::regrole::text as role from pg_namespace where nspname = $1', [
        projectSchemaName(projectId, 'models'),
      ])
    ).rows[0].role as string;
    const raw = projectSchemaName(projectId, 'raw');
    await query(warehouseUrl, `create schema ${raw} authorization ${role}`);
    await query(
      warehouseUrl,
      `create table ${raw}.customers as select 1 as id, 'alice.secret@example.com'::text as email, 'Gold'::text as tier`,
    );
    await query(warehouseUrl, `alter table ${raw}.customers owner to ${role}`);
    source = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.close();
    await llm?.close();
    await source?.drop();
  });
  beforeEach(() => {
    llm.seen.length = 0;
    llm.script.length = 0;
    llm.setFallback('OK');
  });

  const provider = async (body: Record<string, unknown>, token = admin) => {
    const created = await api<{ id: string; api_key_set: boolean } & Record<string, unknown>>(
      t,
      'POST',
      '/api/v1/ai-providers',
      {
        token,
        body: { project_id: projectId, type: 'openai_compatible', base_url: llm.url, model: 'local-model', ...body },
      },
    );
    return created;
  };
  const usage = async (id: string) =>
    (
      await api<{
        requests_last_minute: number;
        tokens_this_month: number;
        recent: Array<{ purpose: string; status: string; input_tokens: number; output_tokens: number }>;
      }>(t, 'GET', `/api/v1/ai-providers/${id}/usage`, { token: admin })
    ).body;

  it('stores the key encrypted and write-only, forwards it, and counts the usage (OpenAI-compatible)', async () => {
    const created = await provider({ name: 'local', api_key: KEY, temperature: 0.2, max_tokens: 300 });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.api_key_set).toBe(true);
    expect(JSON.stringify(created.body)).not.toContain(KEY);
    const stored = await query(t.config.db.url!, 'select api_key from ai_providers where id = $1', [created.body.id]);
    expect(stored.rows[0].api_key).toMatch(/^v1:/);
    expect(stored.rows[0].api_key).not.toContain(KEY);

    const tested = await api<{ ok: boolean; reply: string; input_tokens: number }>(
      t,
      'POST',
      `/api/v1/ai-providers/${created.body.id}/test`,
      { token: admin },
    );
    expect(tested.status, JSON.stringify(tested.body)).toBe(200);
    expect(tested.body).toMatchObject({ ok: true, reply: 'OK', input_tokens: 11, output_tokens: 7 });
    expect(llm.seen).toHaveLength(1);
    expect(llm.seen[0]!.path).toBe('/v1/chat/completions');
    expect(llm.seen[0]!.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(llm.seen[0]!.body).toMatchObject({ model: 'local-model', temperature: 0.2, max_tokens: 300 });
    expect(await usage(created.body.id)).toMatchObject({
      requests_last_minute: 1,
      tokens_this_month: 18,
      recent: [{ purpose: 'test', status: 'ok', input_tokens: 11, output_tokens: 7 }],
    });
    // The audit log has the call, without its content; the logs never hold the key.
    const audit = await api<{ items: Array<{ kind: string; details: Record<string, unknown> }> }>(
      t,
      'GET',
      '/api/v1/audit-log?kind=ai_call',
      { token: admin },
    );
    expect(audit.body.items[0]).toMatchObject({
      kind: 'ai_call',
      details: { purpose: 'test', status: 'ok', input_tokens: 11, output_tokens: 7, project_id: projectId },
    });
    expect(JSON.stringify(audit.body)).not.toContain('Are you there');
    expect(t.logText()).not.toContain(KEY);
  });

  it('speaks the Anthropic Messages API with the key in x-api-key', async () => {
    const created = await provider({
      name: 'claude',
      type: 'anthropic',
      base_url: llm.url,
      model: 'claude-test',
      api_key: ANTHROPIC_KEY,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const tested = await api(t, 'POST', `/api/v1/ai-providers/${created.body.id}/test`, { token: admin });
    expect(tested.status, JSON.stringify(tested.body)).toBe(200);
    expect(tested.body).toMatchObject({ reply: 'OK', input_tokens: 13, output_tokens: 5 });
    expect(llm.seen[0]!.path).toBe('/v1/messages');
    expect(llm.seen[0]!.headers['x-api-key']).toBe(ANTHROPIC_KEY);
    expect(llm.seen[0]!.headers['anthropic-version']).toBeTruthy();
    expect(llm.seen[0]!.body).toMatchObject({ model: 'claude-test' });
    const missingKey = await provider({ name: 'claude2', type: 'anthropic', model: 'claude-test' });
    expect(missingKey.status).toBe(422);
    expect(JSON.stringify(missingKey.body)).toContain('api_key');
  });

  it("retries the provider's 429, and refuses with the envelope once our own limit is reached", async () => {
    const created = await provider({ name: 'limited', requests_per_minute: 2 });
    llm.script.push({ status: 429, headers: { 'retry-after-ms': '20' } });
    const first = await api(t, 'POST', `/api/v1/ai-providers/${created.body.id}/test`, { token: admin });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(llm.seen).toHaveLength(2); // the 429, then the retry
    expect((await api(t, 'POST', `/api/v1/ai-providers/${created.body.id}/test`, { token: admin })).status).toBe(200);
    const refused = await api<{ detail: string; request_id: string }>(
      t,
      'POST',
      `/api/v1/ai-providers/${created.body.id}/test`,
      { token: admin },
    );
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toContain('limit of 2 requests per minute is reached');
    expect(refused.body.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(llm.seen).toHaveLength(3); // the refused call never left
    expect((await usage(created.body.id)).recent.map((r) => r.status)).toEqual(['refused', 'ok', 'ok']);

    const monthly = await provider({ name: 'monthly', tokens_per_month: 10 });
    expect((await api(t, 'POST', `/api/v1/ai-providers/${monthly.body.id}/test`, { token: admin })).status).toBe(200);
    const over = await api<{ detail: string }>(t, 'POST', `/api/v1/ai-providers/${monthly.body.id}/test`, {
      token: admin,
    });
    expect(over.status).toBe(429);
    expect(over.body.detail).toContain('tokens this month');

    // A provider that keeps answering 429 fails after the retries, saying so.
    const stubborn = await provider({ name: 'stubborn' });
    for (let i = 0; i < 3; i++) llm.script.push({ status: 429, headers: { 'retry-after-ms': '5' } });
    const failed = await api<{ detail: string }>(t, 'POST', `/api/v1/ai-providers/${stubborn.body.id}/test`, {
      token: admin,
    });
    expect(failed.status).toBe(422);
    expect(failed.body.detail).toContain('429 after 3 attempts (rate limited)');
  });

  it("drafts a model from the project's warehouse schema, and rejects answers that are not one SELECT of the project's data", async () => {
    const created = await provider({ name: 'drafter' });
    const draft = (question: string, include_samples?: boolean) =>
      api<{ sql: string; refs: string[]; sources: unknown[]; detail?: string }>(
        t,
        'POST',
        `/api/v1/ai-providers/${created.body.id}/draft-model`,
        { token: admin, body: { project_id: projectId, question, include_samples } },
      );
    llm.script.push({
      text: "Here it is:\n```sql\nselect tier, count(*) as n from {{ source('raw', 'customers') }} group by 1\n```",
    });
    const good = await draft('customers per tier');
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    expect(good.body.sql).toBe("select tier, count(*) as n from {{ source('raw', 'customers') }} group by 1");
    expect(good.body.sources).toEqual([{ schema: 'raw', table: 'customers' }]);
    // The prompt carried the schema (tables and columns), and no sample values unless asked.
    const prompt = JSON.stringify(llm.seen[0]!.body);
    expect(prompt).toContain('raw.customers: id integer, email text, tier text');
    expect(prompt).toContain('Question: customers per tier');
    expect(prompt).not.toContain('example.com');

    const rejected = async (answer: string, reason: string) => {
      llm.script.push({ text: answer });
      const result = await draft('anything');
      expect(result.status, answer).toBe(422);
      expect(result.body.detail).toContain(reason);
    };
    await rejected('select usename, passwd from pg_catalog.pg_shadow', 'reads pg_catalog.pg_shadow directly');
    await rejected('```sql\nselect * from customers\n```', 'reads customers directly');
    await rejected("delete from {{ source('raw', 'customers') }}", 'must be a SELECT');
    await rejected('select 1; select 2', 'one statement');
    await rejected("select * from {{ ref('missing') }}", "ref('missing'), which is no model");
    await rejected("select * from {{ source('raw', 'secrets') }}", "source('raw', 'secrets'), which is no table");
    await rejected('I cannot help with that.', 'the SQL is not valid');
    const statuses = (await usage(created.body.id)).recent.map((r) => r.status);
    expect(statuses.filter((s) => s === 'invalid_output')).toHaveLength(7);
    expect(statuses.filter((s) => s === 'ok')).toHaveLength(1);
  });

  it('puts sample values into the prompt only when asked, masked', async () => {
    const created = await provider({ name: 'sampler' });
    llm.script.push({ text: "select id from {{ source('raw', 'customers') }}" });
    const result = await api(t, 'POST', `/api/v1/ai-providers/${created.body.id}/draft-model`, {
      token: admin,
      body: { project_id: projectId, question: 'ids', include_samples: true },
    });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const prompt = JSON.stringify(llm.seen[0]!.body);
    expect(prompt).toContain('sample rows (masked)');
    expect(prompt).toContain('Gold');
    expect(prompt).not.toContain('alice.secret@example.com');
    expect(prompt).toContain('*'.repeat('alice.secret@example.com'.length - 4) + '.com');
  });

  it("masks sample values by the project's masking policies, for whoever is not exempt", async () => {
    const created = await provider({ name: 'policed sampler' });
    const policy = await api<{ id: string }>(t, 'POST', '/api/v1/masking-policies', {
      token: admin,
      body: {
        project_id: projectId,
        name: 'tiers hidden',
        method: 'full',
        columns: ['tier'],
        exempt: { capabilities: [], roles: [] },
      },
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(201);
    const promptWithSamples = async () => {
      llm.seen.length = 0;
      llm.script.push({ text: "select id from {{ source('raw', 'customers') }}" });
      const result = await api(t, 'POST', `/api/v1/ai-providers/${created.body.id}/draft-model`, {
        token: admin,
        body: { project_id: projectId, question: 'ids', include_samples: true },
      });
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      return JSON.stringify(llm.seen[0]!.body);
    };
    try {
      const masked = await promptWithSamples();
      // The policy masks tier for everyone (no exemption): the administrator's prompt has no tier value.
      expect(masked).not.toContain('Gold');
      expect(masked).toContain('****');
      // Where no policy applies, the masking by name still holds.
      expect(masked).not.toContain('alice.secret@example.com');
      // Exempt by the default capability, the administrator sends clear tiers.
      const exempt = await api(t, 'PATCH', `/api/v1/masking-policies/${policy.body.id}`, {
        token: admin,
        body: { exempt: { capabilities: ['data:read_unmasked'], roles: [] } },
      });
      expect(exempt.status, JSON.stringify(exempt.body)).toBe(200);
      expect(await promptWithSamples()).toContain('Gold');
    } finally {
      await api(t, 'DELETE', `/api/v1/masking-policies/${policy.body.id}`, { token: admin });
    }
  });

  it('suggests pipeline steps checked against the step schema', async () => {
    const created = await provider({ name: 'stepper' });
    const suggest = () =>
      api<{ steps: unknown[]; detail?: string }>(t, 'POST', `/api/v1/ai-providers/${created.body.id}/suggest-steps`, {
        token: admin,
        body: {
          project_id: projectId,
          description: 'only paid orders, amount in cents',
          columns: [{ name: 'amount', type: 'decimal' }],
        },
      });
    llm.script.push({
      text: '```json\n[{"type": "filter", "expression": "status == \'paid\'"}, {"type": "derive", "column": "cents", "expression": "amount * 100"}]\n```',
    });
    const good = await suggest();
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    expect(good.body.steps).toEqual([
      { type: 'filter', expression: "status == 'paid'" },
      { type: 'derive', column: 'cents', expression: 'amount * 100' },
    ]);
    expect(JSON.stringify(llm.seen[0]!.body)).toContain('amount decimal');
    llm.script.push({ text: '[{"type": "explode", "column": "x"}]' });
    const bad = await suggest();
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toContain('the steps are not valid: 0');
    llm.script.push({ text: 'Sure! Filter the paid ones.' });
    expect((await suggest()).status).toBe(422);
  });

  it('describes a catalog dataset, naming only its columns', async () => {
    await query(source.url, 'create table orders (id int primary key, amount numeric, placed date)');
    const connector = await createPostgresConnector(t, admin, projectId, 'orders db', source.name);
    expect((await api(t, 'POST', `/api/v1/data-connectors/${connector}/discover`, { token: admin })).status).toBe(200);
    const datasets = await api<{ items: Array<{ id: string; name: string }> }>(
      t,
      'GET',
      `/api/v1/catalog/datasets?connector_id=${connector}`,
      { token: admin },
    );
    const dataset = datasets.body.items.find((d) => d.name === 'orders')!.id;
    const created = await provider({ name: 'describer' });
    const describe = () =>
      api<{ description: string; columns: unknown[]; detail?: string }>(
        t,
        'POST',
        `/api/v1/ai-providers/${created.body.id}/describe-dataset`,
        { token: admin, body: { dataset_id: dataset } },
      );
    llm.script.push({
      text: '{"description": "Orders placed by customers.", "columns": {"id": "The order number.", "amount": "What it cost.", "placed": "When."}}',
    });
    const good = await describe();
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    expect(good.body).toEqual({
      description: 'Orders placed by customers.',
      columns: [
        { name: 'id', description: 'The order number.' },
        { name: 'amount', description: 'What it cost.' },
        { name: 'placed', description: 'When.' },
      ],
    });
    llm.script.push({ text: '{"description": "x", "columns": {"customer": "who"}}' });
    const bad = await describe();
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toContain('a column "customer" the dataset does not have');
  });

  it('keeps providers to their project and instance-wide ones to administrators, and calls out through the egress policy', async () => {
    const other = await createUser(t, admin);
    await api(t, 'PUT', `/api/v1/admin/projects/${projectId}/members/${other.id}`, {
      token: admin,
      body: { role: 'editor' },
    });
    const editor = other.session.accessToken;
    const instanceWide = await api(t, 'POST', '/api/v1/ai-providers', {
      token: editor,
      body: { name: 'everyone', type: 'openai_compatible', base_url: llm.url, model: 'm' },
    });
    expect(instanceWide.status).toBe(403);
    const byAdmin = await api<{ id: string; project_id: string | null }>(t, 'POST', '/api/v1/ai-providers', {
      token: admin,
      body: { name: 'everyone', type: 'openai_compatible', base_url: llm.url, model: 'm' },
    });
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.project_id).toBeNull();
    // The editor sees it and may use it in the project, but not change it.
    const listed = await api<{ items: Array<{ name: string }> }>(t, 'GET', '/api/v1/ai-providers', { token: editor });
    expect(listed.body.items.map((p) => p.name)).toContain('everyone');
    expect(
      (await api(t, 'PATCH', `/api/v1/ai-providers/${byAdmin.body.id}`, { token: editor, body: { model: 'x' } }))
        .status,
    ).toBe(403);
    llm.script.push({ text: '[]' });
    const used = await api(t, 'POST', `/api/v1/ai-providers/${byAdmin.body.id}/suggest-steps`, {
      token: editor,
      body: { project_id: projectId, description: 'nothing' },
    });
    expect(used.status, JSON.stringify(used.body)).toBe(200);
    // A project provider cannot be used for another project.
    const elsewhere = (await createProject(t, admin)).id;
    const local = await provider({ name: 'project only' });
    const wrongProject = await api(t, 'POST', `/api/v1/ai-providers/${local.body.id}/suggest-steps`, {
      token: admin,
      body: { project_id: elsewhere, description: 'x' },
    });
    expect(wrongProject.status).toBe(422);
    // A private address is refused by the egress policy before any connection.
    const private10 = await provider({ name: 'private', base_url: 'http://10.255.255.1:8080/v1' });
    const refused = await api<{ detail: string }>(t, 'POST', `/api/v1/ai-providers/${private10.body.id}/test`, {
      token: admin,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail).toContain('not allowed by the egress policy');
  });
});
