/**
 * Schedules of model runs: a named selection of a project's models (the selectors of
 * `POST /dw-models/run`) run on a cron expression in a time zone or an interval, with the pipelines'
 * missed-run policy. The leader's tick claims due schedules (SKIP LOCKED) and, in one transaction,
 * starts each one's run and stores its next due time; a due time that finds the schedule's previous
 * run still going is skipped.
 */
import type { Log } from '@svc/engine';
import type { Counter } from 'prom-client';
import type { Principal } from '../../../platform/authn.js';
import { resourceGuard, type ProjectAccess } from '../../../platform/authz.js';
import { auditedWrites } from '../../../platform/audited-writes.js';
import { savepoint, type Db } from '../../../platform/db/index.js';
import { validationFailed } from '../../../platform/errors/index.js';
import { SYSTEM_CONTEXT, type RequestContext } from '../../../platform/request-context.js';
import { fire, firstDue, mergeTiming, timingProblems, type TimingInput } from '../../../platform/schedule-timing.js';
import type { AuditService } from '../../audit/service.js';
import type { ExecutionsService } from '../../operations/executions/service.js';
import { MODEL_SCHEDULE, modelScheduleNameTaken } from '../errors.js';
import type { ModelScheduleFields, ModelScheduleRow, ModelSchedulesRepository } from './schedule-repository.js';
import type { ModelsService } from './service.js';
import { authorship } from '../../../platform/presenters.js';

export interface ModelScheduleInput extends TimingInput {
  project_id: string;
  name: string;
  select?: string[];
  full_refresh?: boolean;
  missed_policy?: 'skip' | 'run_once';
  paused?: boolean;
}
export type ModelSchedulePatch = Partial<Omit<ModelScheduleInput, 'project_id'>>;

/** Schedules a tick handles at most; a full batch means more may be due. */
export const TICK_BATCH = 20;

export const presentModelSchedule = (row: ModelScheduleRow) => ({
  id: row.id,
  project_id: row.project_id,
  name: row.name,
  select: row.selectors,
  full_refresh: row.full_refresh,
  cron: row.cron,
  timezone: row.timezone,
  interval_seconds: row.interval_seconds,
  missed_policy: row.missed_policy,
  paused: row.paused,
  next_due_at: row.next_due_at?.toISOString() ?? null,
  last_execution_id: row.last_execution_id,
  ...authorship(row),
});

export type ModelSchedulesService = ReturnType<typeof createModelSchedulesService>;

export function createModelSchedulesService(
  deps: ProjectAccess & {
    db: Db;
    repository: ModelSchedulesRepository;
    models: Pick<ModelsService, 'startRun' | 'selectionProblems'>;
    executions: Pick<ExecutionsService, 'find'>;
    audit: AuditService;
    log: Log;
    /** Due times older than this when found are missed (SVC_SCHEDULER_GRACE_SECONDS). */
    graceMs: number;
    firings?: Counter<'outcome'>;
  },
) {
  const { db, repository, authorize } = deps;
  const writes = auditedWrites<ModelScheduleRow>(deps, {
    kind: 'model_schedule',
    label: MODEL_SCHEDULE,
    nameTaken: modelScheduleNameTaken,
  });
  const guard = resourceGuard(deps, MODEL_SCHEDULE, (id) => repository.find(db, id), {
    capabilities: ['model:read', 'model:write', 'model:run'],
  });

  /** The fields to store, merged over `current`, with every problem named. */
  const fieldsOf = async (projectId: string, input: ModelSchedulePatch, current?: ModelScheduleRow) => {
    const timing = mergeTiming(input, current);
    const selectors = input.select ?? current?.selectors ?? [];
    const problems = [...timingProblems(timing), ...(await deps.models.selectionProblems(projectId, selectors))];
    if (problems.length) throw validationFailed(problems);
    const paused = input.paused ?? current?.paused ?? false;
    const timingChanged =
      !current || ['cron', 'timezone', 'interval_seconds', 'paused'].some((field) => field in input);
    const fields: ModelScheduleFields = {
      name: input.name ?? current!.name,
      selectors,
      full_refresh: input.full_refresh ?? current?.full_refresh ?? false,
      ...timing,
      missed_policy: input.missed_policy ?? current?.missed_policy ?? 'skip',
      paused,
      // A new, changed or resumed timing is due afresh from now.
      next_due_at: paused ? null : timingChanged ? firstDue(timing, new Date()) : current!.next_due_at,
    };
    return { fields, timingChanged };
  };

  return {
    async create(principal: Principal, input: ModelScheduleInput, context: RequestContext) {
      await authorize(principal, 'model:write', input.project_id);
      // A schedule runs models: whoever sets one up must be allowed to run them.
      await authorize(principal, 'model:run', input.project_id);
      const { fields } = await fieldsOf(input.project_id, input);
      const row = await writes.create(context, input.name, (trx) =>
        repository.insert(trx, {
          ...fields,
          project_id: input.project_id,
          created_by: principal.userId,
        }),
      );
      return presentModelSchedule(row);
    },

    ...guard.readers('model:read', (projectIds) => repository.list(db, projectIds), presentModelSchedule),

    async update(principal: Principal, id: string, patch: ModelSchedulePatch, context: RequestContext) {
      const current = await guard.find(principal, id, 'model:write');
      await authorize(principal, 'model:run', current.project_id);
      const { fields: all, timingChanged } = await fieldsOf(current.project_id, patch, current);
      // The next due time is the tick's to move; a change that leaves the timing alone leaves it too.
      const { next_due_at: _kept, ...untimed } = all;
      const fields = timingChanged ? all : untimed;
      const row = await writes.update(context, id, fields.name, patch, (trx) => repository.update(trx, id, fields));
      return presentModelSchedule(row);
    },

    async remove(principal: Principal, id: string, context: RequestContext) {
      const row = await guard.find(principal, id, 'model:write');
      await writes.remove(context, id, { name: row.name }, (trx) => repository.remove(trx, id));
    },

    /** One pass over the due schedules (called by the leader); the number handled. */
    async tick(now = new Date()): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const due = await repository.claimDue(trx, TICK_BATCH);
        for (const schedule of due) {
          if (schedule.paused || !schedule.next_due_at) {
            await repository.fired(trx, schedule.id, null, undefined);
            continue;
          }
          const firing = fire(schedule, schedule.missed_policy, schedule.next_due_at, now, deps.graceMs);
          let outcome: 'enqueued' | 'missed' | 'skipped_running' = 'missed';
          let executionId: string | undefined;
          const previous = schedule.last_execution_id ? await deps.executions.find(schedule.last_execution_id) : null;
          if (firing.run && (previous?.status === 'queued' || previous?.status === 'running'))
            outcome = 'skipped_running';
          else if (firing.run)
            try {
              // In a savepoint: a schedule whose run cannot start (its selection now selects nothing)
              // must not hold up the others.
              const started = await savepoint(trx, (tx) =>
                deps.models.startRun(
                  tx,
                  {
                    projectId: schedule.project_id,
                    select: schedule.selectors,
                    fullRefresh: schedule.full_refresh,
                    createdBy: schedule.created_by,
                    trigger: 'schedule',
                  },
                  SYSTEM_CONTEXT,
                ),
              );
              outcome = 'enqueued';
              executionId = started.id;
            } catch (error) {
              deps.log('error', 'a model schedule could not start its run; due time missed', {
                schedule_id: schedule.id,
                err: { message: (error as Error).message },
              });
            }
          await repository.fired(trx, schedule.id, firing.next, executionId);
          deps.firings?.inc({ outcome }, 1);
          if (firing.missedBefore > 0) deps.firings?.inc({ outcome: 'missed' }, firing.missedBefore);
          const fields = {
            schedule_id: schedule.id,
            due_at: firing.dueAt.toISOString(),
            missed_before: firing.missedBefore,
            execution_id: executionId ?? null,
          };
          if (outcome === 'enqueued') deps.log('info', 'model schedule fired', fields);
          else
            deps.log(
              'warn',
              outcome === 'missed'
                ? 'model schedule due time missed'
                : 'model schedule due while its previous run was still going; skipped',
              fields,
            );
        }
        return due.length;
      });
    },
  };
}
