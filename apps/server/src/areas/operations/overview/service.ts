/** GET /overview: per project, what it has, how its runs went in the last day, rows moved per day, and what is failing now. */
import type { Principal } from '../../../platform/authn.js';
import { projectsWith, type Authorize, type Capability, type VisibleProjects } from '../../../platform/authz.js';
import type { Db } from '../../../platform/db/index.js';
import type { OverviewRepository } from './repository.js';

const DAYS = 14;
const STATUSES = ['queued', 'running', 'succeeded', 'partially_failed', 'failed', 'cancelled'] as const;

export type OverviewService = ReturnType<typeof createOverviewService>;

/** What the overview reads of other areas, through their services (given once every area exists). */
export interface OverviewSources {
  /** Names of these projects (null: every project), ordered by name. */
  projects(projectIds: string[] | null): Promise<Array<{ id: string; name: string }>>;
  connectorCounts(projectIds: string[]): Promise<Map<string, number>>;
  pipelineCounts(projectIds: string[]): Promise<Map<string, number>>;
  scheduleCounts(projectIds: string[]): Promise<Map<string, number>>;
  cdcTableCounts(projectIds: string[]): Promise<Map<string, number>>;
  pipelines(projectIds: string[]): Promise<Array<{ id: string; project_id: string; name: string }>>;
}

export function createOverviewService(deps: {
  db: Db;
  repository: OverviewRepository;
  authorize: Authorize;
  visibleProjects: VisibleProjects;
  sources: () => OverviewSources;
}) {
  const { db, repository } = deps;

  /** Projects where the caller may read executions: the overview shows nothing of any other. */
  const projectsOf = async (principal: Principal, projectId?: string): Promise<string[]> => {
    if (projectId) {
      await deps.authorize(principal, 'execution:read', projectId);
      return [projectId];
    }
    return (
      (await projectsWith(deps, principal, 'execution:read')) ?? (await deps.sources().projects(null)).map((p) => p.id)
    );
  };

  /** Of these projects, those where the caller also holds `capability` (each count and list follows its kind's read check). */
  const alsoWith = async (principal: Principal, ids: string[], capability: Capability): Promise<string[]> => {
    const allowed = await projectsWith(deps, principal, capability);
    return allowed === null ? ids : ids.filter((id) => allowed.includes(id));
  };

  return {
    async overview(principal: Principal, projectId?: string) {
      const ids = await projectsOf(principal, projectId);
      const now = new Date();
      const firstDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (DAYS - 1)));
      const days = Array.from({ length: DAYS }, (_, i) =>
        new Date(firstDay.getTime() + i * 86_400_000).toISOString().slice(0, 10),
      );
      if (ids.length === 0) return { generated_at: now.toISOString(), days, projects: [] };
      const [withConnectors, withPipelines, withSchedules, withCdc] = [
        await alsoWith(principal, ids, 'connector:read'),
        await alsoWith(principal, ids, 'pipeline:read'),
        await alsoWith(principal, ids, 'schedule:read'),
        await alsoWith(principal, ids, 'cdc:read'),
      ];
      const sources = deps.sources();
      const [projects, connectors, pipelines, schedules, cdcTables, byStatus, perDay, readablePipelines] =
        await Promise.all([
          sources.projects(ids),
          sources.connectorCounts(withConnectors),
          sources.pipelineCounts(withPipelines),
          sources.scheduleCounts(withSchedules),
          sources.cdcTableCounts(withCdc),
          repository.executionsByStatus(db, ids),
          repository.rowsPerDay(db, ids, firstDay),
          sources.pipelines(withPipelines),
        ]);
      const pipelineById = new Map(readablePipelines.map((p) => [p.id, p]));
      const failing = (await repository.latestFailed(db, [...pipelineById.keys()])).map((run) => ({
        ...run,
        ...pipelineById.get(run.pipeline_id)!,
      }));
      // null: the caller may not read that kind in the project (not "none").
      const countIn = (counts: Map<string, number>, readable: string[], projectId: string) =>
        readable.includes(projectId) ? (counts.get(projectId) ?? 0) : null;
      return {
        generated_at: now.toISOString(),
        days,
        projects: projects.map((project) => ({
          project_id: project.id,
          project_name: project.name,
          counts: {
            connectors: countIn(connectors, withConnectors, project.id),
            pipelines: countIn(pipelines, withPipelines, project.id),
            cdc_tables: countIn(cdcTables, withCdc, project.id),
            schedules: countIn(schedules, withSchedules, project.id),
          },
          executions_24h: Object.fromEntries(
            STATUSES.map((status) => [
              status,
              Number(byStatus.find((r) => r.project_id === project.id && r.status === status)?.n ?? 0),
            ]),
          ) as Record<(typeof STATUSES)[number], number>,
          rows_per_day: days.map((day) => ({
            day,
            rows: Number(perDay.find((r) => r.project_id === project.id && r.day === day)?.rows ?? 0),
          })),
          failing: failing
            .filter((f) => f.project_id === project.id)
            .map((f) => ({
              type: 'pipeline' as const,
              id: f.pipeline_id,
              name: f.name,
              execution_id: f.execution_id,
              error: f.error,
              failed_at: f.finished_at?.toISOString() ?? null,
            })),
        })),
      };
    },
  };
}
