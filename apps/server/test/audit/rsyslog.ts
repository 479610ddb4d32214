/**
 * Debian's rsyslogd, started by a test on free loopback ports: TCP and UDP (imtcp, imudp), or TLS
 * (imtcp with the gtls driver and a certificate from a CA made for the test), optionally demanding a
 * client certificate from that CA (mutual TLS). Every message received
 * is written as it came (%rawmsg%, the framing removed) to one line of a file.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Rsyslog {
  port: number;
  /** The file every received message is written to, one per line. */
  file: string;
  /** PEM of the test CA (TLS only). */
  ca: string | undefined;
  /** Mutual TLS: the client certificate the server permits, and its key (PEM). */
  client: { cert: string; key: string } | undefined;
  /** The messages received so far. */
  messages(): Promise<string[]>;
  /** The audit event ids in the structured data of the messages received so far. */
  ids(): Promise<string[]>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The name of the client certificate a mutual-TLS rsyslog permits (its CN and DNS name). */
export const CLIENT_NAME = 'svc-forwarder';

/**
 * A CA made for the test, a server certificate for 127.0.0.1 and localhost and, for mutual TLS, a
 * client certificate named CLIENT_NAME, all signed by that CA (files in `dir`).
 */
async function makeCertificates(dir: string, client: boolean) {
  const ssl = (...args: string[]) => run('openssl', args, { cwd: dir });
  await ssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=svc test CA',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
  );
  /** A key and a certificate `<name>.key`, `<name>.pem` for `cn`, signed by the CA with `extensions`. */
  const signed = async (name: string, cn: string, extensions: string) => {
    await ssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      `/CN=${cn}`,
      '-keyout',
      `${name}.key`,
      '-out',
      `${name}.csr`,
    );
    await writeFile(path.join(dir, `${name}.ext`), extensions);
    await ssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      `${name}.ext`,
      '-out',
      `${name}.pem`,
    );
  };
  await signed('server', 'localhost', 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  if (client) await signed('client', CLIENT_NAME, `subjectAltName=DNS:${CLIENT_NAME}\nextendedKeyUsage=clientAuth\n`);
}

async function waitForPort(port: number, child: ChildProcess, errors: () => string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`rsyslogd exited (${child.exitCode}): ${errors()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`rsyslogd did not listen on ${port}: ${errors()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * `tls`: TLS only, with a certificate from a CA made for the test; `mutual` (implies `tls`): the server
 * also demands a client certificate signed by that CA and named CLIENT_NAME (the gtls driver's
 * x509/name mode with a permitted peer), and drops any other connection.
 */
export async function startRsyslog(options: { tls?: boolean; mutual?: boolean } = {}): Promise<Rsyslog> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-rsyslog-'));
  const port = await freePort();
  const out = path.join(dir, 'received.log');
  const tls = options.tls === true || options.mutual === true;
  let ca: string | undefined;
  let client: Rsyslog['client'];
  const lines = [
    `global(workDirectory="${dir}" maxMessageSize="64k"${
      tls
        ? ` defaultNetstreamDriverCAFile="${dir}/ca.pem" defaultNetstreamDriverCertFile="${dir}/server.pem" defaultNetstreamDriverKeyFile="${dir}/server.key"`
        : ''
    })`,
    !tls
      ? 'module(load="imtcp")'
      : options.mutual
        ? `module(load="imtcp" streamDriver.name="gtls" streamDriver.mode="1" streamDriver.authMode="x509/name" permittedPeer=["${CLIENT_NAME}"])`
        : 'module(load="imtcp" streamDriver.name="gtls" streamDriver.mode="1" streamDriver.authMode="anon")',
    `input(type="imtcp" address="127.0.0.1" port="${port}" ruleset="received")`,
    ...(tls
      ? []
      : ['module(load="imudp")', `input(type="imudp" address="127.0.0.1" port="${port}" ruleset="received")`]),
    'template(name="raw" type="string" string="%rawmsg%\\n")',
    `ruleset(name="received") { action(type="omfile" file="${out}" template="raw" asyncWriting="off" flushOnTXEnd="on") }`,
  ];
  if (tls) {
    await makeCertificates(dir, options.mutual === true);
    ca = await readFile(path.join(dir, 'ca.pem'), 'utf8');
    if (options.mutual)
      client = {
        cert: await readFile(path.join(dir, 'client.pem'), 'utf8'),
        key: await readFile(path.join(dir, 'client.key'), 'utf8'),
      };
  }
  await writeFile(path.join(dir, 'rsyslog.conf'), `${lines.join('\n')}\n`);
  const stderr: string[] = [];
  const child = spawn(
    '/usr/sbin/rsyslogd',
    ['-n', '-f', path.join(dir, 'rsyslog.conf'), '-i', path.join(dir, 'rsyslogd.pid')],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  await waitForPort(port, child, () => stderr.join(''));
  const messages = async () =>
    (await readFile(out, 'utf8').catch(() => '')).split('\n').filter((line) => line.length > 0);
  return {
    port,
    file: out,
    ca,
    client,
    messages,
    async ids() {
      return (await messages()).flatMap((line) => {
        const match = / id="(\d+)"/.exec(line);
        return match ? [match[1]!] : [];
      });
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
