/**
 * RabbitMQ (AMQP 0-9-1) as a stream source: a consumer of one queue with manual acks and a prefetch
 * (the in-flight bound). The message id is the publisher's `message_id` property, else a SHA-256 of
 * the body (publishers should set message_id: two equal bodies without one are one message). Quorum
 * queues count deliveries (`x-delivery-count`); on classic queues the source counts them itself,
 * per process. AMQP cannot list queues (that is the management plugin's HTTP API), so discover
 * returns nothing.
 */
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
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

export const rabbitmqSpec = Type.Object(
  {
    host: Type.String({ minLength: 1, title: 'Host' }),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, default: 5672, title: 'Port' })),
    user: Type.String({ minLength: 1, title: 'User' }),
    password: Secret('Password'),
    vhost: Type.Optional(Type.String({ default: '/', title: 'Virtual host' })),
    tls: Type.Optional(Type.Boolean({ default: false, title: 'TLS (amqps, server certificate verified)' })),
  },
  { additionalProperties: false },
);
type RabbitConfig = ConnectorConfig<typeof rabbitmqSpec>;

export function classifyAmqp(error: unknown): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const e = error as { code?: string | number; message?: string };
  const message = e.message ?? String(error);
  if (/ACCESS-REFUSED|403/.test(message))
    return new ConnectorError('auth_failed', 'RabbitMQ refused the credentials: check the user and password', false);
  if (/NOT-ALLOWED|vhost/i.test(message))
    return new ConnectorError('missing_privilege', 'RabbitMQ refused access to the virtual host', false);
  if (/NOT_FOUND|404/.test(message))
    return new ConnectorError('not_found', `the queue does not exist (${message})`, false);
  if (e.code === 'ECONNREFUSED' || /ECONNREFUSED/.test(message))
    return new ConnectorError('unreachable', 'connection refused: is RabbitMQ running and the port right?', true);
  if (/timeout|ETIMEDOUT/i.test(message)) return new ConnectorError('timeout', 'RabbitMQ did not answer in time', true);
  return new ConnectorError('failed', message, true, { cause: error });
}

async function open(config: RabbitConfig, context: ConnectorContext): Promise<ChannelModel> {
  const port = config.port ?? 5672;
  const { address } = await egressOf(context).resolve(config.host, port);
  // amqplib is loaded by the first RabbitMQ connection a process opens, not by every process.
  const { default: amqp } = await import('amqplib');
  try {
    return await amqp.connect(
      {
        protocol: config.tls ? 'amqps' : 'amqp',
        hostname: address,
        port,
        username: config.user,
        password: config.password ?? '',
        vhost: config.vhost ?? '/',
        heartbeat: 30,
      },
      { timeout: 10_000, ...(config.tls && !isIP(config.host) ? { servername: config.host } : {}) },
    );
  } catch (error) {
    throw classifyAmqp(error);
  }
}

const idOf = (m: ConsumeMessage) =>
  typeof m.properties.messageId === 'string' && m.properties.messageId
    ? m.properties.messageId
    : `sha256:${createHash('sha256').update(m.content).digest('hex')}`;

function rabbitSource(config: RabbitConfig, context: ConnectorContext, options: MessageSourceOptions): MessageSource {
  const buffer = new MessageBuffer<ConsumeMessage>(options.maxInFlight + 1);
  const held = new Map<number, ConsumeMessage>();
  // Deliveries of messages given back, by id (classic queues do not count them).
  const deliveries = new Map<string, number>();
  let connection: ChannelModel | undefined;
  let channel: Channel | undefined;
  let starting: Promise<void> | undefined;
  let stopped = false;

  const start = async () => {
    connection = await open(config, context);
    const lost = (error?: Error) => {
      if (!stopped)
        buffer.fail(
          error ? classifyAmqp(error) : new ConnectorError('unreachable', 'the RabbitMQ connection closed', true),
        );
    };
    connection.on('close', lost);
    connection.on('error', lost);
    try {
      channel = await connection.createChannel();
      channel.on('error', lost);
      await channel.checkQueue(options.name);
      // AMQP's prefetch count is a 16-bit field.
      await channel.prefetch(Math.min(options.maxInFlight, 65_535));
      await channel.consume(
        options.name,
        (m) => {
          if (m === null) {
            buffer.fail(
              new ConnectorError(
                'not_found',
                `RabbitMQ cancelled the consumer of queue "${options.name}" (deleted?)`,
                true,
              ),
            );
            return;
          }
          void buffer.push(m);
        },
        { noAck: false, consumerTag: `${options.consumer}-${process.pid}-${Date.now()}` },
      );
    } catch (error) {
      throw classifyAmqp(error);
    }
  };

  const toMessage = (m: ConsumeMessage): BrokerMessage => {
    held.set(m.fields.deliveryTag, m);
    const id = idOf(m);
    const header = m.properties.headers?.['x-delivery-count'];
    const counted = deliveries.get(id);
    const deliveryCount =
      typeof header === 'number' ? header + 1 : counted !== undefined ? counted + 1 : m.fields.redelivered ? 2 : 1;
    deliveries.set(id, deliveryCount);
    const stamp = m.properties.timestamp as number | undefined;
    return {
      id,
      position: null,
      receipt: String(m.fields.deliveryTag),
      data: m.content,
      deliveryCount,
      publishedAt: stamp ? new Date(stamp > 1e12 ? stamp : stamp * 1000) : new Date(),
      subject: m.fields.routingKey,
    };
  };
  const settle = (messages: BrokerMessage[], how: (ch: Channel, m: ConsumeMessage) => void, forget: boolean) => {
    for (const message of messages) {
      const tag = Number(message.receipt);
      const m = held.get(tag);
      held.delete(tag);
      if (forget) deliveries.delete(message.id);
      if (m && channel) how(channel, m);
    }
  };

  return {
    async receive(max, waitMs, signal) {
      starting ??= start();
      await starting;
      return (await buffer.take(max, waitMs, signal)).map(toMessage);
    },
    async ack(messages) {
      // One `multiple` ack up to the highest tag when every delivery held below it is in this batch
      // (the usual case: batches are acknowledged in order); else one ack per message.
      if (!messages.length) return;
      const tags = new Set(messages.map((m) => Number(m.receipt)));
      const top = Math.max(...tags);
      const covered = [...held.keys()].every((tag) => tag > top || tags.has(tag));
      const last = held.get(top);
      if (!covered || !last || !channel) {
        settle(messages, (ch, m) => ch.ack(m), true);
        return;
      }
      for (const message of messages) {
        held.delete(Number(message.receipt));
        deliveries.delete(message.id);
      }
      channel.ack(last, true);
    },
    async retry(messages) {
      settle(messages, (ch, m) => ch.nack(m, false, true), false);
    },
    async deadLetter(target, message, reason) {
      const c = connection ?? (await open(config, context));
      connection ??= c;
      const confirm = await c.createConfirmChannel();
      try {
        confirm.sendToQueue(target, message.data, {
          persistent: true,
          messageId: message.id,
          headers: { 'x-svc-error': reason.slice(0, 1000), 'x-svc-routing-key': message.subject ?? '' },
        });
        await confirm.waitForConfirms();
      } finally {
        await confirm.close().catch(() => undefined);
      }
    },
    async lag() {
      if (!channel) return null;
      return (await channel.checkQueue(options.name)).messageCount;
    },
    async close() {
      stopped = true;
      buffer.clear();
      held.clear();
      await connection?.close().catch(() => undefined);
    },
  };
}

export const rabbitmqConnector: ConnectorDefinition<typeof rabbitmqSpec> = {
  kind: 'rabbitmq',
  title: 'RabbitMQ',
  version: 1,
  spec: rabbitmqSpec,
  capabilities: { read: false, write: false, writeModes: [], stream: { starts: ['all'] } },
  async open(config, context): Promise<ConnectorHandle> {
    return {
      check: () =>
        checkBroker({
          open: () => open(config, context),
          probe: async (c) => (await c.createChannel()).close(),
          close: (c) => c.close(),
          classify: classifyAmqp,
        }),
      async discover() {
        // AMQP has no way to list queues; the management plugin's HTTP API does, and is not assumed.
        return [];
      },
      messageSource: (options) => rabbitSource(config, context, options),
      async close() {},
    };
  },
};
