/** The configuration of an HTTP JSON API connector, with defaults applied and paths compiled. */
import { Type, type Static } from 'typebox';
import { ConnectorError, Secret } from '../../types.js';
import { compilePath, JSON_PATH_PATTERN, type JsonPath } from './json.js';

export type ResolvedPagination =
  | { type: 'none' }
  | { type: 'offset'; limitParam: string; offsetParam: string; pageSize: number }
  | { type: 'cursor'; cursorParam: string; nextCursorPath: JsonPath }
  | { type: 'link_header' };

export interface ResolvedEndpoint {
  name: string;
  url: URL;
  recordsPath: string;
  records: JsonPath;
  pagination: ResolvedPagination;
  primaryKey: string[];
  cursorField?: string;
  cursorParam?: string;
}

export interface ResolvedConfig {
  base: URL;
  headers: Headers;
  /** The secret, kept apart so that messages can be scrubbed of it. */
  authValue?: string;
  endpoints: ResolvedEndpoint[];
  timeoutMs: number;
  maxPages: number;
}

export const DEFAULTS = {
  authHeaderName: 'Authorization',
  limitParam: 'limit',
  offsetParam: 'offset',
  pageSize: 100,
  timeoutMs: 30_000,
  maxPages: 10_000,
};
/**
 * Upper bounds of the numbers a user sets. A request may take up to 5 minutes (a slow export
 * endpoint), a read at most 100,000 pages (10 million records at 100 a page; the default stops at
 * 10,000), a page at most 10,000 records (bodies stay far below the response size limit).
 */
export const LIMITS = { timeoutMs: 300_000, maxPages: 100_000, pageSize: 10_000 };

const jsonPath = (title: string, defaultValue?: string) =>
  Type.String({ pattern: JSON_PATH_PATTERN, title, ...(defaultValue ? { default: defaultValue } : {}) });
const param = (title: string, defaultValue?: string) =>
  Type.String({ minLength: 1, title, ...(defaultValue ? { default: defaultValue } : {}) });

const noPagination = Type.Object({ type: Type.Literal('none') }, { title: 'None', additionalProperties: false });
const offsetPagination = Type.Object(
  {
    type: Type.Literal('offset'),
    limit_param: Type.Optional(param('Limit parameter', DEFAULTS.limitParam)),
    offset_param: Type.Optional(param('Offset parameter', DEFAULTS.offsetParam)),
    page_size: Type.Optional(
      Type.Integer({ minimum: 1, maximum: LIMITS.pageSize, default: DEFAULTS.pageSize, title: 'Page size' }),
    ),
  },
  { title: 'Offset and limit', additionalProperties: false },
);
const cursorPagination = Type.Object(
  {
    type: Type.Literal('cursor'),
    cursor_param: param('Query parameter that sends the cursor'),
    next_cursor_path: jsonPath('JSON path of the next cursor in the response (stops when missing, null or empty)'),
  },
  { title: 'Cursor in the response', additionalProperties: false },
);
const linkHeaderPagination = Type.Object(
  { type: Type.Literal('link_header') },
  { title: 'Link header (rel="next")', additionalProperties: false },
);
const paginations = [noPagination, offsetPagination, cursorPagination, linkHeaderPagination];

export type PaginationConfig =
  | Static<typeof noPagination>
  | Static<typeof offsetPagination>
  | Static<typeof cursorPagination>
  | Static<typeof linkHeaderPagination>;

/** The variants are told apart by `type`: exactly one matches (oneOf, where Type.Union would say anyOf). */
const paginationSpec = Type.Unsafe<PaginationConfig>({
  title: 'Pagination',
  default: { type: 'none' },
  oneOf: paginations,
});

const endpointSpec = Type.Object(
  {
    /** The dataset name. */
    name: Type.String({ pattern: '^[A-Za-z0-9_]+$', title: 'Dataset name' }),
    /** Relative to base_url; may carry a query string. */
    path: Type.String({ title: 'Path, relative to the base URL' }),
    /** Where the array of records is in a response: `$` for a top-level array, `$.data.items`. */
    records_path: Type.Optional(jsonPath('JSON path of the array of records ($ for a top-level array)', '$')),
    pagination: Type.Optional(paginationSpec),
    primary_key: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { title: 'Primary key fields' })),
    /** The field incremental reads compare against the saved cursor. */
    cursor_field: Type.Optional(Type.String({ minLength: 1, title: 'Cursor field for incremental reads' })),
    /** The query parameter through which the API itself filters by the saved cursor, e.g. `updated_since`. */
    cursor_param: Type.Optional(param('Query parameter that filters by the saved cursor (e.g. updated_since)')),
  },
  { additionalProperties: false },
);

export type EndpointConfig = Static<typeof endpointSpec>;

export const httpApiSpec = Type.Object(
  {
    base_url: Type.String({ format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://', title: 'Base URL' }),
    auth_header_name: Type.Optional(
      Type.String({ minLength: 1, default: DEFAULTS.authHeaderName, title: 'Auth header name' }),
    ),
    auth_header_value: Secret('Auth header value (e.g. "Bearer xyz")'),
    headers: Type.Optional(Type.Record(Type.String(), Type.String(), { title: 'Other headers' })),
    endpoints: Type.Array(endpointSpec, { minItems: 1, title: 'Endpoints (one dataset each)' }),
    timeout_ms: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: LIMITS.timeoutMs,
        default: DEFAULTS.timeoutMs,
        title: 'Request timeout (ms)',
      }),
    ),
    max_pages: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: LIMITS.maxPages,
        default: DEFAULTS.maxPages,
        title: 'Most pages read per endpoint (a safety stop)',
      }),
    ),
  },
  { additionalProperties: false },
);

export type HttpApiConfig = Static<typeof httpApiSpec>;

const invalid = (message: string) => new ConnectorError('invalid_config', message, false);

function path(text: string | undefined, field: string): JsonPath {
  const compiled = compilePath(text ?? '$');
  if (!compiled) throw invalid(`${field} "${text}" is not a supported JSON path ($, $.a.b, $.a[0])`);
  return compiled;
}

function positiveInteger(value: number | undefined, fallback: number, field: string, maximum: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw invalid(`${field} must be a positive integer`);
  if (value > maximum) throw invalid(`${field} must be at most ${maximum}`);
  return value;
}

/** The endpoint URL is base_url joined with the path, on base_url's origin whatever the path says. */
function endpointUrl(base: URL, endpoint: EndpointConfig): URL {
  if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(endpoint.path))
    throw invalid(`endpoint "${endpoint.name}": path must be relative to base_url, not a URL`);
  const [basePath, baseQuery] = [base.href.replace(/[?#].*$/, '').replace(/\/+$/, ''), base.search];
  const url = new URL(`${basePath}/${endpoint.path.replace(/^\/+/, '')}`);
  for (const [key, value] of new URLSearchParams(baseQuery))
    if (!url.searchParams.has(key)) url.searchParams.append(key, value);
  if (url.origin !== base.origin) throw invalid(`endpoint "${endpoint.name}": path leaves the origin of base_url`);
  return url;
}

function pagination(endpoint: EndpointConfig): ResolvedPagination {
  const config = endpoint.pagination ?? { type: 'none' };
  const field = `endpoint "${endpoint.name}": pagination`;
  switch (config.type) {
    case 'none':
    case 'link_header':
      return { type: config.type };
    case 'offset':
      return {
        type: 'offset',
        limitParam: config.limit_param || DEFAULTS.limitParam,
        offsetParam: config.offset_param || DEFAULTS.offsetParam,
        pageSize: positiveInteger(config.page_size, DEFAULTS.pageSize, `${field}.page_size`, LIMITS.pageSize),
      };
    case 'cursor':
      if (!config.cursor_param) throw invalid(`${field}.cursor_param is required for cursor pagination`);
      if (!config.next_cursor_path) throw invalid(`${field}.next_cursor_path is required for cursor pagination`);
      return {
        type: 'cursor',
        cursorParam: config.cursor_param,
        nextCursorPath: path(config.next_cursor_path, `${field}.next_cursor_path`),
      };
    default:
      throw invalid(`${field}.type must be one of none, offset, cursor, link_header`);
  }
}

export function resolveConfig(config: HttpApiConfig): ResolvedConfig {
  let base: URL;
  try {
    base = new URL(config.base_url);
  } catch {
    throw invalid('base_url is not a URL');
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw invalid('base_url must be an http or https URL');
  if (!config.endpoints?.length) throw invalid('at least one endpoint is required');
  const names = new Set<string>();
  const endpoints = config.endpoints.map((endpoint): ResolvedEndpoint => {
    if (!/^[A-Za-z0-9_]+$/.test(endpoint.name ?? ''))
      throw invalid(`endpoint name "${endpoint.name}" may hold only letters, digits and _`);
    if (names.has(endpoint.name)) throw invalid(`endpoint name "${endpoint.name}" is used twice`);
    names.add(endpoint.name);
    return {
      name: endpoint.name,
      url: endpointUrl(base, endpoint),
      recordsPath: endpoint.records_path ?? '$',
      records: path(endpoint.records_path, `endpoint "${endpoint.name}": records_path`),
      pagination: pagination(endpoint),
      primaryKey: endpoint.primary_key ?? [],
      cursorField: endpoint.cursor_field || undefined,
      cursorParam: endpoint.cursor_param || undefined,
    };
  });
  // set(), not an object spread: header names are case-insensitive, a configured Accept replaces ours.
  const headers = new Headers({ accept: 'application/json' });
  for (const [name, value] of Object.entries(config.headers ?? {})) {
    try {
      headers.set(name, value);
    } catch {
      throw invalid(`headers: "${name}" is not a valid header name or its value is not a valid header value`);
    }
  }
  const authValue = config.auth_header_value || undefined;
  const authName = config.auth_header_name || DEFAULTS.authHeaderName;
  if (authValue !== undefined) {
    try {
      headers.set(authName, authValue);
    } catch {
      // The value is a secret: the message names only the field.
      throw invalid(`auth_header_name "${authName}" or auth_header_value is not valid in an HTTP header`);
    }
  }
  return {
    base,
    headers,
    authValue,
    endpoints,
    timeoutMs: positiveInteger(config.timeout_ms, DEFAULTS.timeoutMs, 'timeout_ms', LIMITS.timeoutMs),
    maxPages: positiveInteger(config.max_pages, DEFAULTS.maxPages, 'max_pages', LIMITS.maxPages),
  };
}
