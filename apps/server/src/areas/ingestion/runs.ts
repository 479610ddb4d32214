/**
 * What file ingestions, e-mail feeds and inboxes share: the checks of the destination table they
 * load into, and how a run of one of them starts (an execution whose subject is the resource).
 */
import type { Principal } from '../../platform/authn.js';
import { resourceGuard, type ProjectAccess, type ProjectResource } from '../../platform/authz.js';
import type { Db } from '../../platform/db/index.js';
import type { FieldError } from '../../platform/errors/index.js';
import type { RequestContext } from '../../platform/request-context.js';
import type { ExecutionsService, RunSpec } from '../operations/executions/service.js';
import type { ConnectorDescription } from './file-ingestions/service.js';

export interface LoadDestination {
  connector_id: string;
  mode: string;
  key_columns?: string[];
}

/**
 * The problems of a destination: a writable data connector of the project, in a mode it writes
 * (`checkMode`: the kinds whose modes the connector may not all write), with key columns for upsert.
 */
export async function destinationProblems(
  connectors: { describe(principal: Principal, id: string): Promise<ConnectorDescription> },
  principal: Principal,
  projectId: string,
  destination: LoadDestination,
  options: { checkMode: boolean },
): Promise<FieldError[]> {
  const problems: FieldError[] = [];
  const facts = await connectors.describe(principal, destination.connector_id).catch(() => undefined);
  if (!facts || facts.project_id !== projectId)
    problems.push({ path: 'destination.connector_id', message: 'is not a data connector of this project' });
  else if (facts.capabilities && !facts.capabilities.write)
    problems.push({ path: 'destination.connector_id', message: `a ${facts.kind} connector cannot be written` });
  else if (options.checkMode && facts.capabilities && !facts.capabilities.writeModes.includes(destination.mode))
    problems.push({ path: 'destination.mode', message: `a ${facts.kind} connector does not write in this mode` });
  if (destination.mode === 'upsert' && !destination.key_columns?.length)
    problems.push({ path: 'destination.key_columns', message: 'is required for upsert' });
  return problems;
}

interface IngestionRow {
  id: string;
  project_id: string;
  name: string;
}

/**
 * Starts runs of `kind` in the caller's transaction: the run's params are the resource's own
 * (`identify`), the resource as its subject (lineage names the run's job after it), then `params`.
 */
export const runStarter =
  <Row extends IngestionRow, Params extends object>(
    executions: Pick<ExecutionsService, 'startRun'>,
    kind: RunSpec['kind'],
    identify: (row: Row) => Record<string, string>,
  ) =>
  (trx: Db, row: Row, params: Params, principal: Principal | null, context: RequestContext) =>
    executions.startRun(
      trx,
      {
        projectId: row.project_id,
        kind,
        params: { ...identify(row), subject_id: row.id, ...params },
        createdBy: principal?.userId ?? null,
      },
      context,
    );

/** The authorization of an ingestion resource: read, changed and run with the ingestion capabilities. */
export const ingestionGuard = <Row extends ProjectResource>(
  access: ProjectAccess,
  label: string,
  load: (id: string) => Promise<Row | undefined>,
) => resourceGuard(access, label, load, { capabilities: ['ingestion:read', 'ingestion:write', 'ingestion:run'] });
