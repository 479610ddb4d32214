import { registry, type ConnectorDefinition } from '@svc/engine';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject } from '../support/http.js';

// A kind whose version 2 renames its only field: a breaking change, so both versions stay registered.
const KIND = 'versioned_probe';
const probe = <Field extends string>(version: number, field: Field): ConnectorDefinition => {
  const spec = Type.Object({ [field]: Type.String({ minLength: 1, title: field }) }, { additionalProperties: false });
  return {
    kind: KIND,
    title: 'Versioned probe',
    version,
    spec,
    capabilities: { read: false, write: false, writeModes: [] },
    async open(config) {
      const value = String((config as Record<string, unknown>)[field]);
      return {
        check: async () => ({ ok: true, detail: `version ${version} opened with ${field}=${value}` }),
        discover: async () => [],
        close: async () => undefined,
      };
    },
  };
};

describe('connector versions', () => {
  let t: TestApp;
  let admin: string;
  let projectId: string;
  beforeAll(async () => {
    registry.register(probe(1, 'greeting'));
    t = await startTestApp({ env: NO_RATE_LIMITS });
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const create = (name: string, config: Record<string, unknown>) =>
    api<Record<string, unknown>>(t, 'POST', '/api/v1/data-connectors', {
      token: admin,
      body: { project_id: projectId, name, kind: KIND, config },
    });
  const check = async (id: string) =>
    (await api<{ ok: boolean; detail?: string }>(t, 'POST', `/api/v1/data-connectors/${id}/test`, { token: admin }))
      .body;

  it('keeps the version a connector was created at: each opens and validates with its own definition', async () => {
    const old = await create('made at version 1', { greeting: 'hi' });
    expect(old.status).toBe(201);

    registry.register(probe(2, 'salutation'));
    const kinds = await api<{
      items: Array<{ kind: string; version: number; spec: { properties: Record<string, unknown> } }>;
    }>(t, 'GET', '/api/v1/data-connectors/kinds', { token: admin });
    const listed = kinds.body.items.filter((k) => k.kind === KIND);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ version: 2 });
    expect(Object.keys(listed[0]!.spec.properties)).toEqual(['salutation']);

    // New connectors are created at the latest version: its spec, not the old one, applies.
    expect((await create('old field', { greeting: 'hi' })).status).toBe(422);
    const current = await create('made at version 2', { salutation: 'hello' });
    expect(current.status).toBe(201);

    expect(await check(old.body['id'] as string)).toMatchObject({
      ok: true,
      detail: 'version 1 opened with greeting=hi',
    });
    expect(await check(current.body['id'] as string)).toMatchObject({
      ok: true,
      detail: 'version 2 opened with salutation=hello',
    });

    // A change to the old connector is validated against its own version's spec.
    const changed = await api(t, 'PATCH', `/api/v1/data-connectors/${old.body['id'] as string}`, {
      token: admin,
      body: { config: { greeting: 'hey' } },
    });
    expect(changed.status).toBe(200);
    expect(await check(old.body['id'] as string)).toMatchObject({ detail: 'version 1 opened with greeting=hey' });
    const renamed = await api(t, 'PATCH', `/api/v1/data-connectors/${old.body['id'] as string}`, {
      token: admin,
      body: { config: { salutation: 'hey' } },
    });
    expect(renamed.status).toBe(422);
  });

  it('refuses to register a version twice', () => {
    expect(() => registry.register(probe(1, 'greeting'))).toThrow(/already registered/);
  });
});
