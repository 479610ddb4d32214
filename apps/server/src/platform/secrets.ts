/**
 * Secrets at rest: AES-256-GCM with a random 96-bit IV per value. Each ciphertext names the key that
 * made it (the first 8 hex digits of the key's SHA-256), so keys can be rotated: the current key
 * encrypts, the current and previous keys decrypt.
 * Format: `v1:<key id>:<iv>:<tag>:<ciphertext>` (base64url parts).
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from './config/index.js';

export interface SecretBox {
  keyId: string;
  encrypt(plaintext: string): string;
  decrypt(ciphertext: string): string;
  /** A key of its own for one purpose (`label`), derived from the current key: for values we can re-derive instead of storing. */
  derive(label: string): Buffer;
}

export function parseKey(value: string, variable: string): Buffer {
  const trimmed = value.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new Error(`${variable}: must be 32 bytes, as base64 or 64 hex digits`);
  return key;
}

const keyIdOf = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

export function createSecretBox(current: Buffer, previous: Buffer[] = []): SecretBox {
  const keys = new Map<string, Buffer>([current, ...previous].map((k) => [keyIdOf(k), k]));
  const keyId = keyIdOf(current);
  return {
    keyId,
    encrypt(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [
        'v1',
        keyId,
        iv.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
        data.toString('base64url'),
      ].join(':');
    },
    decrypt(ciphertext) {
      const [version, id, iv, tag, data] = ciphertext.split(':');
      if (version !== 'v1' || !id || !iv || !tag || data === undefined)
        throw new Error('not a ciphertext of this service');
      const key = keys.get(id);
      if (!key)
        throw new Error(
          `secret encrypted with key ${id}, which is neither SVC_ENCRYPTION_KEY nor in SVC_ENCRYPTION_PREVIOUS_KEYS`,
        );
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
    derive(label) {
      return createHmac('sha256', current).update(`svc derived key: ${label}`).digest();
    },
  };
}

/** The configured key; in development without one, a random key generated once into the data dir. */
export async function resolveSecretBox(config: Config): Promise<SecretBox> {
  const previous = config.secrets.previousKeys
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean)
    .map((k) => parseKey(k, 'SVC_ENCRYPTION_PREVIOUS_KEYS'));
  if (config.secrets.encryptionKey)
    return createSecretBox(parseKey(config.secrets.encryptionKey, 'SVC_ENCRYPTION_KEY'), previous);
  const file = path.resolve(config.dataDir, 'encryption-key');
  let value: string;
  try {
    value = (await readFile(file, 'utf8')).trim();
  } catch {
    await mkdir(config.dataDir, { recursive: true });
    await writeFile(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' }).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      },
    );
    await chmod(file, 0o600);
    value = (await readFile(file, 'utf8')).trim();
  }
  return createSecretBox(parseKey(value, 'SVC_ENCRYPTION_KEY'), previous);
}
