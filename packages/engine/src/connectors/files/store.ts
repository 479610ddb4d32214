/**
 * Where the files of the files connector live: the local file system (local-store.ts) or a directory
 * on an SFTP server (sftp-store.ts). Layout, formats, read, write and discover only go through this.
 *
 * Errors keep the code of their source where it has one (ENOENT, EACCES, an SFTP status number);
 * errors.ts turns either into connector errors.
 */
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { AsyncBuffer } from 'hyparquet';

export interface FileEntry {
  name: string;
  size: number;
  mtimeMs: number;
  /** A regular file (symbolic links resolved). */
  isFile: boolean;
}

export interface FileInfo {
  size: number;
  mtimeMs: number;
  isFile: boolean;
  isDirectory: boolean;
}

/** A byte range, `end` exclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface FileStore {
  /** Joins a directory and a file name with the separator of the store. */
  join(dir: string, name: string): string;
  /** Entries of a directory whose names pass `filter`, symbolic links resolved; entries that vanish meanwhile are left out. */
  list(dir: string, filter?: (name: string) => boolean): Promise<FileEntry[]>;
  stat(path: string): Promise<FileInfo>;
  /** The file's bytes, or the bytes of `range`. */
  readStream(path: string, range?: ByteRange): Readable;
  readFile(path: string): Promise<Buffer>;
  /**
   * Writes `content` under a hidden temporary name next to `target`, then renames it into place, so
   * readers never see half a file and a failure leaves nothing behind. With `replace: false` an
   * existing target is kept and the call resolves false.
   */
  writeFile(target: string, content: Readable | Buffer, options?: { replace?: boolean }): Promise<boolean>;
  unlink(path: string): Promise<void>;
  /** mkdir -p. */
  mkdir(path: string): Promise<void>;
  /** Whether the service may list and read the directory, and create files in it. */
  access(dir: string): Promise<{ readable: boolean; writable: boolean }>;
  close(): Promise<void>;
}

/** A hidden temporary name for `fileName`, in the same directory so that the final rename is one step. */
export function tempName(fileName: string): string {
  return `.${fileName}.${randomBytes(6).toString('hex')}.tmp`;
}

export async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}

/** Random access to a file by ranged reads, for hyparquet (which reads the footer, then only the pages it needs). */
export async function asyncBuffer(store: FileStore, path: string): Promise<AsyncBuffer> {
  const { size } = await store.stat(path);
  return {
    byteLength: size,
    async slice(start: number, end = size): Promise<ArrayBuffer> {
      if (end <= start) return new ArrayBuffer(0);
      const bytes = await collect(store.readStream(path, { start, end }));
      // A small Buffer shares node's allocation pool: copy out exactly its bytes.
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    },
  };
}
