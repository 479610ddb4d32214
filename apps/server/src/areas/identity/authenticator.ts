/** Turns a bearer credential into a Principal: access tokens now, personal API tokens with the tokens area. */
import type { Authenticator, Principal } from '../../platform/authn.js';
import { API_TOKEN_PREFIX } from '../../platform/authn.js';
import type { Db } from '../../platform/db/index.js';
import { unauthenticated } from '../../platform/errors/index.js';
import type { AccessTokens } from './tokens.js';
import type { UsersRepository } from './users/repository.js';

export function createAuthenticator(deps: { db: Db; tokens: AccessTokens; users: UsersRepository }): Authenticator {
  return {
    async authenticate(token): Promise<Principal> {
      if (token.startsWith(API_TOKEN_PREFIX)) throw unauthenticated('Invalid or revoked personal API token');
      const claims = await deps.tokens.verify(token);
      const user = await deps.users.findById(deps.db, claims.userId);
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
