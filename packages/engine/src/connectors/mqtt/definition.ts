/**
 * MQTT (3.1.1 or 5) as a stream source: a persistent session (clean: false, the client id is the
 * stream's consumer name) subscribed to a topic filter at QoS 1, with the PUBACK sent only when the
 * message is settled. The broker redelivers what was not acknowledged when a client with the same id
 * connects again (the worker that takes a stream over); the number of messages it sends before
 * acknowledgements is the broker's in-flight limit (Mosquitto: `max_inflight_messages`, 20 unless
 * configured; MQTT 5: also our Receive Maximum). MQTT has no negative acknowledgement: a message given
 * back is delivered again by the source itself, counted per process. The message id is an MQTT 5 user
 * property `message_id` when the publisher sets one, else a SHA-256 of topic and payload.
 *
 * Batches: mqtt.js hands out the next packet only once the handler of this one is done, and sends
 * the PUBACK of a QoS 1 message as that handler ends. The source's handler (`handleMessage`, for both
 * protocol versions) keeps the message and ends with an error, which lets the next packet in and sends
 * no PUBACK; the PUBACK is sent when the message is settled, after the destination committed. So a
 * batch holds as many messages as the broker lets be unacknowledged at once; since the broker does
 * not say how many that is, a batch also ends when no message came for IDLE_MS.
 */
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type { IClientOptions, IPublishPacket, MqttClient } from 'mqtt';
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

export const mqttSpec = Type.Object(
  {
    host: Type.String({ minLength: 1, title: 'Host' }),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, default: 1883, title: 'Port' })),
    user: Type.Optional(Type.String({ minLength: 1, title: 'User' })),
    password: Secret('Password'),
    protocol_version: Type.Optional(
      Type.Union([Type.Literal(4), Type.Literal(5)], { default: 5, title: 'Protocol (4: MQTT 3.1.1, 5: MQTT 5)' }),
    ),
    tls: Type.Optional(Type.Boolean({ default: false, title: 'TLS (mqtts, server certificate verified)' })),
  },
  { additionalProperties: false },
);
type MqttConfig = ConnectorConfig<typeof mqttSpec>;

export function classifyMqtt(error: unknown): ConnectorError {
  if (error instanceof ConnectorError) return error;
  const e = error as { code?: string | number; message?: string };
  const message = e.message ?? String(error);
  if (
    /Not authorized|Bad user name or password|bad username/i.test(message) ||
    e.code === 134 ||
    e.code === 135 ||
    e.code === 4 ||
    e.code === 5
  )
    return new ConnectorError(
      'auth_failed',
      'the MQTT broker refused the credentials: check the user and password',
      false,
    );
  if (e.code === 'ECONNREFUSED' || /ECONNREFUSED/.test(message))
    return new ConnectorError(
      'unreachable',
      'connection refused: is the MQTT broker running and the port right?',
      true,
    );
  if (/timeout/i.test(message)) return new ConnectorError('timeout', 'the MQTT broker did not answer in time', true);
  return new ConnectorError('failed', message, true, { cause: error });
}

async function open(
  config: MqttConfig,
  context: ConnectorContext,
  extra: Partial<IClientOptions> = {},
  /** Runs on the client before any packet can arrive (a persistent session's messages come right after CONNACK). */
  setup?: (client: MqttClient) => void,
): Promise<MqttClient> {
  const port = config.port ?? 1883;
  const { address } = await egressOf(context).resolve(config.host, port);
  // mqtt.js is loaded by the first MQTT connection a process opens, not by every process.
  const { default: mqtt } = await import('mqtt');
  const client = mqtt.connect({
    host: address,
    port,
    protocol: config.tls ? 'mqtts' : 'mqtt',
    ...(config.tls && !isIP(config.host) ? { servername: config.host } : {}),
    protocolVersion: config.protocol_version ?? 5,
    ...(config.user ? { username: config.user } : {}),
    ...(config.password ? { password: config.password } : {}),
    reconnectPeriod: 0,
    connectTimeout: 10_000,
    ...extra,
  });
  try {
    setup?.(client);
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
      client.once('close', () =>
        reject(new ConnectorError('unreachable', 'the MQTT broker closed the connection', true)),
      );
    });
    client.removeAllListeners('error');
    client.on('error', () => undefined);
    return client;
  } catch (error) {
    client.end(true);
    throw classifyMqtt(error);
  }
}

interface Delivery {
  packet: IPublishPacket;
  count: number;
}

/** A batch ends when no message came for this long (the broker's window of unacknowledged messages is full). */
const IDLE_MS = 5;

/** What the source's handler answers mqtt.js so that it sends no PUBACK now (see the module comment). */
const HELD = new Error('held until the destination commits');

/** mqtt.js's own sender of packets (private in its types, and how it sends its PUBACKs). */
type PacketSender = (packet: { cmd: 'puback'; messageId: number; reasonCode?: number }, cb?: () => void) => void;
function packetSender(client: MqttClient): PacketSender {
  const send = (client as unknown as { _sendPacket?: PacketSender })._sendPacket;
  if (typeof send !== 'function')
    throw new ConnectorError('unsupported', 'this version of the mqtt client library cannot acknowledge later', false);
  return send.bind(client);
}

const idOf = (packet: IPublishPacket) => {
  const own = packet.properties?.userProperties?.['message_id'];
  if (typeof own === 'string' && own) return own;
  return `sha256:${createHash('sha256').update(packet.topic).update('\u0000').update(packet.payload).digest('hex')}`;
};

function mqttSource(config: MqttConfig, context: ConnectorContext, options: MessageSourceOptions): MessageSource {
  const buffer = new MessageBuffer<Delivery>(options.maxInFlight + 1);
  const held = new Map<string, Delivery>();
  let client: MqttClient | undefined;
  let starting: Promise<void> | undefined;
  let stopped = false;
  let receipts = 0;

  let puback: PacketSender | undefined;
  const version = config.protocol_version ?? 5;

  const start = async () => {
    const c = await open(
      config,
      context,
      {
        clientId: options.consumer.slice(0, 23),
        clean: false,
        ...(version === 5
          ? {
              properties: { sessionExpiryInterval: 7 * 86_400, receiveMaximum: Math.min(options.maxInFlight, 65_535) },
            }
          : {}),
      },
      (created) => {
        puback = packetSender(created);
        created.handleMessage = (packet, callback) => {
          void buffer.push({ packet, count: packet.dup ? 2 : 1 });
          callback(HELD);
        };
      },
    );
    client = c;
    c.on('close', () => {
      if (!stopped) buffer.fail(new ConnectorError('unreachable', 'the MQTT connection closed', true));
    });
    await new Promise<void>((resolve, reject) =>
      c.subscribe(options.name, { qos: 1 }, (error, granted) => {
        if (error) return reject(classifyMqtt(error));
        if (granted?.some((g) => g.qos === 128))
          return reject(
            new ConnectorError('missing_privilege', `the broker refused the subscription to ${options.name}`, false),
          );
        resolve();
      }),
    );
  };

  const toMessage = (delivery: Delivery): BrokerMessage => {
    const receipt = String(++receipts);
    held.set(receipt, delivery);
    return {
      id: idOf(delivery.packet),
      position: null,
      data: Buffer.from(delivery.packet.payload),
      deliveryCount: delivery.count,
      publishedAt: new Date(),
      subject: delivery.packet.topic,
      receipt,
    };
  };

  return {
    async receive(max, waitMs, signal) {
      starting ??= start();
      await starting;
      return (await buffer.take(max, waitMs, signal, IDLE_MS)).map(toMessage);
    },
    async ack(messages) {
      for (const message of messages) {
        const delivery = held.get(message.receipt!);
        held.delete(message.receipt!);
        // QoS 0 messages are not acknowledged.
        if (delivery && delivery.packet.qos > 0 && puback && delivery.packet.messageId !== undefined)
          puback({
            cmd: 'puback',
            messageId: delivery.packet.messageId,
            ...(version === 5 ? { reasonCode: 0 } : {}),
          });
      }
    },
    // Published at QoS 1 to a topic outside the filter read; MQTT 5 carries the reason as user properties
    // (svc-error, svc-message-id, svc-topic), MQTT 3.1.1 has nowhere to put it (the stream's list has it).
    async deadLetter(target, message, reason) {
      await (starting ??= start());
      await client!.publishAsync(target, message.data, {
        qos: 1,
        ...(version === 5
          ? {
              properties: {
                userProperties: {
                  'svc-error': reason.slice(0, 1000),
                  'svc-message-id': message.id,
                  ...(message.subject ? { 'svc-topic': message.subject } : {}),
                },
              },
            }
          : {}),
      });
    },
    async retry(messages) {
      for (const message of messages) {
        const delivery = held.get(message.receipt!);
        held.delete(message.receipt!);
        if (delivery) void buffer.push({ ...delivery, count: delivery.count + 1 });
      }
    },
    async close() {
      stopped = true;
      buffer.clear();
      held.clear();
      await client?.endAsync(true).catch(() => undefined);
    },
  };
}

export const mqttConnector: ConnectorDefinition<typeof mqttSpec> = {
  kind: 'mqtt',
  title: 'MQTT',
  version: 1,
  spec: mqttSpec,
  capabilities: { read: false, write: false, writeModes: [], stream: { starts: ['new'] } },
  async open(config, context): Promise<ConnectorHandle> {
    return {
      check: () =>
        checkBroker({ open: () => open(config, context), close: (c) => c.endAsync(true), classify: classifyMqtt }),
      // MQTT has no way to list topics.
      async discover() {
        return [];
      },
      messageSource: (options) => mqttSource(config, context, options),
      async close() {},
    };
  },
};
