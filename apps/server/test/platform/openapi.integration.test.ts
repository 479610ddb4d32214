import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPABILITIES, INSTANCE_CAPABILITIES } from '../../src/platform/authz.js';
import { startTestApp, type TestApp } from '../support/app.js';

interface Operation {
  operationId?: string;
  tags?: string[];
  responses?: Record<string, unknown>;
  security?: unknown[];
  'x-capability'?: string;
}
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];

describe('OpenAPI document and /docs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  async function fetchDocument(): Promise<Document> {
    const response = await fetch(`${t.url}/openapi.json`);
    expect(response.status).toBe(200);
    return (await response.json()) as Document;
  }

  it('is a valid OpenAPI 3.1 document', async () => {
    const document = await fetchDocument();
    expect(document.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeDefined();
  });

  it('lists every registered API route, each with an operationId, a tag and the error envelope', async () => {
    const document = await fetchDocument();
    const toOpenApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const registered = t.app.knownRoutes().map((r) => ({ method: r.method.toLowerCase(), url: r.url }));
    // The API and the platform endpoints; the web UI's static files (served at /) are not API routes.
    const expected = registered.filter(
      (r) =>
        HTTP_METHODS.includes(r.method) &&
        (r.url.startsWith('/api/') || ['/health', '/metrics', '/openapi.json'].includes(r.url)),
    );
    expect(expected.length).toBeGreaterThan(3);
    for (const route of expected) {
      const operation = document.paths[toOpenApiPath(route.url)]?.[route.method];
      expect(operation, `${route.method.toUpperCase()} ${route.url}`).toBeDefined();
    }
    const operationIds = new Set<string>();
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(operation.operationId, `${method} ${path}`).toMatch(/\S/);
        expect(operationIds.has(operation.operationId!)).toBe(false);
        operationIds.add(operation.operationId!);
        expect(operation.tags?.length, `${method} ${path} tags`).toBeGreaterThan(0);
        expect(JSON.stringify(operation.responses?.['4XX'])).toContain('ErrorEnvelope');
      }
    }
  });

  it('marks exactly the public routes as needing no credentials', async () => {
    const document = await fetchDocument();
    const open = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => Array.isArray(op.security) && op.security.length === 0)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    // The interface document's list, plus the SSO discovery, start and callback routes.
    expect(open.sort()).toEqual(
      [
        'GET /health',
        'GET /metrics',
        'GET /openapi.json',
        'POST /api/v1/auth/login',
        'POST /api/v1/auth/refresh',
        'GET /api/v1/sso/discovery',
        'GET /api/v1/sso/{id}/start',
        'GET /api/v1/sso/callback',
        // Guarded by the inbox's own credential (bearer, basic or HMAC), not by a user's.
        'POST /api/v1/inboxes/{id}/receive',
      ].sort(),
    );
  });

  it('names the capability of every non-public API route, one of the catalogue', async () => {
    const document = await fetchDocument();
    const known = new Set<string>([...CAPABILITIES, ...INSTANCE_CAPABILITIES, 'self', 'authenticated']);
    const undeclared: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      if (!path.startsWith('/api/v1/')) continue;
      for (const [method, operation] of Object.entries(item)) {
        const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
        if (isPublic) expect(operation['x-capability'], `${method} ${path} is public`).toBeUndefined();
        else if (!known.has(operation['x-capability'] ?? ''))
          undeclared.push(`${method.toUpperCase()} ${path}: ${operation['x-capability']}`);
      }
    }
    expect(undeclared).toEqual([]);
  });

  it('serves the interactive documentation at /docs', async () => {
    const page = await fetch(`${t.url}/docs`, { redirect: 'follow' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger');
  });
});
