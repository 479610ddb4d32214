/**
 * Projects, their environments and members, and roles. Creating and deleting projects and managing
 * roles is for instance administrators; inside a project, reading and changing it goes through the
 * central authorization (project:read/write, member:read/write), so a project owner manages members.
 */
import type { Principal } from '../../../platform/authn.js';
import {
  BUILT_IN_ROLES,
  CAPABILITIES,
  createAuthorize,
  hasInstanceRights,
  permissionDenied,
  requireAdmin,
  tokenAllowsProject,
  type Authorize,
  type Membership,
  type MembershipSource,
} from '../../../platform/authz.js';
import { isUniqueViolation, onUniqueViolation, type Db } from '../../../platform/db/index.js';
import { notFound, validationFailed } from '../../../platform/errors/index.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { SharedState } from '../../../platform/shared-state/index.js';
import type { AuditService } from '../../audit/service.js';
import type { UsersService } from '../../identity/users/service.js';
import type { AdminRepository, EnvironmentRow, ProjectRow, RoleRow } from './repository.js';
import {
  MEMBER,
  PROJECT,
  ROLE,
  builtInRoleFixed,
  environmentNameTaken,
  projectNameTaken,
  roleInUse,
  roleNameTaken,
} from '../errors.js';

const MEMBERSHIP_TTL_MS = 10_000;
/** The project a new instance starts with. */
export const DEFAULT_PROJECT = 'default';
export const MEMBERSHIP_CHANNEL = 'platform.membership-changed';

const presentProject = (p: ProjectRow) => ({
  ...p,
  created_at: p.created_at.toISOString(),
  updated_at: p.updated_at.toISOString(),
});
const presentEnvironment = (e: EnvironmentRow) => ({ ...e, created_at: e.created_at.toISOString() });
const presentRole = (r: RoleRow) => ({
  ...r,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

function checkCapabilities(capabilities: string[]) {
  const known = new Set<string>(CAPABILITIES);
  const unknown = capabilities.filter((c) => !known.has(c));
  if (unknown.length > 0) {
    throw validationFailed(
      unknown.map((c) => ({ path: 'capabilities', message: `unknown capability "${c}" (see docs/access-control.md)` })),
    );
  }
}

export type AdminService = Awaited<ReturnType<typeof createAdminService>>;

export async function createAdminService(deps: {
  db: Db;
  repository: AdminRepository;
  users: UsersService;
  audit: AuditService;
  shared: SharedState;
}) {
  const { db, repository, users, audit, shared } = deps;
  // Memberships as the authorizer sees them, cached per process; any change is broadcast.
  const memberships = new Map<string, { value: Membership | undefined; expiresAt: number }>();
  const unsubscribe = await shared.subscribe(MEMBERSHIP_CHANNEL, (key) =>
    key === '*' ? memberships.clear() : memberships.delete(key),
  );
  /** What other areas remove with a project once its rows are gone (its warehouse role and schemas, its files). */
  const projectDeletedListeners: Array<(projectId: string) => Promise<void>> = [];
  const membershipsChanged = async (key: string) => {
    if (key === '*') memberships.clear();
    else memberships.delete(key);
    await shared.publish(MEMBERSHIP_CHANNEL, key);
  };

  const membershipSource: MembershipSource = {
    async membership(projectId, userId) {
      const key = `${projectId}:${userId}`;
      const cached = memberships.get(key);
      if (cached && cached.expiresAt > Date.now()) return cached.value;
      const row = await repository.membership(db, projectId, userId);
      const value = row ? { capabilities: new Set(row.capabilities), environmentIds: row.environment_ids } : undefined;
      if (memberships.size > 100_000) memberships.clear();
      memberships.set(key, { value, expiresAt: Date.now() + MEMBERSHIP_TTL_MS });
      return value;
    },
  };

  /** A project's members with their usernames (users belong to the identity area), by username. */
  const members = async (projectId: string) => {
    const rows = await repository.listMembers(db, projectId);
    const names = await users.usernames(rows.map((m) => m.user_id));
    return rows
      .map((m) => ({
        ...m,
        username: names.get(m.user_id) ?? '',
        created_at: m.created_at.toISOString(),
        updated_at: m.updated_at.toISOString(),
      }))
      .sort((a, b) => (a.username < b.username ? -1 : a.username > b.username ? 1 : 0));
  };

  // The central authorization function, over the memberships this area owns; other areas get it from here.
  const authorize = createAuthorize(membershipSource);

  /** The project, if it exists and the caller may see it: otherwise 404 (token scope) or 403 (authorize). */
  const visibleProject = async (
    principal: Principal,
    id: string,
    capability: Parameters<Authorize>[1],
  ): Promise<ProjectRow> => {
    if (!tokenAllowsProject(principal, id)) throw notFound(PROJECT);
    const project = await repository.findProject(db, id);
    if (!project) throw notFound(PROJECT);
    await authorize(principal, capability, id);
    return project;
  };

  /**
   * A member grants, changes or takes away only roles whose capabilities it holds itself in the
   * project (instance administrators: any role). Environment limits cannot be widened either: a
   * membership narrowed to environments never holds member:write on the project (authorize refuses).
   */
  const requireHeld = async (principal: Principal, projectId: string, capabilities: readonly string[]) => {
    if (hasInstanceRights(principal)) return;
    const own = await membershipSource.membership(projectId, principal.userId);
    const missing = CAPABILITIES.find((c) => capabilities.includes(c) && !own?.capabilities.has(c));
    if (missing) throw permissionDenied('capability_not_held', missing, projectId, null);
  };
  const requireHeldOfMember = async (principal: Principal, projectId: string, userId: string) => {
    const current = await repository.membership(db, projectId, userId);
    if (current) await requireHeld(principal, projectId, current.capabilities);
  };

  const service = {
    /**
     * Makes a user a member of a project with a role (group mappings of external identity providers),
     * unless the user already is one: a membership an administrator set (its role, its environments)
     * is never changed by a sign-in. False when nothing was granted.
     */
    async grantRole(projectId: string, userId: string, roleName: string): Promise<boolean> {
      const [role, project] = await Promise.all([
        repository.findRoleByName(db, roleName),
        repository.findProject(db, projectId),
      ]);
      if (!role || !project) return false;
      const inserted = await db
        .insertInto('project_members')
        .values({ project_id: projectId, user_id: userId, role_id: role.id, environment_ids: null })
        .onConflict((oc) => oc.columns(['project_id', 'user_id']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0) return false;
      await membershipsChanged(`${projectId}:${userId}`);
      return true;
    },
    authorize,

    /** Projects a principal may see: null means every project (an administrator without token scope). */
    async visibleProjectIds(principal: Principal): Promise<string[] | null> {
      if (hasInstanceRights(principal)) return null;
      const member = await repository.memberProjectIds(db, principal.userId);
      return principal.projectIds ? member.filter((id) => principal.projectIds!.includes(id)) : member;
    },

    /** Whether an environment belongs to a project (for resources placed in an environment). */
    async environmentBelongs(projectId: string, environmentId: string): Promise<boolean> {
      return (await repository.findEnvironment(db, projectId, environmentId)) !== undefined;
    },

    /** Creates or refreshes the built-in roles so their capabilities follow the catalogue. */
    async ensureBuiltInRoles() {
      for (const [name, role] of Object.entries(BUILT_IN_ROLES)) {
        const existing = await repository.findRoleByName(db, name);
        if (!existing) {
          await repository
            .insertRole(db, {
              name,
              description: role.description,
              capabilities: [...role.capabilities],
              built_in: true,
            })
            .catch((error: unknown) => {
              if (!isUniqueViolation(error)) throw error; // another process created it first
            });
        } else if (existing.built_in && existing.capabilities.join() !== role.capabilities.join()) {
          await repository.updateRole(db, existing.id, {
            capabilities: [...role.capabilities],
            description: role.description,
          });
          await membershipsChanged('*');
        }
      }
    },

    // ---- projects
    async listProjects(principal: Principal) {
      const rows = await repository.listProjects(db, {
        ids: principal.projectIds,
        memberId: hasInstanceRights(principal) ? undefined : principal.userId,
      });
      return rows.map(presentProject);
    },
    async createProject(principal: Principal, input: { name: string; description?: string }, context: RequestContext) {
      requireAdmin(principal, 'project:create');
      return onUniqueViolation(
        db.transaction().execute(async (trx) => {
          const row = await repository.insertProject(trx, { name: input.name, description: input.description ?? null });
          await audit.record(
            context,
            { kind: 'project_created', target: { type: 'project', id: row.id }, details: { name: row.name } },
            trx,
          );
          return presentProject(row);
        }),
        () => projectNameTaken(input.name),
      );
    },
    /**
     * The project a new instance starts with: `default`, owned by the seeded administrator. Only the
     * process that seeded the administrator calls it; a name already taken leaves things as they are.
     */
    async createDefaultProject(adminId: string) {
      const created = await db.transaction().execute(async (trx) => {
        const row = await repository
          .insertProject(trx, { name: DEFAULT_PROJECT, description: 'Created on first boot' })
          .catch((error: unknown) => {
            if (isUniqueViolation(error)) return undefined;
            throw error;
          });
        if (!row) return undefined;
        await audit.record(
          {},
          {
            kind: 'project_created',
            target: { type: 'project', id: row.id },
            details: { name: row.name, first_boot: true },
          },
          trx,
        );
        return row;
      });
      if (created) await service.grantRole(created.id, adminId, 'owner');
    },
    async getProject(principal: Principal, id: string) {
      return presentProject(await visibleProject(principal, id, 'project:read'));
    },
    async updateProject(
      principal: Principal,
      id: string,
      input: { name?: string; description?: string | null },
      context: RequestContext,
    ) {
      await visibleProject(principal, id, 'project:write');
      return onUniqueViolation(
        db.transaction().execute(async (trx) => {
          const row = await repository.updateProject(trx, id, input);
          if (!row) throw notFound(PROJECT);
          await audit.record(
            context,
            { kind: 'project_changed', target: { type: 'project', id }, details: { fields: Object.keys(input) } },
            trx,
          );
          return presentProject(row);
        }),
        () => projectNameTaken(input.name),
      );
    },
    async deleteProject(principal: Principal, id: string, context: RequestContext) {
      if (!tokenAllowsProject(principal, id)) throw notFound(PROJECT);
      requireAdmin(principal, 'project:delete');
      await db.transaction().execute(async (trx) => {
        if (!(await repository.deleteProject(trx, id))) throw notFound(PROJECT);
        await audit.record(context, { kind: 'project_deleted', target: { type: 'project', id } }, trx);
      });
      await membershipsChanged('*');
      for (const listener of projectDeletedListeners) await listener(id);
    },

    onProjectDeleted(listener: (projectId: string) => Promise<void>) {
      projectDeletedListeners.push(listener);
    },

    // ---- environments
    async listEnvironments(principal: Principal, projectId: string) {
      await visibleProject(principal, projectId, 'project:read');
      return (await repository.listEnvironments(db, projectId)).map(presentEnvironment);
    },
    async createEnvironment(principal: Principal, projectId: string, name: string, context: RequestContext) {
      await visibleProject(principal, projectId, 'project:write');
      return onUniqueViolation(
        db.transaction().execute(async (trx) => {
          const row = await repository.insertEnvironment(trx, { project_id: projectId, name });
          await audit.record(
            context,
            {
              kind: 'environment_created',
              target: { type: 'environment', id: row.id },
              details: { project_id: projectId, name },
            },
            trx,
          );
          return presentEnvironment(row);
        }),
        () => environmentNameTaken(name),
      );
    },

    // ---- members
    async listMembers(principal: Principal, projectId: string) {
      await visibleProject(principal, projectId, 'member:read');
      return members(projectId);
    },
    async putMember(
      principal: Principal,
      projectId: string,
      userId: string,
      input: { role: string; environment_ids?: string[] | null },
      context: RequestContext,
    ) {
      await visibleProject(principal, projectId, 'member:write');
      const role = await repository.findRoleByName(db, input.role);
      const problems = [];
      if (!role) problems.push({ path: 'role', message: `no role named "${input.role}"` });
      if (!(await users.exists(userId))) throw notFound('User');
      const environmentIds = input.environment_ids && input.environment_ids.length > 0 ? input.environment_ids : null;
      if (environmentIds) {
        const own = new Set((await repository.listEnvironments(db, projectId)).map((e) => e.id));
        for (const id of environmentIds)
          if (!own.has(id))
            problems.push({ path: 'environment_ids', message: `${id} is not an environment of this project` });
      }
      if (problems.length > 0 || !role) throw validationFailed(problems);
      await requireHeld(principal, projectId, role.capabilities);
      await requireHeldOfMember(principal, projectId, userId);
      await db.transaction().execute(async (trx) => {
        await repository.upsertMember(trx, {
          project_id: projectId,
          user_id: userId,
          role_id: role.id,
          environment_ids: environmentIds,
        });
        await audit.record(
          context,
          {
            kind: 'member_set',
            target: { type: 'project', id: projectId },
            details: { user_id: userId, role: role.name, environment_ids: environmentIds },
          },
          trx,
        );
      });
      await membershipsChanged(`${projectId}:${userId}`);
      return (await members(projectId)).find((m) => m.user_id === userId)!;
    },
    async removeMember(principal: Principal, projectId: string, userId: string, context: RequestContext) {
      await visibleProject(principal, projectId, 'member:write');
      await requireHeldOfMember(principal, projectId, userId);
      await db.transaction().execute(async (trx) => {
        if (!(await repository.deleteMember(trx, projectId, userId))) throw notFound(MEMBER);
        await audit.record(
          context,
          { kind: 'member_removed', target: { type: 'project', id: projectId }, details: { user_id: userId } },
          trx,
        );
      });
      await membershipsChanged(`${projectId}:${userId}`);
    },

    // ---- roles
    async listRoles() {
      return (await repository.listRoles(db)).map(presentRole);
    },
    async getRole(id: string) {
      const role = await repository.findRole(db, id);
      if (!role) throw notFound(ROLE);
      return presentRole(role);
    },
    async createRole(
      principal: Principal,
      input: { name: string; description?: string; capabilities: string[] },
      context: RequestContext,
    ) {
      requireAdmin(principal, 'role:write');
      checkCapabilities(input.capabilities);
      return onUniqueViolation(
        db.transaction().execute(async (trx) => {
          const row = await repository.insertRole(trx, {
            name: input.name,
            description: input.description ?? null,
            capabilities: input.capabilities,
          });
          await audit.record(
            context,
            {
              kind: 'role_created',
              target: { type: 'role', id: row.id },
              details: { name: row.name, capabilities: row.capabilities },
            },
            trx,
          );
          return presentRole(row);
        }),
        () => roleNameTaken(input.name),
      );
    },
    async updateRole(
      principal: Principal,
      id: string,
      input: { name?: string; description?: string | null; capabilities?: string[] },
      context: RequestContext,
    ) {
      requireAdmin(principal, 'role:write');
      const role = await repository.findRole(db, id);
      if (!role) throw notFound(ROLE);
      if (role.built_in) throw builtInRoleFixed(role.name, 'changed');
      if (input.capabilities) checkCapabilities(input.capabilities);
      const row = await onUniqueViolation(
        db.transaction().execute(async (trx) => {
          const updated = await repository.updateRole(trx, id, input);
          if (!updated) throw notFound(ROLE);
          await audit.record(
            context,
            {
              kind: 'role_changed',
              target: { type: 'role', id },
              details: { fields: Object.keys(input), capabilities: updated.capabilities },
            },
            trx,
          );
          return updated;
        }),
        () => roleNameTaken(input.name),
      );
      await membershipsChanged('*');
      return presentRole(row);
    },
    async deleteRole(principal: Principal, id: string, context: RequestContext) {
      requireAdmin(principal, 'role:write');
      const role = await repository.findRole(db, id);
      if (!role) throw notFound(ROLE);
      if (role.built_in) throw builtInRoleFixed(role.name, 'deleted');
      await db.transaction().execute(async (trx) => {
        if (await repository.roleInUse(trx, id)) throw roleInUse(role.name);
        await repository.deleteRole(trx, id);
        await audit.record(
          context,
          { kind: 'role_deleted', target: { type: 'role', id }, details: { name: role.name } },
          trx,
        );
      });
    },

    async close() {
      await unsubscribe();
    },
  };
  return service;
}
