/**
 * Fires due schedules. Every API and worker process may run one: each tick claims due schedules with
 * FOR UPDATE SKIP LOCKED and, in the same transaction, enqueues the run, records the due time
 * (primary key: schedule and due time) and moves the schedule to its next due time. A due time is
 * therefore handled exactly once whatever the number of schedulers, and a scheduler that dies
 * mid-transaction leaves the schedule due for the next one.
 */
import type { Logger } from 'pino';
import type { Counter } from 'prom-client';
import { savepoint, type Db } from '../../../platform/db/index.js';
import { SYSTEM_CONTEXT } from '../../../platform/request-context.js';
import { PipelineBusy, type ExecutionsService } from '../../operations/executions/service.js';
import type { PipelinesRepository } from '../pipelines/repository.js';
import { runParamsOf } from '../pipelines/service.js';
import type { SchedulesRepository } from './repository.js';
import { fire } from '../../../platform/schedule-timing.js';

const BATCH = 20;

export interface Scheduler {
  /** One pass over the due schedules; the number of due times handled. */
  tick(): Promise<number>;
  stop(): Promise<void>;
}

export function startScheduler(deps: {
  db: Db;
  repository: SchedulesRepository;
  pipelines: PipelinesRepository;
  executions: ExecutionsService;
  logger: Logger;
  tickMs: number;
  graceMs: number;
  firings?: Counter<'outcome'>;
  /** Only `tick()` when called (tests); no timer. */
  manual?: boolean;
}): Scheduler {
  const { db, repository, logger } = deps;
  let stopped = false;
  let running: Promise<number> | undefined;

  const tickOnce = async (): Promise<number> =>
    db.transaction().execute(async (trx) => {
      const due = await repository.claimDue(trx, BATCH);
      const now = new Date();
      for (const schedule of due) {
        const firing = fire(schedule, schedule.missed_policy, schedule.next_due_at, now, deps.graceMs);
        let outcome: 'enqueued' | 'missed' | 'skipped_running' = 'missed';
        let executionId: string | null = null;
        const pipeline = firing.run ? await deps.pipelines.find(trx, schedule.pipeline_id) : undefined;
        if (pipeline) {
          try {
            // In a savepoint: a schedule that cannot start its run must not hold up the others.
            const execution = await savepoint(trx, (tx) =>
              deps.executions.startRun(
                tx,
                {
                  projectId: pipeline.project_id,
                  kind: 'pipeline',
                  params: { ...runParamsOf(pipeline), due_at: firing.dueAt.toISOString() },
                  createdBy: schedule.created_by,
                  pipelineId: pipeline.id,
                  scheduleId: schedule.id,
                  trigger: 'schedule',
                },
                SYSTEM_CONTEXT,
              ),
            );
            outcome = 'enqueued';
            executionId = execution.id;
          } catch (error) {
            if (error instanceof PipelineBusy) outcome = 'skipped_running';
            else
              logger.error(
                { err: { message: (error as Error).message }, schedule_id: schedule.id },
                'schedule could not start its run; due time missed',
              );
          }
        }
        await repository.recordFiring(trx, {
          schedule_id: schedule.id,
          due_at: firing.dueAt,
          outcome,
          missed_before: firing.missedBefore,
          execution_id: executionId,
        });
        await repository.update(trx, schedule.id, { next_due_at: firing.next });
        deps.firings?.inc({ outcome }, 1);
        if (firing.missedBefore > 0) deps.firings?.inc({ outcome: 'missed' }, firing.missedBefore);
        const fields = {
          schedule_id: schedule.id,
          pipeline_id: schedule.pipeline_id,
          due_at: firing.dueAt.toISOString(),
          missed_before: firing.missedBefore,
          execution_id: executionId,
        };
        if (outcome === 'enqueued') logger.info(fields, 'schedule fired');
        else
          logger.warn(
            fields,
            outcome === 'missed'
              ? 'schedule due time missed'
              : 'schedule due while the pipeline was still running; skipped',
          );
      }
      return due.length;
    });

  const tick = async () => {
    if (running) return running;
    running = tickOnce().finally(() => (running = undefined));
    return running;
  };

  let timer: NodeJS.Timeout | undefined;
  const loop = () => {
    if (stopped) return;
    tick()
      .then((handled) => {
        // A full batch: more may be due; go again at once.
        timer = setTimeout(loop, handled >= BATCH ? 0 : deps.tickMs);
      })
      .catch((error: Error) => {
        logger.warn({ err: { message: error.message } }, 'scheduler tick failed');
        timer = setTimeout(loop, deps.tickMs);
      });
  };
  if (!deps.manual) timer = setTimeout(loop, deps.tickMs);

  return {
    tick,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}
