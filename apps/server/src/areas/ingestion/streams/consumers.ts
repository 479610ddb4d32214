/**
 * Consumes running streams in a worker process. Each stream that should run is claimed under a lease
 * (one consumer across all workers); the consumer renews it every third of its length and stops when
 * the lease is lost or the stream is stopped. A worker that dies stops renewing: another claims the
 * stream once the lease expires, and the broker redelivers what the dead one had not acknowledged
 * (the destination's ledger keeps what it had already committed from being written twice).
 *
 * Each claim is a run (stream_runs) with its counters; reports are written at most every 500 ms and
 * move the stream's event_seq, which the live status route sends as event ids.
 */
import type { ContinuousLineage } from '../../governance/lineage/service.js';
import {
  recordTransform,
  runStream,
  type BrokerMessage,
  type ConnectorHandle,
  type Log,
  type MessageSink,
  type MessageSource,
  type StreamProgress,
} from '@svc/engine';
import type { Logger } from 'pino';
import type { Counter } from 'prom-client';
import type { Db } from '../../../platform/db/index.js';
import { startLeasedLoop } from '../../../platform/leases.js';
import type { RunCounters, StreamRow, StreamsRepository } from './repository.js';
import { consumerName } from './service.js';

const isPermanent = (error: unknown) => (error as { retryable?: boolean }).retryable === false;
const RETRY_AFTER_MS = 5_000;
const REPORT_EVERY_MS = 500;
const LAG_EVERY_MS = 5_000;

export interface StreamConsumers {
  readonly owner: string;
  stop(): Promise<void>;
}

export interface StreamMetrics {
  messages: Counter<'stream' | 'outcome'>;
  bytes: Counter<'stream'>;
}

const zero = (): RunCounters => ({
  received: 0,
  written: 0,
  rows: 0,
  duplicates: 0,
  deadLettered: 0,
  bytes: 0,
  errors: 0,
});

export function startStreamConsumers(deps: {
  db: Db;
  repository: StreamsRepository;
  openConnector: (id: string, log: Log) => Promise<ConnectorHandle>;
  logger: Logger;
  leaseMs: number;
  ackWaitMs: number;
  maxStreams: number;
  metrics?: StreamMetrics;
  pollMs?: number;
  lineage?: ContinuousLineage;
}): StreamConsumers {
  const { db, repository, logger } = deps;

  const consume = async (claimed: StreamRow, controller: AbortController, owner: string) => {
    const id = claimed.id;
    const streamLogger = logger.child({ stream_id: id });
    const log: Log = (level, message, fields) => streamLogger[level]({ ...fields }, message);
    const report = (changes: Parameters<StreamsRepository['update']>[2]) =>
      repository.update(db, id, changes, owner).catch(() => undefined);
    const renew = setInterval(
      () => {
        repository.renew(db, id, owner, deps.leaseMs).then(
          (row) => {
            if (!row) controller.abort(new Error('lease lost'));
            else if (row.desired_state === 'stopped') controller.abort(new Error('stopped'));
            else paused = row.paused_at !== null;
          },
          (error: Error) => streamLogger.warn({ err: { message: error.message } }, 'stream lease renewal failed'),
        );
      },
      Math.max(200, Math.floor(deps.leaseMs / 3)),
    );
    const run = await repository.startRun(db, id, owner);
    const lineageRun = { runId: run.id, projectId: claimed.project_id, kind: 'stream', itemId: id };
    const ended = (status: 'stopped' | 'failed' | 'interrupted', error: string | null) =>
      deps.lineage
        ?.continuousEnded({ ...lineageRun, status, error })
        .catch((e: Error) =>
          streamLogger.warn({ err: { message: e.message } }, 'recording the lineage of the run failed'),
        );
    await deps.lineage
      ?.continuousStarted({
        runId: run.id,
        projectId: claimed.project_id,
        job: { kind: 'stream', itemId: id },
        inputs: [{ connector_id: claimed.source_connector_id, namespace: null, name: claimed.source.name }],
        outputs: [{ connector_id: claimed.destination_connector_id, namespace: null, name: claimed.destination_table }],
      })
      .catch((e: Error) =>
        streamLogger.warn({ err: { message: e.message } }, 'recording the lineage of the run failed'),
      );
    let source: ConnectorHandle | undefined;
    let destination: ConnectorHandle | undefined;
    let messages: MessageSource | undefined;
    let sink: MessageSink | undefined;
    let pending = zero();
    let facts: Parameters<StreamsRepository['addToRun']>[3] = {};
    let lastReport = 0;
    let lastLag = 0;
    let lastLagValue: number | null | undefined;
    // The status this consumer last reported (running or paused), and whether it is paused now.
    let shown: 'running' | 'paused' | undefined;
    let paused = claimed.paused_at !== null;
    const show = async (status: 'running' | 'paused') => {
      if (shown === status) return;
      shown = status;
      await report({ status, last_error: null });
    };
    const flush = async () => {
      const counters = pending;
      const known = facts;
      pending = zero();
      facts = {};
      lastReport = Date.now();
      await repository.addToRun(db, run.id, counters, known).catch(() => undefined);
      await report({});
    };
    try {
      source = await deps.openConnector(claimed.source_connector_id, log);
      destination = await deps.openConnector(claimed.destination_connector_id, log);
      if (!source.messageSource)
        throw Object.assign(new Error('the source connector is not a message broker'), { retryable: false });
      if (!destination.messageSink)
        throw Object.assign(new Error('the destination connector cannot take streams'), { retryable: false });
      messages = source.messageSource({
        name: claimed.source.name,
        ...(claimed.source.filter ? { filter: claimed.source.filter } : {}),
        consumer: consumerName(claimed),
        start: claimed.source.start,
        ...(claimed.source.start_time ? { startTime: claimed.source.start_time } : {}),
        ...(claimed.source.start_sequence ? { startSequence: claimed.source.start_sequence } : {}),
        // A batch being written, the next one decoded, and room for two more: the broker keeps
        // sending while a batch commits (RabbitMQ's prefetch, NATS's pull requests), and memory stays
        // bounded by four batches.
        maxInFlight: Math.max(claimed.batch_max_rows * 4, 100),
        ackWaitMs: deps.ackWaitMs,
      });
      sink = destination.messageSink();
      const consumer = messages;
      const writer = sink;
      log('info', `consumer ${owner} took over`);
      const target = { namespace: null, name: claimed.destination_table };
      const deadLetter = async (message: BrokerMessage, reason: string) => {
        await repository.addDeadLetter(db, {
          stream_id: id,
          message_id: message.id,
          subject: message.subject,
          payload: message.data,
          reason,
          deliveries: message.deliveryCount,
        });
        if (claimed.dead_letter.kind === 'broker' && consumer.deadLetter)
          await consumer.deadLetter(claimed.dead_letter.target, message, reason);
      };
      const onBatch = async (progress: StreamProgress) => {
        await show('running');
        pending.received += progress.received;
        pending.written += progress.received - progress.deadLettered - progress.retried;
        pending.rows += progress.written;
        pending.duplicates += progress.duplicates;
        pending.deadLettered += progress.deadLettered;
        pending.bytes += progress.bytes;
        facts.lastMessageAt = progress.lastMessageAt;
        if (progress.latencySeconds !== null) facts.latency = progress.latencySeconds;
        deps.metrics?.messages.inc(
          { stream: id, outcome: 'written' },
          progress.received - progress.deadLettered - progress.retried,
        );
        if (progress.deadLettered)
          deps.metrics?.messages.inc({ stream: id, outcome: 'dead_lettered' }, progress.deadLettered);
        if (progress.retried) deps.metrics?.messages.inc({ stream: id, outcome: 'retried' }, progress.retried);
        deps.metrics?.bytes.inc({ stream: id }, progress.bytes);
        // Not awaited: the next batch's commit does not wait for the framework database.
        tickSoon();
      };
      // One report at a time; counters that arrive meanwhile go in the next one.
      let ticking: Promise<void> | undefined;
      const tickSoon = () => {
        ticking ??= tick()
          .catch((error: Error) => log('warn', `reporting the run failed: ${error.message}`))
          .finally(() => (ticking = undefined));
      };
      const tick = async () => {
        const now = Date.now();
        if (now - lastLag >= LAG_EVERY_MS) {
          lastLag = now;
          const lag = await consumer.lag?.().catch(() => null);
          // Only a different figure is a change (a change is an event on the live status stream).
          if (lag !== undefined && lag !== lastLagValue) facts.lag = lastLagValue = lag;
        }
        const changed = Object.values(pending).some((n) => n > 0) || Object.keys(facts).length > 0;
        if (changed && now - lastReport >= REPORT_EVERY_MS) await flush();
      };
      // Dead letters whose retry was asked for: written like any message, or dead again with the new reason.
      const retryDeadLetters = async () => {
        const rows = await repository.retryRequested(db, id, 100);
        if (!rows.length) return;
        for (const row of rows) {
          let deadAgain = false;
          let given = false;
          const replay: MessageSource = {
            // The message once; then nothing (the run ends when its batch is written).
            receive: async () => {
              if (given) return [];
              given = true;
              return [
                {
                  id: row.message_id,
                  position: null,
                  data: row.payload,
                  deliveryCount: claimed.max_deliveries,
                  publishedAt: new Date(),
                  subject: row.subject,
                },
              ];
            },
            ack: async () => {
              if (!deadAgain) await repository.removeDeadLetter(db, row.id);
            },
            retry: async () => undefined,
            close: async () => undefined,
          };
          const once = new AbortController();
          await runStream({
            streamId: id,
            source: replay,
            sink: writer,
            target,
            format: claimed.format.type,
            ...(claimed.format.record_path ? { recordPath: claimed.format.record_path } : {}),
            mode: claimed.write_mode,
            keyColumns: claimed.key_columns,
            ...(claimed.transforms.length ? { transform: recordTransform(claimed.transforms) } : {}),
            batch: { maxRows: 1, maxLatencyMs: 0 },
            maxDeliveries: claimed.max_deliveries,
            deadLetter: async (message, reason) => {
              deadAgain = true;
              await repository.addDeadLetter(db, {
                stream_id: id,
                message_id: row.message_id,
                subject: row.subject,
                payload: row.payload,
                reason: `retry: ${reason}`,
                deliveries: message.deliveryCount,
              });
            },
            onBatch: async (progress) => {
              once.abort();
              pending.rows += progress.written;
            },
            signal: once.signal,
            log,
          });
        }
      };
      let lastRetryCheck = 0;
      await runStream({
        streamId: id,
        source: consumer,
        sink: writer,
        target,
        format: claimed.format.type,
        ...(claimed.format.record_path ? { recordPath: claimed.format.record_path } : {}),
        mode: claimed.write_mode,
        keyColumns: claimed.key_columns,
        batch: { maxRows: claimed.batch_max_rows, maxLatencyMs: claimed.batch_max_latency_ms },
        maxDeliveries: claimed.max_deliveries,
        deadLetter,
        ...(claimed.transforms.length ? { transform: recordTransform(claimed.transforms) } : {}),
        onBatch,
        paused: () => paused,
        onIdle() {
          void show(paused ? 'paused' : 'running');
          if (!paused && Date.now() - lastRetryCheck > 2000) {
            lastRetryCheck = Date.now();
            void retryDeadLetters().catch((error: Error) =>
              log('warn', `retrying dead letters failed: ${error.message}`),
            );
          }
          tickSoon();
        },
        signal: controller.signal,
        log,
      });
    } catch (error) {
      if (!controller.signal.aborted) {
        const message = (error as Error).message || String(error);
        const permanent = isPermanent(error);
        log('error', permanent ? `failed: ${message}` : `failed, will retry in ${RETRY_AFTER_MS / 1000} s: ${message}`);
        pending.errors += 1;
        facts.lastError = message;
        await flush();
        await repository.endRun(db, run.id, 'failed', message).catch(() => undefined);
        await ended('failed', message);
        await report({
          status: permanent ? 'failed' : 'degraded',
          last_error: message,
          ...(permanent ? { desired_state: 'stopped' } : {}),
        });
        await repository.release(db, id, owner, permanent ? 0 : RETRY_AFTER_MS).catch(() => undefined);
        return;
      }
    } finally {
      clearInterval(renew);
      await messages?.close().catch(() => undefined);
      await sink?.close().catch(() => undefined);
      await source?.close().catch(() => undefined);
      await destination?.close().catch(() => undefined);
    }
    await flush();
    const reason = (controller.signal.reason as Error | undefined)?.message;
    if (reason === 'lease lost') {
      await repository.endRun(db, run.id, 'interrupted', 'the consumer lost its lease').catch(() => undefined);
      await ended('interrupted', 'the consumer lost its lease');
      log('warn', `consumer ${owner} lost its lease; another worker takes over`);
      return;
    }
    await repository.endRun(db, run.id, 'stopped', null).catch(() => undefined);
    await ended('stopped', null);
    if (reason === 'stopped') {
      await report({ status: 'stopped' });
      log('info', 'stopped');
    }
    await repository.release(db, id, owner).catch(() => undefined);
  };

  const loop = startLeasedLoop({
    name: 'stream',
    logger,
    max: deps.maxStreams,
    ...(deps.pollMs ? { pollMs: deps.pollMs } : {}),
    claim: (owner, inHand) => repository.claim(db, owner, deps.leaseMs, inHand),
    run: consume,
  });
  logger.info({ owner: loop.owner, max_streams: deps.maxStreams }, 'stream consumers started');
  return loop;
}
