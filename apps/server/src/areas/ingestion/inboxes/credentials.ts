/**
 * An inbox's own credential, checked on every request to its public receive route, in constant time:
 * a bearer token (kept as its sha256), HTTP basic (the password kept encrypted), or an HMAC of the
 * raw body (sha256 or sha512, hex, optionally prefixed `sha256=`), over `<timestamp>.<body>` when a
 * timestamp header is configured, which must then be within the tolerance of now (a replayed
 * request outside it is refused).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { InboxAuthConfig } from './repository.js';

/** Equal-length digests compared in constant time, whatever the lengths of the inputs. */
export function sameSecret(given: string | Buffer, expected: string | Buffer): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export const newSecret = (prefix: string) => `${prefix}${randomBytes(32).toString('base64url')}`;
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

type Headers = Record<string, string | string[] | undefined>;
const header = (headers: Headers, name: string) => {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

/** Checks that need no body (bearer, basic): the reason of a refusal, or undefined. */
export function checkBeforeBody(
  kind: 'bearer' | 'basic' | 'hmac',
  auth: InboxAuthConfig,
  secret: () => string,
  headers: Headers,
): string | undefined {
  if (kind === 'hmac') return undefined;
  const authorization = header(headers, 'authorization') ?? '';
  if (kind === 'bearer') {
    const match = /^Bearer\s+(.+)$/i.exec(authorization);
    if (!match) return 'missing bearer token';
    return sameSecret(tokenHash(match[1]!.trim()), secret()) ? undefined : 'invalid bearer token';
  }
  const match = /^Basic\s+(.+)$/i.exec(authorization);
  if (!match) return 'missing basic credentials';
  const decoded = Buffer.from(match[1]!.trim(), 'base64').toString();
  const colon = decoded.indexOf(':');
  const user = colon < 0 ? decoded : decoded.slice(0, colon);
  const password = colon < 0 ? '' : decoded.slice(colon + 1);
  // Both compared, always: no early exit that tells a wrong user from a wrong password by its timing.
  const userOk = sameSecret(user, auth.username ?? '');
  const passwordOk = sameSecret(password, secret());
  return userOk && passwordOk ? undefined : 'invalid basic credentials';
}

/** The HMAC check over the raw body: the reason of a refusal, or undefined. */
export function checkSignature(
  auth: InboxAuthConfig,
  secret: string,
  headers: Headers,
  body: Buffer,
  now = Date.now(),
): string | undefined {
  const algorithm = auth.algorithm ?? 'sha256';
  const given = header(headers, auth.header ?? 'x-signature');
  if (!given) return `missing signature header ${auth.header ?? 'X-Signature'}`;
  const hmac = createHmac(algorithm, secret);
  if (auth.timestamp_header) {
    const stamp = header(headers, auth.timestamp_header);
    if (!stamp || !/^\d{1,13}$/.test(stamp)) return `missing or malformed timestamp header ${auth.timestamp_header}`;
    // Seconds since the epoch (milliseconds accepted when the value is that long).
    const ms = stamp.length > 11 ? Number(stamp) : Number(stamp) * 1000;
    const tolerance = (auth.tolerance_seconds ?? 300) * 1000;
    if (Math.abs(now - ms) > tolerance) return 'timestamp outside the tolerance (a replayed or delayed request)';
    hmac.update(`${stamp}.`);
  }
  const expected = hmac.update(body).digest('hex');
  const value = given
    .replace(/^(sha256|sha512)=/i, '')
    .trim()
    .toLowerCase();
  return sameSecret(value, expected) ? undefined : 'invalid signature';
}
