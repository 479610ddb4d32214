/** Turns a bearer credential into a Principal: access tokens now, personal API tokens with the tokens area. */
import type { Authenticator, Principal } from '../../platform/authn.js';
import { API_TOKEN_PREFIX } from '../../platform/authn.js';
import { unauthenticated } from '../../platform/errors/index.js';
import type { AccessTokens } from './tokens.js';
import type { UserCache } from './users/cache.js';

export function createAuthenticator(deps: { tokens: AccessTokens; users: UserCache }): Authenticator {
  return {
    async authenticate(token): Promise<Principal> {
      if (token.startsWith(API_TOKEN_PREFIX)) throw unauthenticated('Invalid or revoked personal API token');
      const claims = deps.tokens.verify(token);
      const user = await deps.users.get(claims.userId);
      if (!user || user.disabled_at) throw unauthenticated('Invalid access token');
      return {
        userId: user.id,
        username: user.username,
        isAdmin: user.is_admin,
        credential: 'access_token',
        tokenId: claims.tokenId,
        sessionId: claims.sessionId,
        scope: 'write',
        projectIds: null,
      };
    },
  };
}
