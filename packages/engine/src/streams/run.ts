/**
 * A stream run: consumes a broker source in batches and writes them to a destination, exactly once.
 *
 * Each batch (at most `maxRows` messages, or what arrived within `maxLatencyMs`) is decoded; the
 * messages that can be written go to the sink in one destination transaction together with their ids
 * (the ledger), and are acknowledged only after it committed. A redelivered message whose id is in
 * the ledger is acknowledged without being written again. A message that cannot be written (bad
 * format, a type conflict) is given back for another delivery until it has been delivered
 * `maxDeliveries` times; then it goes to the dead-letter target with its reason, and is acknowledged.
 * A failure of the destination gives the whole batch back and ends the run with the error (the host
 * restarts it). Memory is bounded by the source's in-flight limit plus one batch.
 */
import type { ColumnSchema, DatasetRef, JsonValue, Log } from '../types.js';
import {
  MESSAGE_ID_COLUMN,
  MessageRejected,
  SYSTEM_COLUMNS,
  decodeMessage,
  parsePath,
  toRows,
  type MessageFormat,
} from './records.js';
import type { BrokerMessage, MessageSink, MessageSource, SinkRow } from './types.js';

export interface StreamProgress {
  received: number;
  written: number;
  duplicates: number;
  deadLettered: number;
  retried: number;
  bytes: number;
  /** When the newest message of the batch was published. */
  lastMessageAt: Date | null;
  /** From publish to committed, of the batch's oldest message, in seconds. */
  latencySeconds: number | null;
}

export interface StreamRunOptions {
  streamId: string;
  source: MessageSource;
  sink: MessageSink;
  target: DatasetRef;
  format: MessageFormat;
  /** JSON path to the record, or to an array of records. */
  recordPath?: string;
  mode: 'append' | 'upsert';
  keyColumns: string[];
  batch: { maxRows: number; maxLatencyMs: number };
  maxDeliveries: number;
  /** Keeps a dead message (with why it died) before it is acknowledged. */
  deadLetter(message: BrokerMessage, reason: string): Promise<void>;
  /** Changes records before they are written (declarative transforms); throws MessageRejected to refuse one. */
  transform?(records: Record<string, JsonValue>[]): Record<string, JsonValue>[];
  onBatch?(progress: StreamProgress): void | Promise<void>;
  /** Called after each receive, also an empty one: the run is alive. */
  onIdle?(): void;
  /** While this says true, nothing is received (the batch in hand is finished); checked before each receive. */
  paused?(): boolean;
  signal: AbortSignal;
  log: Log;
  /** How often settled ledger entries are pruned; default 10 s. */
  pruneEveryMs?: number;
  /** Ledger entries of brokers without positions are kept this long; default 7 days. */
  ledgerRetentionMs?: number;
}

interface PreparedBatch {
  messages: BrokerMessage[];
  rows: SinkRow[];
  good: BrokerMessage[];
  /** The good messages once each (the ledger's entries): a repeated id is left out. */
  unique: BrokerMessage[];
  bad: { message: BrokerMessage; reason: string }[];
  /** The columns once this batch is written. */
  columns: ColumnSchema[];
  repeated: number;
}

/**
 * Decodes a batch against the columns as they will be once the batch before it is written: every
 * message against the columns as they would be after the ones before it.
 */
function prepare(options: StreamRunOptions, path: string[], columns: ColumnSchema[], messages: BrokerMessage[]) {
  const working = columns.map((c) => ({ ...c }));
  const positions = new Map(working.map((c, i) => [c.name, i]));
  const rows: SinkRow[] = [];
  const good: BrokerMessage[] = [];
  const unique: BrokerMessage[] = [];
  const bad: { message: BrokerMessage; reason: string }[] = [];
  const receivedAt = new Date().toISOString();
  const seen = new Set<string>();
  let repeated = 0;
  for (const message of messages) {
    // The same id twice in a batch (a publisher's retry): the first one is written, the other only settled.
    if (seen.has(message.id)) {
      good.push(message);
      repeated += 1;
      continue;
    }
    seen.add(message.id);
    try {
      let records = decodeMessage(message.data, options.format, path);
      if (options.transform) records = options.transform(records);
      const result = toRows(records, working, { messageId: message.id, receivedAt }, positions);
      if ('conflict' in result) throw new MessageRejected(result.conflict);
      if (options.mode === 'upsert') {
        for (const key of options.keyColumns) {
          const addedAt = result.added.findIndex((c) => c.name === key);
          const i = positions.get(key) ?? (addedAt < 0 ? -1 : working.length + addedAt);
          if (i < 0 || result.rows.some((row) => row[i] === null || row[i] === undefined))
            throw new MessageRejected(`key field "${key}" is missing or null`);
        }
      }
      for (const column of result.added) positions.set(column.name, working.push(column) - 1);
      for (const values of result.rows) rows.push({ messageId: message.id, position: message.position, values });
      good.push(message);
      unique.push(message);
    } catch (error) {
      if (!(error instanceof MessageRejected)) throw error;
      bad.push({ message, reason: error.message });
    }
  }
  // Rows were built against the columns as they grew: pad the shorter ones.
  for (const row of rows)
    if (row.values.length < working.length)
      row.values = [...row.values, ...working.slice(row.values.length).map(() => null)];
  return { messages, rows, good, unique, bad, columns: working, repeated } satisfies PreparedBatch;
}

/**
 * Receives and decodes the next batch while the current one is being written (at most one batch
 * written and one decoded at a time: the source's in-flight limit covers both). Batches are written
 * and acknowledged in order; a batch is acknowledged only after its own transaction committed.
 */
export async function runStream(options: StreamRunOptions): Promise<void> {
  const { source, sink, target, signal } = options;
  const path = parsePath(options.recordPath);
  let columns: ColumnSchema[] = await sink.columns(target);
  if (columns.length === 0) columns = SYSTEM_COLUMNS.map((c) => ({ ...c }));
  let lastPrune = Date.now();

  const commit = async (batch: PreparedBatch) => {
    const { messages, good, bad } = batch;
    let written = { rowsWritten: 0, duplicates: 0, bytes: 0 };
    if (good.length) {
      try {
        written = await sink.write(options.streamId, {
          target,
          mode: options.mode,
          keyColumns: options.keyColumns,
          columns: batch.columns,
          rows: batch.rows,
          messages: batch.unique,
        });
      } catch (error) {
        // Nothing of the batch is settled: every message comes again, after the restart.
        await source.retry(messages).catch(() => undefined);
        throw error;
      }
    }

    // The refused messages are settled first, so that the written ones can be acknowledged together.
    let deadLettered = 0;
    const dead: BrokerMessage[] = [];
    const again: BrokerMessage[] = [];
    for (const { message, reason } of bad) {
      if (message.deliveryCount >= options.maxDeliveries) {
        await options.deadLetter(message, reason);
        deadLettered += 1;
        dead.push(message);
        options.log('warn', `message ${message.id} dead-lettered after ${message.deliveryCount} deliveries: ${reason}`);
      } else again.push(message);
    }
    if (again.length) await source.retry(again);
    if (dead.length || good.length) await source.ack([...dead, ...good]);

    // One pass (no array per figure: this runs for every batch of up to thousands of messages).
    let oldest = Infinity;
    let newest = -Infinity;
    let bytes = 0;
    for (const m of messages) {
      const at = m.publishedAt.getTime();
      if (at > newest) newest = at;
      bytes += m.data.length;
    }
    for (const m of good) oldest = Math.min(oldest, m.publishedAt.getTime());
    await options.onBatch?.({
      received: messages.length,
      written: written.rowsWritten,
      duplicates: written.duplicates + batch.repeated,
      deadLettered,
      retried: again.length,
      bytes,
      lastMessageAt: new Date(newest),
      latencySeconds: good.length ? Math.max(0, (Date.now() - oldest) / 1000) : null,
    });

    if (Date.now() - lastPrune >= (options.pruneEveryMs ?? 10_000)) {
      lastPrune = Date.now();
      const through = await source.settledThrough?.().catch(() => null);
      await sink
        .prune(
          options.streamId,
          through ? { position: through } : { olderThanMs: options.ledgerRetentionMs ?? 7 * 86_400_000 },
        )
        .catch((error: Error) => options.log('warn', `pruning the ledger failed: ${error.message}`));
    }
  };

  // The batch being written, if any; its failure ends the run once it is awaited.
  let writing: Promise<void> | undefined;
  let failure: { error: unknown } | undefined;
  const settle = async () => {
    const current = writing;
    writing = undefined;
    await current;
    if (failure) throw failure.error;
  };
  try {
    while (!signal.aborted) {
      if (failure) await settle();
      if (options.paused?.()) {
        await settle();
        options.onIdle?.();
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, Math.min(250, options.batch.maxLatencyMs));
          function done() {
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            resolve();
          }
          signal.addEventListener('abort', done, { once: true });
        });
        continue;
      }
      const messages = await source.receive(options.batch.maxRows, options.batch.maxLatencyMs, signal);
      options.onIdle?.();
      if (messages.length === 0) {
        await settle();
        continue;
      }
      let batch: PreparedBatch;
      try {
        batch = prepare(options, path, columns, messages);
      } catch (error) {
        await settle();
        throw error;
      }
      // Written (and acknowledged) in order: the batch before first.
      await settle();
      columns = batch.columns;
      writing = commit(batch).catch((error: unknown) => {
        failure = { error };
      });
    }
  } finally {
    // A stop or a failure still lets the batch in hand finish (or give its messages back).
    await writing;
  }
  if (failure) throw failure.error;
}

export { MESSAGE_ID_COLUMN };
