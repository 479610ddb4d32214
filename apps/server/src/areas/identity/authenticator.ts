/** Turns a bearer credential into a Principal: an access token (JWT) or a personal API token (svc_...). */
import type { Authenticator, Principal } from '../../platform/authn.js';
import { API_TOKEN_PREFIX } from '../../platform/authn.js';
import { unauthenticated } from '../../platform/errors/index.js';
import type { ApiTokensService } from './api-tokens/service.js';
import type { Revocations } from './revocation.js';
import type { AccessTokens } from './tokens.js';
import type { UserCache } from './users/cache.js';

export function createAuthenticator(deps: { tokens: AccessTokens; users: UserCache; apiTokens: ApiTokensService; revocations: Revocations }): Authenticator {
  const { tokens, users, apiTokens, revocations } = deps;
  const activeUser = async (id: string) => {
    const user = await users.get(id);
    if (!user || user.disabled_at) throw unauthenticated('The account of this credential is disabled or deleted');
    return user;
  };
  return {
    async authenticate(token): Promise<Principal> {
      if (token.startsWith(API_TOKEN_PREFIX)) {
        const row = await apiTokens.lookup(token);
        if (!row) throw unauthenticated('Invalid, expired or revoked personal API token');
        const user = await activeUser(row.user_id);
        return {
          userId: user.id,
          username: user.username,
          isAdmin: user.is_admin,
          credential: 'api_token',
          tokenId: row.id,
          scope: row.scope,
          projectIds: row.project_ids,
          expiresAt: row.expires_at,
        };
      }
      const claims = tokens.verify(token);
      if (revocations.isRevoked('access_token', claims.tokenId) || revocations.isRevoked('session', claims.sessionId)) {
        throw unauthenticated('Access token revoked; sign in again');
      }
      const user = await activeUser(claims.userId);
      return {
        userId: user.id,
        username: user.username,
        isAdmin: user.is_admin,
        credential: 'access_token',
        tokenId: claims.tokenId,
        sessionId: claims.sessionId,
        scope: 'write',
        projectIds: null,
        expiresAt: claims.expiresAt,
      };
    },
  };
}
