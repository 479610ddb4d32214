import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox, parseKey } from '../secrets.js';

describe('secret box', () => {
  const key = randomBytes(32);
  const box = createSecretBox(key);

  it('round-trips, with a fresh IV each time, and names its key', () => {
    const a = box.encrypt('hunter2 ünïcödé');
    const b = box.encrypt('hunter2 ünïcödé');
    expect(a).not.toBe(b);
    expect(a).not.toContain('hunter2');
    expect(a.split(':')[1]).toBe(box.keyId);
    expect(box.decrypt(a)).toBe('hunter2 ünïcödé');
  });

  it('refuses a tampered ciphertext', () => {
    const parts = box.encrypt('secret').split(':');
    parts[4] = Buffer.from('tampered').toString('base64url');
    expect(() => box.decrypt(parts.join(':'))).toThrow();
  });

  it('rotates: the new key decrypts what the previous key encrypted, and encrypts with itself', () => {
    const old = box.encrypt('kept across rotation');
    const rotated = createSecretBox(randomBytes(32), [key]);
    expect(rotated.decrypt(old)).toBe('kept across rotation');
    expect(rotated.encrypt('x').split(':')[1]).toBe(rotated.keyId);
    expect(() => createSecretBox(randomBytes(32)).decrypt(old)).toThrow(/neither SVC_ENCRYPTION_KEY/);
  });

  it('accepts base64 and hex keys of 32 bytes only', () => {
    expect(parseKey(key.toString('base64'), 'K')).toEqual(key);
    expect(parseKey(key.toString('hex'), 'K')).toEqual(key);
    expect(() => parseKey('short', 'SVC_ENCRYPTION_KEY')).toThrow(/SVC_ENCRYPTION_KEY: must be 32 bytes/);
  });
});
