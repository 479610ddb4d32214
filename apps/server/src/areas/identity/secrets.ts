/** Opaque high-entropy secrets (refresh tokens, personal API tokens): random values stored only as SHA-256. */
import { createHash, randomBytes } from 'node:crypto';

export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** A plain SHA-256 suffices: the inputs carry 256 random bits, so there is nothing to brute-force. */
export function hashSecret(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
