/**
 * The streaming contract: a message broker connector offers a MessageSource (a durable consumer of a
 * subject, queue, topic or stream key), a destination offers a MessageSink that writes each message
 * exactly once. The engine's stream run (run.ts) moves messages between them in batches: written in
 * one destination transaction together with their ids, acknowledged only after it commits.
 */
import type { ColumnSchema, DatasetRef, Value, WriteMode } from '../types.js';

export type StartPosition = 'all' | 'new' | 'from_time' | 'from_sequence';

export interface BrokerMessage {
  /**
   * Stable across redeliveries: the broker's sequence (NATS: the stream sequence; Redis: the entry
   * id) or the publisher's message id (RabbitMQ, MQTT v5), else a hash of the content. The ledger
   * of written ids is keyed by it.
   */
  id: string;
  /** The broker's order of the message, where it has one (an integer): the ledger is pruned by it. */
  position: string | null;
  data: Buffer;
  /** 1 on the first delivery; counted by the broker where it can, else by the source. */
  deliveryCount: number;
  /** When the broker stored the message, when it tells; else when it was received. */
  publishedAt: Date;
  /** Subject, routing key or topic it was published to. */
  subject: string | null;
  /** The source's own handle to settle this delivery (a delivery tag, a packet id). */
  receipt?: string;
}

export interface MessageSourceOptions {
  /** NATS: the JetStream stream; RabbitMQ: the queue; MQTT: the topic filter; Redis: the stream key. */
  name: string;
  /** NATS: a subject filter within the stream. */
  filter?: string;
  /** Durable consumer (NATS), consumer group (Redis), client id (MQTT); kept across restarts. */
  consumer: string;
  start: StartPosition;
  startTime?: string;
  startSequence?: number;
  /** Messages handed out and not yet settled, at most: what bounds memory (prefetch, max ack pending). */
  maxInFlight: number;
  /** How long a delivered, unsettled message waits before the broker gives it to a consumer again. */
  ackWaitMs: number;
}

export interface MessageSource {
  /**
   * Up to `max` messages, waiting at most `waitMs` in all for them (fewer, or none, when the time is
   * up). Rejects when the consumer fails (the broker went away, the queue was deleted).
   */
  receive(max: number, waitMs: number, signal: AbortSignal): Promise<BrokerMessage[]>;
  /** Settles the messages for good: written (or dead-lettered). */
  ack(messages: BrokerMessage[]): Promise<void>;
  /** Gives the messages back for another delivery. */
  retry(messages: BrokerMessage[]): Promise<void>;
  /** Publishes a dead message to a subject or queue of this broker, with the reason in a header. */
  deadLetter?(target: string, message: BrokerMessage, reason: string): Promise<void>;
  /** Messages waiting at the broker for this consumer, when it can tell. */
  lag?(): Promise<number | null>;
  /** The highest position no message of which can be delivered again (NATS: the ack floor), when it can tell. */
  settledThrough?(): Promise<string | null>;
  close(): Promise<void>;
}

export interface SinkRow {
  /** The message the row came from (several rows may share one: ndjson, a JSON path to an array). */
  messageId: string;
  position: string | null;
  values: Value[];
}

export interface SinkWrite {
  target: DatasetRef;
  mode: Exclude<WriteMode, 'overwrite'>;
  keyColumns: string[];
  /** The columns of the rows: the table is created with them, or widened with those it lacks. */
  columns: ColumnSchema[];
  rows: SinkRow[];
  /** Every message of the batch, also those with no row (an empty array): their ids go in the ledger too. */
  messages: { id: string; position: string | null }[];
}

export interface MessageSink {
  /** The columns of the target table as they are now; none when it does not exist yet. */
  columns(target: DatasetRef): Promise<ColumnSchema[]>;
  /**
   * One destination transaction: records the messages' ids in the stream's ledger, leaves out the rows
   * of ids already there (written before, redelivered since), creates or widens the table, writes.
   */
  write(streamId: string, request: SinkWrite): Promise<{ rowsWritten: number; duplicates: number; bytes: number }>;
  /** Forgets ledger entries at or below a position (the broker will not deliver them again), or older than `olderThanMs`. */
  prune(streamId: string, through: { position?: string; olderThanMs?: number }): Promise<void>;
  /** Removes the stream's ledger (the stream is deleted). */
  forget(streamId: string): Promise<void>;
  close(): Promise<void>;
}
