/**
 * A real OpenSSH server for a test file, on loopback on a free port: its own host key, public key
 * login as the current OS user, internal-sftp. Remote paths are local paths, so a test can look at
 * what was written directly.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface TestSshd {
  port: number;
  username: string;
  privateKey: string;
  hostKeySha256: string;
  /** The fingerprint of a key that is not the server's. */
  otherHostKeySha256: string;
  close(): Promise<void>;
}

/** The config of an `sftp` data connector that logs in to this server and reads CSV files from `path`. */
export const sftpConnectorConfig = (sshd: TestSshd, path: string, extra: Record<string, unknown> = {}) => ({
  host: '127.0.0.1',
  port: sshd.port,
  username: sshd.username,
  private_key: sshd.privateKey,
  host_key_sha256: sshd.hostKeySha256,
  path,
  format: 'csv',
  ...extra,
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const fingerprintOf = async (publicKey: string) =>
  (await run('ssh-keygen', ['-l', '-E', 'sha256', '-f', publicKey])).stdout.split(' ')[1]!;

export async function startSshd(): Promise<TestSshd> {
  const work = await mkdtemp(join(tmpdir(), 'svc-sshd-'));
  await mkdir('/run/sshd', { recursive: true }).catch(() => undefined); // privilege separation directory
  for (const name of ['host_key', 'client_key', 'other_key'])
    await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', join(work, name)]);
  await writeFile(join(work, 'authorized_keys'), await readFile(join(work, 'client_key.pub')));
  const port = await freePort();
  const config = [
    `Port ${port}`,
    'ListenAddress 127.0.0.1',
    `HostKey ${join(work, 'host_key')}`,
    `PidFile ${join(work, 'sshd.pid')}`,
    `AuthorizedKeysFile ${join(work, 'authorized_keys')}`,
    'StrictModes no',
    'PubkeyAuthentication yes',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'PermitRootLogin prohibit-password',
    'Subsystem sftp internal-sftp',
    'UsePAM no',
    'LogLevel ERROR',
  ];
  await writeFile(join(work, 'sshd_config'), `${config.join('\n')}\n`);
  let log = '';
  const sshd: ChildProcess = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', join(work, 'sshd_config')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  sshd.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (sshd.exitCode !== null) throw new Error(`sshd exited with ${sshd.exitCode}: ${log}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) break;
    if (Date.now() > deadline) throw new Error(`sshd did not listen on ${port}: ${log}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    username: userInfo().username,
    privateKey: await readFile(join(work, 'client_key'), 'utf8'),
    hostKeySha256: await fingerprintOf(join(work, 'host_key.pub')),
    otherHostKeySha256: await fingerprintOf(join(work, 'other_key.pub')),
    async close() {
      if (sshd.exitCode === null) {
        const exited = new Promise((resolve) => sshd.once('exit', resolve));
        sshd.kill('SIGTERM');
        await exited;
      }
      await rm(work, { recursive: true, force: true });
    },
  };
}
