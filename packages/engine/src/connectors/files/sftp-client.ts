/**
 * Connecting to an SFTP server, and what a failed connection means. Messages name the host, port
 * and user, never a password, key or passphrase.
 */
import { createHash } from 'node:crypto';
import type SftpClient from 'ssh2-sftp-client';
import { egressOf } from '../../egress.js';
import { ConnectorError, type ConnectorContext } from '../../types.js';

export interface SftpLogin {
  host: string;
  port?: number;
  username: string;
  password?: string;
  /** PEM or OpenSSH private key. */
  private_key?: string;
  passphrase?: string;
  /** The server's host key fingerprint as OpenSSH prints it: 'SHA256:' and unpadded base64. */
  host_key_sha256?: string;
}

const READY_TIMEOUT_MS = 10_000;

/** OpenSSH's fingerprint of a host key (`ssh-keygen -lf`): SHA256:<base64 without padding>. */
export function fingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

export const normalizeFingerprint = (value: string): string => value.trim().replace(/=+$/, '');

interface RawError {
  code?: unknown;
  level?: string;
  message?: string;
}

function connectionError(error: unknown, login: SftpLogin, presentedKey: string | undefined): ConnectorError {
  const where = `${login.host}:${login.port ?? 22}`;
  const fail = (code: ConnectorError['code'], message: string, retryable: boolean) =>
    new ConnectorError(code, message, retryable, { cause: error });
  const expected = login.host_key_sha256 ? normalizeFingerprint(login.host_key_sha256) : undefined;
  if (expected && presentedKey && presentedKey !== expected) {
    return fail(
      'auth_failed',
      `the SSH host key of ${where} is ${presentedKey}, not the configured host_key_sha256 ${expected}: refusing to connect (the server's key changed, or this is another server)`,
      false,
    );
  }
  const e = (error ?? {}) as RawError;
  const message = e.message ?? '';
  if (e.level === 'client-authentication' || /authentication methods failed/i.test(message)) {
    return fail(
      'auth_failed',
      `authentication failed for user "${login.username}" on ${where}: check the password or private key`,
      false,
    );
  }
  if (/Cannot parse privateKey|passphrase/i.test(message)) {
    return fail(
      'invalid_config',
      'private_key cannot be used: it is not a PEM or OpenSSH private key, or its passphrase is wrong or missing',
      false,
    );
  }
  if (e.level === 'client-timeout' || e.code === 'ETIMEDOUT' || /timed out/i.test(message)) {
    return fail('timeout', `no SSH handshake with ${where} within ${READY_TIMEOUT_MS / 1000} s`, true);
  }
  switch (e.code) {
    case 'ECONNREFUSED':
      return fail('unreachable', `connection to ${where} refused: is the SSH server running and the port right?`, true);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return fail('unreachable', `host ${login.host} not found`, true);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ECONNRESET':
      return fail('unreachable', `${where} is unreachable (${e.code})`, true);
  }
  if (e.level === 'client-dns') return fail('unreachable', `host ${login.host} not found`, true);
  if (/subsystem/i.test(message)) return fail('unsupported', `${where} does not offer the SFTP subsystem`, false);
  return fail('failed', `SFTP connection to ${where} failed: ${message || 'unknown error'}`, true);
}

/** A connected client; the caller ends it. The connection goes to the address the egress policy checked. */
export async function connectSftp(login: SftpLogin, context: ConnectorContext): Promise<SftpClient> {
  const { address } = await egressOf(context).resolve(login.host, login.port ?? 22);
  // ssh2 is loaded by the first SFTP connection a process makes, not by every process.
  const { default: Sftp } = await import('ssh2-sftp-client');
  const client = new Sftp('svc-files', {
    error: (error) =>
      context.log('warn', 'SFTP connection error', { host: login.host, error: (error as Error).message }),
    end: () => undefined,
    close: () => undefined,
  });
  // ssh2-sftp-client rewraps connection errors without ssh2's `level` (which tells an authentication
  // failure apart): keep the first one as ssh2 raised it.
  let raw: unknown;
  const onError = (error: unknown) => {
    raw ??= error;
  };
  client.on('error', onError);
  let presentedKey: string | undefined;
  const expected = login.host_key_sha256 ? normalizeFingerprint(login.host_key_sha256) : undefined;
  try {
    await client.connect({
      host: address,
      port: login.port ?? 22,
      username: login.username,
      password: login.password,
      privateKey: login.private_key,
      passphrase: login.passphrase,
      readyTimeout: READY_TIMEOUT_MS,
      hostVerifier: (key: Buffer) => {
        presentedKey = fingerprint(key);
        return expected === undefined || presentedKey === expected;
      },
    });
  } catch (error) {
    await client.end().catch(() => undefined);
    throw connectionError(raw ?? error, login, presentedKey);
  } finally {
    client.removeListener('error', onError);
  }
  if (!expected)
    context.log('info', 'SFTP host key not pinned: set host_key_sha256 to refuse any other key', {
      host: login.host,
      host_key_sha256: presentedKey,
    });
  return client;
}
