/**
 * Data connectors: a kind (a connector of the engine) and its configuration, in a project. Fields the
 * kind's spec marks secret are write-only: encrypted at rest, never returned (responses list their
 * names in `secrets_set`), kept by a PATCH that leaves them out. A connector is created at its kind's
 * latest version and keeps it: it is validated and opened with the definition of that version.
 */
import {
  ConnectorError,
  registry,
  secretFields,
  type ConnectorContext,
  type ConnectorDefinition,
  type DatasetSchema,
  type EgressPolicy,
  type Value,
} from '@svc/engine';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Principal } from '../../platform/authn.js';
import { resourceGuard, type Authorize } from '../../platform/authz.js';
import { onUniqueViolation, type Db } from '../../platform/db/index.js';
import { notFound, validationFailed, type FieldError } from '../../platform/errors/index.js';
import { SYSTEM_CONTEXT, type RequestContext } from '../../platform/request-context.js';
import type { SecretBox } from '../../platform/secrets.js';
import type { AuditService } from '../audit/service.js';
import type { CatalogService } from '../governance/catalog/service.js';
import type { ConnectorRow, ConnectorsRepository } from './repository.js';
import { DEFAULT_SCHEMA, type Warehouse } from './warehouse.js';
import { CONNECTOR, connectorNameTaken, discoveryFailed } from './errors.js';

const TEST_TIMEOUT_MS = 15_000;
const DISCOVER_TIMEOUT_MS = 60_000;

function fieldErrors(errors: ErrorObject[] | null | undefined): FieldError[] {
  return (errors ?? []).map((e) => {
    const missing = e.keyword === 'required' ? `.${(e.params as { missingProperty: string }).missingProperty}` : '';
    const extra =
      e.keyword === 'additionalProperties' ? `.${(e.params as { additionalProperty: string }).additionalProperty}` : '';
    return {
      path: `config${e.instancePath.replaceAll('/', '.')}${missing}${extra}`,
      message: e.message ?? 'is invalid',
    };
  });
}

async function withTimeout<T>(work: (signal: AbortSignal) => Promise<T>, ms: number, what: string): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work(controller.signal),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort(new Error(`${what} timed out`));
          reject(new Error(`${what} timed out after ${ms / 1000} s`));
        }, ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export interface ConnectorInput {
  project_id: string;
  environment_id?: string | null;
  name: string;
  kind: string;
  config: Record<string, unknown>;
}

export type ConnectorsService = ReturnType<typeof createConnectorsService>;

export function createConnectorsService(deps: {
  db: Db;
  repository: ConnectorsRepository;
  box: SecretBox;
  /** Where connectors may connect (platform/egress.ts); the built-in warehouse is the service's own server and does not go through it. */
  egress: EgressPolicy;
  /** Bytes one HTTP response of a connector may have. */
  maxResponseBytes: number;
  authorize: Authorize;
  visibleProjects: (principal: Principal) => Promise<string[] | null>;
  environmentBelongs: (projectId: string, environmentId: string) => Promise<boolean>;
  catalog: CatalogService;
  audit: AuditService;
  logger: Logger;
  /** Absolute directory under which each project's `files` connectors are confined to the project's own folder. */
  filesRoot: string;
  /** The built-in warehouse (each project its own role and schemas); undefined when unavailable. */
  warehouse: Warehouse | undefined;
}) {
  const { db, repository, box, authorize, catalog, audit, logger } = deps;
  const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true });
  addFormats.default(ajv);
  const validators = new Map<ConnectorDefinition, ValidateFunction>();
  const validatorFor = (definition: ConnectorDefinition) => {
    let validate = validators.get(definition);
    if (!validate) {
      validate = ajv.compile(definition.spec);
      validators.set(definition, validate);
    }
    return validate;
  };

  /** The latest version of a kind: what a new connector is created at. */
  const definitionOf = (kind: string) => {
    const definition = registry.connectorFor(kind);
    if (!definition)
      throw validationFailed([
        {
          path: 'kind',
          message: `unknown kind; one of ${registry
            .latest()
            .map((c) => c.kind)
            .join(', ')}`,
        },
      ]);
    return definition;
  };

  /** The definition a stored connector was created at. */
  const definitionOfRow = (row: ConnectorRow) => {
    const definition = registry.connectorFor(row.kind, row.version);
    if (!definition)
      throw new ConnectorError(
        'invalid_config',
        `version ${row.version} of the ${row.kind} connector is not available on this instance`,
        false,
      );
    return definition;
  };

  /** A project's own folder of the files root: the only place its `files` connectors read and write. */
  const projectFolder = (projectId: string) => path.join(deps.filesRoot, projectId);
  const insideFolder = (folder: string, target: string) =>
    target === folder || target.startsWith(`${folder}${path.sep}`);

  /** Validates a whole configuration and splits it into plain fields and encrypted secrets. */
  const seal = (definition: ConnectorDefinition, config: Record<string, unknown>, projectId: string) => {
    const { kind } = definition;
    const candidate = structuredClone(config);
    const validate = validatorFor(definition);
    if (!validate(candidate)) throw validationFailed(fieldErrors(validate.errors));
    if (kind === 'files') {
      // A files connector reads and writes the server's disk: only inside its project's folder.
      const folder = projectFolder(projectId);
      const resolved = path.resolve(folder, String(candidate['path'] ?? ''));
      if (!insideFolder(folder, resolved)) {
        throw validationFailed([
          {
            path: 'config.path',
            message: `must be inside the project's folder of the files root (${folder}; SVC_FILES_ROOT/<project id>)`,
          },
        ]);
      }
      candidate['path'] = resolved;
    }
    const secrets = new Set(secretFields(definition.spec));
    const plain: Record<string, unknown> = {};
    const sealed: Record<string, string> = {};
    for (const [field, value] of Object.entries(candidate)) {
      if (secrets.has(field)) {
        if (value !== undefined && value !== null && value !== '') sealed[field] = box.encrypt(JSON.stringify(value));
      } else {
        plain[field] = value;
      }
    }
    return { plain, sealed };
  };

  const unseal = (row: ConnectorRow): Record<string, unknown> => {
    const config: Record<string, unknown> = { ...row.config };
    for (const [field, ciphertext] of Object.entries(row.secrets)) config[field] = JSON.parse(box.decrypt(ciphertext));
    return config;
  };

  const present = (row: ConnectorRow) => ({
    id: row.id,
    project_id: row.project_id,
    environment_id: row.environment_id,
    name: row.name,
    kind: row.kind,
    config: row.config,
    secrets_set: Object.keys(row.secrets).sort(),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  });

  // One check for a connector and the list of connectors (connectors may be placed in an environment).
  const guard = resourceGuard(deps, CONNECTOR, (id) => repository.find(db, id), {
    inEnvironments: true,
    capabilities: ['connector:read', 'connector:write'],
  });

  const checkEnvironment = async (projectId: string, environmentId: string | null | undefined) => {
    if (environmentId && !(await deps.environmentBelongs(projectId, environmentId))) {
      throw validationFailed([{ path: 'environment_id', message: 'is not an environment of the project' }]);
    }
  };

  /** The stored configuration plus what the host injects: the warehouse tenant, the files folder. */
  const runtimeConfig = async (row: ConnectorRow): Promise<Record<string, unknown>> => {
    const config = unseal(row);
    if (row.kind === 'warehouse') {
      if (!deps.warehouse)
        throw new ConnectorError(
          'invalid_config',
          'the built-in warehouse is unavailable on this instance (see the startup log)',
          false,
        );
      return {
        ...config,
        tenant: await deps.warehouse.forProject(row.project_id, String(config['schema'] ?? DEFAULT_SCHEMA)),
      };
    }
    if (row.kind === 'files') {
      // A path stored before folders were per project, or a root moved since: refused, never followed.
      const folder = projectFolder(row.project_id);
      if (!insideFolder(folder, String(config['path']))) {
        throw new ConnectorError(
          'invalid_config',
          `the directory is outside the project's folder of the files root (${folder}); set config.path again`,
          false,
        );
      }
      await mkdir(folder, { recursive: true });
      return { ...config, confineTo: folder };
    }
    return config;
  };

  const openRow = async (row: ConnectorRow, log: ConnectorContext['log']) =>
    definitionOfRow(row).open(await runtimeConfig(row), {
      log,
      egress: deps.egress,
      maxResponseBytes: deps.maxResponseBytes,
    });

  const open = (row: ConnectorRow) =>
    openRow(row, (level, message, fields) =>
      logger[level]({ connector_id: row.id, kind: row.kind, ...fields }, message),
    );

  /** The datasets the connector's source has now; a failure is named for the user. */
  const discoverRow = async (row: ConnectorRow): Promise<DatasetSchema[]> => {
    let handle: Awaited<ReturnType<typeof open>> | undefined;
    try {
      handle = await open(row);
      const opened = handle;
      return await withTimeout((signal) => opened.discover(signal), DISCOVER_TIMEOUT_MS, 'discovery');
    } catch (error) {
      // The source refused or failed: a problem of the configuration or the source, named for the user.
      const code = error instanceof ConnectorError ? error.code : 'failed';
      throw discoveryFailed(code, (error as Error).message);
    } finally {
      await handle?.close();
    }
  };

  const recordDiscovery = async (row: ConnectorRow, datasets: DatasetSchema[], context: RequestContext) => {
    await db.transaction().execute(async (trx) => {
      await catalog.recordDiscovery(trx, row, datasets);
      await audit.record(
        context,
        {
          kind: 'data_connector_discovered',
          target: { type: 'data_connector', id: row.id },
          details: { datasets: datasets.length },
        },
        trx,
      );
    });
  };

  return {
    /** For runs (no principal: the execution was authorized when it was created). */
    async openForRun(id: string, log: ConnectorContext['log']) {
      const row = await repository.find(db, id);
      if (!row) throw new ConnectorError('not_found', `data connector ${id} no longer exists`, false);
      return openRow(row, log);
    },

    /**
     * For runs that use a connector's login themselves (a file ingestion's SFTP source): its kind,
     * project and configuration with the secrets decrypted. Never for a response.
     */
    async configForRun(id: string) {
      const row = await repository.find(db, id);
      if (!row) throw new ConnectorError('not_found', `data connector ${id} no longer exists`, false);
      return { kind: row.kind, project_id: row.project_id, config: await runtimeConfig(row) };
    },

    /**
     * For CDC readers, which open the connector again in their capture thread: its kind, version and
     * configuration with the secrets decrypted. Never for a response.
     */
    async captureEndpoint(id: string) {
      const row = await repository.find(db, id);
      if (!row) throw new ConnectorError('not_found', `data connector ${id} no longer exists`, false);
      return { kind: row.kind, version: row.version, config: await runtimeConfig(row) };
    },

    /** Project, kind and capabilities of a connector the principal may read (what a pipeline checks when it names one). */
    async describe(principal: Principal, id: string) {
      const row = await guard.find(principal, id, 'connector:read');
      const definition = definitionOfRow(row);
      return {
        id: row.id,
        project_id: row.project_id,
        name: row.name,
        kind: row.kind,
        capabilities: definition.capabilities,
        sql: row.kind === 'postgres' || row.kind === 'warehouse',
      };
    },

    /** The project of a connector the principal may read. */
    async projectOf(principal: Principal, id: string): Promise<string> {
      return (await guard.find(principal, id, 'connector:read')).project_id;
    },

    /** The latest version of each kind; `spec` as plain JSON Schema (the TypeBox declaration's own keys only). */
    kinds() {
      return registry.latest().map((c) => ({
        kind: c.kind,
        title: c.title,
        version: c.version,
        spec: { ...c.spec },
        capabilities: c.capabilities,
        secret_fields: secretFields(c.spec),
      }));
    },

    ...guard.readers('connector:read', (projectIds) => repository.list(db, projectIds), present),

    async create(principal: Principal, input: ConnectorInput, context: RequestContext) {
      await authorize(principal, 'connector:write', input.project_id, input.environment_id ?? null);
      if (input.kind === 'warehouse' && !deps.warehouse) {
        throw validationFailed([
          { path: 'kind', message: 'the built-in warehouse is unavailable on this instance (see the startup log)' },
        ]);
      }
      await checkEnvironment(input.project_id, input.environment_id);
      const definition = definitionOf(input.kind);
      const { plain, sealed } = seal(definition, input.config, input.project_id);
      return onUniqueViolation(
        db.transaction().execute(async (trx) => {
          const row = await repository.insert(trx, {
            project_id: input.project_id,
            environment_id: input.environment_id ?? null,
            name: input.name,
            kind: input.kind,
            version: definition.version,
            config: plain,
            secrets: sealed,
            created_by: principal.userId,
          });
          await audit.record(
            context,
            {
              kind: 'data_connector_created',
              target: { type: 'data_connector', id: row.id },
              details: { name: row.name, kind: row.kind, project_id: row.project_id },
            },
            trx,
          );
          return present(row);
        }),
        () => connectorNameTaken(input.name),
      );
    },

    async update(
      principal: Principal,
      id: string,
      input: { name?: string; environment_id?: string | null; config?: Record<string, unknown> },
      context: RequestContext,
    ) {
      const row = await guard.find(principal, id, 'connector:write');
      if (input.environment_id !== undefined) {
        await authorize(principal, 'connector:write', row.project_id, input.environment_id);
        await checkEnvironment(row.project_id, input.environment_id);
      }
      const changes: Parameters<ConnectorsRepository['update']>[2] = {};
      if (input.name !== undefined) changes.name = input.name;
      if (input.environment_id !== undefined) changes.environment_id = input.environment_id;
      if (input.config) {
        // Fields left out keep their value, secrets included; a field set to null is removed.
        const merged: Record<string, unknown> = { ...unseal(row), ...input.config };
        for (const [field, value] of Object.entries(merged)) if (value === null) delete merged[field];
        const { plain, sealed } = seal(definitionOfRow(row), merged, row.project_id);
        changes.config = plain;
        changes.secrets = sealed;
      }
      return onUniqueViolation(
        db.transaction().execute(async (trx) => {
          const updated = await repository.update(trx, id, changes);
          if (!updated) throw notFound(CONNECTOR);
          await audit.record(
            context,
            {
              kind: 'data_connector_changed',
              target: { type: 'data_connector', id },
              details: { fields: Object.keys(input), config_fields: Object.keys(input.config ?? {}) },
            },
            trx,
          );
          return present(updated);
        }),
        () => connectorNameTaken(input.name ?? row.name),
      );
    },

    async remove(principal: Principal, id: string, context: RequestContext) {
      await guard.find(principal, id, 'connector:write');
      await db.transaction().execute(async (trx) => {
        await repository.remove(trx, id);
        await audit.record(context, { kind: 'data_connector_deleted', target: { type: 'data_connector', id } }, trx);
      });
    },

    /** Connects with the stored configuration; a failure is an answer naming its cause, not an error. */
    async test(principal: Principal, id: string) {
      const row = await guard.find(principal, id, 'connector:read');
      const started = Date.now();
      let handle: Awaited<ReturnType<typeof open>>;
      try {
        handle = await open(row);
      } catch (error) {
        if (!(error instanceof ConnectorError)) throw error;
        return { ok: false as const, code: error.code, message: error.message, duration_ms: Date.now() - started };
      }
      try {
        const result = await withTimeout((signal) => handle.check(signal), TEST_TIMEOUT_MS, 'connection test').catch(
          (error: Error) => ({
            ok: false as const,
            code: 'timeout' as const,
            message: error.message,
          }),
        );
        return { ...result, duration_ms: Date.now() - started };
      } finally {
        await handle.close();
      }
    },

    /**
     * The project's warehouse connectors on schema `schema` discovered again into the catalog, for
     * work that changed the schema's relations (a model run): acts for no one, audited as the system.
     */
    async refreshWarehouseCatalog(projectId: string, schema: string) {
      const rows = (await repository.list(db, [projectId])).filter(
        (row) =>
          row.kind === 'warehouse' &&
          (typeof row.config.schema === 'string' ? row.config.schema : DEFAULT_SCHEMA) === schema,
      );
      for (const row of rows) await recordDiscovery(row, await discoverRow(row), SYSTEM_CONTEXT);
      return rows.length;
    },

    /**
     * The first `rows` rows of a dataset, read through its connector (the catalog's classifier):
     * for no principal, the caller checked access to the dataset.
     */
    async sample(dataset: { connectorId: string; namespace: string | null; name: string }, rows: number) {
      const row = await repository.find(db, dataset.connectorId);
      if (!row) throw notFound(CONNECTOR);
      const handle = await open(row);
      try {
        if (!handle.read) throw discoveryFailed('unsupported', `a ${row.kind} connector cannot be read`);
        const columns: string[] = [];
        const values: Value[][] = [];
        const read = async (signal: AbortSignal) => {
          for await (const batch of handle.read!(
            { dataset: { namespace: dataset.namespace, name: dataset.name }, batchSize: rows },
            signal,
          )) {
            if (!columns.length) columns.push(...batch.columns.map((c) => c.name));
            values.push(...batch.rows.slice(0, rows - values.length));
            if (values.length >= rows) break;
          }
        };
        await withTimeout(read, DISCOVER_TIMEOUT_MS, 'sampling');
        return { columns, rows: values };
      } catch (error) {
        if (error instanceof ConnectorError) throw discoveryFailed(error.code, error.message);
        throw error;
      } finally {
        await handle.close();
      }
    },

    /** Discovers the datasets of the source and records them in the catalog. */
    async discover(principal: Principal, id: string, context: RequestContext) {
      const row = await guard.find(principal, id, 'connector:write');
      const datasets = await discoverRow(row);
      await recordDiscovery(row, datasets, context);
      return {
        datasets: datasets.map((d) => ({
          namespace: d.namespace,
          name: d.name,
          columns: d.columns.length,
          primary_key: d.primaryKey,
          row_estimate: d.rowEstimate,
        })),
      };
    },
  };
}
