/** Instance user administration (administrators only) and the signed-in user's own profile and password. */
import type { Principal } from '../../../platform/authn.js';
import { requireAdmin } from '../../../platform/authz.js';
import { onUniqueViolation, type Db } from '../../../platform/db/index.js';
import { notFound, validationFailed } from '../../../platform/errors/index.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { AuditService } from '../../audit/service.js';
import type { ApiTokensService } from '../api-tokens/service.js';
import { checkPasswordPolicy, hashPassword, verifyPassword } from '../passwords.js';
import type { SessionsService } from '../sessions/service.js';
import type { UserCache } from './cache.js';
import type { UserRow, UsersRepository } from './repository.js';
import { USER, cannotDeleteYourself, lastAdministrator, passwordIsExternal, userNameTaken } from '../errors.js';

export function presentUser(row: UserRow) {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    display_name: row.display_name,
    is_admin: row.is_admin,
    disabled: row.disabled_at !== null,
    password_change_required: row.password_change_required,
    auth_source: row.auth_source,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export interface CreateUserInput {
  username: string;
  email: string;
  password: string;
  display_name?: string;
  is_admin?: boolean;
}

export interface UpdateUserInput {
  email?: string;
  display_name?: string | null;
  is_admin?: boolean;
  disabled?: boolean;
  password?: string;
}

export type UsersService = ReturnType<typeof createUsersService>;

export function createUsersService(deps: {
  db: Db;
  users: UsersRepository;
  cache: UserCache;
  sessions: SessionsService;
  apiTokens: ApiTokensService;
  audit: AuditService;
  bcryptRounds: number;
}) {
  const { db, users, cache, sessions, apiTokens, audit } = deps;

  const existing = async (id: string): Promise<UserRow> => {
    const row = await users.findById(db, id);
    if (!row) throw notFound(USER);
    return row;
  };

  /** Refuses a change that would leave the instance without an active administrator. */
  const keepAnAdmin = async (trx: Db, target: UserRow) => {
    if (target.is_admin && !target.disabled_at && (await users.countActiveAdmins(trx, target.id)) === 0) {
      throw lastAdministrator();
    }
  };

  /** Ends everything a user holds: sessions (and so their access tokens) and personal tokens. */
  const revokeEverything = async (trx: Db, userId: string, reason: string) => {
    await sessions.revokeUserSessions(trx, userId, reason);
    await apiTokens.revokeAllOfUser(trx, userId);
  };

  return {
    async create(principal: Principal, input: CreateUserInput, context: RequestContext) {
      requireAdmin(principal, 'user:write');
      checkPasswordPolicy(input.password, input.username, 'password');
      const passwordHash = await hashPassword(input.password, deps.bcryptRounds);
      return onUniqueViolation(
        db.transaction().execute(async (trx) => {
          const row = await users.insert(trx, {
            username: input.username,
            email: input.email,
            display_name: input.display_name ?? null,
            password_hash: passwordHash,
            is_admin: input.is_admin ?? false,
            password_change_required: true,
          });
          await audit.record(
            context,
            {
              kind: 'user_created',
              target: { type: 'user', id: row.id },
              details: { username: row.username, is_admin: row.is_admin },
            },
            trx,
          );
          return presentUser(row);
        }),
        () => userNameTaken(input.username),
      );
    },

    async list(principal: Principal, page: { limit: number; cursor?: string }) {
      requireAdmin(principal, 'user:read');
      const after = page.cursor ? Buffer.from(page.cursor, 'base64url').toString() : undefined;
      if (after !== undefined && !/^[0-9a-f-]{36}$/.test(after))
        throw validationFailed([{ path: 'cursor', message: 'is not a cursor from this list' }]);
      const rows = await users.list(db, { limit: page.limit + 1, after });
      const items = rows.slice(0, page.limit).map(presentUser);
      const next = rows.length > page.limit ? Buffer.from(items[items.length - 1]!.id).toString('base64url') : null;
      return { items, next_cursor: next };
    },

    async get(principal: Principal, id: string) {
      if (id !== principal.userId) requireAdmin(principal, 'user:read');
      return presentUser(await existing(id));
    },

    async update(principal: Principal, id: string, input: UpdateUserInput, context: RequestContext) {
      requireAdmin(principal, 'user:write');
      const target = await existing(id);
      if (input.password !== undefined) checkPasswordPolicy(input.password, target.username, 'password');
      const passwordHash =
        input.password !== undefined ? await hashPassword(input.password, deps.bcryptRounds) : undefined;
      const row = await db.transaction().execute(async (trx) => {
        if (input.disabled === true || input.is_admin === false) await keepAnAdmin(trx, target);
        const updated = await users.update(trx, id, {
          ...(input.email !== undefined ? { email: input.email } : {}),
          ...(input.display_name !== undefined ? { display_name: input.display_name } : {}),
          ...(input.is_admin !== undefined ? { is_admin: input.is_admin } : {}),
          ...(input.disabled !== undefined
            ? { disabled_at: input.disabled ? (target.disabled_at ?? new Date()) : null }
            : {}),
          ...(passwordHash ? { password_hash: passwordHash, password_change_required: true } : {}),
        });
        if (!updated) throw notFound(USER);
        const disabling = input.disabled === true && !target.disabled_at;
        if (disabling) await revokeEverything(trx, id, 'user_disabled');
        else if (passwordHash) await sessions.revokeUserSessions(trx, id, 'password_reset');
        const changed = Object.keys(input).filter((k) => k !== 'password');
        await audit.record(
          context,
          {
            kind: disabling ? 'user_disabled' : 'user_changed',
            target: { type: 'user', id },
            details: { fields: passwordHash ? [...changed, 'password'] : changed },
          },
          trx,
        );
        return updated;
      });
      await cache.forget(id);
      return presentUser(row);
    },

    async remove(principal: Principal, id: string, context: RequestContext) {
      requireAdmin(principal, 'user:write');
      if (id === principal.userId) throw cannotDeleteYourself();
      const target = await existing(id);
      await db.transaction().execute(async (trx) => {
        await keepAnAdmin(trx, target);
        await revokeEverything(trx, id, 'user_deleted');
        await users.delete(trx, id);
        await audit.record(
          context,
          { kind: 'user_deleted', target: { type: 'user', id }, details: { username: target.username } },
          trx,
        );
      });
      await cache.forget(id);
    },

    async me(principal: Principal) {
      const row = await cache.get(principal.userId);
      if (!row) throw notFound(USER);
      return presentUser(row);
    },

    async updateMe(
      principal: Principal,
      input: { email?: string; display_name?: string | null },
      context: RequestContext,
    ) {
      const row = await db.transaction().execute(async (trx) => {
        const updated = await users.update(trx, principal.userId, input);
        if (!updated) throw notFound(USER);
        await audit.record(
          context,
          {
            kind: 'user_changed',
            target: { type: 'user', id: principal.userId },
            details: { fields: Object.keys(input) },
          },
          trx,
        );
        return updated;
      });
      await cache.forget(principal.userId);
      return presentUser(row);
    },

    async changePassword(
      principal: Principal,
      input: { current_password: string; new_password: string },
      context: RequestContext,
    ) {
      const user = await existing(principal.userId);
      if (user.auth_source !== 'local' || !user.password_hash) {
        throw passwordIsExternal();
      }
      if (!(await verifyPassword(input.current_password, user.password_hash))) {
        await audit.record(context, { kind: 'password_change_failed', target: { type: 'user', id: user.id } });
        throw validationFailed([{ path: 'current_password', message: 'is not your current password' }]);
      }
      checkPasswordPolicy(input.new_password, user.username, 'new_password');
      if (await verifyPassword(input.new_password, user.password_hash)) {
        throw validationFailed([{ path: 'new_password', message: 'must differ from the current password' }]);
      }
      const hash = await hashPassword(input.new_password, deps.bcryptRounds);
      await db.transaction().execute(async (trx) => {
        await users.update(trx, user.id, { password_hash: hash, password_change_required: false });
        // Other sessions end; personal tokens stay (they are separate credentials the user manages).
        await sessions.revokeUserSessions(trx, user.id, 'password_changed', principal.sessionId);
        await audit.record(context, { kind: 'password_changed', target: { type: 'user', id: user.id } }, trx);
      });
      await cache.forget(user.id);
    },

    /** For other areas: the usernames of these users (members lists). */
    usernames: (ids: string[]) => users.usernames(db, ids),

    /** For other areas: the enabled users among `ids`, with their e-mail address (user notifications). */
    contacts: (ids: string[]) => users.contacts(db, ids),

    /** For other areas: whether a user exists (membership checks). */
    async exists(id: string): Promise<boolean> {
      return (await users.findById(db, id)) !== undefined;
    },
  };
}
