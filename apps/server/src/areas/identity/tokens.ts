/**
 * Access tokens: JWTs signed with SVC_JWT_SECRET under exactly the configured HMAC algorithm.
 * Claims: sub (user id), sid (session family), jti (token id), iat, exp, iss, aud.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
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
  issue(userId: string, sessionId: string): Promise<{ token: string; claims: AccessClaims }>;
  verify(token: string): Promise<AccessClaims>;
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
    await writeFile(file, secret, { mode: 0o600, flag: 'wx' }).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    await chmod(file, 0o600);
    return (await readFile(file, 'utf8')).trim();
  }
}

export function createAccessTokens(secret: string, algorithm: 'HS256' | 'HS384' | 'HS512', ttlMinutes: number): AccessTokens {
  const key = new TextEncoder().encode(secret);
  const ttlSeconds = ttlMinutes * 60;
  return {
    ttlSeconds,
    async issue(userId, sessionId) {
      const tokenId = randomUUID();
      const now = Math.floor(Date.now() / 1000);
      const token = await new SignJWT({ sid: sessionId })
        .setProtectedHeader({ alg: algorithm, typ: 'JWT' })
        .setSubject(userId)
        .setJti(tokenId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(now + ttlSeconds)
        .sign(key);
      return { token, claims: { userId, sessionId, tokenId, expiresAt: new Date((now + ttlSeconds) * 1000) } };
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: [algorithm], issuer: ISSUER, audience: AUDIENCE });
        if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string' || typeof payload['sid'] !== 'string' || !payload.exp) {
          throw unauthenticated('Invalid access token');
        }
        return { userId: payload.sub, sessionId: payload['sid'], tokenId: payload.jti, expiresAt: new Date(payload.exp * 1000) };
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw unauthenticated('Access token expired');
        if (error instanceof joseErrors.JOSEError) throw unauthenticated('Invalid access token');
        throw error;
      }
    },
  };
}
