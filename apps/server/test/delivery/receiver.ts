/**
 * A loopback HTTP receiver of export batches that behaves as an idempotent one: a batch whose
 * Idempotency-Key it has already taken is answered 200 and not taken again. `answer` may fail a
 * request first (503, 429 with Retry-After, 400); every request is recorded with its headers.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  key: string;
  headers: IncomingHttpHeaders;
  records: Array<Record<string, unknown>>;
  status: number;
  signatureValid: boolean;
  at: number;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Records taken, in order, each once per Idempotency-Key. */
  taken: Array<Record<string, unknown>>;
  /** Requests with a key already taken (answered 200, not taken again). */
  duplicates: number;
  close(): Promise<void>;
}

export async function startReceiver(options: {
  hmacSecret?: string;
  /** The answer to a request (its attempt number per key starts at 1); 200 takes it. */
  answer?: (
    records: Array<Record<string, unknown>>,
    attempt: number,
  ) => { status: number; headers?: Record<string, string> };
  delayMs?: number;
}): Promise<Receiver> {
  const attempts = new Map<string, number>();
  const takenKeys = new Set<string>();
  const receiver: Omit<Receiver, 'url' | 'close'> = { requests: [], taken: [], duplicates: 0 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
        const body = Buffer.concat(chunks);
        const key = String(request.headers['idempotency-key'] ?? '');
        const records = JSON.parse(body.toString()) as Array<Record<string, unknown>>;
        const expected = options.hmacSecret
          ? `sha256=${createHmac('sha256', options.hmacSecret).update(body).digest('hex')}`
          : '';
        const given = String(request.headers['x-signature'] ?? '');
        const signatureValid =
          !options.hmacSecret ||
          (given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected)));
        const attempt = (attempts.get(key) ?? 0) + 1;
        attempts.set(key, attempt);
        let { status, headers } = options.answer?.(records, attempt) ?? { status: 200 };
        if (takenKeys.has(key)) {
          receiver.duplicates += 1;
          status = 200;
          headers = {};
        } else if (status === 200) {
          takenKeys.add(key);
          receiver.taken.push(...records);
        }
        receiver.requests.push({ key, headers: request.headers, records, status, signatureValid, at: Date.now() });
        response.writeHead(status, { 'content-type': 'application/json', ...headers });
        response.end(status === 200 ? '{"ok":true}' : '{"error":"not now"}');
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hooks/export`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
