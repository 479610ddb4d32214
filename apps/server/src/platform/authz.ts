/**
 * The one authorization function every area calls: authorize(principal, capability, project, environment).
 * Capabilities are `<resource>:<action>`; roles are sets of them (docs/access-control.md lists the
 * catalogue). Instance administrators may do everything; everyone else acts through a project
 * membership, optionally narrowed to some of the project's environments. A personal token scoped to
 * projects makes everything outside them not found (404), before any role is considered, and never
 * carries instance rights: inside its projects it acts through its owner's memberships, as a
 * non-administrator would.
 *
 * Each kind of project resource checks its detail routes and its list with one guard
 * (`resourceGuard`), so a list never shows what the detail refuses.
 */
import type { Principal } from './authn.js';
import { AppError, notFound } from './errors/index.js';

export const CAPABILITIES = [
  'project:read',
  'project:write',
  'member:read',
  'member:write',
  'connector:read',
  'connector:write',
  'catalog:read',
  'catalog:write',
  'pipeline:read',
  'pipeline:write',
  'pipeline:run',
  'execution:read',
  'execution:run',
  'schedule:read',
  'schedule:write',
  'cdc:read',
  'cdc:write',
  'stream:read',
  'stream:write',
  'ingestion:read',
  'ingestion:write',
  'ingestion:run',
  'export:read',
  'export:write',
  'export:run',
  'policy:read',
  'policy:write',
  'data:read_unmasked',
  'lineage:read',
  'alert:read',
  'alert:write',
  'model:read',
  'model:write',
  'model:run',
  'ai:read',
  'ai:write',
  'ai:use',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** Instance-level capabilities: only administrators hold them, never through a project-scoped token. */
export const INSTANCE_CAPABILITIES = [
  'user:read',
  'user:write',
  'project:create',
  'project:delete',
  'role:write',
  'license:write',
  'audit:read',
  'audit:write',
  'notification:read',
  'notification:write',
  'oidc:read',
  'oidc:write',
  'ldap:read',
  'ldap:write',
  'lineage:admin',
] as const;
export type InstanceCapability = (typeof INSTANCE_CAPABILITIES)[number];

/**
 * What a route declares it needs, next to its schema (`config: { capability }`); /openapi.json shows it
 * as `x-capability`. Every non-public route under /api/v1 declares one (checked when it is registered):
 * - a project capability: the service checks it on the project of the resource it loads (only known then);
 * - an instance capability: administrators only, checked by the platform before the handler (and again by the service);
 * - `self`: the caller's own account, sessions and tokens (an administrator may act on others'); the service narrows;
 * - `authenticated`: anything a signed-in user may read about the instance (roles, connector kinds, license state).
 */
export type RouteCapability = Capability | InstanceCapability | 'self' | 'authenticated';

const READ_CAPABILITIES = CAPABILITIES.filter((c) => c.endsWith(':read'));

/** The built-in project roles; instance administrators are a flag on the user, not a role. */
export const BUILT_IN_ROLES: Record<
  'owner' | 'editor' | 'viewer',
  { description: string; capabilities: readonly Capability[] }
> = {
  owner: { description: 'Everything in the project, members included', capabilities: CAPABILITIES },
  editor: {
    description:
      'Reads, changes and runs everything in the project except its members and settings; sees masked data masked',
    capabilities: CAPABILITIES.filter((c) => !['project:write', 'member:write', 'data:read_unmasked'].includes(c)),
  },
  viewer: { description: 'Reads everything in the project', capabilities: READ_CAPABILITIES },
};

export interface Membership {
  capabilities: ReadonlySet<string>;
  /** null: every environment of the project. */
  environmentIds: readonly string[] | null;
}

export interface MembershipSource {
  membership(projectId: string, userId: string): Promise<Membership | undefined>;
}

export function permissionDenied(
  reason: string,
  capability: string,
  projectId: string | null,
  environmentId: string | null,
): AppError {
  return new AppError('permission_denied', 403, 'permission_denied', {
    reason,
    required_capability: capability,
    ...(projectId ? { project_id: projectId } : {}),
    environment_id: environmentId,
  });
}

export type Authorize = (
  principal: Principal,
  capability: Capability,
  projectId: string,
  environmentId?: string | null,
) => Promise<void>;

/**
 * Whether the principal acts with an instance administrator's rights: an administrator signed in or
 * with an unscoped token. The one place `isAdmin` is read for a decision.
 */
export function hasInstanceRights(principal: Principal): boolean {
  return principal.isAdmin && principal.projectIds === null;
}

export function createAuthorize(source: MembershipSource): Authorize {
  return async (principal, capability, projectId, environmentId = null) => {
    if (principal.projectIds && !principal.projectIds.includes(projectId)) throw notFound('Project');
    if (hasInstanceRights(principal)) return;
    const membership = await source.membership(projectId, principal.userId);
    if (!membership) throw permissionDenied('not_a_member', capability, projectId, environmentId);
    if (membership.environmentIds && (!environmentId || !membership.environmentIds.includes(environmentId))) {
      throw permissionDenied('environment_not_allowed', capability, projectId, environmentId);
    }
    if (!membership.capabilities.has(capability))
      throw permissionDenied('missing_capability', capability, projectId, environmentId);
  };
}

/** Instance-level operations (users, roles, projects, license, audit log): administrators only, never through a project-scoped token. */
export function requireAdmin(principal: Principal, capability: string): void {
  if (principal.projectIds) throw permissionDenied('token_scoped_to_projects', capability, null, null);
  if (!hasInstanceRights(principal)) throw permissionDenied('admin_required', capability, null, null);
}

const INSTANCE_CAPABILITY_SET: ReadonlySet<string> = new Set(INSTANCE_CAPABILITIES);

export function isInstanceCapability(capability: RouteCapability | undefined): capability is InstanceCapability {
  return capability !== undefined && INSTANCE_CAPABILITY_SET.has(capability);
}

/**
 * The platform's half of a route's declared instance capability, before the handler. A token scoped to
 * projects is left to the service, which answers 404 for what lies outside the token and 403 otherwise.
 */
export function requireDeclaredCapability(principal: Principal, capability: RouteCapability | undefined): void {
  if (isInstanceCapability(capability) && principal.projectIds === null) requireAdmin(principal, capability);
}

/** Whether a principal may see a project at all (token scope and membership), for filtering lists. */
export function tokenAllowsProject(principal: Principal, projectId: string): boolean {
  return !principal.projectIds || principal.projectIds.includes(projectId);
}

/** Projects a principal may see at all (token scope and memberships); null: every project (instance rights). */
export type VisibleProjects = (principal: Principal) => Promise<string[] | null>;

/** What the list helpers need: the authorize function and the projects a principal may see. */
export interface ProjectAccess {
  authorize: Authorize;
  visibleProjects: VisibleProjects;
}

/** A row that lives in a project and, for some kinds, in one of its environments. */
export interface ProjectResource {
  project_id: string;
  environment_id?: string | null;
}

const allows = (
  authorize: Authorize,
  principal: Principal,
  capability: Capability,
  projectId: string,
  environmentId: string | null,
) =>
  authorize(principal, capability, projectId, environmentId).then(
    () => true,
    () => false,
  );

/** The projects where a principal holds a capability on project-level resources; null: every project. */
export async function projectsWith(
  access: ProjectAccess,
  principal: Principal,
  capability: Capability,
): Promise<string[] | null> {
  const visible = await access.visibleProjects(principal);
  if (visible === null) return null;
  const allowed: string[] = [];
  for (const projectId of visible)
    if (await allows(access.authorize, principal, capability, projectId, null)) allowed.push(projectId);
  return allowed;
}

/** The projects a list reads from: `projectId` when given (403/404 without `capability` there), else every project where the principal holds it (null: every project). */
export async function projectScope(
  access: ProjectAccess,
  principal: Principal,
  capability: Capability,
  projectId?: string,
): Promise<string[] | null> {
  if (!projectId) return projectsWith(access, principal, capability);
  await access.authorize(principal, capability, projectId);
  return [projectId];
}

/**
 * The authorization of one kind of project resource, shared by its detail routes and its list:
 * - `find`: the row, or 404 when it does not exist, then the capability on its project (and environment);
 * - `scope`: the projects a list may read from, to filter in SQL (with `projectId`, that project, or 403/404);
 * - `permitted`: the rows that pass exactly the check `find` makes.
 * Kinds placed in environments (`inEnvironments`) keep every project with a membership in `scope`
 * and leave the environment to `permitted`, row by row; `readers` makes the list and the detail of
 * a kind from these.
 */
export function resourceGuard<Row extends ProjectResource, Cap extends Capability = Capability>(
  access: ProjectAccess,
  label: string,
  load: (id: string) => Promise<Row | undefined>,
  options: {
    inEnvironments?: boolean;
    /** The capabilities of this kind: no other may be checked on it. */ capabilities?: readonly Cap[];
  } = {},
) {
  const check = (principal: Principal, capability: Cap, row: Row) =>
    access.authorize(principal, capability, row.project_id, row.environment_id ?? null);
  const guard = {
    async find(principal: Principal, id: string, capability: Cap): Promise<Row> {
      const row = await load(id);
      if (!row) throw notFound(label);
      await check(principal, capability, row);
      return row;
    },
    async scope(principal: Principal, capability: Cap, projectId?: string): Promise<string[] | null> {
      if (options.inEnvironments && !projectId) return access.visibleProjects(principal);
      return projectScope(access, principal, capability, projectId);
    },
    async permitted(principal: Principal, capability: Cap, rows: Row[]): Promise<Row[]> {
      const allowed: Row[] = [];
      for (const row of rows)
        if (await allows(access.authorize, principal, capability, row.project_id, row.environment_id ?? null))
          allowed.push(row);
      return allowed;
    },
    /** The list (optionally of one project) and the detail of this kind with `capability`, each row as `present` shows it. */
    readers<Shown>(
      capability: Cap,
      listRows: (projectIds: string[] | null) => Promise<Row[]>,
      present: (row: Row) => Shown,
    ) {
      return {
        async list(principal: Principal, projectId?: string): Promise<Shown[]> {
          const rows = await listRows(await guard.scope(principal, capability, projectId));
          return (options.inEnvironments ? await guard.permitted(principal, capability, rows) : rows).map(present);
        },
        async get(principal: Principal, id: string): Promise<Shown> {
          return present(await guard.find(principal, id, capability));
        },
      };
    },
  };
  return guard;
}
