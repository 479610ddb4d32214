/**
 * An HTTP destination: rows POSTed in batches as a JSON array of records, with the auth header, an
 * HMAC-SHA256 signature of the body, and an `Idempotency-Key` that is the SHA-256 of the body, so a
 * batch sent again (a retry, or a rerun after a crash that reads the same rows in the same order)
 * carries the same key and an idempotent receiver takes it once. 429 and 5xx answers (and network
 * errors) are retried with exponential backoff, honouring Retry-After; other answers fail the batch's
 * rows with the status as their reason. Requests are spaced to `requests_per_second`. Every
 * connection goes to the address the egress policy checked.
 */
import { createHash, createHmac } from 'node:crypto';
import { egressAgent, retryAfterMs, type ColumnSchema, type EgressPolicy, type Log } from '@svc/engine';
import { fetch } from 'undici';
import type { HttpDestinationConfig } from './config.js';
import type { Change, RowFailure, Sink } from './runs.js';
import { jsonValue } from './source.js';

const MAX_BACKOFF_MS = 30_000;
const MAX_RETRY_AFTER_MS = 120_000;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

/** An error and the errors it wraps ("fetch failed" hides its cause), outermost first. */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

export function httpSink(
  config: HttpDestinationConfig,
  options: { egress: EgressPolicy; signal: AbortSignal; log: Log; withChange: boolean },
): Sink {
  const agent = egressAgent(options.egress);
  const url = new URL(config.url);
  const where = `POST ${url.origin}${url.pathname}`;
  const spacing = config.requests_per_second ? 1000 / config.requests_per_second : 0;
  let nextAt = 0;
  const pace = async () => {
    if (!spacing) return;
    const now = Date.now();
    const wait = Math.max(0, nextAt - now);
    nextAt = Math.max(now, nextAt) + spacing;
    if (wait) await sleep(wait, options.signal);
  };

  /** Sends one batch; answers undefined when delivered, else the reason its rows failed. */
  const send = async (body: string): Promise<string | undefined> => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'idempotency-key': createHash('sha256').update(body).digest('hex'),
    };
    if (config.auth_header_value) headers[config.auth_header_name.toLowerCase()] = config.auth_header_value;
    if (config.hmac_secret)
      headers[config.signature_header.toLowerCase()] =
        `sha256=${createHmac('sha256', config.hmac_secret).update(body).digest('hex')}`;
    let last = '';
    for (let attempt = 1; attempt <= config.max_attempts; attempt += 1) {
      await pace();
      let wait = Math.min(MAX_BACKOFF_MS, 500 * 2 ** (attempt - 1));
      try {
        const response = await fetch(config.url, {
          method: 'POST',
          body,
          headers,
          dispatcher: agent,
          redirect: 'error',
          signal: AbortSignal.any([options.signal, AbortSignal.timeout(config.timeout_seconds * 1000)]),
        });
        const text = (await response.text()).slice(0, 200);
        if (response.ok) return undefined;
        last = `HTTP ${response.status}${text ? `: ${text}` : ''}`;
        if (response.status !== 429 && response.status < 500) return last;
        const asked = retryAfterMs(response.headers.get('retry-after'));
        if (asked !== undefined) wait = Math.min(asked, MAX_RETRY_AFTER_MS);
      } catch (error) {
        if (options.signal.aborted) throw options.signal.reason as Error;
        const refusal = causes(error).find((e) => (e as { retryable?: boolean }).retryable === false);
        // The egress policy's refusal does not change on a retry.
        if (refusal) return (refusal as Error).message;
        last = (error as Error).message;
      }
      if (attempt < config.max_attempts) {
        options.log('warn', `${where}: ${last}; retry ${attempt} of ${config.max_attempts - 1} in ${wait} ms`);
        await sleep(wait, options.signal);
      }
    }
    return `${last} (after ${config.max_attempts} attempts)`;
  };

  return {
    async deliver(columns: ColumnSchema[], changes: Change[]): Promise<RowFailure[]> {
      const names = columns.map((c) => c.name);
      const failures: RowFailure[] = [];
      for (let start = 0; start < changes.length; start += config.batch_size) {
        const batch = changes.slice(start, start + config.batch_size);
        const records = batch.map((change) => {
          const record: Record<string, unknown> = {};
          names.forEach((name, i) => (record[name] = jsonValue(change.values[i] ?? null)));
          if (options.withChange) record['_change'] = change.kind;
          return record;
        });
        const reason = await send(JSON.stringify(records));
        if (reason) for (const change of batch) failures.push({ key: change.key, reason });
      }
      return failures;
    },
    finish: async () => {
      await agent.close();
      return [];
    },
    abort: () => agent.destroy(),
  };
}
