import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { unrestrictedEgress } from '../../../egress.js';
import { ConnectorError, secretFields, type ConnectorHandle, type RecordBatch, type Value } from '../../../types.js';
import { CONTRACT_DATASETS, connectorContract } from '../../../__tests__/contract.js';
import { CANONICAL_DOC, CANONICAL_LABEL, col } from '../../../__tests__/support.js';
import type { ColumnSchema } from '../../../types.js';
import type { EndpointConfig, HttpApiConfig } from '../config.js';
import { httpApiConnector, openHttpApi } from '../definition.js';

const TOKEN = 'Bearer s3cret-token-42';
/** These tests reach their own loopback servers: no egress limits. */
const direct = { log: () => undefined, egress: unrestrictedEgress };

interface Seen {
  path: string;
  query: URLSearchParams;
  auth: string | undefined;
}

type Route = (query: URLSearchParams, res: ServerResponse, origin: string) => void;

const json = (res: ServerResponse, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

// Literal JSON text: 9007199254740993 (2^53 + 1) would lose its last digit through JSON.stringify.
const TYPES_BODY = `{"data": {"items": [
  {"id": 1, "big": 9007199254740993, "price": 1.5, "active": true, "created_at": "2024-03-01T12:30:00+02:00", "day": "2024-03-01", "meta": {"a": 1}, "nothing": null},
  {"id": 2, "big": 9223372036854775807, "price": 2, "active": false, "created_at": "2024-03-01T10:00:00.123456789Z", "day": "2024-02-29", "meta": [1, 2], "nothing": null},
  {"id": 3, "price": -0.25, "active": null, "extra": "only here"}
]}}`;

const ITEMS = Array.from({ length: 250 }, (_, i) => ({ id: i + 1, name: `item ${i + 1}` }));
const CURSOR_ITEMS = ['a', 'b', 'c', 'd', 'e'].map((code, i) => ({ code, rank: i }));
const EVENTS = [
  { id: 1, updated_at: '2024-01-01T00:00:00.000000Z' },
  { id: 2, updated_at: '2024-01-02T00:00:00.000000Z' },
  { id: 3, updated_at: '2024-01-03T00:00:00.000000Z' },
  { id: 4, updated_at: '2024-01-04T00:00:00.000000Z' },
];

function routes(state: { limitedCalls: number; flakyCalls: number; otherOrigin: string }): Record<string, Route> {
  return {
    '/v1/types': (_q, res) => json(res, TYPES_BODY),
    '/v1/items': (q, res) => {
      const [limit, offset] = [Number(q.get('limit')), Number(q.get('offset'))];
      json(res, ITEMS.slice(offset, offset + limit));
    },
    '/v1/cursor': (q, res) => {
      const start = q.has('after') ? CURSOR_ITEMS.findIndex((item) => item.code === q.get('after')) + 1 : 0;
      const page = CURSOR_ITEMS.slice(start, start + 2);
      const more = start + 2 < CURSOR_ITEMS.length;
      json(res, { results: page, meta: { next: more ? page.at(-1)!.code : null } });
    },
    '/v1/linked': (q, res, origin) => {
      const page = Number(q.get('page') ?? 1);
      // A relative link first, then an absolute one among other relations.
      const link =
        page === 1
          ? '</v1/linked?page=2>; rel="next"'
          : page === 2
            ? `<${origin}/v1/linked?page=1>; rel="prev", <${origin}/v1/linked?page=3>; rel="next last"`
            : `<${origin}/v1/linked?page=2>; rel=prev`;
      json(res, { rows: [{ page }] }, { link });
    },
    '/v1/escape': (_q, res) =>
      json(res, { rows: [{ page: 1 }] }, { link: `<${state.otherOrigin}/steal?page=2>; rel="next"` }),
    '/v1/events': (q, res) => {
      // Inclusive on purpose: the connector must drop the record equal to the saved cursor itself.
      const since = q.get('updated_since');
      json(res, { events: since ? EVENTS.filter((e) => e.updated_at >= since) : EVENTS });
    },
    '/v1/limited': (_q, res) => {
      if (state.limitedCalls++ === 0) {
        res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' });
        res.end('{"error":"slow down"}');
        return;
      }
      json(res, [{ ok: true }]);
    },
    '/v1/flaky': (_q, res) => {
      if (state.flakyCalls++ === 0) {
        res.writeHead(503);
        res.end('busy');
        return;
      }
      json(res, [{ ok: true }]);
    },
    // Answers long after the connector's timeout in the test below.
    '/v1/slow': (_q, res) => void setTimeout(() => json(res, []), 1500),
    '/v1/endless': (q, res) => {
      const n = Number(q.get('cursor') ?? 0);
      json(res, { rows: [{ n }], next: n + 1 });
    },
  };
}

function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

async function collect(iterable: AsyncIterable<RecordBatch>): Promise<RecordBatch[]> {
  const batches: RecordBatch[] = [];
  for await (const batch of iterable) batches.push(batch);
  return batches;
}

const objects = (batches: RecordBatch[]) =>
  batches.flatMap((b) =>
    b.rows.map((row) => Object.fromEntries(b.columns.map((c, i) => [c.name, row[i]])) as Record<string, Value>),
  );

describe('HTTP JSON API connector', () => {
  let api: Server;
  let origin: string;
  let other: Server;
  let otherOrigin: string;
  const seen: Seen[] = [];
  const otherSeen: Seen[] = [];
  const state = { limitedCalls: 0, flakyCalls: 0, otherOrigin: '' };
  const logs: Array<{ level: string; message: string }> = [];
  const handles: ConnectorHandle[] = [];
  /** The datasets of the connector contract, as JSON text by name. */
  const contractData = new Map<string, string>();

  beforeAll(async () => {
    ({ server: other, origin: otherOrigin } = await listen((req, res) => {
      otherSeen.push({ path: req.url!, query: new URLSearchParams(), auth: req.headers.authorization });
      json(res, { rows: [] });
    }));
    state.otherOrigin = otherOrigin;
    const table = routes(state);
    ({ server: api, origin } = await listen((req, res) => {
      const url = new URL(req.url!, 'http://placeholder');
      seen.push({ path: url.pathname, query: url.searchParams, auth: req.headers.authorization });
      if (req.headers.authorization !== TOKEN) {
        // Echoes what it got, as some APIs do: the connector must scrub it from its messages.
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'invalid token', received: req.headers.authorization ?? null }));
        return;
      }
      // A contract dataset not seeded yet is empty.
      if (url.pathname.startsWith('/v1/contract/'))
        return json(res, contractData.get(url.pathname.slice('/v1/contract/'.length)) ?? '[]');
      const route = table[url.pathname];
      if (!route) {
        res.writeHead(404);
        res.end();
        return;
      }
      route(url.searchParams, res, origin);
    }));
  });

  afterAll(async () => {
    for (const handle of handles) await handle.close();
    await close(api);
    await close(other);
  });

  beforeEach(() => {
    seen.length = 0;
    otherSeen.length = 0;
    logs.length = 0;
  });

  const open = (endpoints: EndpointConfig[], extra: Partial<HttpApiConfig> = {}) => {
    const handle = openHttpApi(
      { base_url: `${origin}/v1`, auth_header_value: TOKEN, endpoints, ...extra },
      { log: (level, message) => logs.push({ level, message }), egress: unrestrictedEgress },
    );
    handles.push(handle);
    return handle;
  };
  const read = (
    handle: ConnectorHandle,
    name: string,
    request: Partial<Parameters<NonNullable<ConnectorHandle['read']>>[0]> = {},
  ) => collect(handle.read!({ dataset: { namespace: null, name }, ...request }));

  // Read-only: the contract's rows are served as JSON records, int64 as bare numbers (JSON.stringify would quote them).
  const contractConfig = (token: string): HttpApiConfig => ({
    base_url: `${origin}/v1`,
    auth_header_value: token,
    endpoints: CONTRACT_DATASETS.map((name) => ({ name, path: `contract/${name}` })),
  });
  const contractRecord = (columns: ColumnSchema[], row: Value[]) =>
    `{${columns.map((c, i) => `${JSON.stringify(c.name)}:${c.type === 'int64' && row[i] !== null ? String(row[i]) : JSON.stringify(row[i])}`).join(',')}}`;
  connectorContract('http_api', {
    capabilities: httpApiConnector.capabilities,
    open: () => openHttpApi(contractConfig(TOKEN), direct),
    broken: { open: () => openHttpApi(contractConfig('Bearer not-the-token'), direct), code: 'auth_failed' },
    dataset: (name) => ({ namespace: null, name }),
    seed: async (name, columns, rows) =>
      void contractData.set(name, `[${rows.map((row) => contractRecord(columns, row)).join(',')}]`),
    incremental: true,
    // The types JSON can carry, inferred back from the records.
    canonical: {
      columns: [
        col('id', 'int32'),
        col('flag', 'boolean'),
        col('big', 'int64'),
        col('double_value', 'float64'),
        col('label', 'string'),
        col('day', 'date'),
        col('instant', 'timestamptz'),
        col('doc', 'json'),
      ],
      rows: [
        [
          1,
          true,
          '9223372036854775807',
          0.1 + 0.2,
          CANONICAL_LABEL,
          '2024-02-29',
          '2024-02-29T12:34:56.789012Z',
          CANONICAL_DOC,
        ],
        [
          2,
          false,
          '-9223372036854775808',
          -1.7976931348623157e308,
          '',
          '0001-01-01',
          '1970-01-01T00:00:00.000000Z',
          [],
        ],
        [3, null, null, null, null, null, null, null],
      ],
    },
  });

  it('describes itself as a read-only source with a secret auth value', () => {
    expect(httpApiConnector).toMatchObject({
      kind: 'http_api',
      title: 'HTTP JSON API',
      version: 1,
      capabilities: { read: true, write: false, writeModes: [] },
    });
    expect(httpApiConnector.spec.properties['auth_header_value']).toMatchObject({ 'x-secret': true });
    expect(secretFields(httpApiConnector.spec)).toEqual(['auth_header_value']);
  });

  it('checks a good configuration with a GET of the first endpoint', async () => {
    const result = await open([{ name: 'items', path: 'items', pagination: { type: 'offset' } }]).check();
    expect(result).toMatchObject({ ok: true });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ path: '/v1/items', auth: TOKEN });
    expect(Object.fromEntries(seen[0]!.query)).toEqual({ limit: '100', offset: '0' });
  });

  it('reports a wrong auth value as auth_failed without ever repeating it', async () => {
    const wrong = 'Bearer wrong-but-secret-999';
    const handle = openHttpApi(
      { base_url: `${origin}/v1`, auth_header_value: wrong, endpoints: [{ name: 'types', path: 'types' }] },
      direct,
    );
    const result = await handle.check();
    expect(result).toMatchObject({ ok: false, code: 'auth_failed' });
    expect(JSON.stringify(result)).not.toContain('wrong-but-secret-999');
    // The server did echo it; the read's error must not carry it either.
    const error = await read(handle, 'types').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error).toMatchObject({ code: 'auth_failed', retryable: false });
    expect(`${(error as Error).message} ${String((error as Error).stack)}`).not.toContain('wrong-but-secret-999');
    const missing = await openHttpApi(
      { base_url: `${origin}/v1`, endpoints: [{ name: 'types', path: 'types' }] },
      direct,
    ).check();
    expect(missing).toMatchObject({ ok: false, code: 'auth_failed' });
  });

  it('reports a missing path as not_found and a closed port as unreachable', async () => {
    expect(await open([{ name: 'nope', path: 'no/such/thing' }]).check()).toMatchObject({
      ok: false,
      code: 'not_found',
    });
    const { server, origin: closedOrigin } = await listen(() => undefined);
    await close(server);
    const refused = await openHttpApi(
      { base_url: closedOrigin, auth_header_value: TOKEN, endpoints: [{ name: 'x', path: 'x' }] },
      direct,
    ).check();
    expect(refused).toMatchObject({ ok: false, code: 'unreachable' });
    expect(JSON.stringify(refused)).not.toContain('s3cret');
  });

  it('reports a server slower than timeout_ms as a timeout', async () => {
    const started = Date.now();
    expect(await open([{ name: 'slow', path: 'slow' }], { timeout_ms: 200 }).check()).toMatchObject({
      ok: false,
      code: 'timeout',
    });
    expect(Date.now() - started).toBeLessThan(1400);
  });

  it('reports a bad configuration from check, not from open', async () => {
    const handle = openHttpApi({ base_url: 'ftp://example.com', endpoints: [{ name: 'x', path: 'x' }] }, direct);
    expect(await handle.check()).toMatchObject({ ok: false, code: 'invalid_config' });
    const absolute = openHttpApi(
      { base_url: origin, endpoints: [{ name: 'x', path: 'http://elsewhere.example/x' }] },
      direct,
    );
    expect(await absolute.check()).toMatchObject({ ok: false, code: 'invalid_config' });
  });

  it('discovers column types from the records under records_path', async () => {
    const handle = open([{ name: 'types', path: 'types', records_path: '$.data.items', primary_key: ['id'] }]);
    const [dataset, ...rest] = await handle.discover();
    expect(rest).toEqual([]);
    expect(dataset).toMatchObject({ namespace: null, name: 'types', primaryKey: ['id'], rowEstimate: null });
    expect(Object.fromEntries(dataset!.columns.map((c) => [c.name, c.type]))).toEqual({
      id: 'int32',
      big: 'int64',
      price: 'float64',
      active: 'boolean',
      created_at: 'timestamptz',
      day: 'date',
      meta: 'json',
      nothing: 'string',
      extra: 'string',
    });
    expect(dataset!.columns.every((c) => c.nullable)).toBe(true);
    expect(dataset!.columns.find((c) => c.name === 'created_at')!.sourceType).toBe('string (date-time)');
  });

  it('reads values in their canonical representation, without lost digits', async () => {
    // No discover first: the read infers from its first page.
    const rows = objects(await read(open([{ name: 'types', path: 'types', records_path: '$.data.items' }]), 'types'));
    expect(rows).toEqual([
      {
        id: 1,
        big: '9007199254740993',
        price: 1.5,
        active: true,
        created_at: '2024-03-01T10:30:00.000000Z',
        day: '2024-03-01',
        meta: { a: 1 },
        nothing: null,
        extra: null,
      },
      {
        id: 2,
        big: '9223372036854775807',
        price: 2,
        active: false,
        created_at: '2024-03-01T10:00:00.123456Z',
        day: '2024-02-29',
        meta: [1, 2],
        nothing: null,
        extra: null,
      },
      {
        id: 3,
        big: null,
        price: -0.25,
        active: null,
        created_at: null,
        day: null,
        meta: null,
        nothing: null,
        extra: 'only here',
      },
    ]);
  });

  it('reads 250 records through offset pagination, in order, honoring columns and batchSize', async () => {
    const handle = open([{ name: 'items', path: 'items', pagination: { type: 'offset', page_size: 100 } }]);
    const batches = await read(handle, 'items');
    expect(batches.map((b) => b.rows.length)).toEqual([100, 100, 50]);
    expect(objects(batches)).toEqual(ITEMS);
    expect(seen.map((s) => s.query.get('offset'))).toEqual(['0', '100', '200']);
    expect(seen.every((s) => s.query.get('limit') === '100')).toBe(true);

    const narrow = await read(handle, 'items', { columns: ['name'], batchSize: 40 });
    expect(narrow.map((b) => b.rows.length)).toEqual([40, 40, 20, 40, 40, 20, 40, 10]);
    expect(narrow[0]!.columns.map((c) => c.name)).toEqual(['name']);
    expect(narrow.flatMap((b) => b.rows.map((r) => r[0]))).toEqual(ITEMS.map((i) => i.name));
  });

  it('follows a cursor taken from the response until it is null', async () => {
    const handle = open([
      {
        name: 'codes',
        path: 'cursor',
        records_path: '$.results',
        pagination: { type: 'cursor', cursor_param: 'after', next_cursor_path: '$.meta.next' },
      },
    ]);
    expect(objects(await read(handle, 'codes'))).toEqual(CURSOR_ITEMS);
    expect(seen.map((s) => s.query.get('after'))).toEqual([null, 'b', 'd']);
  });

  it('follows Link rel="next" headers, relative and absolute', async () => {
    const handle = open([
      { name: 'linked', path: 'linked', records_path: '$.rows', pagination: { type: 'link_header' } },
    ]);
    expect(objects(await read(handle, 'linked'))).toEqual([{ page: 1 }, { page: 2 }, { page: 3 }]);
    expect(seen.map((s) => s.query.get('page'))).toEqual([null, '2', '3']);
  });

  it('refuses a next link to another origin, and sends it nothing', async () => {
    const handle = open([
      { name: 'escape', path: 'escape', records_path: '$.rows', pagination: { type: 'link_header' } },
    ]);
    const error = await read(handle, 'escape').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'failed', retryable: false });
    expect((error as Error).message).toContain(otherOrigin);
    expect(otherSeen).toEqual([]);
  });

  it('reads incrementally: sends cursor_param and returns only newer records', async () => {
    const handle = open([
      {
        name: 'events',
        path: 'events',
        records_path: '$.events',
        cursor_field: 'updated_at',
        cursor_param: 'updated_since',
      },
    ]);
    const rows = objects(
      await read(handle, 'events', {
        incremental: { cursorColumn: 'updated_at', after: '2024-01-02T00:00:00.000000Z' },
      }),
    );
    expect(rows.map((r) => r['id'])).toEqual([3, 4]);
    expect(seen.at(-1)!.query.get('updated_since')).toBe('2024-01-02T00:00:00.000000Z');

    // Without a parameter the API returns everything; the connector still filters, numbers numerically.
    const numeric = open([{ name: 'items', path: 'items', pagination: { type: 'offset' } }]);
    const newer = objects(await read(numeric, 'items', { incremental: { cursorColumn: 'id', after: 245 } }));
    expect(newer.map((r) => r['id'])).toEqual([246, 247, 248, 249, 250]);
  });

  it('waits out a 429 with Retry-After and retries', async () => {
    state.limitedCalls = 0;
    const started = Date.now();
    const rows = objects(await read(open([{ name: 'limited', path: 'limited' }]), 'limited'));
    expect(rows).toEqual([{ ok: true }]);
    expect(state.limitedCalls).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(logs.some((l) => l.level === 'warn' && l.message.includes('429'))).toBe(true);
  });

  it('retries a server error', async () => {
    state.flakyCalls = 0;
    expect(objects(await read(open([{ name: 'flaky', path: 'flaky' }]), 'flaky'))).toEqual([{ ok: true }]);
    expect(state.flakyCalls).toBe(2);
  });

  it('stops an endless paginator at max_pages', async () => {
    const handle = open(
      [
        {
          name: 'endless',
          path: 'endless',
          records_path: '$.rows',
          pagination: { type: 'cursor', cursor_param: 'cursor', next_cursor_path: '$.next' },
        },
      ],
      { max_pages: 5 },
    );
    const rows = objects(await read(handle, 'endless'));
    expect(rows.map((r) => r['n'])).toEqual([0, 1, 2, 3, 4]);
    expect(seen).toHaveLength(5);
    expect(logs.some((l) => l.level === 'warn' && l.message.includes('max_pages'))).toBe(true);
  });

  it('stops reading when aborted', async () => {
    const handle = open([
      {
        name: 'endless',
        path: 'endless',
        records_path: '$.rows',
        pagination: { type: 'cursor', cursor_param: 'cursor', next_cursor_path: '$.next' },
      },
    ]);
    const controller = new AbortController();
    const reason = new Error('stop now');
    let pages = 0;
    const error = await (async () => {
      for await (const _batch of handle.read!({ dataset: { namespace: null, name: 'endless' } }, controller.signal)) {
        if (++pages === 3) controller.abort(reason);
      }
    })().catch((e: unknown) => e);
    expect(error).toBe(reason);
    expect(pages).toBe(3);
  });
});
