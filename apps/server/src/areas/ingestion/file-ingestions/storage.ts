/**
 * Where a file ingestion's files live on disk, always inside the project's own folder of the files
 * root (SVC_FILES_ROOT/<project id>): uploads under `.uploads/<ingestion id>/`, folder sources at
 * the path the ingestion names. Paths are resolved (symbolic links included) and refused when they
 * would leave the project's folder.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, realpath, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';

export interface FolderEntry {
  name: string;
  path: string;
  size: number;
  modifiedAt: Date;
}

export const UPLOADS = '.uploads';

const inside = (folder: string, target: string) => target === folder || target.startsWith(folder + path.sep);

/** sha256 of a file, hex, streamed. */
export async function checksumOf(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export function createFileStorage(filesRoot: string) {
  const projectFolder = (projectId: string) => path.join(filesRoot, projectId);
  /** A path relative to the project's folder, or undefined when it would leave it. */
  const within = (projectId: string, relative: string): string | undefined => {
    const folder = projectFolder(projectId);
    const resolved = path.resolve(folder, relative);
    return inside(folder, resolved) ? resolved : undefined;
  };
  /** The same, with symbolic links resolved (the folder must exist). */
  const realWithin = async (projectId: string, relative: string): Promise<string | undefined> => {
    const lexical = within(projectId, relative);
    if (!lexical) return undefined;
    const folder = await realpath(projectFolder(projectId)).catch(() => projectFolder(projectId));
    const real = await realpath(lexical).catch(() => undefined);
    return real && inside(folder, real) ? real : undefined;
  };
  return {
    projectFolder,
    within,
    uploadFolder: async (projectId: string, ingestionId: string) => {
      const folder = path.join(projectFolder(projectId), UPLOADS, ingestionId);
      await mkdir(folder, { recursive: true });
      return folder;
    },
    /** Files of a folder source matching the glob (relative to the folder), archive and hidden folders left out. */
    async list(projectId: string, folder: string, glob: string, skip: string | undefined): Promise<FolderEntry[]> {
      const base = await realWithin(projectId, folder);
      if (!base) throw new Error(`the folder "${folder}" does not exist in the project's folder of the files root`);
      const skipReal = skip ? within(projectId, skip) : undefined;
      const match = picomatch(glob, { dot: false });
      const found: FolderEntry[] = [];
      const walk = async (dir: string) => {
        for (const entry of await readdir(dir, { withFileTypes: true })) {
          const full = path.join(dir, entry.name);
          if (entry.name.startsWith('.')) continue;
          if (entry.isDirectory()) {
            if (full !== skipReal) await walk(full);
            continue;
          }
          if (!entry.isFile()) continue; // symbolic links are not followed
          const relative = path.relative(base, full).split(path.sep).join('/');
          if (!match(relative)) continue;
          const info = await stat(full);
          found.push({ name: relative, path: full, size: info.size, modifiedAt: info.mtime });
        }
      };
      await walk(base);
      return found.sort((a, b) => a.name.localeCompare(b.name));
    },
    /** Moves a loaded file into the archive folder (created when missing); a name taken gets a suffix. */
    async archive(projectId: string, file: string, archiveFolder: string): Promise<string> {
      const folder = within(projectId, archiveFolder);
      if (!folder) throw new Error(`the archive folder "${archiveFolder}" is outside the project's folder`);
      await mkdir(folder, { recursive: true });
      let target = path.join(folder, path.basename(file));
      if (await stat(target).catch(() => undefined)) target = `${target}.${Date.now()}`;
      await rename(file, target);
      return target;
    },
    remove: (file: string) => rm(file, { force: true }),
    /** Removes a folder of the service's own copies (an ingestion's uploads) with what it holds. */
    removeFolder: (folder: string) => rm(folder, { recursive: true, force: true }),
    exists: async (file: string) => !!(await stat(file).catch(() => undefined)),
  };
}

export type FileStorage = ReturnType<typeof createFileStorage>;
