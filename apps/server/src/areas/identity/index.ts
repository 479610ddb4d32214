/** Identity and access: auth, me (users, api-tokens, sso and ldap follow). */
import type { FastifyInstance } from 'fastify';
import type { Authenticator } from '../../platform/authn.js';
import type { Platform } from '../../platform/runtime.js';
import { createAuditService } from '../audit/service.js';
import { authRoutes } from './auth/routes.js';
import { createAuthService } from './auth/service.js';
import { createAuthenticator } from './authenticator.js';
import { meRoutes } from './me/routes.js';
import { seedInitialAdmin } from './seed.js';
import { createAccessTokens, resolveJwtSecret } from './tokens.js';
import { createUserCache } from './users/cache.js';
import { createUsersRepository } from './users/repository.js';

export interface IdentityArea {
  authenticator: Authenticator;
  routes(app: FastifyInstance): Promise<void>;
  /** Leader-side startup work: the initial administrator. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function createIdentityArea(platform: Platform): Promise<IdentityArea> {
  const { config, framework, logger, shared } = platform;
  const db = framework.db;
  const users = createUsersRepository();
  const audit = createAuditService(db);
  const tokens = createAccessTokens(await resolveJwtSecret(config), config.auth.jwtAlgorithm, config.auth.accessTokenTtlMinutes);
  const userCache = await createUserCache(db, users, shared);
  const auth = createAuthService({ db, users, tokens, audit, bcryptRounds: config.auth.bcryptRounds });
  return {
    authenticator: createAuthenticator({ tokens, users: userCache }),
    async routes(app) {
      await app.register(authRoutes, { service: auth });
      await app.register(meRoutes, { users: userCache });
    },
    async close() {
      await userCache.close();
    },
    async start() {
      await seedInitialAdmin({ db, config, logger: logger.child({ area: 'identity' }), users, audit });
    },
  };
}
