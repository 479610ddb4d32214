/**
 * Turns a bearer credential into a Principal: an access token (JWT) or a personal API token (svc_...).
 * Everything it consults is cached in process (verified tokens, the deny-list, users, token rows), so
 * the usual request is answered synchronously; a cache miss costs one query.
 */
import type { Authenticator, Principal } from '../../platform/authn.js';
import { API_TOKEN_PREFIX } from '../../platform/authn.js';
import { unauthenticated } from '../../platform/errors/index.js';
import type { ApiTokenRow } from './api-tokens/repository.js';
import type { ApiTokensService } from './api-tokens/service.js';
import type { Revocations } from './revocation.js';
import type { AccessClaims, AccessTokens } from './tokens.js';
import type { UserCache } from './users/cache.js';
import type { UserRow } from './users/repository.js';

type MaybePromise<T> = T | Promise<T>;

/** Continues synchronously with a plain value, or after the promise settles. */
function then<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

export function createAuthenticator(deps: {
  tokens: AccessTokens;
  users: UserCache;
  apiTokens: ApiTokensService;
  revocations: Revocations;
}): Authenticator {
  const { tokens, users, apiTokens, revocations } = deps;

  const activeUser = (id: string): MaybePromise<UserRow> => {
    const cached = users.peek(id);
    return then(cached ? cached.row : users.get(id), (user) => {
      if (!user || user.disabled_at) throw unauthenticated('The account of this credential is disabled or deleted');
      return user;
    });
  };

  const personal = (row: ApiTokenRow | undefined): MaybePromise<Principal> => {
    if (!row) throw unauthenticated('Invalid, expired or revoked personal API token');
    return then(activeUser(row.user_id), (user) => ({
      userId: user.id,
      username: user.username,
      isAdmin: user.is_admin,
      credential: 'api_token' as const,
      tokenId: row.id,
      scope: row.scope,
      projectIds: row.project_ids,
      expiresAt: row.expires_at,
    }));
  };

  const session = (claims: AccessClaims): MaybePromise<Principal> =>
    then(activeUser(claims.userId), (user) => ({
      userId: user.id,
      username: user.username,
      isAdmin: user.is_admin,
      credential: 'access_token' as const,
      tokenId: claims.tokenId,
      sessionId: claims.sessionId,
      scope: 'write' as const,
      projectIds: null,
      expiresAt: claims.expiresAt,
    }));

  return {
    authenticate(token) {
      if (token.startsWith(API_TOKEN_PREFIX)) return then(apiTokens.lookup(token), personal);
      const claims = tokens.verify(token);
      if (revocations.isRevoked('access_token', claims.tokenId) || revocations.isRevoked('session', claims.sessionId)) {
        throw unauthenticated('Access token revoked; sign in again');
      }
      return session(claims);
    },
  };
}
