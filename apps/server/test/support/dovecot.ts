/**
 * A real IMAP server for the tests: Debian's dovecot (dovecot-imapd), started in the foreground on
 * a free loopback port with its own configuration, a passwd-file user and maildirs under a temporary
 * folder. It can be stopped and started again on the same port with the same mail.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ImapFlow } from 'imapflow';
import { freePort } from './redis-server.js';

export interface Dovecot {
  port: number;
  user: string;
  password: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  close(): Promise<void>;
}

const idOf = (name: string, flag: '-u' | '-g') => Number(execFileSync('id', [flag, name]).toString().trim());

async function listening(port: number, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('data', (chunk) => {
        socket.destroy();
        resolve(chunk.toString().startsWith('* OK'));
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`dovecot did not answer on port ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startDovecot(): Promise<Dovecot> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-dovecot-'));
  await chmod(dir, 0o755);
  const port = await freePort();
  const user = 'feed';
  const password = 'feed-password';
  const mail = path.join(dir, 'mail');
  await mkdir(mail, { recursive: true });
  await chown(mail, idOf('mail', '-u'), idOf('mail', '-g'));
  await writeFile(path.join(dir, 'passwd'), `${user}:{PLAIN}${password}::::::\n`);
  const conf = path.join(dir, 'dovecot.conf');
  await writeFile(
    conf,
    `protocols = imap
listen = 127.0.0.1
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:${mail}/%u
first_valid_uid = ${idOf('mail', '-u')}
first_valid_gid = ${idOf('mail', '-g')}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
}
userdb {
  driver = static
  args = uid=mail gid=mail home=${mail}/%u
}
`,
  );
  let child: ChildProcess | undefined;
  const server: Dovecot = {
    port,
    user,
    password,
    async start() {
      child = spawn('dovecot', ['-F', '-c', conf], { stdio: 'ignore' });
      await listening(port);
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
      // Its login and imap processes go with the master; wait until the port is free again.
      const until = Date.now() + 10_000;
      while (Date.now() < until) {
        const open = await new Promise<boolean>((resolve) => {
          const socket = net.connect(port, '127.0.0.1');
          socket.once('connect', () => (socket.destroy(), resolve(true)));
          socket.once('error', () => resolve(false));
        });
        if (!open) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async close() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}

/** A test's own IMAP client on this server's mailbox (to append messages, read flags), logged out after `work`. */
export async function withMailbox<T>(imap: Dovecot, work: (client: ImapFlow) => Promise<T>): Promise<T> {
  const client = new ImapFlow({
    host: '127.0.0.1',
    port: imap.port,
    secure: false,
    auth: { user: imap.user, pass: imap.password },
    logger: false,
  });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.logout().catch(() => undefined);
  }
}
