/**
 * An SFTP directory destination: each whole part (staged on local disk, as for S3) is uploaded under
 * a hidden temporary name in the destination directory and renamed to its name only when the server
 * closed the upload (OpenSSH's posix-rename: atomic, replacing what an earlier attempt of the run
 * wrote), so a reader never sees half a file. The server's host key must match the configured
 * fingerprint; the connection goes to the address the egress policy checked.
 */
import { createReadStream } from 'node:fs';
import { posix } from 'node:path';
import { connectSftp, SftpStore, type EgressPolicy, type Log } from '@svc/engine';
import type { SftpDestinationConfig } from './config.js';

export const sftpLogin = (config: SftpDestinationConfig) => ({
  host: config.host,
  port: config.port,
  username: config.username,
  password: config.password,
  private_key: config.private_key,
  passphrase: config.passphrase,
  host_key_sha256: config.host_key_sha256,
});

/** A connected SFTP directory; the caller closes it. */
export async function openSftpStore(config: SftpDestinationConfig, egress: EgressPolicy, log: Log) {
  const client = await connectSftp(sftpLogin(config), { log, egress });
  return new SftpStore(client);
}

/** `sftp://host:port/dir/name`: how a run lists a file it wrote over SFTP. */
export const sftpFileName = (config: SftpDestinationConfig, remotePath: string) =>
  `sftp://${config.host}:${config.port}${remotePath.startsWith('/') ? '' : '/'}${remotePath}`;

/** The remote path of a file a run listed, when it belongs to this destination. */
export function sftpPathOf(config: SftpDestinationConfig, name: string): string | undefined {
  const prefix = `sftp://${config.host}:${config.port}`;
  if (!name.startsWith(prefix)) return undefined;
  const rest = name.slice(prefix.length);
  return config.directory.startsWith('/') ? rest : rest.slice(1);
}

export async function sftpUploader(config: SftpDestinationConfig, egress: EgressPolicy, log: Log) {
  const store = await openSftpStore(config, egress, log);
  let prepared = false;
  return {
    /** Uploads a whole staged part as `directory/name` (temporary name first, then the rename). */
    async upload(temp: string, name: string, bytes: number) {
      if (!prepared) {
        await store.mkdir(config.directory);
        prepared = true;
      }
      const target = posix.join(config.directory, name);
      await store.writeFile(target, createReadStream(temp), { replace: true });
      return { name: sftpFileName(config, target), bytes };
    },
    close: () => store.close().catch(() => undefined),
  };
}
