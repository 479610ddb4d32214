/**
 * Retention policies: what to prune (a registered target kind), how old is too old (`max_age`,
 * optionally `max_rows`, `keep_last_failed` for histories), when (a cron expression or an interval,
 * evaluated by the leader), a dry run with counts, and sweeps. A project's policy is the project's
 * (`policy:read`, `policy:write`); an instance-wide kind (audit events) is administrators' only.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { Value } from 'typebox/value';
import type { Principal } from '../../../platform/authn.js';
import { hasInstanceRights, projectScope, requireAdmin, type ProjectAccess } from '../../../platform/authz.js';
import { auditedWrites } from '../../../platform/audited-writes.js';
import { onUniqueViolation, savepoint, type Db } from '../../../platform/db/index.js';
import { notFound, validationFailed, type FieldError } from '../../../platform/errors/index.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { AuditService } from '../../audit/service.js';
import { cronProblem, nextDue, timezoneProblem, type Timing } from '../../../platform/schedule-timing.js';
import type { ExecutionsService } from '../../operations/executions/service.js';
import { RETENTION_POLICY, retentionPolicyNameTaken, sweepActive } from '../errors.js';
import type { PolicyRow, RetentionRepository, SweepRow } from './repository.js';
import type { SweepRunner } from './sweep.js';
import { formatDuration, parseDuration, totalOf, type RetentionTargets } from './targets.js';
import { authorship } from '../../../platform/presenters.js';

export interface PolicyInput {
  project_id?: string | null;
  name: string;
  target: { kind: string } & Record<string, unknown>;
  max_age: string;
  max_rows?: number | null;
  keep_last_failed?: number;
  cron?: string | null;
  timezone?: string;
  interval_seconds?: number | null;
}

export type PolicyPatch = Partial<Omit<PolicyInput, 'project_id'>>;

type PolicyCapability = 'policy:read' | 'policy:write';

/** An instance-wide sweep not ended after this long is taken for one whose process stopped. */
const STALE_MS = 3_600_000;

const timingOf = (row: Pick<PolicyRow, 'cron' | 'timezone' | 'interval_seconds'>): Timing => ({
  cron: row.cron,
  timezone: row.timezone,
  interval_seconds: row.interval_seconds,
});
const scheduled = (timing: Timing) => Boolean(timing.cron || timing.interval_seconds);

export const presentPolicy = (row: PolicyRow) => ({
  id: row.id,
  project_id: row.project_id,
  name: row.name,
  target: { kind: row.target_kind, ...row.target },
  max_age: formatDuration(Number(row.max_age_seconds)),
  max_age_seconds: Number(row.max_age_seconds),
  max_rows: row.max_rows === null ? null : Number(row.max_rows),
  keep_last_failed: row.keep_last_failed,
  cron: row.cron,
  timezone: row.timezone,
  interval_seconds: row.interval_seconds,
  next_run_at: row.next_run_at?.toISOString() ?? null,
  ...authorship(row),
});

export const presentSweep = (row: SweepRow) => ({
  id: row.id,
  policy_id: row.policy_id,
  project_id: row.project_id,
  execution_id: row.execution_id,
  trigger: row.trigger,
  status: row.status,
  cutoff: row.cutoff?.toISOString() ?? null,
  counts: row.counts,
  total: totalOf(row.counts),
  batches: row.batches,
  details: row.details,
  error: row.error,
  created_at: row.created_at.toISOString(),
  started_at: row.started_at?.toISOString() ?? null,
  finished_at: row.finished_at?.toISOString() ?? null,
});

export type RetentionService = ReturnType<typeof createRetentionService>;

export function createRetentionService(
  deps: ProjectAccess & {
    db: Db;
    repository: RetentionRepository;
    targets: RetentionTargets;
    sweeps: SweepRunner;
    audit: AuditService;
    executions: Pick<ExecutionsService, 'startRun' | 'find'>;
    logger: Logger;
  },
) {
  const { db, repository, targets, authorize, audit } = deps;
  const writes = auditedWrites<PolicyRow>(deps, {
    kind: 'retention_policy',
    label: RETENTION_POLICY,
    nameTaken: retentionPolicyNameTaken,
    nameConstraint: 'retention_policies_name',
  });

  /** The policy, or 404; then the capability on its project, or administrators only for an instance-wide one. */
  const find = async (principal: Principal, id: string, capability: PolicyCapability) => {
    const row = await repository.find(db, id);
    if (!row) throw notFound(RETENTION_POLICY);
    if (row.project_id === null) requireAdmin(principal, capability);
    else await authorize(principal, capability, row.project_id);
    return row;
  };

  /** The rules of a policy as saved (checked): its kind, its target's own fields, its ages and timing. */
  const check = async (principal: Principal, projectId: string | null, input: PolicyInput) => {
    const problems: FieldError[] = [];
    const kind = targets.get(input.target.kind);
    if (!kind) {
      const known = targets
        .all()
        .map((k) => k.kind)
        .join(', ');
      throw validationFailed([{ path: 'target.kind', message: `is not a retention target kind (${known})` }]);
    }
    if (kind.scope === 'instance') {
      requireAdmin(principal, 'policy:write');
      if (projectId) problems.push({ path: 'project_id', message: `must be null: ${kind.kind} is instance-wide` });
    } else if (!projectId) problems.push({ path: 'project_id', message: `is required for ${kind.kind}` });
    const { kind: _kind, ...config } = input.target;
    for (const error of Value.Errors(kind.config, config)) {
      const params = error.params as { requiredProperties?: string[]; additionalProperties?: string[] };
      const field = params.requiredProperties?.[0] ?? params.additionalProperties?.[0];
      const at = `target${error.instancePath.replaceAll('/', '.')}${field ? `.${field}` : ''}`;
      problems.push({ path: at, message: error.message });
    }
    const maxAgeSeconds = parseDuration(input.max_age);
    if (maxAgeSeconds === undefined) problems.push({ path: 'max_age', message: 'is not a duration such as 30d' });
    if ((input.keep_last_failed ?? 0) > 0 && !kind.histories)
      problems.push({ path: 'keep_last_failed', message: `applies to histories only, not to ${kind.kind}` });
    const timing: Timing = {
      cron: input.cron ?? null,
      timezone: input.timezone ?? 'UTC',
      interval_seconds: input.interval_seconds ?? null,
    };
    if (timing.cron && timing.interval_seconds)
      problems.push({ path: 'cron', message: 'give at most one of cron and interval_seconds' });
    const zone = timezoneProblem(timing.timezone);
    if (zone) problems.push({ path: 'timezone', message: zone });
    else if (timing.cron) {
      const cron = cronProblem(timing.cron, timing.timezone);
      if (cron) problems.push({ path: 'cron', message: cron });
    }
    if (problems.length === 0 && kind.check) {
      const more = await kind
        .check({
          projectId,
          config,
          maxAgeSeconds: maxAgeSeconds!,
          maxRows: input.max_rows ?? null,
          keepLastFailed: input.keep_last_failed ?? 0,
        })
        .catch((error: Error) => [{ path: 'target', message: error.message }]);
      problems.push(...more);
    }
    if (problems.length > 0) throw validationFailed(problems);
    return {
      target_kind: kind.kind,
      target: config,
      max_age_seconds: maxAgeSeconds!,
      max_rows: input.max_rows ?? null,
      keep_last_failed: input.keep_last_failed ?? 0,
      ...timing,
      next_run_at: scheduled(timing) ? nextDue(timing, new Date()) : null,
    };
  };

  /**
   * Whether the policy has a sweep under way. A sweep whose execution ended without it (cancelled while
   * queued) or an instance-wide one whose process stopped (no end after STALE_MS) is closed as failed.
   */
  const busy = async (trx: Db, policyId: string) => {
    const active = await repository.activeSweep(trx, policyId);
    if (!active) return false;
    let ended: string | undefined;
    if (active.execution_id) {
      const execution = await deps.executions.find(active.execution_id);
      if (!execution || !['queued', 'running'].includes(execution.status))
        ended = `its execution is ${execution?.status ?? 'gone'}`;
    } else if (Date.now() - active.created_at.getTime() > STALE_MS) ended = 'its process stopped before it ended';
    if (!ended) return true;
    await repository.updateSweep(trx, active.id, { status: 'failed', error: ended, finished_at: new Date() });
    return false;
  };

  /** A sweep of the policy, queued in the caller's transaction: a project's as an execution (its job runs it). */
  const startSweep = async (
    trx: Db,
    policy: PolicyRow,
    trigger: 'manual' | 'schedule',
    context: RequestContext,
    createdBy: string | null,
  ) => {
    if (await busy(trx, policy.id)) throw sweepActive();
    const sweep = await repository.insertSweep(trx, {
      policy_id: policy.id,
      project_id: policy.project_id,
      execution_id: null,
      trigger,
      cutoff: null,
      error: null,
      started_at: null,
      finished_at: null,
    });
    if (policy.project_id) {
      const execution = await deps.executions.startRun(
        trx,
        {
          projectId: policy.project_id,
          kind: 'retention_sweep',
          params: {
            policy_id: policy.id,
            policy_name: policy.name,
            target_kind: policy.target_kind,
            sweep_id: sweep.id,
          },
          createdBy,
          trigger,
        },
        context,
      );
      await repository.updateSweep(trx, sweep.id, { execution_id: execution.id });
      sweep.execution_id = execution.id;
    }
    return sweep;
  };

  /** An instance-wide sweep has no project and so no execution: this process runs it once the sweep is committed. */
  const runInstanceSweep = (sweep: SweepRow) => {
    if (sweep.project_id !== null) return;
    void deps.sweeps.runAlone(sweep.id).catch((error: Error) => {
      deps.logger.error({ err: { message: error.message }, sweep_id: sweep.id }, 'retention sweep failed');
    });
  };

  return {
    async list(principal: Principal, projectId?: string) {
      const projectIds = await projectScope(deps, principal, 'policy:read', projectId);
      const instance = !projectId && hasInstanceRights(principal);
      return (await repository.list(db, projectIds, instance)).map(presentPolicy);
    },

    async get(principal: Principal, id: string) {
      return presentPolicy(await find(principal, id, 'policy:read'));
    },

    async create(principal: Principal, input: PolicyInput, context: RequestContext) {
      const projectId = input.project_id ?? null;
      if (projectId) await authorize(principal, 'policy:write', projectId);
      const rules = await check(principal, projectId, input);
      const row = await writes.create(
        context,
        input.name,
        (trx) =>
          repository.insert(trx, { project_id: projectId, name: input.name, ...rules, created_by: principal.userId }),
        (created) => ({ name: created.name, target_kind: created.target_kind, project_id: projectId }),
      );
      return presentPolicy(row);
    },

    async update(principal: Principal, id: string, patch: PolicyPatch, context: RequestContext) {
      const row = await find(principal, id, 'policy:write');
      const current = presentPolicy(row);
      const merged: PolicyInput = {
        name: patch.name ?? row.name,
        target: patch.target ?? current.target,
        max_age: patch.max_age ?? current.max_age,
        max_rows: patch.max_rows !== undefined ? patch.max_rows : current.max_rows,
        keep_last_failed: patch.keep_last_failed ?? row.keep_last_failed,
        cron: patch.cron !== undefined ? patch.cron : patch.interval_seconds ? null : row.cron,
        timezone: patch.timezone ?? row.timezone,
        interval_seconds:
          patch.interval_seconds !== undefined ? patch.interval_seconds : patch.cron ? null : row.interval_seconds,
      };
      const rules = await check(principal, row.project_id, merged);
      const updated = await writes.update(context, id, merged.name, patch, (trx) =>
        repository.update(trx, id, { name: merged.name, ...rules }),
      );
      return presentPolicy(updated);
    },

    async remove(principal: Principal, id: string, context: RequestContext) {
      await find(principal, id, 'policy:write');
      await writes.remove(context, id, undefined, (trx) => repository.remove(trx, id));
    },

    /** The dry run: what a sweep started now would delete, per table, with the same cutoffs. */
    async preview(principal: Principal, id: string) {
      const row = await find(principal, id, 'policy:read');
      const { cutoff, counts } = await deps.sweeps.preview(row, randomUUID());
      return { policy_id: row.id, cutoff: cutoff.toISOString(), counts, total: totalOf(counts) };
    },

    async run(principal: Principal, id: string, context: RequestContext) {
      const row = await find(principal, id, 'policy:write');
      const sweep = await onUniqueViolation(
        db.transaction().execute(async (trx) => {
          const started = await startSweep(trx, row, 'manual', context, principal.userId);
          await audit.record(
            context,
            {
              kind: 'retention_sweep_started',
              target: { type: 'retention_policy', id },
              details: { sweep_id: started.id },
            },
            trx,
          );
          return started;
        }),
        sweepActive,
        'retention_sweeps_one_active',
      );
      runInstanceSweep(sweep);
      return presentSweep(sweep);
    },

    async sweeps(principal: Principal, id: string, limit = 50) {
      const row = await find(principal, id, 'policy:read');
      return (await repository.sweepsOf(db, row.id, limit)).map(presentSweep);
    },

    targetKinds() {
      return targets.all().map((k) => ({
        kind: k.kind,
        scope: k.scope,
        description: k.description,
        histories: k.histories ?? false,
      }));
    },

    /**
     * On the leader: starts a sweep of every policy whose schedule is due and moves it to its next due
     * time (a policy whose previous sweep still runs skips this one). Returns the sweeps started.
     */
    async tick(now = new Date()): Promise<number> {
      const started: SweepRow[] = [];
      await db.transaction().execute(async (trx) => {
        for (const policy of await repository.claimDue(trx, now, 20)) {
          const timing = timingOf(policy);
          await repository.setNextRun(trx, policy.id, scheduled(timing) ? nextDue(timing, now) : null);
          if (await busy(trx, policy.id)) continue;
          // In a savepoint: a policy whose sweep cannot start must not hold up the others.
          try {
            started.push(await savepoint(trx, (tx) => startSweep(tx, policy, 'schedule', {}, null)));
          } catch (error) {
            deps.logger.warn(
              { err: { message: (error as Error).message }, policy_id: policy.id },
              'a scheduled retention sweep could not start',
            );
          }
        }
      });
      for (const sweep of started) runInstanceSweep(sweep);
      return started.length;
    },
  };
}
