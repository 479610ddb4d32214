/**
 * Schedules: one per pipeline, a cron expression in a time zone or a fixed interval, paused and
 * resumed, with a missed-run policy. The scheduler (scheduler.ts) fires them; the dashboard reports
 * on them.
 */
import type { Principal } from '../../../platform/authn.js';
import { resourceGuard, type Authorize } from '../../../platform/authz.js';
import { onUniqueViolation, type Db } from '../../../platform/db/index.js';
import { notFound, validationFailed } from '../../../platform/errors/index.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { ExecutionsService } from '../../operations/executions/service.js';
import type { AuditService } from '../../audit/service.js';
import type { PipelinesRepository } from '../pipelines/repository.js';
import type { ScheduleRow, SchedulesRepository } from './repository.js';
import {
  firstDue,
  mergeTiming,
  timingProblems,
  type Timing,
  type TimingInput,
} from '../../../platform/schedule-timing.js';
import { SCHEDULE, scheduleExists } from '../errors.js';

export interface ScheduleInput extends TimingInput {
  pipeline_id: string;
  missed_policy?: 'skip' | 'run_once';
  paused?: boolean;
}

export type SchedulePatch = Partial<Omit<ScheduleInput, 'pipeline_id'>>;

const FAILURE_STREAK_WINDOW = 50;

export const presentSchedule = (row: ScheduleRow) => ({
  id: row.id,
  project_id: row.project_id,
  pipeline_id: row.pipeline_id,
  cron: row.cron,
  timezone: row.timezone,
  interval_seconds: row.interval_seconds,
  missed_policy: row.missed_policy,
  paused: row.paused,
  next_due_at: row.paused ? null : row.next_due_at.toISOString(),
  created_by: row.created_by,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export type SchedulesService = ReturnType<typeof createSchedulesService>;

export function createSchedulesService(deps: {
  db: Db;
  repository: SchedulesRepository;
  pipelines: PipelinesRepository;
  /** The operations area's executions: the dashboard's recent runs. */
  executions: Pick<ExecutionsService, 'recentRunsOfPipelines'>;
  authorize: Authorize;
  visibleProjects: (principal: Principal) => Promise<string[] | null>;
  audit: AuditService;
}) {
  const { db, repository, authorize, audit } = deps;

  // One check for a schedule, the list of schedules and the dashboard.
  const guard = resourceGuard(deps, SCHEDULE, (id) => repository.find(db, id), {
    capabilities: ['schedule:read', 'schedule:write'],
  });

  const change = async (
    principal: Principal,
    id: string,
    changes: Parameters<SchedulesRepository['update']>[2],
    context: RequestContext,
    kind: string,
  ) => {
    const row = await db.transaction().execute(async (trx) => {
      const updated = await repository.update(trx, id, changes);
      if (!updated) throw notFound(SCHEDULE);
      await audit.record(
        context,
        { kind, target: { type: 'schedule', id }, details: { fields: Object.keys(changes) } },
        trx,
      );
      return updated;
    });
    return presentSchedule(row);
  };

  return {
    async create(principal: Principal, input: ScheduleInput, context: RequestContext) {
      const pipeline = await deps.pipelines.find(db, input.pipeline_id);
      if (!pipeline) throw validationFailed([{ path: 'pipeline_id', message: 'is not a pipeline' }]);
      await authorize(principal, 'schedule:write', pipeline.project_id);
      // A schedule runs the pipeline: whoever sets one up must be allowed to run it.
      await authorize(principal, 'pipeline:run', pipeline.project_id);
      const timing: Timing = {
        cron: input.cron ?? null,
        timezone: input.timezone ?? 'UTC',
        interval_seconds: input.interval_seconds ?? null,
      };
      const problems = timingProblems(timing);
      if (problems.length) throw validationFailed(problems);
      const row = await onUniqueViolation(
        db.transaction().execute(async (trx) => {
          const created = await repository.insert(trx, {
            project_id: pipeline.project_id,
            pipeline_id: pipeline.id,
            ...timing,
            missed_policy: input.missed_policy ?? 'skip',
            paused: input.paused ?? false,
            next_due_at: firstDue(timing, new Date()),
            created_by: principal.userId,
          });
          await audit.record(
            context,
            {
              kind: 'schedule_created',
              target: { type: 'schedule', id: created.id },
              details: { pipeline_id: pipeline.id },
            },
            trx,
          );
          return created;
        }),
        () => scheduleExists(),
      );
      return presentSchedule(row);
    },

    ...guard.readers('schedule:read', (projectIds) => repository.list(db, projectIds), presentSchedule),

    async update(principal: Principal, id: string, patch: SchedulePatch, context: RequestContext) {
      const current = await guard.find(principal, id, 'schedule:write');
      await authorize(principal, 'pipeline:run', current.project_id);
      // Switching between cron and interval: the one given replaces the other.
      const timing = mergeTiming(patch, current);
      const problems = timingProblems(timing);
      if (problems.length) throw validationFailed(problems);
      const retimed = patch.cron !== undefined || patch.interval_seconds !== undefined || patch.timezone !== undefined;
      const resumed = patch.paused === false && current.paused;
      return change(
        principal,
        id,
        {
          ...timing,
          missed_policy: patch.missed_policy ?? current.missed_policy,
          paused: patch.paused ?? current.paused,
          ...(retimed || resumed ? { next_due_at: firstDue(timing, new Date()) } : {}),
        },
        context,
        'schedule_updated',
      );
    },

    async remove(principal: Principal, id: string, context: RequestContext) {
      await guard.find(principal, id, 'schedule:write');
      await db.transaction().execute(async (trx) => {
        await repository.remove(trx, id);
        await audit.record(context, { kind: 'schedule_deleted', target: { type: 'schedule', id } }, trx);
      });
    },

    async pause(principal: Principal, id: string, context: RequestContext) {
      await guard.find(principal, id, 'schedule:write');
      return change(principal, id, { paused: true }, context, 'schedule_paused');
    },

    /** Resumes from now: due times that passed while paused are neither run nor counted as missed. */
    async resume(principal: Principal, id: string, context: RequestContext) {
      const row = await guard.find(principal, id, 'schedule:write');
      await authorize(principal, 'pipeline:run', row.project_id);
      return change(
        principal,
        id,
        { paused: false, next_due_at: firstDue(row, new Date()) },
        context,
        'schedule_resumed',
      );
    },

    /** Every readable schedule with its next due time, last run, failure streak and missed runs. */
    async dashboard(principal: Principal, projectId?: string) {
      const rows = await repository.dashboard(db, await guard.scope(principal, 'schedule:read', projectId));
      const runs = await deps.executions.recentRunsOfPipelines(
        rows.map((r) => r.pipeline_id),
        FAILURE_STREAK_WINDOW,
      );
      return {
        items: rows.map((row) => {
          const mine = runs.filter((r) => r.pipeline_id === row.pipeline_id);
          const finished = mine.filter((r) => ['succeeded', 'failed', 'cancelled'].includes(r.status));
          const last = mine[0];
          let failures = 0;
          for (const run of finished) {
            if (run.status !== 'failed') break;
            failures += 1;
          }
          return {
            schedule_id: row.id,
            project_id: row.project_id,
            pipeline_id: row.pipeline_id,
            pipeline_name: row.pipeline_name,
            kind: row.cron ? ('cron' as const) : ('interval' as const),
            cron: row.cron,
            timezone: row.timezone,
            interval_seconds: row.interval_seconds,
            paused: row.paused,
            next_due_at: row.paused ? null : row.next_due_at.toISOString(),
            last_run: last
              ? {
                  execution_id: last.id,
                  status: last.status,
                  started_at: last.started_at?.toISOString() ?? null,
                  finished_at: last.finished_at?.toISOString() ?? null,
                  duration_ms:
                    last.started_at && last.finished_at ? last.finished_at.getTime() - last.started_at.getTime() : null,
                }
              : null,
            failures_in_a_row: failures,
            missed_runs: Number(row.missed_runs ?? 0),
            last_missed_at: row.last_missed_at ? new Date(row.last_missed_at).toISOString() : null,
          };
        }),
      };
    },
  };
}
