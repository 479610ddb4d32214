/**
 * Masking policies: a project's rules for what a principal without an exemption sees of a column
 * (by name or catalog tag), and the maskers every exit path asks for (previews, exports, AI prompts,
 * the warehouse's masked views). A principal is exempt from a policy when it holds one of the
 * policy's exempt capabilities in the project (by default `data:read_unmasked`; an instance
 * administrator holds every capability) or is a member with one of its exempt roles.
 */
import { randomBytes } from 'node:crypto';
import { CANONICAL_TYPES, type CanonicalType, type Value } from '@svc/engine';
import type { Principal } from '../../../platform/authn.js';
import { CAPABILITIES, hasInstanceRights, projectScope, type ProjectAccess } from '../../../platform/authz.js';
import { auditedWrites } from '../../../platform/audited-writes.js';
import type { Db } from '../../../platform/db/index.js';
import { conflict, notFound, validationFailed, type FieldError } from '../../../platform/errors/index.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { SecretBox } from '../../../platform/secrets.js';
import type { AuditService } from '../../audit/service.js';
import type { MaskedViewPlan } from '../../connectivity/warehouse.js';
import { optionProblems, type MaskingMethod, type MethodOptions } from './methods.js';
import { planMask, type AppliedPolicy, type MaskColumn, type RowMask } from './plan.js';
import type { MaskingPolicyRow, MaskingRepository } from './repository.js';
import { maskedSelectList } from './warehouse-views.js';
import { authorship } from '../../../platform/presenters.js';

export const MASKING_POLICY = 'Masking policy';
export const UNMASKED_CAPABILITY = 'data:read_unmasked';

export interface MaskingPolicyInput {
  project_id: string;
  name: string;
  method: MaskingMethod;
  options?: MethodOptions;
  columns?: string[];
  tags?: string[];
  exempt?: { capabilities?: string[]; roles?: string[] };
}
export type MaskingPolicyPatch = Partial<Omit<MaskingPolicyInput, 'project_id'>>;

/** Who data leaves the service for: a signed-in principal, or the user who started a run (null: nobody). */
export type Viewer = Principal | { userId: string } | null;

export const presentMaskingPolicy = (row: MaskingPolicyRow) => ({
  id: row.id,
  project_id: row.project_id,
  name: row.name,
  method: row.method,
  options: row.options as Record<string, unknown>,
  columns: row.columns,
  tags: row.tags,
  exempt: { capabilities: row.exempt_capabilities, roles: row.exempt_roles },
  ...authorship(row),
});

/** What one viewer sees of one project's data. */
export interface ProjectMasker {
  /** Whether any policy applies to this viewer (when not, nothing needs masking). */
  readonly active: boolean;
  /** The policies that apply to this viewer. */
  readonly policies: AppliedPolicy[];
  /** The mask of rows with these columns; null when none of them is masked. */
  columns(columns: MaskColumn[]): RowMask | null;
  /** Masks rows given as objects (previews), in place of a copy. */
  objects(columns: MaskColumn[], rows: Record<string, unknown>[]): Record<string, unknown>[];
}

const NOTHING: ProjectMasker = {
  active: false,
  policies: [],
  columns: () => null,
  objects: (_columns, rows) => rows,
};

export type MaskingService = ReturnType<typeof createMaskingService>;

const isPrincipal = (viewer: Viewer): viewer is Principal =>
  viewer !== null && (viewer as Principal).credential !== undefined;

export function createMaskingService(
  deps: ProjectAccess & {
    db: Db;
    repository: MaskingRepository;
    box: SecretBox;
    audit: AuditService;
    /** The catalog's confirmed tags of a connector dataset's columns (policies by tag match them). */
    columnTags?: (connectorId: string, namespace: string | null, name: string) => Promise<Map<string, string[]>>;
    /** The catalog's confirmed tags of every dataset of a project, by dataset name then column name. */
    projectColumnTags?: (projectId: string) => Promise<Map<string, Map<string, string[]>>>;
  },
) {
  const { db, repository, box, authorize } = deps;
  const keys = new Map<string, Buffer>();
  const writes = auditedWrites<MaskingPolicyRow>(deps, {
    kind: 'masking_policy',
    label: MASKING_POLICY,
    nameTaken: (name) => conflict(`A masking policy named "${name}" already exists here`),
  });

  const find = async (principal: Principal, id: string, capability: 'policy:read' | 'policy:write') => {
    const row = await repository.find(db, id);
    if (!row) throw notFound(MASKING_POLICY);
    await authorize(principal, capability, row.project_id);
    return row;
  };

  const check = (input: MaskingPolicyInput) => {
    const problems: FieldError[] = optionProblems(input.method, input.options ?? {});
    if (!input.columns?.length && !input.tags?.length)
      problems.push({ path: 'columns', message: 'give at least one column name or tag' });
    const known = new Set<string>(CAPABILITIES);
    (input.exempt?.capabilities ?? []).forEach((capability, i) => {
      if (!known.has(capability))
        problems.push({ path: `exempt.capabilities.${i}`, message: `is not a project capability: ${capability}` });
    });
    if (problems.length) throw validationFailed(problems);
    return {
      name: input.name,
      method: input.method,
      options: input.options ?? {},
      columns: input.columns ?? [],
      tags: input.tags ?? [],
      exempt_capabilities: input.exempt?.capabilities ?? [UNMASKED_CAPABILITY],
      exempt_roles: input.exempt?.roles ?? [],
    };
  };

  /** The project's key for `hash` (made, encrypted, on first use). */
  const keyOf = async (projectId: string): Promise<Buffer> => {
    const cached = keys.get(projectId);
    if (cached) return cached;
    const ciphertext = await repository.key(db, projectId, () => box.encrypt(randomBytes(32).toString('base64')));
    const key = Buffer.from(box.decrypt(ciphertext), 'base64');
    if (keys.size > 10_000) keys.clear();
    keys.set(projectId, key);
    return key;
  };

  /** The capabilities and role that may exempt the viewer in the project. */
  const standingOf = async (viewer: Viewer, projectId: string) => {
    if (viewer === null) return { all: false, role: null, capabilities: new Set<string>() };
    if (isPrincipal(viewer)) {
      if (viewer.projectIds && !viewer.projectIds.includes(projectId))
        return { all: false, role: null, capabilities: new Set<string>() };
      if (hasInstanceRights(viewer)) return { all: true, role: null, capabilities: new Set<string>() };
      const standing = await repository.standing(db, projectId, viewer.userId);
      return { all: false, role: standing.role, capabilities: standing.capabilities };
    }
    const standing = await repository.standing(db, projectId, viewer.userId);
    return { all: standing.admin, role: standing.role, capabilities: standing.capabilities };
  };

  const applied = (row: MaskingPolicyRow): AppliedPolicy => ({
    id: row.id,
    name: row.name,
    method: row.method,
    options: row.options,
    columns: row.columns,
    tags: row.tags,
    created_at: row.created_at,
  });

  const service = {
    async list(principal: Principal, projectId?: string) {
      const projectIds = await projectScope(deps, principal, 'policy:read', projectId);
      return (await repository.list(db, projectIds)).map(presentMaskingPolicy);
    },

    async get(principal: Principal, id: string) {
      return presentMaskingPolicy(await find(principal, id, 'policy:read'));
    },

    async create(principal: Principal, input: MaskingPolicyInput, context: RequestContext) {
      await authorize(principal, 'policy:write', input.project_id);
      const fields = check(input);
      const row = await writes.create(
        context,
        input.name,
        (trx) => repository.insert(trx, { project_id: input.project_id, ...fields, created_by: principal.userId }),
        (created) => ({ name: created.name, method: created.method, project_id: created.project_id }),
      );
      return presentMaskingPolicy(row);
    },

    async update(principal: Principal, id: string, patch: MaskingPolicyPatch, context: RequestContext) {
      const row = await find(principal, id, 'policy:write');
      const method = patch.method ?? row.method;
      const fields = check({
        project_id: row.project_id,
        name: patch.name ?? row.name,
        method,
        // Options belong to a method: a new method without options starts from none.
        options: patch.options ?? (patch.method && patch.method !== row.method ? {} : row.options),
        columns: patch.columns ?? row.columns,
        tags: patch.tags ?? row.tags,
        exempt: {
          capabilities: patch.exempt?.capabilities ?? row.exempt_capabilities,
          roles: patch.exempt?.roles ?? row.exempt_roles,
        },
      });
      const updated = await writes.update(context, id, fields.name, patch, (trx) => repository.update(trx, id, fields));
      return presentMaskingPolicy(updated);
    },

    async remove(principal: Principal, id: string, context: RequestContext) {
      await find(principal, id, 'policy:write');
      await writes.remove(context, id, undefined, (trx) => repository.remove(trx, id));
    },

    /** The policies of a project that apply to a viewer (those it is not exempt from). */
    async appliedTo(viewer: Viewer, projectId: string): Promise<AppliedPolicy[]> {
      const rows = await repository.ofProject(db, projectId);
      if (rows.length === 0) return [];
      const standing = await standingOf(viewer, projectId);
      if (standing.all) return rows.filter((r) => r.exempt_capabilities.length === 0).map(applied);
      return rows
        .filter(
          (r) =>
            !r.exempt_capabilities.some((c) => standing.capabilities.has(c)) &&
            !(standing.role !== null && r.exempt_roles.includes(standing.role)),
        )
        .map(applied);
    },

    /**
     * What the viewer sees of the project's data: the masker every exit path applies. With `dataset`
     * (a connector's), columns also carry the tags the catalog has for them, so policies by tag apply.
     */
    async maskerFor(
      viewer: Viewer,
      projectId: string,
      dataset?: { connectorId: string; namespace: string | null; name: string },
    ): Promise<ProjectMasker> {
      const policies = await service.appliedTo(viewer, projectId);
      if (policies.length === 0) return NOTHING;
      const needsKey = policies.some((p) => p.method === 'hash');
      const key = needsKey ? await keyOf(projectId) : Buffer.alloc(0);
      const byTag = policies.some((p) => p.tags.length > 0);
      const catalogTags =
        byTag && dataset && deps.columnTags
          ? await deps.columnTags(dataset.connectorId, dataset.namespace, dataset.name)
          : undefined;
      const tagged = (columns: MaskColumn[]) =>
        catalogTags?.size
          ? columns.map((c) => ({ ...c, tags: [...(c.tags ?? []), ...(catalogTags.get(c.name) ?? [])] }))
          : columns;
      return {
        active: true,
        policies,
        columns: (columns) => planMask(policies, tagged(columns), () => key),
        objects(columns, rows) {
          const mask = planMask(policies, tagged(columns), () => key);
          if (!mask) return rows;
          const names = columns.map((c) => c.name);
          return rows.map((row) => {
            const values = mask.row(names.map((n) => (row[n] ?? null) as Value));
            const out: Record<string, unknown> = { ...row };
            names.forEach((n, i) => {
              if (n in row) out[n] = values[i];
            });
            return out;
          });
        },
      };
    },

    /** The project's hash key, for the warehouse's masked views. */
    hashKey: keyOf,

    /**
     * What the viewer's reads of the project's warehouse go through: the select lists of the masked
     * views (./warehouse-views.ts), or null when no policy applies to the viewer (it reads the tables).
     */
    async warehousePlan(viewer: Viewer, projectId: string): Promise<MaskedViewPlan | null> {
      const policies = await service.appliedTo(viewer, projectId);
      if (policies.length === 0) return null;
      // A warehouse table is matched to the catalog by name: the tags of every dataset of the project
      // with that name add up (a source table's personal-data tags follow its copy into the warehouse).
      const tags =
        policies.some((p) => p.tags.length > 0) && deps.projectColumnTags
          ? await deps.projectColumnTags(projectId)
          : new Map<string, Map<string, string[]>>();
      return {
        hashKey: policies.some((p) => p.method === 'hash') ? await keyOf(projectId) : undefined,
        selectList: (name, columns, key) => maskedSelectList(policies, columns, key, tags.get(name)),
      };
    },

    /** How the caller would see these sample rows (the web screen's try-out). */
    async evaluate(
      principal: Principal,
      input: { project_id: string; columns: { name: string; type?: string; tags?: string[] }[]; rows: unknown[][] },
    ) {
      await authorize(principal, 'policy:read', input.project_id);
      const problems: FieldError[] = [];
      const columns: MaskColumn[] = input.columns.map((c, i) => {
        const type = (c.type ?? 'string') as CanonicalType;
        if (!(CANONICAL_TYPES as readonly string[]).includes(type))
          problems.push({
            path: `columns.${i}.type`,
            message: `is not a canonical type (${CANONICAL_TYPES.join(', ')})`,
          });
        return { name: c.name, type, tags: c.tags };
      });
      if (problems.length) throw validationFailed(problems);
      const masker = await service.maskerFor(principal, input.project_id);
      const mask = masker.columns(columns);
      return {
        masked: mask?.masked ?? {},
        rows: input.rows.map((row) => (mask ? mask.row(row as Value[]) : row)),
      };
    },
  };
  return service;
}
