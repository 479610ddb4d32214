/**
 * Streams: a broker source consumed continuously into a destination table, started and stopped by
 * request and consumed by the worker that holds the stream's lease (consumers.ts). Runs, dead
 * letters and the live status are read here with the same per-project check as the stream itself.
 */
import { lagHistory } from '../lag-samples.js';
import { connectorFor, validateSteps, type ConnectorDefinition, type TransformStep } from '@svc/engine';
import type { Principal } from '../../../platform/authn.js';
import { resourceGuard, type Authorize } from '../../../platform/authz.js';
import { onUniqueViolation, type Db } from '../../../platform/db/index.js';
import { conflict, notFound, validationFailed, type FieldError } from '../../../platform/errors/index.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { AuditService } from '../../audit/service.js';
import type {
  DeadLetterRow,
  DeadLetterTarget,
  StreamFormat,
  StreamRow,
  StreamRunRow,
  StreamSource,
  StreamsRepository,
} from './repository.js';

export const STREAM = 'Stream';
const streamNameTaken = (name: string) => conflict(`A stream named "${name}" already exists in this project`);

/** Destinations that can write messages exactly once (a ledger in the same transaction). */
export const SINK_KINDS = ['postgres', 'warehouse'];

export interface StreamInput {
  project_id: string;
  environment_id?: string | null;
  name: string;
  source_connector_id: string;
  source: Partial<StreamSource> & { name: string };
  format?: StreamFormat;
  destination_connector_id: string;
  table: string;
  write_mode?: 'append' | 'upsert';
  key_columns?: string[];
  batch?: { max_rows?: number; max_latency_ms?: number };
  max_deliveries?: number;
  dead_letter?: DeadLetterTarget;
  transforms?: Array<{ type: string }>;
  start?: boolean;
}
export interface StreamUpdate {
  name?: string;
  format?: StreamFormat;
  batch?: { max_rows?: number; max_latency_ms?: number };
  max_deliveries?: number;
  dead_letter?: DeadLetterTarget;
  transforms?: Array<{ type: string }>;
}

/** Steps checked field by field by the engine: 422 naming `transforms.<i>.<field>`. */
const checkSteps = (steps: Array<{ type: string }> | undefined): TransformStep[] | undefined => {
  if (steps === undefined) return undefined;
  const problems = validateSteps(steps).map((p) => ({ path: `transforms.${p.path}`, message: p.message }));
  if (problems.length) throw validationFailed(problems);
  return steps as unknown as TransformStep[];
};

/** Whether a worker consumes the stream now (its lease is live). */
/** Sources whose broker takes dead letters: NATS subjects, RabbitMQ queues, Redis stream keys, MQTT topics. */
const DEAD_LETTER_BROKERS = ['nats', 'rabbitmq', 'redis_streams', 'mqtt'];

/** Whether an MQTT topic filter (with + and #) takes messages published to `topic`. */
export function topicMatches(filter: string, topic: string): boolean {
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length || (f[i] !== '+' && f[i] !== t[i])) return false;
  }
  return f.length === t.length;
}

/** Why a broker dead-letter target cannot be used with this source, if it cannot. */
function deadLetterProblems(kind: string, source: string, deadLetter: DeadLetterTarget | undefined): FieldError[] {
  if (deadLetter?.kind !== 'broker') return [];
  if (!DEAD_LETTER_BROKERS.includes(kind))
    return [{ path: 'dead_letter.kind', message: `a ${kind} source cannot publish dead letters` }];
  // A target the stream itself consumes would give it its dead letters again, for ever.
  if (kind === 'redis_streams' && deadLetter.target === source)
    return [{ path: 'dead_letter.target', message: 'is the stream key the stream reads' }];
  if (kind === 'mqtt' && /[+#]/.test(deadLetter.target))
    return [{ path: 'dead_letter.target', message: 'is a topic to publish to: no + or # wildcards' }];
  if (kind === 'mqtt' && topicMatches(source, deadLetter.target))
    return [{ path: 'dead_letter.target', message: `is within the topic filter the stream reads (${source})` }];
  return [];
}

const held = (row: Pick<StreamRow, 'lease_owner' | 'lease_expires_at'>) =>
  !!row.lease_owner && !!row.lease_expires_at && row.lease_expires_at > new Date();

export const consumerName = (row: Pick<StreamRow, 'id' | 'source'>) =>
  row.source.consumer ?? `svc_${row.id.replaceAll('-', '')}`;

export const presentStream = (row: StreamRow) => ({
  id: row.id,
  project_id: row.project_id,
  environment_id: row.environment_id,
  name: row.name,
  source_connector_id: row.source_connector_id,
  source: {
    name: row.source.name,
    filter: row.source.filter ?? null,
    consumer: consumerName(row),
    start: row.source.start,
    start_time: row.source.start_time ?? null,
    start_sequence: row.source.start_sequence ?? null,
  },
  format: { type: row.format.type, record_path: row.format.record_path ?? null },
  destination_connector_id: row.destination_connector_id,
  table: row.destination_table,
  write_mode: row.write_mode,
  key_columns: row.key_columns,
  batch: { max_rows: row.batch_max_rows, max_latency_ms: row.batch_max_latency_ms },
  max_deliveries: row.max_deliveries,
  dead_letter: row.dead_letter,
  transforms: row.transforms as unknown as Record<string, unknown>[],
  desired_state: row.desired_state,
  status: row.status,
  last_error: row.last_error,
  paused_at: row.paused_at?.toISOString() ?? null,
  consumer_worker:
    row.lease_owner && row.lease_expires_at && row.lease_expires_at > new Date() ? row.lease_owner : null,
  created_by: row.created_by,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export const presentRun = (row: StreamRunRow) => ({
  id: row.id,
  stream_id: row.stream_id,
  worker: row.worker,
  status: row.status,
  started_at: row.started_at.toISOString(),
  ended_at: row.ended_at?.toISOString() ?? null,
  messages_received: Number(row.messages_received),
  messages_written: Number(row.messages_written),
  rows_written: Number(row.rows_written),
  duplicates: Number(row.duplicates),
  dead_lettered: Number(row.dead_lettered),
  bytes: Number(row.bytes),
  lag_messages: row.lag_messages === null ? null : Number(row.lag_messages),
  latency_seconds: row.latency_seconds,
  last_message_at: row.last_message_at?.toISOString() ?? null,
  errors: row.errors,
  last_error: row.last_error,
});

export const presentDeadLetter = (row: DeadLetterRow) => ({
  id: String(row.id),
  stream_id: row.stream_id,
  message_id: row.message_id,
  subject: row.subject,
  payload: row.payload.subarray(0, 65_536).toString('utf8'),
  payload_bytes: row.payload.length,
  reason: row.reason,
  deliveries: row.deliveries,
  created_at: row.created_at.toISOString(),
  retry_requested_at: row.retry_requested_at?.toISOString() ?? null,
});

export type StreamsService = ReturnType<typeof createStreamsService>;

export function createStreamsService(deps: {
  db: Db;
  repository: StreamsRepository;
  authorize: Authorize;
  visibleProjects: (principal: Principal) => Promise<string[] | null>;
  environmentBelongs: (projectId: string, environmentId: string) => Promise<boolean>;
  audit: AuditService;
  connectors: {
    describe(principal: Principal, id: string): Promise<{ project_id: string; kind: string }>;
  };
}) {
  const { db, repository, authorize, audit } = deps;
  const guard = resourceGuard(deps, STREAM, (id) => repository.find(db, id), {
    inEnvironments: true,
    capabilities: ['stream:read', 'stream:write'],
  });

  const change = (
    id: string,
    changes: Parameters<StreamsRepository['update']>[2],
    context: RequestContext,
    kind: string,
  ) =>
    db.transaction().execute(async (trx) => {
      const row = await repository.update(trx, id, changes);
      if (!row) throw notFound(STREAM);
      await audit.record(context, { kind, target: { type: 'stream', id } }, trx);
      return presentStream(row);
    });

  /** The source's kind, checked against what each side must do; problems name the field. */
  const checkConnectors = async (principal: Principal, input: StreamInput): Promise<string> => {
    const problems: FieldError[] = [];
    let source: ConnectorDefinition | undefined;
    const facts = await deps.connectors.describe(principal, input.source_connector_id).catch(() => undefined);
    if (!facts || facts.project_id !== input.project_id)
      problems.push({ path: 'source_connector_id', message: 'is not a data connector of this project' });
    else {
      source = connectorFor(facts.kind);
      if (!source?.capabilities.stream)
        problems.push({
          path: 'source_connector_id',
          message: `a ${facts.kind} connector is not a message broker (nats, rabbitmq, redis_streams, mqtt can be streamed)`,
        });
    }
    const destination = await deps.connectors
      .describe(principal, input.destination_connector_id)
      .catch(() => undefined);
    if (!destination || destination.project_id !== input.project_id)
      problems.push({ path: 'destination_connector_id', message: 'is not a data connector of this project' });
    else if (!SINK_KINDS.includes(destination.kind))
      problems.push({
        path: 'destination_connector_id',
        message: `a ${destination.kind} connector cannot take streams (${SINK_KINDS.join(', ')} can)`,
      });
    const starts = source?.capabilities.stream?.starts;
    const start = input.source.start ?? starts?.[0] ?? 'all';
    if (starts && !starts.includes(start))
      problems.push({ path: 'source.start', message: `${source!.kind} supports ${starts.join(', ')}` });
    if (start === 'from_time' && !input.source.start_time)
      problems.push({ path: 'source.start_time', message: 'is required with start from_time' });
    if (start === 'from_sequence' && !input.source.start_sequence)
      problems.push({ path: 'source.start_sequence', message: 'is required with start from_sequence' });
    if (input.source.filter !== undefined && source && source.kind !== 'nats')
      problems.push({ path: 'source.filter', message: `only NATS streams take a subject filter` });
    if ((input.write_mode ?? 'append') === 'upsert' && !input.key_columns?.length)
      problems.push({ path: 'key_columns', message: 'are required for upsert' });
    if (source) problems.push(...deadLetterProblems(source.kind, input.source.name, input.dead_letter));
    if (input.environment_id && !(await deps.environmentBelongs(input.project_id, input.environment_id)))
      problems.push({ path: 'environment_id', message: 'is not an environment of the project' });
    if (problems.length) throw validationFailed(problems);
    return starts?.[0] ?? 'all';
  };

  return {
    async create(principal: Principal, input: StreamInput, context: RequestContext) {
      await authorize(principal, 'stream:write', input.project_id, input.environment_id ?? null);
      const transforms = checkSteps(input.transforms) ?? [];
      const defaultStart = (await checkConnectors(principal, input)) as StreamSource['start'];
      const row = await onUniqueViolation(
        db.transaction().execute(async (trx) => {
          const created = await repository.insert(trx, {
            project_id: input.project_id,
            environment_id: input.environment_id ?? null,
            name: input.name,
            source_connector_id: input.source_connector_id,
            source: { ...input.source, start: input.source.start ?? defaultStart },
            format: input.format ?? { type: 'json' },
            destination_connector_id: input.destination_connector_id,
            destination_table: input.table,
            write_mode: input.write_mode ?? 'append',
            key_columns: input.key_columns ?? [],
            batch_max_rows: input.batch?.max_rows ?? 1000,
            batch_max_latency_ms: input.batch?.max_latency_ms ?? 500,
            max_deliveries: input.max_deliveries ?? 5,
            dead_letter: input.dead_letter ?? { kind: 'table' },
            transforms,
            desired_state: input.start ? 'running' : 'stopped',
            created_by: principal.userId,
          });
          await audit.record(
            context,
            { kind: 'stream_created', target: { type: 'stream', id: created.id }, details: { name: created.name } },
            trx,
          );
          return created;
        }),
        () => streamNameTaken(input.name),
      );
      return presentStream(row);
    },

    ...guard.readers('stream:read', (projectIds) => repository.list(db, projectIds), presentStream),

    async update(principal: Principal, id: string, input: StreamUpdate, context: RequestContext) {
      const row = await guard.find(principal, id, 'stream:write');
      const transforms = checkSteps(input.transforms);
      if (input.dead_letter?.kind === 'broker') {
        const facts = await deps.connectors.describe(principal, row.source_connector_id).catch(() => undefined);
        const problems = facts ? deadLetterProblems(facts.kind, row.source.name, input.dead_letter) : [];
        if (problems.length) throw validationFailed(problems);
      }
      // A running consumer takes the new settings at its next start.
      return onUniqueViolation(
        change(
          id,
          {
            ...(input.name !== undefined ? { name: input.name } : {}),
            ...(input.format ? { format: input.format } : {}),
            ...(input.batch?.max_rows !== undefined ? { batch_max_rows: input.batch.max_rows } : {}),
            ...(input.batch?.max_latency_ms !== undefined ? { batch_max_latency_ms: input.batch.max_latency_ms } : {}),
            ...(input.max_deliveries !== undefined ? { max_deliveries: input.max_deliveries } : {}),
            ...(input.dead_letter ? { dead_letter: input.dead_letter } : {}),
            ...(transforms ? { transforms } : {}),
          },
          context,
          'stream_updated',
        ),
        () => streamNameTaken(input.name ?? ''),
      );
    },

    async start(principal: Principal, id: string, context: RequestContext) {
      const row = await guard.find(principal, id, 'stream:write');
      const started = await change(
        id,
        {
          desired_state: 'running',
          paused_at: null,
          ...(row.desired_state === 'running' && row.status !== 'failed' && !row.paused_at
            ? {}
            : { status: 'starting', last_error: null }),
        },
        context,
        'stream_started',
      );
      await repository.clearBackoff(db, id);
      return started;
    },

    async stop(principal: Principal, id: string, context: RequestContext) {
      await guard.find(principal, id, 'stream:write');
      const row = await repository.find(db, id);
      // Without a live consumer nobody else will say it stopped.
      return change(
        id,
        { desired_state: 'stopped', paused_at: null, ...(row && !held(row) ? { status: 'stopped' } : {}) },
        context,
        'stream_stopped',
      );
    },

    /** The consumer keeps the stream (lease, broker connection, run) and takes no messages until start. */
    async pause(principal: Principal, id: string, context: RequestContext) {
      const row = await guard.find(principal, id, 'stream:write');
      if (row.desired_state !== 'running') throw conflict('Only a started stream can be paused');
      if (row.paused_at) return presentStream(row);
      return change(
        id,
        { paused_at: new Date(), ...(!held(row) ? { status: 'paused', last_error: null } : {}) },
        context,
        'stream_paused',
      );
    },

    async remove(principal: Principal, id: string, context: RequestContext) {
      const row = await guard.find(principal, id, 'stream:write');
      await db.transaction().execute(async (trx) => {
        await repository.remove(trx, id);
        await audit.record(
          context,
          { kind: 'stream_deleted', target: { type: 'stream', id }, details: { name: row.name } },
          trx,
        );
      });
    },

    /** The lag samples of the last hour, oldest first (the leader records them). */
    async lagHistory(principal: Principal, id: string) {
      await guard.find(principal, id, 'stream:read');
      return lagHistory(db, 'stream', id);
    },

    async runs(principal: Principal, id: string, limit: number) {
      await guard.find(principal, id, 'stream:read');
      return (await repository.runs(db, id, limit)).map(presentRun);
    },

    async deadLetters(principal: Principal, id: string, limit: number) {
      await guard.find(principal, id, 'stream:read');
      return (await repository.deadLetters(db, id, limit)).map(presentDeadLetter);
    },

    /** The consumer writes the message again (same checks as any message); if it fails again it stays here with the new reason. */
    async retryDeadLetter(principal: Principal, id: string, deadLetterId: string, context: RequestContext) {
      await guard.find(principal, id, 'stream:write');
      const row = await repository.requestRetry(db, id, deadLetterId);
      if (!row) throw notFound('Dead letter');
      await audit.record(context, { kind: 'stream_dead_letter_retried', target: { type: 'stream', id } });
      return presentDeadLetter(row);
    },

    /** For the live status: checks access, then the stream and its latest run. */
    async status(principal: Principal, id: string) {
      const row = await guard.find(principal, id, 'stream:read');
      return { row, runs: await repository.runs(db, id, 1) };
    },

    /** Whether an open status stream may go on (its credential was checked again by the stream). */
    async authorizeStatus(principal: Principal, row: StreamRow) {
      await authorize(principal, 'stream:read', row.project_id, row.environment_id);
    },

    /** The state sent to live status readers. */
    async snapshot(id: string) {
      const row = await repository.find(db, id);
      if (!row) return undefined;
      const [run] = await repository.runs(db, id, 1);
      return { row, run };
    },
  };
}
