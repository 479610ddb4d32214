/**
 * Real servers on loopback that receive notifications: an HTTP server standing in for Slack, Teams,
 * webhook receivers and the PagerDuty Events API (each a path), and an SMTP server (smtp-server)
 * whose mails are parsed with mailparser.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: Record<string, unknown>;
}

export interface HttpReceiver {
  url: string;
  received: Received[];
  on(path: string): Received[];
  /** The status a path answers (default 200; PagerDuty's 202). */
  answer(path: string, status: number, body?: unknown): void;
  close(): Promise<void>;
}

export async function startHttpReceiver(): Promise<HttpReceiver> {
  const received: Received[] = [];
  const answers = new Map<string, { status: number; body: unknown }>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString();
      const path = request.url ?? '/';
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        body = {};
      }
      received.push({ path, headers: request.headers, raw, body });
      const answer = answers.get(path) ?? { status: 200, body: 'ok' };
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    on: (path) => received.filter((r) => r.path === path),
    answer(path, status, body = {}) {
      answers.set(path, { status, body });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface SmtpReceiver {
  port: number;
  mails: Array<ParsedMail & { envelopeTo: string[]; user: string | undefined }>;
  close(): Promise<void>;
}

/** An SMTP server that accepts mail after PLAIN/LOGIN authentication with `user`/`password`. */
export async function startSmtpReceiver(user: string, password: string): Promise<SmtpReceiver> {
  const mails: SmtpReceiver['mails'] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    onAuth(auth, _session, callback) {
      if (auth.username === user && auth.password === password) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          mails.push(
            Object.assign(mail, {
              envelopeTo: session.envelope.rcptTo.map((r) => r.address),
              user: session.user as string | undefined,
            }),
          );
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export async function until<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
