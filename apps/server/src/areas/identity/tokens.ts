/**
 * Access tokens: JWTs signed with SVC_JWT_SECRET under exactly the configured HMAC algorithm
 * (fast-jwt: node:crypto HMAC). Verified tokens are remembered until they expire, so a repeated token
 * costs a map lookup instead of an HMAC.
 * Claims: sub (user id), sid (session family), jti (token id), iat, exp, iss, aud.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { TOKEN_ERROR_CODES, TokenError, createSigner, createVerifier } from 'fast-jwt';
import type { Config } from '../../platform/config/index.js';
import { unauthenticated } from '../../platform/errors/index.js';

const ISSUER = 'svc';
const AUDIENCE = 'svc-api';

export interface AccessClaims {
  userId: string;
  sessionId: string;
  tokenId: string;
  expiresAt: Date;
}

export interface AccessTokens {
  ttlSeconds: number;
  issue(userId: string, sessionId: string): { token: string; claims: AccessClaims };
  verify(token: string): AccessClaims;
}

/** In development without SVC_JWT_SECRET: one random secret, generated once and kept in the data dir. */
export async function resolveJwtSecret(config: Config): Promise<string> {
  if (config.auth.jwtSecret) return config.auth.jwtSecret;
  const file = path.resolve(config.dataDir, 'jwt-secret');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    await mkdir(config.dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    await writeFile(file, secret, { mode: 0o600, flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    await chmod(file, 0o600);
    return (await readFile(file, 'utf8')).trim();
  }
}

interface Payload {
  sub: string;
  sid: string;
  jti: string;
  exp: number;
}

const claimsOf = (payload: Payload): AccessClaims => ({
  userId: payload.sub,
  sessionId: payload.sid,
  tokenId: payload.jti,
  expiresAt: new Date(payload.exp * 1000),
});

export function createAccessTokens(
  secret: string,
  algorithm: 'HS256' | 'HS384' | 'HS512',
  ttlMinutes: number,
): AccessTokens {
  const ttlSeconds = ttlMinutes * 60;
  const sign = createSigner({ key: secret, algorithm, iss: ISSUER, aud: AUDIENCE, expiresIn: ttlSeconds * 1000 });
  const verifyToken = createVerifier({
    key: secret,
    algorithms: [algorithm],
    allowedIss: ISSUER,
    allowedAud: AUDIENCE,
    requiredClaims: ['sub', 'sid', 'jti', 'exp', 'iat'],
  });
  // Verified tokens, keyed by the whole token (never by a part of it: a forged payload must miss).
  // Entries leave at their token's expiry; the map is emptied if it ever grows past its bound.
  const verified = new Map<string, Payload>();
  const MAX_VERIFIED = 20_000;
  return {
    ttlSeconds,
    issue(userId, sessionId) {
      const tokenId = randomUUID();
      const token = sign({ sub: userId, sid: sessionId, jti: tokenId });
      const { exp } = verifyToken(token) as Payload;
      return { token, claims: { userId, sessionId, tokenId, expiresAt: new Date(exp * 1000) } };
    },
    verify(token) {
      let payload = verified.get(token);
      if (payload && payload.exp * 1000 <= Date.now()) {
        verified.delete(token);
        payload = undefined;
      }
      if (payload) return claimsOf(payload);
      try {
        payload = verifyToken(token) as Payload;
      } catch (error) {
        if (error instanceof TokenError && error.code === TOKEN_ERROR_CODES.expired)
          throw unauthenticated('Access token expired');
        throw unauthenticated('Invalid access token');
      }
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.jti !== 'string') {
        throw unauthenticated('Invalid access token');
      }
      if (verified.size >= MAX_VERIFIED) verified.clear();
      verified.set(token, payload);
      return claimsOf(payload);
    },
  };
}
