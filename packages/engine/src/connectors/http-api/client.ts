/**
 * GET requests with the configured headers, a timeout, retries of rate limits and server errors,
 * and failures mapped to connector error codes. Messages never carry the auth header value.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ConnectorError, type ConnectorContext, type ConnectorErrorCode } from '../../types.js';
import type { ResolvedConfig } from './config.js';
import { parseJson } from './json.js';

export interface JsonResponse {
  /** The URL that answered (after same-origin redirects); relative links resolve against it. */
  url: URL;
  headers: Headers;
  body: unknown;
}

const RATE_LIMIT_RETRIES = 3;
const MAX_RETRY_AFTER_MS = 10_000;
const SERVER_ERROR_RETRIES = 2;
const SERVER_ERROR_BACKOFF_MS = 250;
const MAX_REDIRECTS = 5;

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused: is the server running and the port right?',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/** The address of a request for messages: origin and path, no query (a user may have put a key there). */
export const describeUrl = (url: URL) => `GET ${url.origin}${url.pathname}`;

/** Milliseconds a Retry-After header asks for (seconds or an HTTP date), undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The network error code behind a failed fetch ("fetch failed" hides it in `cause`, sometimes in an AggregateError). */
function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const e = current as { code?: unknown; errors?: unknown[]; cause?: unknown };
    if (typeof e.code === 'string') return e.code;
    current = e.errors?.[0] ?? e.cause;
  }
  return undefined;
}

export class ApiClient {
  private readonly secrets: string[];

  constructor(
    private readonly config: ResolvedConfig,
    private readonly log: ConnectorContext['log'],
  ) {
    // The whole value and its credential part ("Bearer <token>"): a server may echo either.
    const value = config.authValue;
    this.secrets = value ? [value, value.replace(/^\S+\s+/, '')].filter((s) => s.trim().length > 0) : [];
  }

  /** Text with every occurrence of the auth value replaced. */
  redact(text: string): string {
    return this.secrets.reduce((result, secret) => result.split(secret).join('[redacted]'), text);
  }

  /** No `cause`: undici errors can hold the request, and with it the headers. */
  private error(code: ConnectorErrorCode, message: string, retryable: boolean): ConnectorError {
    return new ConnectorError(code, this.redact(message), retryable);
  }

  /** GETs a URL on base_url's origin and parses its JSON body. Aborting `signal` rejects with its reason. */
  async getJson(url: URL, signal?: AbortSignal): Promise<JsonResponse> {
    let [rateLimited, serverErrors, redirects] = [0, 0, 0];
    let target = url;
    for (;;) {
      signal?.throwIfAborted();
      const timeout = AbortSignal.timeout(this.config.timeoutMs);
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
      let response: Response;
      let text: string;
      try {
        // Redirects by hand: fetch would carry a custom auth header to any host a redirect names.
        response = await fetch(target, { headers: this.config.headers, signal: combined, redirect: 'manual' });
        text = await response.text();
      } catch (error) {
        throw this.fetchFailure(error, target, signal, timeout);
      }
      const where = describeUrl(target);
      const status = response.status;
      if (status >= 200 && status < 300) {
        try {
          return { url: target, headers: response.headers, body: parseJson(text) };
        } catch {
          throw this.error('failed', `${where} answered ${status} with a body that is not JSON: ${this.snippet(text)}`, false);
        }
      }
      if (status >= 300 && status < 400 && response.headers.has('location')) {
        const next = new URL(response.headers.get('location')!, target);
        if (next.origin !== this.config.base.origin) {
          throw this.error('failed', `${where} redirects to ${next.origin}, another origin than base_url; credentials are not sent there (set base_url to it if it is trusted)`, false);
        }
        if (++redirects > MAX_REDIRECTS) throw this.error('failed', `${where}: more than ${MAX_REDIRECTS} redirects`, false);
        target = next;
        continue;
      }
      if (status === 429 && rateLimited < RATE_LIMIT_RETRIES) {
        const wait = Math.min(retryAfterMs(response.headers.get('retry-after')) ?? 1000 * 2 ** rateLimited, MAX_RETRY_AFTER_MS);
        rateLimited++;
        this.log('warn', `${where} answered 429 (rate limited); retry ${rateLimited} of ${RATE_LIMIT_RETRIES} in ${wait} ms`);
        await this.wait(wait, signal);
        continue;
      }
      if (status >= 500 && serverErrors < SERVER_ERROR_RETRIES) {
        const wait = SERVER_ERROR_BACKOFF_MS * 2 ** serverErrors;
        serverErrors++;
        this.log('warn', `${where} answered ${status}; retry ${serverErrors} of ${SERVER_ERROR_RETRIES} in ${wait} ms`);
        await this.wait(wait, signal);
        continue;
      }
      throw this.statusFailure(status, response.statusText, where, text);
    }
  }

  private async wait(ms: number, signal?: AbortSignal): Promise<void> {
    try {
      await sleep(ms, undefined, { signal });
    } catch (error) {
      throw signal?.aborted ? signal.reason : error;
    }
  }

  private snippet(text: string): string {
    const flat = text.replace(/\s+/g, ' ').trim();
    return this.redact(flat.length > 200 ? `${flat.slice(0, 200)}…` : flat) || '(empty)';
  }

  private statusFailure(status: number, statusText: string, where: string, body: string): unknown {
    const answered = `${where} answered ${status}${statusText ? ` ${statusText}` : ''}`;
    if (status === 401 || status === 403) {
      return this.error('auth_failed', `${answered}: the API refused the credentials (check auth_header_name and auth_header_value)`, false);
    }
    if (status === 404) return this.error('not_found', `${answered}: check base_url and the endpoint path`, false);
    // Rate limits and server errors that outlasted the retries may pass; other client errors will not.
    const retryable = status === 429 || status >= 500;
    return this.error('failed', `${answered}: ${this.snippet(body)}`, retryable);
  }

  private fetchFailure(error: unknown, url: URL, signal: AbortSignal | undefined, timeout: AbortSignal): unknown {
    if (signal?.aborted) return signal.reason;
    const where = describeUrl(url);
    if (timeout.aborted || (error as { name?: string }).name === 'TimeoutError') {
      return this.error('timeout', `${where}: no complete answer within ${this.config.timeoutMs} ms`, true);
    }
    const code = networkCode(error);
    const known = code ? NETWORK_CODES[code] : undefined;
    if (known) return this.error('unreachable', `${where}: ${known} (${code})`, true);
    const detail = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    return this.error('failed', `${where}: request failed${code ? ` (${code})` : ''}: ${detail}`, true);
  }
}
