/**
 * A directory on an SFTP server as a FileStore, over one connected ssh2-sftp-client. Errors keep
 * their SFTP status in `code` (errors.ts reads it).
 */
import { once } from 'node:events';
import { posix } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type SftpClient from 'ssh2-sftp-client';
import { errorCode } from './errors.js';
import { collect, tempName, type FileEntry, type FileStore } from './store.js';

export class SftpStore implements FileStore {
  constructor(private readonly client: SftpClient) {}

  join(dir: string, name: string): string {
    return posix.join(dir, name);
  }

  async list(dir: string, filter?: (name: string) => boolean): Promise<FileEntry[]> {
    const entries = await this.client.list(dir, filter ? (entry) => filter(entry.name) : undefined);
    const files: FileEntry[] = [];
    for (const entry of entries) {
      if (entry.type !== 'l') {
        files.push({ name: entry.name, size: entry.size, mtimeMs: entry.modifyTime, isFile: entry.type === '-' });
        continue;
      }
      // A listing describes links themselves: follow them like the local store does; dangling ones are skipped.
      const info = await this.stat(this.join(dir, entry.name)).catch(() => undefined);
      if (info) files.push({ name: entry.name, size: info.size, mtimeMs: info.mtimeMs, isFile: info.isFile });
    }
    return files;
  }

  async stat(path: string) {
    const info = await this.client.stat(path);
    return { size: info.size, mtimeMs: info.modifyTime, isFile: info.isFile, isDirectory: info.isDirectory };
  }

  readStream(path: string, range?: { start: number; end: number }): Readable {
    // ssh2's `end` is inclusive, like node:fs.
    const stream = this.client.createReadStream(path, range ? { start: range.start, end: range.end - 1 } : {});
    // A stream destroyed early still closes its remote handle; if the connection ends first, that close
    // fails after every consumer has gone ("No response from server"). Readers see real errors through
    // their own listeners (for await, pipeline); this one only keeps the late one from crashing the process.
    stream.on('error', () => undefined);
    return stream;
  }

  readFile(path: string): Promise<Buffer> {
    return collect(this.readStream(path));
  }

  async writeFile(target: string, content: Readable | Buffer, options?: { replace?: boolean }): Promise<boolean> {
    const temp = this.join(posix.dirname(target), tempName(posix.basename(target)));
    let placed = false;
    try {
      await this.upload(temp, content);
      if (options?.replace === false) {
        // A plain SFTP rename refuses to replace an existing file: exactly "create unless it exists".
        placed = await this.client.rename(temp, target).then(
          () => true,
          async (error: unknown) => ((await this.exists(target)) ? false : Promise.reject(error)),
        );
        return placed;
      }
      await this.replace(temp, target);
      placed = true;
      return true;
    } finally {
      if (!placed) await this.client.delete(temp, true).catch(() => undefined);
    }
  }

  async unlink(path: string): Promise<void> {
    await this.client.delete(path);
  }

  /** Moves a file; a plain SFTP rename, which refuses to replace an existing file (the caller picks a free name). */
  async rename(from: string, to: string): Promise<void> {
    await this.client.rename(from, to);
  }

  /** Whether anything is at the path. */
  async has(path: string): Promise<boolean> {
    return this.exists(path);
  }

  async mkdir(path: string): Promise<void> {
    await this.client.mkdir(path, true);
  }

  async access(dir: string): Promise<{ readable: boolean; writable: boolean }> {
    // SFTP has no access(): try what the connector will do, listing and creating a file.
    const readable = await this.client.list(dir).then(
      () => true,
      () => false,
    );
    const probe = this.join(dir, tempName('svc-check'));
    const writable = await this.upload(probe, Buffer.alloc(0)).then(
      () => true,
      (error: unknown) => (errorCode(error) === 'EACCES' ? false : Promise.reject(error)),
    );
    if (writable) await this.client.delete(probe, true);
    return { readable, writable };
  }

  async close(): Promise<void> {
    await this.client.end();
  }

  private async exists(path: string): Promise<boolean> {
    return (await this.client.exists(path)) !== false;
  }

  /** Resolves once the server closed the file handle, so that the rename that follows sees the whole file. */
  private async upload(path: string, content: Readable | Buffer): Promise<void> {
    const output = this.client.createWriteStream(path);
    const closed = once(output, 'close');
    closed.catch(() => undefined); // an error also fails the pipeline, which reports it
    await pipeline(Buffer.isBuffer(content) ? Readable.from([content]) : content, output);
    await closed;
  }

  /** Renames over an existing target in one step (OpenSSH's posix-rename extension), else removes it first. */
  private async replace(temp: string, target: string): Promise<void> {
    try {
      await this.client.posixRename(temp, target);
    } catch (error) {
      if (!/not support/i.test((error as Error).message)) throw error;
      // Not atomic: a reader between the two steps finds no file.
      await this.client.delete(target, true);
      await this.client.rename(temp, target);
    }
  }
}
