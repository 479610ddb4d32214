/**
 * Binlog positions as the opaque strings of the change-capture contract: `<file>:<offset>`, then,
 * for information only, `;gtid=<GTID>` when known. Files are ordered by their numeric suffix
 * (mariadb-bin.000012), offsets within a file.
 */
import { createHash } from 'node:crypto';
import { ConnectorError } from '../../types.js';

export interface BinlogPosition {
  file: string;
  offset: number;
  /** Informational: the server's GTID position (snapshot) or the last GTID read (stream). */
  gtid?: string;
}

const GTID_MARK = ';gtid=';

export function formatPosition(position: BinlogPosition): string {
  return `${position.file}:${position.offset}${position.gtid ? `${GTID_MARK}${position.gtid}` : ''}`;
}

export function parsePosition(text: string): BinlogPosition {
  const gtidAt = text.indexOf(GTID_MARK);
  const location = gtidAt < 0 ? text : text.slice(0, gtidAt);
  const colon = location.lastIndexOf(':');
  const file = location.slice(0, colon);
  const offset = Number(location.slice(colon + 1));
  if (colon <= 0 || !Number.isSafeInteger(offset) || offset < 0 || fileSequence(file) === undefined) {
    throw new ConnectorError('invalid_config', `"${text}" is not a binlog position (expected <file>:<offset>)`, false);
  }
  const gtid = gtidAt < 0 ? undefined : text.slice(gtidAt + GTID_MARK.length);
  return gtid ? { file, offset, gtid } : { file, offset };
}

/** The numeric suffix the server appends to binlog file names; undefined when there is none. */
export function fileSequence(file: string): number | undefined {
  const match = /\.(\d+)$/.exec(file);
  return match ? Number(match[1]) : undefined;
}

export function comparePositions(a: BinlogPosition, b: BinlogPosition): number {
  return (fileSequence(a.file) ?? 0) - (fileSequence(b.file) ?? 0) || a.offset - b.offset;
}

/**
 * A replica server id for this capture: stable across restarts, never 0 or 1 (the usual id of a
 * primary) nor the server's own. A server drops an older binlog connection when another connects
 * with the same id, so each capture needs its own.
 */
export function replicaServerId(captureId: string, sourceServerId: number): number {
  for (let attempt = 0; ; attempt++) {
    const id = createHash('sha256')
      .update(attempt === 0 ? captureId : `${captureId}\0${attempt}`)
      .digest()
      .readUInt32BE(0);
    if (id > 1 && id !== sourceServerId) return id;
  }
}
