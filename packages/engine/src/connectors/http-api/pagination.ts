/**
 * The pages of an endpoint, one request at a time: no pagination, offset/limit, a cursor taken from
 * the body, or RFC 8288 `Link: <url>; rel="next"` headers. `max_pages` stops an API that never ends.
 */
import { ConnectorError, type ConnectorContext } from '../../types.js';
import type { ApiClient, JsonResponse } from './client.js';
import type { ResolvedConfig, ResolvedEndpoint } from './config.js';
import { JsonInteger } from './json.js';

export interface Page {
  /** 1 for the first page. */
  number: number;
  /** The records, in chunks as the body arrives; read them to the end before asking for the next page. */
  records: AsyncIterable<unknown[]>;
}

/** The target of the `rel="next"` link of a Link header, resolved against the URL that answered. */
export function nextLink(header: string | null, base: URL): URL | undefined {
  if (!header) return undefined;
  // Each link: <target> followed by ;-separated parameters; rel may list several space-separated types.
  for (const match of header.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const params = match[2] ?? '';
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,"]+))/i.exec(params);
    const types = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (types.includes('next')) return new URL(match[1]!, base);
  }
  return undefined;
}

function cursorText(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (value instanceof JsonInteger) return value.text;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export async function* fetchPages(
  client: ApiClient,
  config: ResolvedConfig,
  endpoint: ResolvedEndpoint,
  log: ConnectorContext['log'],
  /** Extra query parameters of the first request (the incremental filter); later requests keep them, link targets excepted. */
  params: Record<string, string>,
  signal?: AbortSignal,
): AsyncGenerator<Page> {
  const pagination = endpoint.pagination;
  let url: URL | undefined = new URL(endpoint.url);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  let offset = 0;
  const selection = {
    records: endpoint.records,
    recordsLabel: endpoint.recordsPath,
    values: pagination.type === 'cursor' ? [pagination.nextCursorPath] : [],
  };
  if (pagination.type === 'offset') {
    url.searchParams.set(pagination.limitParam, String(pagination.pageSize));
    url.searchParams.set(pagination.offsetParam, '0');
  }
  for (let number = 1; url; number++) {
    if (number > config.maxPages) {
      log(
        'warn',
        `endpoint "${endpoint.name}": stopped after max_pages (${config.maxPages}) pages; the API still had a next page`,
      );
      return;
    }
    const response: JsonResponse = await client.getJson(url, selection, signal);
    let count = 0;
    const records = (async function* counted() {
      for await (const chunk of response.records) {
        count += chunk.length;
        yield chunk;
      }
    })();
    try {
      yield { number, records };
      // Whatever the reader left is still read: the next page depends on the count or on a value after the records.
      for await (const _ of records);
    } finally {
      response.close();
    }
    url = nextUrl(response, count, url);
  }

  function nextUrl(response: JsonResponse, count: number, current: URL): URL | undefined {
    switch (pagination.type) {
      case 'none':
        return undefined;
      case 'offset': {
        // A short page is the last one.
        if (count < pagination.pageSize) return undefined;
        offset += count;
        const next = new URL(current);
        next.searchParams.set(pagination.offsetParam, String(offset));
        return next;
      }
      case 'cursor': {
        const cursor = cursorText(response.values.get(pagination.nextCursorPath));
        if (cursor === undefined) return undefined;
        const next = new URL(current);
        next.searchParams.set(pagination.cursorParam, cursor);
        return next;
      }
      case 'link_header': {
        const next = nextLink(response.headers.get('link'), response.url);
        if (next && next.origin !== config.base.origin) {
          // The next request would carry the credentials to a host the user never named.
          throw new ConnectorError(
            'failed',
            `endpoint "${endpoint.name}": the next-page link points to ${next.origin}, another origin than base_url; refused`,
            false,
          );
        }
        return next;
      }
    }
  }
}
