import type { ColumnSchema, ConnectorContext, ConnectorDefinition, ConnectorHandle } from '../../types.js';
import { ConnectorError } from '../../types.js';
import { ApiClient } from './client.js';
import { DEFAULTS, LIMITS, resolveConfig, type HttpApiConfig, type ResolvedConfig } from './config.js';
import { discoverEndpoints } from './discover.js';
import { JSON_PATH_PATTERN } from './json.js';
import { fetchPages } from './pagination.js';
import { readEndpoint, type ReadContext } from './read.js';

export type { HttpApiConfig } from './config.js';

const jsonPath = (title: string, defaultValue?: string) => ({ type: 'string', pattern: JSON_PATH_PATTERN, title, ...(defaultValue ? { default: defaultValue } : {}) });
const param = (title: string, defaultValue?: string) => ({ type: 'string', minLength: 1, title, ...(defaultValue ? { default: defaultValue } : {}) });

const paginationSpec = {
  title: 'Pagination',
  default: { type: 'none' },
  oneOf: [
    { type: 'object', title: 'None', required: ['type'], additionalProperties: false, properties: { type: { const: 'none' } } },
    {
      type: 'object',
      title: 'Offset and limit',
      required: ['type'],
      additionalProperties: false,
      properties: {
        type: { const: 'offset' },
        limit_param: param('Limit parameter', DEFAULTS.limitParam),
        offset_param: param('Offset parameter', DEFAULTS.offsetParam),
        page_size: { type: 'integer', minimum: 1, maximum: LIMITS.pageSize, default: DEFAULTS.pageSize, title: 'Page size' },
      },
    },
    {
      type: 'object',
      title: 'Cursor in the response',
      required: ['type', 'cursor_param', 'next_cursor_path'],
      additionalProperties: false,
      properties: {
        type: { const: 'cursor' },
        cursor_param: param('Query parameter that sends the cursor'),
        next_cursor_path: jsonPath('JSON path of the next cursor in the response (stops when missing, null or empty)'),
      },
    },
    {
      type: 'object',
      title: 'Link header (rel="next")',
      required: ['type'],
      additionalProperties: false,
      properties: { type: { const: 'link_header' } },
    },
  ],
};

export const httpApiSpec = {
  type: 'object',
  required: ['base_url', 'endpoints'],
  additionalProperties: false,
  properties: {
    base_url: { type: 'string', format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://', title: 'Base URL' },
    auth_header_name: { type: 'string', minLength: 1, default: DEFAULTS.authHeaderName, title: 'Auth header name' },
    auth_header_value: { type: 'string', title: 'Auth header value (e.g. "Bearer xyz")', 'x-secret': true },
    headers: { type: 'object', additionalProperties: { type: 'string' }, title: 'Other headers' },
    endpoints: {
      type: 'array',
      minItems: 1,
      title: 'Endpoints (one dataset each)',
      items: {
        type: 'object',
        required: ['name', 'path'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', pattern: '^[A-Za-z0-9_]+$', title: 'Dataset name' },
          path: { type: 'string', title: 'Path, relative to the base URL' },
          records_path: jsonPath('JSON path of the array of records ($ for a top-level array)', '$'),
          pagination: paginationSpec,
          primary_key: { type: 'array', items: { type: 'string', minLength: 1 }, title: 'Primary key fields' },
          cursor_field: { type: 'string', minLength: 1, title: 'Cursor field for incremental reads' },
          cursor_param: param('Query parameter that filters by the saved cursor (e.g. updated_since)'),
        },
      },
    },
    timeout_ms: { type: 'integer', minimum: 1, maximum: LIMITS.timeoutMs, default: DEFAULTS.timeoutMs, title: 'Request timeout (ms)' },
    max_pages: { type: 'integer', minimum: 1, maximum: LIMITS.maxPages, default: DEFAULTS.maxPages, title: 'Most pages read per endpoint (a safety stop)' },
  },
} as const;

/** Nothing connects ahead: each call makes its own requests. A bad configuration surfaces in check, discover and read, not in open. */
export function openHttpApi(config: HttpApiConfig, context: ConnectorContext): ConnectorHandle {
  let resolved: ResolvedConfig | ConnectorError;
  try {
    resolved = resolveConfig(config);
  } catch (error) {
    resolved = error instanceof ConnectorError ? error : new ConnectorError('invalid_config', (error as Error).message, false);
  }
  const schemas = new Map<string, ColumnSchema[]>();
  let readContext: ReadContext | undefined;
  const ready = (): ReadContext => {
    if (resolved instanceof ConnectorError) throw resolved;
    return (readContext ??= { client: new ApiClient(resolved, context), config: resolved, log: context.log, schemas });
  };
  return {
    async check(signal) {
      try {
        const { client, config: resolvedConfig, log } = ready();
        const endpoint = resolvedConfig.endpoints[0]!;
        for await (const page of fetchPages(client, resolvedConfig, endpoint, log, {}, signal)) {
          let count = 0;
          for await (const chunk of page.records) count += chunk.length;
          return { ok: true, detail: `${count} records on the first page of "${endpoint.name}"` };
        }
        return { ok: true };
      } catch (error) {
        if (signal?.aborted && error === signal.reason) throw error;
        if (error instanceof ConnectorError) return { ok: false, code: error.code, message: error.message };
        // Unexpected failures still must not leak the secret.
        const message = readContext ? readContext.client.redact(String((error as Error)?.message ?? error)) : 'check failed';
        return { ok: false, code: 'failed', message };
      }
    },
    async discover(signal) {
      return discoverEndpoints(ready(), signal);
    },
    async *read(request, signal) {
      yield* readEndpoint(ready(), request, signal);
    },
    async close() {
      schemas.clear();
      await readContext?.client.close();
    },
  };
}

export const httpApiConnector: ConnectorDefinition<HttpApiConfig> = {
  kind: 'http_api',
  title: 'HTTP JSON API',
  version: 1,
  spec: httpApiSpec as unknown as ConnectorDefinition['spec'],
  capabilities: { read: true, write: false, writeModes: [] },
  async open(config, context) {
    return openHttpApi(config, context);
  },
};
