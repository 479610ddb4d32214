/**
 * NATS JetStream as a stream source: a durable pull consumer (explicit acks) on a JetStream stream,
 * optionally filtered to a subject. The message id is the stream sequence, the same on every
 * redelivery; the broker counts deliveries; the ledger is pruned below the consumer's ack floor.
 * Discover lists the JetStream streams with their subjects and message counts.
 */
import type * as JetStream from '@nats-io/jetstream';
import type { JsMsg } from '@nats-io/jetstream';
import type * as NatsTransport from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/transport-node';
import { Type } from 'typebox';
import { egressOf } from '../../egress.js';
import { checkBroker } from '../../streams/broker.js';
import { MessageBuffer } from '../../streams/buffer.js';
import type { BrokerMessage, MessageSource, MessageSourceOptions } from '../../streams/types.js';
import {
  ConnectorError,
  Secret,
  type ConnectorConfig,
  type ConnectorContext,
  type ConnectorDefinition,
  type ConnectorHandle,
} from '../../types.js';

export const natsSpec = Type.Object(
  {
    host: Type.String({ minLength: 1, title: 'Host' }),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, default: 4222, title: 'Port' })),
    user: Type.Optional(Type.String({ minLength: 1, title: 'User' })),
    password: Secret('Password'),
    token: Secret('Token'),
  },
  { additionalProperties: false },
);
type NatsConfig = ConnectorConfig<typeof natsSpec>;

export function classifyNats(error: unknown): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const e = error as { code?: string; message?: string; name?: string; cause?: { code?: string } };
  const message = e.message ?? String(error);
  if (e.name === 'AuthorizationError' || /authorization|authentication/i.test(message))
    return new ConnectorError('auth_failed', 'NATS refused the credentials: check the user, password or token', false);
  if (e.code === 'ECONNREFUSED' || e.cause?.code === 'ECONNREFUSED' || /ECONNREFUSED|connection refused/.test(message))
    return new ConnectorError(
      'unreachable',
      'connection refused: is the NATS server running and the port right?',
      true,
    );
  if (/timeout/i.test(message) || e.name === 'TimeoutError')
    return new ConnectorError('timeout', 'the NATS server did not answer in time', true);
  if (/jetstream not enabled|JetStreamNotEnabled/i.test(message) || e.name === 'JetStreamNotEnabled')
    return new ConnectorError('unsupported', 'JetStream is not enabled on this NATS server (start it with -js)', false);
  if (e.name === 'StreamNotFoundError' || /stream not found/i.test(message))
    return new ConnectorError('not_found', 'the JetStream stream does not exist', false);
  return new ConnectorError('failed', message, true, { cause: error });
}

interface NatsLibraries {
  connect: typeof NatsTransport.connect;
  headers: typeof NatsTransport.headers;
  nanos: typeof NatsTransport.nanos;
  jetstream: typeof JetStream.jetstream;
  jetstreamManager: typeof JetStream.jetstreamManager;
  AckPolicy: typeof JetStream.AckPolicy;
  DeliverPolicy: typeof JetStream.DeliverPolicy;
}
let libraries: NatsLibraries | undefined;
/** The NATS client libraries: loaded by the first connection a process opens (open() comes first). */
const nats = (): NatsLibraries => {
  if (!libraries) throw new Error('the NATS client is not loaded: open a connection first');
  return libraries;
};

async function open(config: NatsConfig, context: ConnectorContext): Promise<NatsConnection> {
  const port = config.port ?? 4222;
  const { address, family } = await egressOf(context).resolve(config.host, port);
  if (!libraries) {
    const [js, transport] = await Promise.all([import('@nats-io/jetstream'), import('@nats-io/transport-node')]);
    const { connect, headers, nanos } = transport;
    const { jetstream, jetstreamManager, AckPolicy, DeliverPolicy } = js;
    libraries = { connect, headers, nanos, jetstream, jetstreamManager, AckPolicy, DeliverPolicy };
  }
  try {
    return await nats().connect({
      servers: family === 6 ? `[${address}]:${port}` : `${address}:${port}`,
      ...(config.user ? { user: config.user, pass: config.password } : {}),
      ...(config.token ? { token: config.token } : {}),
      name: 'svc-stream',
      reconnect: false,
      timeout: 10_000,
    });
  } catch (error) {
    throw classifyNats(error);
  }
}

const dots = new Int32Array(16);
const digitsAt = (text: string, from: number, to: number) => {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return Number.NaN;
    n = n * 10 + d;
  }
  return n;
};

/**
 * The stream sequence, delivery count and publish time (ms) of a JetStream message, read from its ack
 * subject without splitting it (the client's own `info` splits it into a dozen strings per message):
 * `$JS.ACK.<stream>.<consumer>.<deliveries>.<stream seq>.<consumer seq>.<ns>.<pending>`, or with
 * `<domain>.<account hash>.` before the stream and `.<token>` after. Undefined for any other shape.
 */
export function ackInfo(reply: string): { seq: string; deliveries: number; ms: number } | undefined {
  if (!reply.startsWith('$JS.ACK.')) return undefined;
  let count = 0;
  for (let i = 0; i < reply.length && count < dots.length; i++) if (reply.charCodeAt(i) === 46) dots[count++] = i;
  // Tokens 0-based: the delivery count is token 4 (9 tokens) or 6 (11 or 12 tokens).
  const first = count === 8 ? 4 : count === 10 || count === 11 ? 6 : -1;
  if (first < 0) return undefined;
  const token = (k: number) => [dots[k - 1]! + 1, k < count ? dots[k]! : reply.length] as const;
  const [dFrom, dTo] = token(first);
  const [sFrom, sTo] = token(first + 1);
  const [tFrom, tTo] = token(first + 3);
  const deliveries = digitsAt(reply, dFrom, dTo);
  // Nanoseconds: the milliseconds are all but the last six digits (exact, where the nanoseconds are not).
  const ms = digitsAt(reply, tFrom, Math.max(tFrom, tTo - 6));
  if (Number.isNaN(deliveries) || Number.isNaN(ms) || sTo <= sFrom || Number.isNaN(digitsAt(reply, sFrom, sTo)))
    return undefined;
  return { seq: reply.slice(sFrom, sTo), deliveries, ms };
}

const deliverPolicy = (start: 'all' | 'new' | 'from_time' | 'from_sequence') => {
  const { DeliverPolicy } = nats();
  return {
    all: DeliverPolicy.All,
    new: DeliverPolicy.New,
    from_time: DeliverPolicy.StartTime,
    from_sequence: DeliverPolicy.StartSequence,
  }[start];
};

/** Bytes of messages the source holds before the run takes them, at most (besides the count bound). */
const BUFFER_BYTES = 8 * 1024 * 1024;
const ACK = new TextEncoder().encode('+ACK');
const NAK = new TextEncoder().encode('-NAK');

function natsSource(config: NatsConfig, context: ConnectorContext, options: MessageSourceOptions): MessageSource {
  // The in-flight bound split in four: the client's pull window, this buffer, and the two batches the
  // run holds (one written, one decoded). Messages are converted on arrival, so that the client's own
  // message objects do not live as long as the batch (fewer objects surviving into the old generation).
  const window = Math.max(Math.ceil(options.maxInFlight / 4), 1);
  const buffer = new MessageBuffer<BrokerMessage>(window, BUFFER_BYTES, (m) => m.data.byteLength);
  let connection: NatsConnection | undefined;
  let starting: Promise<void> | undefined;
  let stopped = false;

  const toMessage = (m: JsMsg): BrokerMessage => {
    // The ack subject (the client's message class has it; its interface does not say so).
    const reply = (m as { reply?: unknown }).reply;
    const info = typeof reply === 'string' ? ackInfo(reply) : undefined;
    const id = info?.seq ?? String(m.seq);
    return {
      id,
      position: id,
      // A view of the bytes the client received (no copy).
      data: Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength),
      deliveryCount: info?.deliveries ?? m.info.deliveryCount,
      publishedAt: new Date(info?.ms ?? Math.floor(Number(m.info.timestampNanos) / 1e6)),
      subject: m.subject,
      // Settled by publishing to the ack subject, what the client's ack() does: the message object need not be kept.
      receipt: typeof reply === 'string' ? reply : '',
    };
  };

  const start = async () => {
    const nc = await open(config, context);
    connection = nc;
    void nc.closed().then((error) => {
      if (!stopped)
        buffer.fail(
          error ? classifyNats(error) : new ConnectorError('unreachable', 'the NATS connection closed', true),
        );
    });
    try {
      const jsm = await nats().jetstreamManager(nc);
      await jsm.streams.info(options.name);
      const existing = await jsm.consumers.info(options.name, options.consumer).catch(() => undefined);
      if (!existing) {
        await jsm.consumers.add(options.name, {
          durable_name: options.consumer,
          ack_policy: nats().AckPolicy.Explicit,
          deliver_policy: deliverPolicy(options.start),
          ...(options.start === 'from_time' && options.startTime ? { opt_start_time: options.startTime } : {}),
          ...(options.start === 'from_sequence' && options.startSequence
            ? { opt_start_seq: options.startSequence }
            : {}),
          ...(options.filter ? { filter_subject: options.filter } : {}),
          ack_wait: nats().nanos(options.ackWaitMs),
          max_ack_pending: Math.max(options.maxInFlight * 2, 1000),
          max_deliver: -1,
        });
      } else if (existing.config.ack_wait !== nats().nanos(options.ackWaitMs)) {
        await jsm.consumers.update(options.name, options.consumer, { ack_wait: nats().nanos(options.ackWaitMs) });
      }
      const consumer = await nats().jetstream(nc).consumers.get(options.name, options.consumer);
      // The client asks for more once a quarter of its window has been taken from it (its default
      // threshold), and only when this loop takes: while the buffer is full, nothing more is pulled.
      const messages = await consumer.consume({ max_messages: window });
      void (async () => {
        try {
          for await (const m of messages) {
            const full = buffer.push(toMessage(m));
            if (full) await full;
          }
        } catch (error) {
          if (!stopped) buffer.fail(classifyNats(error));
        }
      })();
    } catch (error) {
      throw classifyNats(error);
    }
  };

  const settle = async (messages: BrokerMessage[], payload: Uint8Array) => {
    const nc = connection;
    if (!nc || nc.isClosed()) return;
    for (const message of messages) if (message.receipt) nc.publish(message.receipt, payload);
    // Not awaited to the server: the client sends them with its next flush. A lost ack only means a
    // redelivery, which the ledger turns into a duplicate count.
  };

  return {
    async receive(max, waitMs, signal) {
      starting ??= start();
      await starting;
      return buffer.take(max, waitMs, signal);
    },
    ack: (messages) => settle(messages, ACK),
    retry: (messages) => settle(messages, NAK),
    async deadLetter(target, message, reason) {
      const nc = connection ?? (await open(config, context));
      connection ??= nc;
      const h = nats().headers();
      h.set('svc-error', reason.slice(0, 1000));
      h.set('svc-message-id', message.id);
      if (message.subject) h.set('svc-subject', message.subject);
      await nats().jetstream(nc).publish(target, message.data, { headers: h });
    },
    async lag() {
      if (!connection) return null;
      const info = await (await nats().jetstreamManager(connection)).consumers.info(options.name, options.consumer);
      return info.num_pending + info.num_ack_pending;
    },
    async settledThrough() {
      if (!connection) return null;
      const info = await (await nats().jetstreamManager(connection)).consumers.info(options.name, options.consumer);
      return String(info.ack_floor.stream_seq);
    },
    async close() {
      stopped = true;
      buffer.clear();
      await connection?.close().catch(() => undefined);
    },
  };
}

export const natsConnector: ConnectorDefinition<typeof natsSpec> = {
  kind: 'nats',
  title: 'NATS JetStream',
  version: 1,
  spec: natsSpec,
  capabilities: {
    read: false,
    write: false,
    writeModes: [],
    stream: { starts: ['all', 'new', 'from_time', 'from_sequence'] },
  },
  async open(config, context): Promise<ConnectorHandle> {
    if (config.user && !config.password)
      throw new ConnectorError('invalid_config', 'password: required with user', false);
    return {
      check: () =>
        checkBroker({
          open: () => open(config, context),
          // JetStream must be enabled for this account.
          probe: async (nc) => (await nats().jetstreamManager(nc)).getAccountInfo(),
          close: (nc) => nc.close(),
          classify: classifyNats,
        }),
      async discover() {
        const nc = await open(config, context);
        try {
          const jsm = await nats().jetstreamManager(nc);
          const streams = await jsm.streams.list().next();
          return streams.map((s) => ({
            namespace: null,
            name: s.config.name,
            columns: [
              {
                name: 'subject',
                type: 'string' as const,
                sourceType: (s.config.subjects ?? []).join(', '),
                nullable: false,
              },
            ],
            primaryKey: [],
            rowEstimate: s.state.messages,
          }));
        } catch (error) {
          throw classifyNats(error);
        } finally {
          await nc.close().catch(() => undefined);
        }
      },
      messageSource: (options) => natsSource(config, context, options),
      async close() {},
    };
  },
};
