/**
 * GET requests with the configured headers, a timeout, retries of rate limits and server errors,
 * and failures mapped to connector error codes. Messages never carry the auth header value, and
 * never a remote body: they name the request, the status and the cause.
 *
 * Every connection goes through the host's egress policy (the address checked is the address
 * connected to), and bodies are parsed as they stream in, so that neither a response's size nor
 * its records pile up in memory: a response larger than the byte limit fails as soon as it crosses it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { fetch, type Agent, type Response } from 'undici';
import { bareHost, egressAgent, egressOf } from '../../egress.js';
import { ConnectorError, type ConnectorContext, type ConnectorErrorCode } from '../../types.js';
import type { ResolvedConfig } from './config.js';
import { JsonBodyParser, NotJson, type JsonPath } from './json.js';

export interface JsonResponse {
  /** The URL that answered (after same-origin redirects); relative links resolve against it. */
  url: URL;
  headers: Headers;
  /** The records at the selected path, in chunks, as the body arrives; ending early closes the response. */
  records: AsyncGenerator<unknown[], void, undefined>;
  /** The values at the other selected paths (a next cursor): complete once `records` has ended. */
  values: Map<JsonPath, unknown>;
  /** Stops reading the body (also when `records` was never started). */
  close(): void;
}

export interface BodySelection {
  /** Where the array of records is. */
  records: JsonPath;
  /** Describes the records path in messages. */
  recordsLabel: string;
  /** Other values wanted from the body. */
  values?: JsonPath[];
}

const RATE_LIMIT_RETRIES = 3;
const MAX_RETRY_AFTER_MS = 10_000;
const SERVER_ERROR_RETRIES = 2;
const SERVER_ERROR_BACKOFF_MS = 250;
const MAX_REDIRECTS = 5;
export const DEFAULT_MAX_RESPONSE_BYTES = 50 * 1024 * 1024;
/** A chunk of records is handed on once it has this many records or this many bytes of body behind it. */
const CHUNK_RECORDS = 1000;
const CHUNK_BYTES = 1024 * 1024;

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused: is the server running and the port right?',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
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

/** Errors a failed fetch wraps ("fetch failed" hides the cause, sometimes in an AggregateError), outermost first. */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    chain.push(current);
    const e = current as { errors?: unknown[]; cause?: unknown };
    current = e.errors?.[0] ?? e.cause;
  }
  return chain;
}

function networkCode(error: unknown): string | undefined {
  for (const e of causes(error))
    if (typeof (e as { code?: unknown }).code === 'string') return (e as { code: string }).code;
  return undefined;
}

export class ApiClient {
  private readonly secrets: string[];
  private readonly agent: Agent;
  private readonly maxBytes: number;
  private readonly headers: Record<string, string>;

  constructor(
    private readonly config: ResolvedConfig,
    private readonly context: ConnectorContext,
  ) {
    // The whole value and its credential part ("Bearer <token>"): a server may echo either.
    const value = config.authValue;
    this.secrets = value ? [value, value.replace(/^\S+\s+/, '')].filter((s) => s.trim().length > 0) : [];
    this.agent = egressAgent(egressOf(context));
    this.maxBytes = context.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.headers = Object.fromEntries(config.headers);
  }

  private get log(): ConnectorContext['log'] {
    return this.context.log;
  }

  /** Text with every occurrence of the auth value replaced. */
  redact(text: string): string {
    return this.secrets.reduce((result, secret) => result.split(secret).join('[redacted]'), text);
  }

  async close(): Promise<void> {
    await this.agent.close().catch(() => undefined);
  }

  /** No `cause`: undici errors can hold the request, and with it the headers. */
  private error(code: ConnectorErrorCode, message: string, retryable: boolean): ConnectorError {
    return new ConnectorError(code, this.redact(message), retryable);
  }

  /**
   * GETs a URL on base_url's origin; its JSON body streams through `records` (and `values`).
   * Aborting `signal` rejects with its reason.
   */
  async getJson(url: URL, selection: BodySelection, signal?: AbortSignal): Promise<JsonResponse> {
    let [rateLimited, serverErrors, redirects] = [0, 0, 0];
    let target = url;
    for (;;) {
      signal?.throwIfAborted();
      const timeout = AbortSignal.timeout(this.config.timeoutMs);
      // Also aborted when the reader of the records stops early: the rest of the body is not read.
      const done = new AbortController();
      const combined = AbortSignal.any([done.signal, timeout, ...(signal ? [signal] : [])]);
      let response: Response;
      try {
        // Redirects by hand: fetch would carry a custom auth header to any host a redirect names.
        response = await fetch(target, {
          headers: this.headers,
          signal: combined,
          redirect: 'manual',
          dispatcher: this.agent,
        });
      } catch (error) {
        throw this.fetchFailure(error, target, signal, timeout);
      }
      const where = describeUrl(target);
      const status = response.status;
      if (status >= 200 && status < 300) {
        const length = Number(response.headers.get('content-length') ?? NaN);
        if (length > this.maxBytes) {
          done.abort();
          throw this.tooLarge(where);
        }
        const values = new Map<JsonPath, unknown>();
        const records = this.streamRecords(response, selection, values, {
          where,
          status,
          target,
          signal,
          timeout,
          done,
        });
        return {
          url: target,
          headers: response.headers as unknown as Headers,
          records,
          values,
          close: () => done.abort(),
        };
      }
      // The body of any other answer is not read: it is never shown, and may be large.
      done.abort();
      if (status >= 300 && status < 400 && response.headers.has('location')) {
        const next = new URL(response.headers.get('location')!, target);
        // The policy first: a redirect to a refused address is refused as such, whatever its origin.
        await egressOf(this.context).resolve(
          bareHost(next.hostname),
          Number(next.port) || (next.protocol === 'https:' ? 443 : 80),
        );
        if (next.origin !== this.config.base.origin) {
          throw this.error(
            'failed',
            `${where} redirects to ${next.origin}, another origin than base_url; credentials are not sent there (set base_url to it if it is trusted)`,
            false,
          );
        }
        if (++redirects > MAX_REDIRECTS)
          throw this.error('failed', `${where}: more than ${MAX_REDIRECTS} redirects`, false);
        target = next;
        continue;
      }
      if (status === 429 && rateLimited < RATE_LIMIT_RETRIES) {
        const wait = Math.min(
          retryAfterMs(response.headers.get('retry-after')) ?? 1000 * 2 ** rateLimited,
          MAX_RETRY_AFTER_MS,
        );
        rateLimited++;
        this.log(
          'warn',
          `${where} answered 429 (rate limited); retry ${rateLimited} of ${RATE_LIMIT_RETRIES} in ${wait} ms`,
        );
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
      throw this.statusFailure(status, response.statusText, where);
    }
  }

  private async *streamRecords(
    response: Response,
    selection: BodySelection,
    values: Map<JsonPath, unknown>,
    request: {
      where: string;
      status: number;
      target: URL;
      signal?: AbortSignal;
      timeout: AbortSignal;
      done: AbortController;
    },
  ): AsyncGenerator<unknown[], void, undefined> {
    const { where, status } = request;
    const parser = new JsonBodyParser(selection.records, selection.values ?? []);
    let [total, sinceChunk] = [0, 0];
    let pending: unknown[] = [];
    try {
      try {
        for await (const chunk of response.body ?? []) {
          total += chunk.byteLength;
          sinceChunk += chunk.byteLength;
          if (total > this.maxBytes) throw this.tooLarge(where);
          parser.write(chunk, pending);
          if (pending.length >= CHUNK_RECORDS || (pending.length > 0 && sinceChunk >= CHUNK_BYTES)) {
            const ready = pending;
            [pending, sinceChunk] = [[], 0];
            yield ready;
          }
        }
        parser.end();
      } catch (error) {
        if (error instanceof ConnectorError) throw error;
        // The parser's message says where the JSON broke, never what the body held.
        if (error instanceof NotJson)
          throw this.error('failed', `${where} answered ${status} with a body that is not JSON`, false);
        throw this.fetchFailure(error, request.target, request.signal, request.timeout);
      }
      if (parser.notAnArray !== undefined) {
        throw this.error(
          'invalid_config',
          `${where}: records_path ${selection.recordsLabel} leads to a ${parser.notAnArray}, not an array`,
          false,
        );
      }
      for (const [path, value] of parser.values) values.set(path, value);
      if (pending.length > 0) yield pending;
    } finally {
      request.done.abort();
    }
  }

  private tooLarge(where: string): ConnectorError {
    return this.error(
      'failed',
      `${where}: the response is larger than the limit of ${this.maxBytes} bytes per response; stopped reading it (ask the API for smaller pages)`,
      false,
    );
  }

  private async wait(ms: number, signal?: AbortSignal): Promise<void> {
    try {
      await sleep(ms, undefined, { signal });
    } catch (error) {
      throw signal?.aborted ? signal.reason : error;
    }
  }

  private statusFailure(status: number, statusText: string, where: string): unknown {
    const answered = `${where} answered ${status}${statusText ? ` ${statusText}` : ''}`;
    if (status === 401 || status === 403) {
      return this.error(
        'auth_failed',
        `${answered}: the API refused the credentials (check auth_header_name and auth_header_value)`,
        false,
      );
    }
    if (status === 404) return this.error('not_found', `${answered}: check base_url and the endpoint path`, false);
    // Rate limits and server errors that outlasted the retries may pass; other client errors will not.
    const retryable = status === 429 || status >= 500;
    return this.error('failed', answered, retryable);
  }

  private fetchFailure(error: unknown, url: URL, signal: AbortSignal | undefined, timeout: AbortSignal): unknown {
    if (signal?.aborted) return signal.reason;
    const refused = causes(error).find((e) => e instanceof ConnectorError);
    if (refused) return refused;
    const where = describeUrl(url);
    if (timeout.aborted || (error as { name?: string }).name === 'TimeoutError') {
      return this.error('timeout', `${where}: no complete answer within ${this.config.timeoutMs} ms`, true);
    }
    const code = networkCode(error);
    const known = code ? NETWORK_CODES[code] : undefined;
    if (known) return this.error('unreachable', `${where}: ${known} (${code})`, true);
    return this.error('failed', `${where}: request failed${code ? ` (${code})` : ''}`, true);
  }
}
