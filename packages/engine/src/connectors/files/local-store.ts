/** The local file system as a FileStore: no connection to hold, each call works on the directory as it is then. */
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access, link, mkdir, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { tempName, type FileEntry, type FileStore } from './store.js';

const can = (path: string, mode: number) => access(path, mode).then(
  () => true,
  () => false,
);

export const localStore: FileStore = {
  join,

  async list(dir, filter) {
    const entries = await readdir(dir, { withFileTypes: true });
    const files: FileEntry[] = [];
    for (const entry of entries) {
      if (filter && !filter(entry.name)) continue;
      const info = await stat(join(dir, entry.name)).catch(() => undefined); // follows symlinks; vanished files are skipped
      if (info) files.push({ name: entry.name, size: info.size, mtimeMs: info.mtimeMs, isFile: info.isFile() });
    }
    return files;
  },

  async stat(path) {
    const info = await stat(path);
    return { size: info.size, mtimeMs: info.mtimeMs, isFile: info.isFile(), isDirectory: info.isDirectory() };
  },

  readStream: (path, range) => createReadStream(path, range ? { start: range.start, end: range.end - 1 } : {}),

  readFile: (path) => readFile(path),

  async writeFile(target, content, options) {
    const temp = join(dirname(target), tempName(basename(target)));
    try {
      await pipeline(Buffer.isBuffer(content) ? Readable.from([content]) : content, createWriteStream(temp));
      if (options?.replace === false) {
        // link() fails on an existing name, so a concurrent writer's file is never replaced.
        return await link(temp, target).then(
          () => true,
          (error: { code?: string }) => (error.code === 'EEXIST' ? false : Promise.reject(error)),
        );
      }
      await rename(temp, target);
      return true;
    } finally {
      await rm(temp, { force: true }).catch(() => undefined);
    }
  },

  unlink: (path) => unlink(path),

  async mkdir(path) {
    await mkdir(path, { recursive: true });
  },

  async access(dir) {
    return { readable: await can(dir, constants.R_OK | constants.X_OK), writable: await can(dir, constants.W_OK) };
  },

  async close() {},
};
