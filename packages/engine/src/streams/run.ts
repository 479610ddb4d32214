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
  signal: AbortSignal;
  log: Log;
  /** How often settled ledger entries are pruned; default 10 s. */
  pruneEveryMs?: number;
  /** Ledger entries of brokers without positions are kept this long; default 7 days. */
  ledgerRetentionMs?: number;
}

export async function runStream(options: StreamRunOptions): Promise<void> {
  const { source, sink, target, signal } = options;
  const path = parsePath(options.recordPath);
  let columns: ColumnSchema[] = await sink.columns(target);
  if (columns.length === 0) columns = SYSTEM_COLUMNS.map((c) => ({ ...c }));
  let lastPrune = Date.now();

  while (!signal.aborted) {
    const messages = await source.receive(options.batch.maxRows, options.batch.maxLatencyMs, signal);
    options.onIdle?.();
    if (messages.length === 0) continue;

    // Decode every message against the columns as they would be after the ones before it.
    const working = columns.map((c) => ({ ...c }));
    const rows: SinkRow[] = [];
    const good: BrokerMessage[] = [];
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
        const result = toRows(records, working, { messageId: message.id, receivedAt });
        if ('conflict' in result) throw new MessageRejected(result.conflict);
        if (options.mode === 'upsert') {
          for (const key of options.keyColumns) {
            const i = [...working, ...result.added].findIndex((c) => c.name === key);
            if (i < 0 || result.rows.some((row) => row[i] === null || row[i] === undefined))
              throw new MessageRejected(`key field "${key}" is missing or null`);
          }
        }
        working.push(...result.added);
        for (const values of result.rows) rows.push({ messageId: message.id, position: message.position, values });
        good.push(message);
      } catch (error) {
        if (!(error instanceof MessageRejected)) throw error;
        bad.push({ message, reason: error.message });
      }
    }

    let written = { rowsWritten: 0, duplicates: 0, bytes: 0 };
    if (good.length) {
      try {
        written = await sink.write(options.streamId, {
          target,
          mode: options.mode,
          keyColumns: options.keyColumns,
          // Rows were built against `working` as it grew: pad the shorter ones.
          columns: working,
          rows: rows.map((row) => ({
            ...row,
            values:
              row.values.length === working.length
                ? row.values
                : [...row.values, ...working.slice(row.values.length).map(() => null)],
          })),
          messages: [...new Map(good.map((m) => [m.id, { id: m.id, position: m.position }])).values()],
        });
      } catch (error) {
        // Nothing of the batch is settled: every message comes again, after the restart.
        await source.retry(messages).catch(() => undefined);
        throw error;
      }
      columns = working;
      await source.ack(good);
    }

    let deadLettered = 0;
    const again: BrokerMessage[] = [];
    for (const { message, reason } of bad) {
      if (message.deliveryCount >= options.maxDeliveries) {
        await options.deadLetter(message, reason);
        deadLettered += 1;
        options.log('warn', `message ${message.id} dead-lettered after ${message.deliveryCount} deliveries: ${reason}`);
      } else again.push(message);
    }
    if (deadLettered) await source.ack(bad.map((b) => b.message).filter((m) => !again.includes(m)));
    if (again.length) await source.retry(again);

    const oldest = Math.min(...good.map((m) => m.publishedAt.getTime()));
    await options.onBatch?.({
      received: messages.length,
      written: written.rowsWritten,
      duplicates: written.duplicates + repeated,
      deadLettered,
      retried: again.length,
      bytes: messages.reduce((sum, m) => sum + m.data.length, 0),
      lastMessageAt: new Date(Math.max(...messages.map((m) => m.publishedAt.getTime()))),
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
  }
}

export { MESSAGE_ID_COLUMN };
