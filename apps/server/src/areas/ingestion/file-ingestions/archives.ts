/**
 * Zip archives taken in by a file ingestion (uploaded, or found in a folder, a bucket or on an SFTP
 * server): read through the archive's central directory (yauzl), each member matching the
 * ingestion's member glob written to its own file, streamed and hashed on the way, to be loaded as a
 * file of its own. Limits against zip bombs are checked on the central directory before anything is
 * inflated (entry count, total uncompressed size, expansion ratio of each member) and again on the
 * bytes actually inflated (yauzl fails a member whose data is longer than its declared size, and the
 * running total is kept here), so an archive that lies about its sizes still stops at the limit.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import picomatch from 'picomatch';
import yauzl, { type Entry } from 'yauzl';
import type { FormatSpec } from './repository.js';

export interface ArchiveLimits {
  /** Most bytes all loaded members together may expand to. */
  maxBytes: number;
  /** Most entries (files and folders) the archive may have. */
  maxMembers: number;
  /** Highest uncompressed/compressed ratio of a member above RATIO_FLOOR bytes. */
  maxRatio: number;
}

/** Members smaller than this are not held to the ratio (small files compress unevenly, and cannot harm). */
export const RATIO_FLOOR = 1024 * 1024;

/** Why an archive was refused or could not be read: the message is the file's error in its history. */
export class ArchiveRejected extends Error {}

export interface ExpandedMember {
  /** The member's path in the archive. */
  member: string;
  /** Where it was written. */
  path: string;
  size: number;
  checksum: string;
}

export const isZip = (format: FormatSpec, name: string) =>
  format.compression === 'zip' || ((format.compression ?? 'auto') === 'auto' && /\.zip$/i.test(name));

/** The members an ingestion loads by default: those with its format's extensions (gzipped text too). */
const DEFAULT_MEMBERS: Record<FormatSpec['type'], string> = {
  csv: '*.{csv,csv.gz,txt}',
  ndjson: '*.{ndjson,jsonl,ndjson.gz,jsonl.gz}',
  json: '*.json',
  xlsx: '*.xlsx',
  parquet: '*.parquet',
};

export const memberGlobOf = (format: FormatSpec) => format.archive_members ?? DEFAULT_MEMBERS[format.type];

/** Whether a member is one to load: its path or its base name matches the glob; folders, hidden files and macOS resource forks never. */
export function memberMatcher(format: FormatSpec) {
  const glob = memberGlobOf(format);
  const byPath = picomatch(glob, { dot: false, nocase: true });
  const byName = picomatch(glob, { dot: false, nocase: true, basename: true });
  return (member: string) => {
    if (member.endsWith('/')) return false;
    const parts = member.split('/');
    if (parts.some((p) => p.startsWith('.') || p === '__MACOSX')) return false;
    return byPath(member) || byName(member);
  };
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MiB`;

/**
 * Expands the members of `archive` that `wanted` accepts into `folder` (files named after them,
 * each with a random prefix). Throws ArchiveRejected, with nothing left behind, when a limit is
 * passed or the archive cannot be read.
 */
export async function expandZip(
  archive: string,
  folder: string,
  wanted: (member: string) => boolean,
  limits: ArchiveLimits,
  signal?: AbortSignal,
): Promise<{ members: ExpandedMember[]; ignored: number }> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(archive, { lazyEntries: true, autoClose: false, validateEntrySizes: true });
  } catch (error) {
    throw new ArchiveRejected(`not a readable zip archive: ${(error as Error).message}`);
  }
  const written: string[] = [];
  try {
    if (zip.entryCount > limits.maxMembers)
      throw new ArchiveRejected(
        `the zip archive has ${zip.entryCount} entries, more than the limit of ${limits.maxMembers} (SVC_FILE_ARCHIVE_MAX_MEMBERS)`,
      );
    // The central directory first: every limit is checked before a byte is inflated.
    const chosen: Entry[] = [];
    let ignored = 0;
    let declared = 0;
    try {
      for await (const entry of zip.eachEntry()) {
        if (entry.fileName.endsWith('/')) continue;
        if (!wanted(entry.fileName)) {
          ignored += 1;
          continue;
        }
        if (entry.isEncrypted())
          throw new ArchiveRejected(`member ${entry.fileName} is encrypted, which is not supported`);
        if (!entry.canDecodeFileData())
          throw new ArchiveRejected(
            `member ${entry.fileName} uses compression method ${entry.compressionMethod}; only stored and deflated members are read`,
          );
        const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
        if (entry.uncompressedSize > RATIO_FLOOR && ratio > limits.maxRatio)
          throw new ArchiveRejected(
            `member ${entry.fileName} expands ${Math.round(ratio)} times (${mib(entry.compressedSize)} to ${mib(entry.uncompressedSize)}), more than the limit of ${limits.maxRatio} (SVC_FILE_ARCHIVE_MAX_RATIO): refused as a possible zip bomb`,
          );
        declared += entry.uncompressedSize;
        if (declared > limits.maxBytes)
          throw new ArchiveRejected(
            `the members of the zip archive expand to more than ${limits.maxBytes} bytes, the limit (SVC_FILE_ARCHIVE_MAX_BYTES): refused as a possible zip bomb`,
          );
        chosen.push(entry);
      }
    } catch (error) {
      if (error instanceof ArchiveRejected) throw error;
      throw new ArchiveRejected(`the zip archive cannot be read: ${(error as Error).message}`);
    }

    const members: ExpandedMember[] = [];
    let inflated = 0;
    for (const entry of chosen) {
      signal?.throwIfAborted();
      const target = path.join(
        folder,
        `${randomUUID()}-${path.posix
          .basename(entry.fileName)
          .replace(/[^\w.-]/g, '_')
          .slice(0, 100)}`,
      );
      written.push(target);
      const hash = createHash('sha256');
      let size = 0;
      try {
        const stream = await zip.openReadStreamPromise(entry);
        await pipeline(
          stream,
          new Transform({
            transform(chunk: Buffer, _encoding, done) {
              size += chunk.length;
              inflated += chunk.length;
              if (inflated > limits.maxBytes) {
                done(
                  new ArchiveRejected(
                    `the members of the zip archive expand to more than ${limits.maxBytes} bytes, the limit (SVC_FILE_ARCHIVE_MAX_BYTES): refused as a possible zip bomb`,
                  ),
                );
                return;
              }
              hash.update(chunk);
              done(null, chunk);
            },
          }),
          createWriteStream(target),
          { signal },
        );
      } catch (error) {
        if (error instanceof ArchiveRejected || signal?.aborted) throw error;
        throw new ArchiveRejected(`member ${entry.fileName} cannot be read: ${(error as Error).message}`);
      }
      members.push({ member: entry.fileName, path: target, size, checksum: hash.digest('hex') });
    }
    return { members, ignored };
  } catch (error) {
    for (const file of written) await rm(file, { force: true });
    throw error;
  } finally {
    zip.close();
  }
}
