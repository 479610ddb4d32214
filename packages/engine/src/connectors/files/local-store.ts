/** The local file system as a FileStore: no connection to hold, each call works on the directory as it is then. */
import { constants, createReadStream, createWriteStream, realpathSync } from 'node:fs';
import { access, link, mkdir, readdir, readFile, realpath, rename, rm, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { tempName, type FileEntry, type FileStore } from './store.js';

const can = (path: string, mode: number) =>
  access(path, mode).then(
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

/**
 * The local file system below `root` only: every path is resolved with its symbolic links before it
 * is used, and one that leads outside `root` is refused (a listing leaves it out), so a link placed in
 * a project's folder cannot reach another project's files or the service's own.
 */
export function confinedLocalStore(root: string): FileStore {
  const outside = (path: string) =>
    Object.assign(new Error(`${path} is outside the connector's folder`), { code: 'EACCES' });
  let realRoot: string | undefined;
  const isInside = (real: string) =>
    real === realRoot || real.startsWith(realRoot!.endsWith(sep) ? realRoot! : `${realRoot}${sep}`);
  /** The real path of `path`, or of its nearest existing ancestor joined with the rest (a file not created yet). */
  const resolveReal = async (path: string): Promise<string> => {
    realRoot ??= await realpath(root);
    try {
      return await realpath(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(path) === path) throw error;
      return join(await resolveReal(dirname(path)), basename(path));
    }
  };
  const checked = async (path: string) => {
    const real = await resolveReal(path);
    if (!isInside(real)) throw outside(path);
    return real;
  };
  const checkedSync = (path: string) => {
    realRoot ??= realpathSync(root);
    const real = realpathSync(path);
    if (!isInside(real)) throw outside(path);
    return real;
  };
  return {
    join,
    async list(dir, filter) {
      const real = await checked(dir);
      const entries = await localStore.list(real, filter);
      const kept: FileEntry[] = [];
      for (const entry of entries) {
        const target = await realpath(join(real, entry.name)).catch(() => undefined);
        if (target && isInside(target)) kept.push(entry);
      }
      return kept;
    },
    stat: async (path) => localStore.stat(await checked(path)),
    readStream(path, range) {
      try {
        return localStore.readStream(checkedSync(path), range);
      } catch (error) {
        // The same shape as an unreadable file: the error surfaces when the stream is read.
        return new Readable({
          read() {
            this.destroy(error as Error);
          },
        });
      }
    },
    readFile: async (path) => localStore.readFile(await checked(path)),
    async writeFile(target, content, options) {
      // The directory must be inside; the name itself is replaced, never followed.
      return localStore.writeFile(join(await checked(dirname(target)), basename(target)), content, options);
    },
    unlink: async (path) => localStore.unlink(join(await checked(dirname(path)), basename(path))),
    mkdir: async (path) => localStore.mkdir(await checked(path)),
    access: async (dir) => localStore.access(await checked(dir)),
    async close() {},
  };
}
