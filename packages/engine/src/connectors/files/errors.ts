/** File system errors as connector errors: what is missing or forbidden is not worth retrying. */
import { ConnectorError } from '../../types.js';

export function classify(error: unknown, what: string): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const e = error as { code?: string; message?: string; name?: string };
  switch (e.code) {
    case 'ENOENT':
      return new ConnectorError('not_found', `${what}: no such file or directory`, false, { cause: error });
    case 'ENOTDIR':
      return new ConnectorError('not_found', `${what}: not a directory`, false, { cause: error });
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new ConnectorError('missing_privilege', `${what}: permission denied (${e.code})`, false, { cause: error });
    case 'ENOSPC':
    case 'EMFILE':
    case 'ENFILE':
    case 'EIO':
    case 'EBUSY':
      return new ConnectorError('failed', `${what}: ${e.message ?? e.code}`, true, { cause: error });
  }
  if (e.name === 'AbortError') return new ConnectorError('failed', `${what}: aborted`, false, { cause: error });
  // Malformed content (CSV, JSON or Parquet that does not parse) will not parse on a retry either.
  return new ConnectorError('failed', `${what}: ${e.message ?? String(error)}`, false, { cause: error });
}
