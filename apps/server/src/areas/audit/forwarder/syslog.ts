/**
 * Audit events as syslog messages (RFC 5424, with the event in structured data) and the transports
 * that carry them: UDP (RFC 5426, one message per datagram), TCP and TLS (RFC 6587 / RFC 5425) with
 * octet-counting ("<length> <message>") or LF framing. Written here rather than taken from a library:
 * the syslog clients on npm format RFC 3164 or lack octet-counting, TLS options or a way to know
 * that a batch has been handed to the connection, which the forwarder's cursor depends on.
 */
import dgram from 'node:dgram';
import net from 'node:net';
import tls from 'node:tls';
import type { EgressPolicy } from '@svc/engine';
import { presentAuditEvent, type AuditEventView } from '../events.js';

export const FACILITIES = {
  kern: 0,
  user: 1,
  mail: 2,
  daemon: 3,
  auth: 4,
  syslog: 5,
  lpr: 6,
  news: 7,
  uucp: 8,
  cron: 9,
  authpriv: 10,
  ftp: 11,
  ntp: 12,
  audit: 13,
  alert: 14,
  clock: 15,
  local0: 16,
  local1: 17,
  local2: 18,
  local3: 19,
  local4: 20,
  local5: 21,
  local6: 22,
  local7: 23,
} as const;
export type Facility = keyof typeof FACILITIES;

/** The structured data ID of our events: a private name under the documentation enterprise number (RFC 5612). */
export const SD_ID = 'svc@32473';

export type ForwardedEvent = AuditEventView;

/** An audit log row as it is forwarded: as the API shows it. */
export const asForwarded = presentAuditEvent;

/** Severity 4 (warning) for refusals, failures and losses; 6 (informational) otherwise. */
export function severityOf(kind: string): number {
  return /(denied|failed|failure|reuse|overflow|locked|revoked)/.test(kind) ? 4 : 6;
}

/** PARAM-VALUE escaping (RFC 5424 6.3.3): '"', '\' and ']' get a backslash. */
const escapeParam = (value: string) => value.replace(/["\\\]]/g, (c) => `\\${c}`);

/** PRINTUSASCII without space, at most `max` characters; "-" when empty. */
const token = (value: string, max: number) => value.replace(/[^\x21-\x7e]/g, '_').slice(0, max) || '-';

export function formatRfc5424(
  event: ForwardedEvent,
  options: { facility: Facility; hostname: string; appName: string },
): string {
  const pri = FACILITIES[options.facility] * 8 + severityOf(event.kind);
  const params: Array<[string, string | null]> = [
    ['id', event.id],
    ['kind', event.kind],
    ['actor_user_id', event.actor_user_id],
    ['actor_token_id', event.actor_token_id],
    ['client_address', event.client_address],
    ['request_id', event.request_id],
    ['target_type', event.target_type],
    ['target_id', event.target_id],
  ];
  const sd = `[${SD_ID}${params
    .filter((p): p is [string, string] => p[1] !== null && p[1] !== '')
    .map(([name, value]) => ` ${name}="${escapeParam(value)}"`)
    .join('')}]`;
  const message = JSON.stringify({ user_agent: event.user_agent, details: event.details });
  return `<${pri}>1 ${event.occurred_at} ${token(options.hostname, 255)} ${token(options.appName, 48)} - ${token(event.kind, 32)} ${sd} ${message}`;
}

export type Framing = 'octet-counting' | 'lf';

/** One message framed for a stream transport. */
export function frame(message: string, framing: Framing): string {
  if (framing === 'lf') return `${message.replace(/\n/g, ' ')}\n`;
  return `${Buffer.byteLength(message)} ${message}`;
}

export interface SyslogTarget {
  host: string;
  port: number;
  transport: 'udp' | 'tcp' | 'tls';
  framing: Framing;
  /** PEM of the CA (or certificate) the TLS server is verified against; none: the system's. */
  ca?: string;
  /** Accept a TLS server whose certificate cannot be verified (test set-ups only). */
  insecure?: boolean;
  /** PEM of the client certificate (mutual TLS), with `key`. */
  cert?: string;
  /** PEM of the client certificate's private key. */
  key?: string;
}

/**
 * How long a new TLS connection waits, after its handshake, for the server to refuse it before the
 * first batch is written. A server that checks the client certificate once the handshake is done (as
 * rsyslog's gtls driver does; TLS 1.3 lets the client finish first) closes the connection at once
 * when it refuses it; without this wait the first batch would be "accepted" by the socket and lost.
 */
export const TLS_VERDICT_MS = 300;

/** A connection to a syslog server: `send` resolves once every message has been handed to the socket. */
export interface SyslogConnection {
  send(messages: string[]): Promise<void>;
  close(): Promise<void>;
  readonly closed: boolean;
}

export async function openSyslog(
  target: SyslogTarget,
  egress: EgressPolicy,
  timeoutMs: number,
): Promise<SyslogConnection> {
  const { address, family } = await egress.resolve(target.host, target.port);
  if (target.transport === 'udp') {
    const socket = dgram.createSocket(family === 6 ? 'udp6' : 'udp4');
    let closed = false;
    socket.on('error', () => undefined);
    return {
      get closed() {
        return closed;
      },
      async send(messages) {
        for (const message of messages)
          await new Promise<void>((resolve, reject) =>
            socket.send(Buffer.from(message), target.port, address, (error) => (error ? reject(error) : resolve())),
          );
      },
      async close() {
        closed = true;
        await new Promise<void>((resolve) => socket.close(() => resolve()));
      },
    };
  }
  const socket = await new Promise<net.Socket>((resolve, reject) => {
    const timer = setTimeout(() => {
      stream.destroy();
      reject(new Error(`connecting to ${target.host}:${target.port} timed out`));
    }, timeoutMs);
    const onConnect = () => {
      clearTimeout(timer);
      stream.off('error', onError);
      resolve(stream);
    };
    const onError = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    const stream: net.Socket =
      target.transport === 'tls'
        ? tls.connect(
            {
              host: address,
              port: target.port,
              servername: net.isIP(target.host) ? undefined : target.host,
              ca: target.ca,
              cert: target.cert,
              key: target.key,
              rejectUnauthorized: !target.insecure,
              checkServerIdentity: (_host, certificate) => tls.checkServerIdentity(target.host, certificate),
            },
            onConnect,
          )
        : net.connect({ host: address, port: target.port }, onConnect);
    stream.once('error', onError);
  });
  if (target.transport === 'tls') await awaitVerdict(socket, target, timeoutMs);
  let closed = false;
  let failure: Error | undefined;
  socket.setKeepAlive(true);
  socket.on('error', (error) => {
    failure = error;
    closed = true;
  });
  socket.on('close', () => {
    closed = true;
  });
  // Nothing is expected back; a server that sends something is read and ignored.
  socket.on('data', () => undefined);
  return {
    get closed() {
      return closed;
    },
    async send(messages) {
      if (closed) throw failure ?? new Error('the syslog connection was closed');
      const payload = messages.map((m) => frame(m, target.framing)).join('');
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('writing to the syslog server timed out')), timeoutMs);
        socket.write(payload, (error) => {
          clearTimeout(timer);
          if (error) reject(error);
          else resolve();
        });
      });
      if (failure) throw failure;
    },
    async close() {
      if (socket.destroyed) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          socket.destroy();
          resolve();
        }, timeoutMs);
        socket.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
        socket.end();
      });
      closed = true;
    },
  };
}

/**
 * Waits TLS_VERDICT_MS (at most the timeout) for the server to close a new TLS connection; fails with
 * why it probably did when it does.
 */
async function awaitVerdict(socket: net.Socket, target: SyslogTarget, timeoutMs: number): Promise<void> {
  let cause: Error | undefined;
  // Flowing, so that the server's end of the connection is seen (what it sends is ignored).
  socket.resume();
  const refused = await new Promise<boolean>((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer);
      socket.off('error', onError);
      socket.off('close', onClose);
      socket.off('end', onClose);
      resolve(value);
    };
    const onError = (error: Error) => {
      cause = error;
      done(true);
    };
    const onClose = () => done(true);
    const timer = setTimeout(() => done(false), Math.min(TLS_VERDICT_MS, timeoutMs));
    socket.on('error', onError);
    socket.once('close', onClose);
    socket.once('end', onClose);
  });
  if (!refused) return;
  socket.destroy();
  const why = target.cert
    ? 'it refused the client certificate'
    : 'it may require a client certificate (mutual TLS: client_cert and client_key), and none is configured';
  throw new Error(
    `the syslog server closed the TLS connection right after the handshake: ${why}${cause ? ` (${cause.message})` : ''}`,
  );
}
