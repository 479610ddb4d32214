/**
 * Personal API tokens: `svc_` + 256 random bits, stored as a hash, shown once. Lookups are cached in
 * process; revocation goes through the deny-list, so a revoked token is refused at once everywhere.
 */
import type { Principal } from '../../../platform/authn.js';
import { API_TOKEN_PREFIX } from '../../../platform/authn.js';
import { hasInstanceRights, permissionDenied, requireAdmin } from '../../../platform/authz.js';
import type { Db } from '../../../platform/db/index.js';
import { notFound, validationFailed } from '../../../platform/errors/index.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { AuditService } from '../../audit/service.js';
import type { Revocations } from '../revocation.js';
import { hashSecret, randomSecret } from '../secrets.js';
import type { ApiTokenRow, ApiTokensRepository } from './repository.js';
import { API_TOKEN } from '../errors.js';

const LOOKUP_TTL_MS = 30_000;
const TOUCH_INTERVAL_MS = 60_000;
const FAR_FUTURE = new Date('9999-12-31T00:00:00Z');

export interface CreateApiTokenInput {
  name: string;
  scope: 'read' | 'write';
  project_ids?: string[];
  expires_at?: string;
}

export function presentToken(row: ApiTokenRow) {
  return {
    id: row.id,
    user_id: row.user_id,
    name: row.name,
    scope: row.scope,
    project_ids: row.project_ids,
    suffix: row.suffix,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at?.toISOString() ?? null,
    last_used_at: row.last_used_at?.toISOString() ?? null,
  };
}

export type ApiTokensService = ReturnType<typeof createApiTokensService>;

export function createApiTokensService(deps: {
  db: Db;
  repository: ApiTokensRepository;
  revocations: Revocations;
  audit: AuditService;
}) {
  const { db, repository, revocations, audit } = deps;
  const lookups = new Map<string, { row: ApiTokenRow | undefined; expiresAt: number }>();
  const touched = new Map<string, number>(); // token id -> last time we wrote last_used_at

  const usable = (row: ApiTokenRow | undefined): ApiTokenRow | undefined => {
    if (
      !row ||
      revocations.isRevoked('api_token', row.id) ||
      (row.expires_at && row.expires_at.getTime() <= Date.now())
    )
      return undefined;
    // last_used_at is written at most once a minute per token, off the request path.
    const now = Date.now();
    if ((touched.get(row.id) ?? 0) + TOUCH_INTERVAL_MS < now) {
      touched.set(row.id, now);
      void repository.touch(db, [row.id]).catch(() => undefined);
    }
    return row;
  };

  const ownedOrAdmin = async (principal: Principal, id: string): Promise<ApiTokenRow> => {
    const row = await repository.findById(db, id);
    if (!row || row.revoked_at || (row.user_id !== principal.userId && !hasInstanceRights(principal)))
      throw notFound(API_TOKEN);
    return row;
  };

  return {
    /**
     * The active token with this value, or undefined; synchronous when the value's row is cached
     * (30 s; revocations and expiry are checked on every call), a promise otherwise.
     */
    lookup(value: string): ApiTokenRow | undefined | Promise<ApiTokenRow | undefined> {
      const hash = hashSecret(value);
      const cached = lookups.get(hash);
      if (cached && cached.expiresAt > Date.now()) return usable(cached.row);
      return repository.findActiveByHash(db, hash).then((row) => {
        if (lookups.size > 50_000) lookups.clear();
        lookups.set(hash, { row, expiresAt: Date.now() + LOOKUP_TTL_MS });
        return usable(row);
      });
    },

    async create(principal: Principal, input: CreateApiTokenInput, context: RequestContext) {
      const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
      if (expiresAt && expiresAt.getTime() <= Date.now()) {
        throw validationFailed([{ path: 'expires_at', message: 'must be in the future' }]);
      }
      const projectIds = input.project_ids && input.project_ids.length > 0 ? input.project_ids : null;
      // A token never mints a token wider than itself.
      if (principal.credential === 'api_token') {
        if (principal.scope === 'read' && input.scope === 'write')
          throw permissionDenied('token_scope_exceeded', 'api_token:write', null, null);
        if (principal.projectIds && (!projectIds || projectIds.some((id) => !principal.projectIds!.includes(id)))) {
          throw validationFailed([
            { path: 'project_ids', message: 'must be a subset of the projects of the token making the request' },
          ]);
        }
      }
      const value = `${API_TOKEN_PREFIX}${randomSecret(32)}`;
      const row = await db.transaction().execute(async (trx) => {
        const created = await repository.insert(trx, {
          user_id: principal.userId,
          name: input.name,
          token_hash: hashSecret(value),
          suffix: value.slice(-4),
          scope: input.scope,
          project_ids: projectIds,
          expires_at: expiresAt,
        });
        await audit.record(
          context,
          {
            kind: 'api_token_created',
            target: { type: 'api_token', id: created.id },
            details: { name: input.name, scope: input.scope, project_ids: projectIds },
          },
          trx,
        );
        return created;
      });
      return { ...presentToken(row), token: value };
    },

    async list(principal: Principal, userId: string | undefined) {
      const owner = userId ?? principal.userId;
      if (owner !== principal.userId) requireAdmin(principal, 'api_token:admin');
      return (await repository.listByUser(db, owner)).map(presentToken);
    },

    async get(principal: Principal, id: string) {
      return presentToken(await ownedOrAdmin(principal, id));
    },

    async revoke(principal: Principal, id: string, context: RequestContext) {
      await ownedOrAdmin(principal, id);
      await db.transaction().execute(async (trx) => {
        const revoked = await repository.revoke(trx, id);
        if (!revoked) throw notFound(API_TOKEN);
        await revocations.revoke(trx, [{ kind: 'api_token', id, expiresAt: revoked.expires_at ?? FAR_FUTURE }]);
        await audit.record(context, { kind: 'api_token_revoked', target: { type: 'api_token', id } }, trx);
      });
    },

    /** Revokes every token of a user (user disabled or deleted). */
    async revokeAllOfUser(trx: Db, userId: string) {
      const revoked = await repository.revokeAllOfUser(trx, userId);
      await revocations.revoke(
        trx,
        revoked.map((r) => ({ kind: 'api_token' as const, id: r.id, expiresAt: r.expires_at ?? FAR_FUTURE })),
      );
    },
  };
}
