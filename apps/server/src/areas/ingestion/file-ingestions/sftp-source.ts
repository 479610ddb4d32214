/**
 * A directory on an SSH server as a source, through an `sftp` data connector: its host, login (the
 * connector's secrets, decrypted for the run only) and pinned host key. Files are listed by glob
 * (subdirectories walked, the archive directory and hidden entries left out), each downloaded
 * (streamed) into the ingestion's own folder and loaded like an upload; after the load, deleted or
 * moved into the archive directory on the server. The connection is the engine's SFTP client, so it
 * goes to the address the egress policy checked.
 */
import { createWriteStream } from 'node:fs';
import { posix } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { connectSftp, SftpStore, type EgressPolicy, type Log } from '@svc/engine';
import picomatch from 'picomatch';

export interface SftpSourceSpec {
  kind: 'sftp';
  connector_id: string;
  /** Relative to the connector's directory, or absolute; default: the connector's directory. */
  path?: string;
  glob?: string;
}

/** What the source takes of an sftp connector's configuration. */
export interface SftpConnectorConfig {
  host: string;
  port?: number;
  username: string;
  password?: string;
  private_key?: string;
  passphrase?: string;
  host_key_sha256?: string;
  /** The connector's remote directory (absolute). */
  path: string;
}

export interface RemoteFile {
  /** The absolute remote path. */
  remotePath: string;
  /** The path relative to the source directory: what the glob matches and the history shows. */
  name: string;
  size: number;
  modifiedAt: Date;
}

/** A remote directory of the source (its path, or an archive path), resolved against the connector's directory. */
export const remoteDirOf = (config: Pick<SftpConnectorConfig, 'path'>, relative: string | undefined) =>
  posix.resolve(config.path, relative ?? '.');

/** `sftp://host:port`: the namespace lineage gives the server's files. */
export const sftpNamespaceOf = (config: Pick<SftpConnectorConfig, 'host' | 'port'>) =>
  `sftp://${config.host}:${config.port ?? 22}`;

export async function openSftpSource(
  spec: SftpSourceSpec,
  config: SftpConnectorConfig,
  egress: EgressPolicy,
  log: Log,
) {
  const client = await connectSftp(
    {
      host: config.host,
      port: config.port,
      username: config.username,
      password: config.password,
      private_key: config.private_key,
      passphrase: config.passphrase,
      host_key_sha256: config.host_key_sha256,
    },
    { log, egress },
  );
  const store = new SftpStore(client);
  const folder = remoteDirOf(config, spec.path);
  return {
    folder,
    /** Files under the source directory matching the glob, leaving out `skipDir` (the archive). */
    async list(skipDir: string | undefined): Promise<RemoteFile[]> {
      const match = picomatch(spec.glob ?? '*', { dot: false });
      const skip = skipDir ? remoteDirOf(config, skipDir) : undefined;
      const found: RemoteFile[] = [];
      const walk = async (dir: string) => {
        for (const entry of await store.list(dir)) {
          if (entry.name.startsWith('.')) continue;
          const full = posix.join(dir, entry.name);
          if (!entry.isFile) {
            if (full === skip) continue;
            const info = await store.stat(full).catch(() => undefined);
            if (info?.isDirectory) await walk(full);
            continue;
          }
          const name = posix.relative(folder, full);
          if (!match(name)) continue;
          found.push({ remotePath: full, name, size: entry.size, modifiedAt: new Date(entry.mtimeMs) });
        }
      };
      await walk(folder);
      return found.sort((a, b) => a.name.localeCompare(b.name));
    },
    async download(remotePath: string, target: string): Promise<void> {
      await pipeline(store.readStream(remotePath), createWriteStream(target));
    },
    remove: (remotePath: string) => store.unlink(remotePath),
    /** Moves a file into the archive directory (created when missing); a name taken gets a suffix. Answers the new path. */
    async archive(remotePath: string, archiveDir: string): Promise<string> {
      const dir = remoteDirOf(config, archiveDir);
      await store.mkdir(dir);
      let target = posix.join(dir, posix.basename(remotePath));
      if (await store.has(target)) target = `${target}.${Date.now()}`;
      await store.rename(remotePath, target);
      return target;
    },
    close: () => store.close().catch(() => undefined),
  };
}

export type SftpSource = Awaited<ReturnType<typeof openSftpSource>>;
