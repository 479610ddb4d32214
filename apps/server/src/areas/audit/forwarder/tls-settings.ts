/**
 * The TLS settings of a syslog destination: the CA certificates, the client certificate and its
 * private key (mutual TLS), as PEM. Their line breaks are restored before they are stored (a PEM
 * pasted into a one-line field, or squeezed into one JSON line, loses them), and they are checked
 * before anything is stored: each refusal names its field and never quotes the value.
 */
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import type { FieldError } from '../../../platform/errors/index.js';

/** The settings holding PEM text, by name. */
const PEM_FIELDS = ['ca', 'client_cert', 'client_key'] as const;

const BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;
const KEY_LABELS = new Set(['PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY']);

interface PemBlock {
  label: string;
  /** The base64 body, without white space; undefined when it is not base64 (headers, say). */
  base64: string | undefined;
  /** The body as it came. */
  raw: string;
}

/**
 * The PEM blocks of `text`, undefined when there is none. Text around them (the subject and issuer
 * lines OpenSSL writes, a bundle's comments) is ignored, as OpenSSL ignores it.
 */
function pemBlocks(text: string): PemBlock[] | undefined {
  const blocks = [...text.matchAll(BLOCK)].map((match) => {
    const compact = match[2]!.replace(/\s+/g, '');
    return {
      label: match[1]!,
      base64: /^[A-Za-z0-9+/]+={0,2}$/.test(compact) ? compact : undefined,
      raw: match[2]!,
    };
  });
  return blocks.length ? blocks : undefined;
}

const formatBlock = (label: string, base64: string) =>
  `-----BEGIN ${label}-----\n${base64.match(/.{1,64}/g)!.join('\n')}\n-----END ${label}-----\n`;

/**
 * The settings with each PEM field rewritten in its canonical form (its blocks alone, in lines of 64),
 * when it parses.
 */
export function normalizeTlsSettings(config: Record<string, unknown>): Record<string, unknown> {
  const normalized = { ...config };
  for (const field of PEM_FIELDS) {
    const value = config[field];
    if (typeof value !== 'string') continue;
    const blocks = pemBlocks(value);
    if (blocks?.every((b) => b.base64 !== undefined))
      normalized[field] = blocks.map((b) => formatBlock(b.label, b.base64!)).join('');
  }
  return normalized;
}

/** The certificates of a PEM field, or why they cannot be read. */
function certificatesOf(text: string): X509Certificate[] | string {
  const blocks = pemBlocks(text);
  if (!blocks || blocks.some((b) => b.label !== 'CERTIFICATE' || b.base64 === undefined))
    return 'is not PEM of certificates ("-----BEGIN CERTIFICATE-----" blocks)';
  try {
    return blocks.map((b) => new X509Certificate(formatBlock(b.label, b.base64!)));
  } catch {
    return 'holds a certificate that cannot be read';
  }
}

/** The private key of the client_key field, or why it cannot be used. Never quotes the key. */
function privateKeyOf(text: string): KeyObject | string {
  // `openssl ecparam -genkey` writes the curve's parameters before the key: not needed.
  const blocks = pemBlocks(text)?.filter((b) => b.label !== 'EC PARAMETERS');
  if (blocks?.length === 1 && (blocks[0]!.label === 'ENCRYPTED PRIVATE KEY' || /Proc-Type:/.test(blocks[0]!.raw)))
    return 'is encrypted: give the key without its passphrase';
  if (blocks?.length !== 1 || !KEY_LABELS.has(blocks[0]!.label) || blocks[0]!.base64 === undefined)
    return 'is not one PEM private key ("-----BEGIN PRIVATE KEY-----", RSA or EC)';
  try {
    return createPrivateKey(formatBlock(blocks[0]!.label, blocks[0]!.base64));
  } catch {
    return 'cannot be read as a private key';
  }
}

/**
 * What is wrong with the TLS settings of a syslog destination (the whole configuration, its stored
 * secrets included): PEM that cannot be read, a client certificate without its key or the other way
 * round, or a key that does not belong to the certificate. Paths are named from `prefix`.
 */
export function tlsSettingProblems(config: Record<string, unknown>, prefix = 'config'): FieldError[] {
  const problems: FieldError[] = [];
  const text = (field: string) => (typeof config[field] === 'string' ? (config[field] as string) : undefined);
  const ca = text('ca');
  if (ca !== undefined) {
    const read = certificatesOf(ca);
    if (typeof read === 'string') problems.push({ path: `${prefix}.ca`, message: read });
  }
  const cert = text('client_cert');
  const key = text('client_key');
  let certificate: X509Certificate | undefined;
  let privateKey: KeyObject | undefined;
  if (cert !== undefined) {
    const read = certificatesOf(cert);
    if (typeof read === 'string') problems.push({ path: `${prefix}.client_cert`, message: read });
    else certificate = read[0];
  }
  if (key !== undefined) {
    const read = privateKeyOf(key);
    if (typeof read === 'string') problems.push({ path: `${prefix}.client_key`, message: read });
    else privateKey = read;
  }
  if (cert !== undefined && key === undefined)
    problems.push({ path: `${prefix}.client_key`, message: 'is required with client_cert' });
  if (key !== undefined && cert === undefined)
    problems.push({ path: `${prefix}.client_cert`, message: 'is required with client_key' });
  if (certificate && privateKey && !certificate.checkPrivateKey(privateKey))
    problems.push({ path: `${prefix}.client_key`, message: 'does not belong to the first certificate of client_cert' });
  return problems;
}
