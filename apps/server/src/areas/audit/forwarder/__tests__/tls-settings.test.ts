import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { normalizeTlsSettings, tlsSettingProblems } from '../tls-settings.js';

const rsa = (cipher?: string) =>
  generateKeyPairSync('rsa', {
    modulusLength: 1024,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: cipher
      ? { type: 'pkcs8', format: 'pem', cipher, passphrase: 'a passphrase' }
      : { type: 'pkcs8', format: 'pem' },
  });

describe('TLS settings of a syslog destination', () => {
  it('puts back the line breaks a PEM lost in a one-line field, and leaves what is not PEM alone', () => {
    const { privateKey } = rsa();
    const flat = privateKey.replace(/\n/g, '');
    expect(normalizeTlsSettings({ client_key: flat, host: 'h' })).toEqual({ client_key: privateKey, host: 'h' });
    expect(normalizeTlsSettings({ client_key: privateKey.replace(/\n/g, '\r\n  ') }).client_key).toBe(privateKey);
    expect(normalizeTlsSettings({ ca: 'not PEM' })).toEqual({ ca: 'not PEM' });
    // A bundle's comments and OpenSSL's subject lines go; the blocks stay, in order.
    const block = (body: string) => `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;
    expect(normalizeTlsSettings({ ca: `# Root one\n${block('QUJD')}subject=CN = two\n${block('REVG')}` })).toEqual({
      ca: `${block('QUJD')}${block('REVG')}`,
    });
  });

  it('names the field of a key that is not one readable, unencrypted PEM key, without quoting it', () => {
    const key = rsa().privateKey;
    const cases: Array<[string, RegExp]> = [
      ['not a key', /not one PEM private key/],
      [rsa('aes-256-cbc').privateKey, /is encrypted/],
      [`${key}${key}`, /not one PEM private key/],
      [
        key
          .split('\n')
          .filter((_, i) => i !== 3)
          .join('\n'),
        /cannot be read as a private key/,
      ],
      [rsa().publicKey, /not one PEM private key/],
    ];
    for (const [clientKey, message] of cases) {
      const problems = tlsSettingProblems({ client_key: clientKey, client_cert: 'x' });
      expect(problems.find((p) => p.path === 'config.client_key')?.message).toMatch(message);
      expect(JSON.stringify(problems)).not.toContain(key.split('\n')[3]);
    }
  });

  it('wants the certificate and its key together, and certificates as PEM', () => {
    expect(tlsSettingProblems({ client_key: rsa().privateKey }).map((p) => p.path)).toEqual(['config.client_cert']);
    expect(tlsSettingProblems({ ca: 'junk', client_cert: 'junk' }, 'destination')).toEqual([
      { path: 'destination.ca', message: 'is not PEM of certificates ("-----BEGIN CERTIFICATE-----" blocks)' },
      { path: 'destination.client_cert', message: 'is not PEM of certificates ("-----BEGIN CERTIFICATE-----" blocks)' },
      { path: 'destination.client_key', message: 'is required with client_cert' },
    ]);
    expect(tlsSettingProblems({ host: 'h' })).toEqual([]);
  });
});
