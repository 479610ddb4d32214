/** Connectivity: data connectors (and, with the sync issue, the runs that use them). */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../../platform/authn.js';
import type { Authorize } from '../../platform/authz.js';
import { egressPolicyFrom } from '../../platform/egress.js';
import type { Platform } from '../../platform/runtime.js';
import { resolveSecretBox } from '../../platform/secrets.js';
import type { AuditService } from '../audit/service.js';
import type { CatalogService } from '../governance/catalog/service.js';
import { createConnectorsRepository } from './repository.js';
import { connectorRoutes } from './routes.js';
import { createConnectorsService } from './service.js';
import { DEFAULT_SCHEMA, ensureWarehouse, type ProjectWarehouse } from './warehouse.js';

async function filesRoot(config: Platform['config']): Promise<string> {
  const root = path.resolve(config.files.root ?? path.join(config.dataDir, 'files'));
  await mkdir(root, { recursive: true });
  return root;
}

export async function createConnectivityArea(
  platform: Platform,
  deps: {
    audit: AuditService;
    catalog: CatalogService;
    authorize: Authorize;
    visibleProjects: (principal: Principal) => Promise<string[] | null>;
    environmentBelongs: (projectId: string, environmentId: string) => Promise<boolean>;
  },
) {
  const logger = platform.logger.child({ area: 'connectivity' });
  const { config } = platform;
  const box = await resolveSecretBox(config);
  const warehouse = await ensureWarehouse(
    platform.framework.connection,
    {
      database: config.db.warehouseDatabase,
      statementTimeoutMs: config.db.warehouseStatementTimeoutMs,
      connectionsPerProject: config.db.warehouseConnectionsPerProject,
      passwordKey: box.derive('warehouse role passwords'),
      embedded: !config.db.url,
    },
    logger,
  );
  const root = await filesRoot(config);
  const repository = createConnectorsRepository();
  const service = createConnectorsService({
    db: platform.framework.db,
    filesRoot: root,
    warehouse,
    repository,
    box,
    egress: egressPolicyFrom(config),
    maxResponseBytes: config.connectors.httpMaxResponseBytes,
    logger,
    ...deps,
  });
  return {
    service,
    /** A project's folder of the files root (created when missing): the only place its files are written. */
    async projectFolder(projectId: string) {
      const folder = path.join(root, projectId);
      await mkdir(folder, { recursive: true });
      return folder;
    },
    /** How to connect as the project's own warehouse role to its schema `schema`; undefined when the warehouse is unavailable. */
    projectWarehouse: (projectId: string, schema: string = DEFAULT_SCHEMA) => warehouse?.forProject(projectId, schema),
    /** The built-in warehouse (each project its own role and schemas), for the areas that run SQL in it; undefined when unavailable. */
    warehouse,
    /**
     * A project's warehouse schema `schema` and how to connect to it as the project's own role
     * (undefined when the instance has no warehouse), for work on the project's data outside a connector.
     */
    warehouseFor: (projectId: string, schema: string): Promise<ProjectWarehouse> | undefined =>
      warehouse?.forProject(projectId, schema),
    /**
     * Where a connector's data lives (its kind and plain config; for the built-in warehouse, the
     * server, database and the project's schema), for naming its datasets in lineage.
     */
    async locate(id: string) {
      const row = await repository.find(platform.framework.db, id);
      if (!row) return undefined;
      if (row.kind === 'warehouse' && warehouse) {
        const schema = typeof row.config.schema === 'string' ? row.config.schema : DEFAULT_SCHEMA;
        const { connection, schema: actual } = await warehouse.forProject(row.project_id, schema);
        return {
          kind: row.kind,
          config: row.config,
          warehouse: {
            host: connection.host,
            port: connection.port ?? 5432,
            database: connection.database,
            schema: actual,
          },
        };
      }
      return { kind: row.kind, config: row.config };
    },
    /** Connectors per project, for the overview. */
    countByProject: (projectIds: string[]) => repository.countByProject(platform.framework.db, projectIds),
    /** A deleted project's warehouse role and schemas, and its folder of the files root, go with it. */
    async removeProjectData(projectId: string) {
      try {
        await warehouse?.dropProject(projectId);
        await rm(path.join(root, projectId), { recursive: true, force: true });
      } catch (error) {
        logger.error(
          { err: { message: (error as Error).message }, project_id: projectId },
          "removing a deleted project's warehouse schemas or files failed",
        );
      }
    },
    async routes(app: FastifyInstance) {
      await app.register(connectorRoutes, { service });
    },
  };
}
