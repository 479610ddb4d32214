/** Identity and access: auth, me, users, api-tokens (sso and ldap follow). */
import type { FastifyInstance } from 'fastify';
import type { Authenticator } from '../../platform/authn.js';
import type { LeaderTask } from '../../platform/leader.js';
import type { Platform } from '../../platform/runtime.js';
import type { AuditService } from '../audit/service.js';
import { apiTokenRoutes } from './api-tokens/routes.js';
import { createApiTokensRepository } from './api-tokens/repository.js';
import { createApiTokensService } from './api-tokens/service.js';
import { authRoutes } from './auth/routes.js';
import { createAuthService } from './auth/service.js';
import { createAuthenticator } from './authenticator.js';
import { meRoutes } from './me/routes.js';
import { createRevocations } from './revocation.js';
import { seedInitialAdmin } from './seed.js';
import { createSessionsRepository } from './sessions/repository.js';
import { createSessionsService } from './sessions/service.js';
import { createAccessTokens, resolveJwtSecret } from './tokens.js';
import { createExternalIdentityRepository } from './external/repository.js';
import { externalIdentityRoutes } from './external/routes.js';
import { createExternalIdentityService } from './external/service.js';
import { resolveSecretBox } from '../../platform/secrets.js';
import { createUserCache } from './users/cache.js';
import { createUsersRepository } from './users/repository.js';
import { userRoutes } from './users/routes.js';
import { createUsersService, type UsersService } from './users/service.js';

export interface IdentityArea {
  authenticator: Authenticator;
  users: UsersService;
  /** Group mappings of SSO and LDAP providers grant project roles through this (the administration area's). */
  useGrantRole(grant: (projectId: string, userId: string, role: string) => Promise<boolean>): void;
  routes(app: FastifyInstance): Promise<void>;
  /** Background work for the leader: the retention sweep of the deny-list and expired refresh tokens. */
  leaderTasks: LeaderTask[];
  /** Startup work: the initial administrator. */
  /** Seeds the initial administrator on first boot; answers its id when this process seeded it. */
  start(): Promise<{ seededAdminId?: string }>;
  close(): Promise<void>;
}

export async function createIdentityArea(platform: Platform, audit: AuditService): Promise<IdentityArea> {
  const { config, framework, logger, shared } = platform;
  const db = framework.db;
  const log = logger.child({ area: 'identity' });
  const usersRepository = createUsersRepository();
  const sessionsRepository = createSessionsRepository();
  const userCache = await createUserCache(db, usersRepository, shared);
  const revocations = await createRevocations(db, shared, log);
  const jwtSecret = await resolveJwtSecret(config);
  const tokens = createAccessTokens(jwtSecret, config.auth.jwtAlgorithm, config.auth.accessTokenTtlMinutes);
  const sessions = createSessionsService({
    db,
    repository: sessionsRepository,
    tokens,
    revocations,
    audit,
    refreshTtlDays: config.auth.refreshTokenTtlDays,
  });
  const apiTokens = createApiTokensService({ db, repository: createApiTokensRepository(), revocations, audit });
  const users = createUsersService({
    db,
    users: usersRepository,
    cache: userCache,
    sessions,
    apiTokens,
    audit,
    bcryptRounds: config.auth.bcryptRounds,
  });
  let grantRole: (projectId: string, userId: string, role: string) => Promise<boolean> = async () => false;
  const external = createExternalIdentityService({
    db,
    repository: createExternalIdentityRepository(),
    users: usersRepository,
    sessions,
    audit,
    box: await resolveSecretBox(config),
    jwtSecret,
    stateTtlSeconds: config.auth.ssoStateTtlSeconds,
    production: config.env === 'production',
    grantRole: (...args) => grantRole(...args),
  });
  const auth = createAuthService({
    db,
    users: usersRepository,
    userCache,
    sessions,
    audit,
    bcryptRounds: config.auth.bcryptRounds,
    ldapLogin: external.ldapLogin,
  });

  return {
    authenticator: createAuthenticator({ tokens, users: userCache, apiTokens, revocations }),
    users,
    useGrantRole(grant) {
      grantRole = grant;
    },
    async routes(app) {
      await app.register(authRoutes, { service: auth, secureCookies: config.env === 'production' });
      await app.register(meRoutes, { service: users });
      await app.register(userRoutes, { service: users });
      await app.register(apiTokenRoutes, { service: apiTokens });
      await app.register(externalIdentityRoutes, {
        service: external,
        publicUrl: config.auth.publicUrl,
        secureCookies: config.env === 'production',
        stateTtlSeconds: config.auth.ssoStateTtlSeconds,
      });
    },
    leaderTasks: [
      {
        name: 'identity-retention-sweep',
        intervalMs: config.auth.retentionSweepSeconds * 1000,
        async run() {
          const denyListEntries = await revocations.pruneExpired();
          const refreshTokens = await sessionsRepository.pruneExpired(db);
          await external.pruneLoginStates();
          if (denyListEntries + refreshTokens > 0)
            log.info(
              { deny_list_entries: denyListEntries, refresh_tokens: refreshTokens },
              'retention sweep pruned expired entries',
            );
        },
      },
    ],
    async start() {
      const seeded = await seedInitialAdmin({ db, config, logger: log, users: usersRepository, audit });
      return seeded ? { seededAdminId: seeded.id } : {};
    },
    async close() {
      await userCache.close();
      await revocations.close();
    },
  };
}
