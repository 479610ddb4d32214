/** File system and SFTP errors as connector errors: what is missing or forbidden is not worth retrying. */
import { ConnectorError } from '../../types.js';

/** SFTP status codes (draft-ietf-secsh-filexfer-02) by the POSIX code that means the same. */
const SFTP_STATUS: Record<number, string> = { 2: 'ENOENT', 3: 'EACCES', 6: 'ENOTCONN', 7: 'ECONNRESET' };

/** The error's POSIX-style code: its own, or the one of its SFTP status. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'number') return SFTP_STATUS[code];
  return typeof code === 'string' ? code : undefined;
}

export function classify(error: unknown, what: string): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const e = error as { message?: string; name?: string };
  const code = errorCode(error);
  switch (code) {
    case 'ENOENT':
      return new ConnectorError('not_found', `${what}: no such file or directory`, false, { cause: error });
    case 'ENOTDIR':
      return new ConnectorError('not_found', `${what}: not a directory`, false, { cause: error });
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new ConnectorError('missing_privilege', `${what}: permission denied (${code})`, false, { cause: error });
    case 'ENOSPC':
    case 'EMFILE':
    case 'ENFILE':
    case 'EIO':
    case 'EBUSY':
      return new ConnectorError('failed', `${what}: ${e.message ?? code}`, true, { cause: error });
    case 'ENOTCONN':
    case 'ECONNRESET':
    case 'ERR_NOT_CONNECTED': // ssh2-sftp-client, after the connection dropped
      return new ConnectorError('unreachable', `${what}: the SFTP connection was lost`, true, { cause: error });
  }
  if (e.name === 'AbortError') return new ConnectorError('failed', `${what}: aborted`, false, { cause: error });
  // Malformed content (CSV, JSON or Parquet that does not parse) will not parse on a retry either.
  return new ConnectorError('failed', `${what}: ${e.message ?? String(error)}`, false, { cause: error });
}
