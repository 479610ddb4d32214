/** Modelling and AI: warehouse models (SQL models with dependencies and data tests, built in the project's warehouse) and AI providers. */
import type { FastifyInstance } from 'fastify';
import client from 'prom-client';
import type { ProjectAccess } from '../../platform/authz.js';
import { egressPolicyFrom } from '../../platform/egress.js';
import type { JobHandlers, JobQueue } from '../../platform/jobs.js';
import type { LeaderTask } from '../../platform/leader.js';
import type { Platform } from '../../platform/runtime.js';
import { resolveSecretBox } from '../../platform/secrets.js';
import type { AuditService } from '../audit/service.js';
import type { Warehouse } from '../connectivity/warehouse.js';
import type { CatalogService } from '../governance/catalog/service.js';
import type { LineageService } from '../governance/lineage/service.js';
import type { MaskingService } from '../governance/masking/service.js';
import type { RunRecorder } from '../operations/executions/recorder.js';
import type { ExecutionsService } from '../operations/executions/service.js';
import { createProvidersRepository } from './ai-providers/repository.js';
import { providerRoutes } from './ai-providers/routes.js';
import { createProvidersService } from './ai-providers/service.js';
import { createModelRunHandler } from './dw-models/model-run.job.js';
import { createModelsRepository } from './dw-models/repository.js';
import { modelRoutes, modelScheduleRoutes } from './dw-models/routes.js';
import { createModelSchedulesRepository } from './dw-models/schedule-repository.js';
import { createModelSchedulesService, TICK_BATCH } from './dw-models/schedules.js';
import { createModelsService } from './dw-models/service.js';

export async function createModellingArea(
  platform: Platform,
  deps: ProjectAccess & {
    audit: AuditService;
    executions: ExecutionsService;
    recorder: RunRecorder;
    queue: JobQueue;
    warehouse: Warehouse | undefined;
    catalog: CatalogService;
    masking: Pick<MaskingService, 'maskerFor' | 'warehousePlan'>;
    /** The project's warehouse connectors on a schema, discovered again into the catalog. */
    refreshCatalog(projectId: string, schema: string): Promise<number>;
    lineage: Pick<LineageService, 'recordRun'>;
  },
) {
  const db = platform.framework.db;
  const repository = createModelsRepository();
  const models = createModelsService({
    db,
    repository,
    authorize: deps.authorize,
    visibleProjects: deps.visibleProjects,
    audit: deps.audit,
    executions: deps.executions,
    warehouse: deps.warehouse,
    masking: deps.masking,
  });
  const registers = [platform.metrics.registry];
  const schedules = createModelSchedulesService({
    db,
    repository: createModelSchedulesRepository(),
    models,
    executions: deps.executions,
    authorize: deps.authorize,
    visibleProjects: deps.visibleProjects,
    audit: deps.audit,
    log: (level, message, fields) => platform.logger[level]({ area: 'modelling', ...fields }, message),
    graceMs: platform.config.scheduler.graceSeconds * 1000,
    firings: new client.Counter({
      name: 'svc_model_schedule_firings_total',
      help: 'Due times of schedules of model runs by outcome (enqueued, missed, skipped_running).',
      labelNames: ['outcome'] as const,
      registers,
    }),
  });
  const providers = createProvidersService({
    db,
    repository: createProvidersRepository(),
    models: repository,
    authorize: deps.authorize,
    visibleProjects: deps.visibleProjects,
    audit: deps.audit,
    box: await resolveSecretBox(platform.config),
    egress: egressPolicyFrom(platform.config),
    warehouse: deps.warehouse,
    catalog: deps.catalog,
    masking: deps.masking,
    logger: platform.logger.child({ area: 'modelling' }),
    metrics: {
      calls: new client.Counter({
        name: 'svc_ai_calls_total',
        help: 'Calls of AI providers, by purpose and outcome (ok, invalid_output, error, refused by our limits).',
        labelNames: ['purpose', 'status'] as const,
        registers,
      }),
      tokens: new client.Counter({
        name: 'svc_ai_tokens_total',
        help: 'Tokens AI providers reported for our calls, by direction (input, output).',
        labelNames: ['direction'] as const,
        registers,
      }),
    },
  });
  const builds = new client.Counter({
    name: 'svc_model_builds_total',
    help: 'Warehouse models handled by model runs, by outcome (success, error, skipped).',
    labelNames: ['status'] as const,
    registers,
  });
  const buildSeconds = new client.Histogram({
    name: 'svc_model_build_seconds',
    help: 'Time to build and test one warehouse model, by materialization.',
    labelNames: ['materialization'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers,
  });
  return {
    /** The warehouse models of the projects (id, project, name), for the scopes of alert rules. */
    modelNames: (projectIds: string[]) =>
      projectIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('dw_models')
            .select(['id', 'project_id', 'name'])
            .where('project_id', 'in', projectIds)
            .execute(),
    /** The run kinds this area executes (platform/job-kinds.ts). */
    jobHandlers: {
      model_run: createModelRunHandler({
        db,
        recorder: deps.recorder,
        queue: deps.queue,
        repository,
        warehouse: deps.warehouse,
        lineage: deps.lineage,
        refreshCatalog: deps.refreshCatalog,
        concurrency: platform.config.models.runConcurrency,
        builds,
        buildSeconds,
      }),
    } satisfies JobHandlers,
    /** Schedules of model runs fire from the leader, at the scheduler's tick. */
    leaderTasks: [
      {
        name: 'model schedules',
        intervalMs: platform.config.scheduler.tickMs,
        run: async () => {
          // A full batch: more may be due; go again at once.
          while ((await schedules.tick()) >= TICK_BATCH);
        },
      },
    ] satisfies LeaderTask[],
    async routes(app: FastifyInstance) {
      await app.register(modelScheduleRoutes, { service: schedules });
      await app.register(modelRoutes, { service: models });
      await app.register(providerRoutes, { service: providers });
    },
  };
}
