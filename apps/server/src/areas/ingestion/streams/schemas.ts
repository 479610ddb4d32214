import { Type } from 'typebox';
import { NullableTimestamp, Timestamp, Uuid } from '../../../platform/schemas.js';
import { TransformStepSchema } from '../../etl/pipelines/schemas.js';

const Transforms = Type.Array(TransformStepSchema, {
  maxItems: 100,
  description:
    "Declarative steps (as pipelines have) applied to each message's records before they are written; a message a step cannot apply to is refused (then dead-lettered)",
});

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Identifier = Type.String({ minLength: 1, maxLength: 63, pattern: '^[A-Za-z_][A-Za-z0-9_]*$' });

export const StartPositionSchema = Type.Union(
  [Type.Literal('all'), Type.Literal('new'), Type.Literal('from_time'), Type.Literal('from_sequence')],
  { description: 'Where a new consumer starts, where the broker supports it (RabbitMQ: all)' },
);

export const SourceSchema = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'NATS: the JetStream stream; RabbitMQ: the queue; MQTT: the topic filter; Redis: the stream key',
    }),
    filter: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'NATS: a subject filter' })),
    consumer: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        pattern: '^[A-Za-z0-9_-]+$',
        description: 'Durable consumer or group name (default svc_<stream id>)',
      }),
    ),
    start: Type.Optional(StartPositionSchema),
    start_time: Type.Optional(Timestamp),
    start_sequence: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);

export const FormatSchema = Type.Object(
  {
    type: Type.Union([Type.Literal('json'), Type.Literal('ndjson'), Type.Literal('csv'), Type.Literal('text')]),
    record_path: Type.Optional(
      Type.String({
        maxLength: 500,
        pattern: '^(\\$(\\.[A-Za-z0-9_-]+)*|[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*)?$',
        description: 'JSON formats: path to the record or to an array of records, e.g. $.data.items',
      }),
    ),
  },
  { additionalProperties: false },
);

export const BatchSchema = Type.Object(
  {
    max_rows: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1000 })),
    max_latency_ms: Type.Optional(Type.Integer({ minimum: 10, maximum: 600_000, default: 500 })),
  },
  { additionalProperties: false },
);

export const DeadLetterSchema = Type.Union(
  [
    Type.Object({ kind: Type.Literal('table') }, { additionalProperties: false }),
    Type.Object(
      {
        kind: Type.Literal('broker'),
        target: Type.String({
          minLength: 1,
          maxLength: 500,
          description:
            'A subject (NATS), queue (RabbitMQ), stream key (Redis, not the one read) or topic (MQTT, outside the topic filter read)',
        }),
      },
      { additionalProperties: false },
    ),
  ],
  {
    description:
      'Where dead messages go. Always kept in the stream dead-letter list (for retry); broker also publishes them to a subject, queue, stream key or topic of the source broker, with the reason beside the body (a header, a field of the entry, an MQTT 5 user property)',
  },
);

export const StatusSchema = Type.Union([
  Type.Literal('stopped'),
  Type.Literal('starting'),
  Type.Literal('running'),
  Type.Literal('degraded'),
  Type.Literal('failed'),
  Type.Literal('paused'),
]);

export const CreateStreamBody = Type.Object(
  {
    project_id: Uuid,
    environment_id: Type.Optional(Type.Union([Uuid, Type.Null()])),
    name: Name,
    source_connector_id: Uuid,
    source: SourceSchema,
    format: Type.Optional(FormatSchema),
    destination_connector_id: Uuid,
    table: Identifier,
    write_mode: Type.Optional(Type.Union([Type.Literal('append'), Type.Literal('upsert')])),
    key_columns: Type.Optional(Type.Array(Identifier, { minItems: 1, maxItems: 16 })),
    batch: Type.Optional(BatchSchema),
    max_deliveries: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 5 })),
    dead_letter: Type.Optional(DeadLetterSchema),
    transforms: Type.Optional(Transforms),
    start: Type.Optional(Type.Boolean({ description: 'Start at once (default false)' })),
  },
  { additionalProperties: false },
);

export const UpdateStreamBody = Type.Object(
  {
    name: Type.Optional(Name),
    format: Type.Optional(FormatSchema),
    batch: Type.Optional(BatchSchema),
    max_deliveries: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    dead_letter: Type.Optional(DeadLetterSchema),
    transforms: Type.Optional(Transforms),
  },
  { additionalProperties: false },
);

export const Stream = Type.Object({
  id: Uuid,
  project_id: Uuid,
  environment_id: Type.Union([Uuid, Type.Null()]),
  name: Type.String(),
  source_connector_id: Uuid,
  source: Type.Object({
    name: Type.String(),
    filter: Type.Union([Type.String(), Type.Null()]),
    consumer: Type.String(),
    start: StartPositionSchema,
    start_time: Type.Union([Type.String(), Type.Null()]),
    start_sequence: Type.Union([Type.Integer(), Type.Null()]),
  }),
  format: Type.Object({ type: Type.String(), record_path: Type.Union([Type.String(), Type.Null()]) }),
  destination_connector_id: Uuid,
  table: Type.String(),
  write_mode: Type.Union([Type.Literal('append'), Type.Literal('upsert')]),
  key_columns: Type.Array(Type.String()),
  batch: Type.Object({ max_rows: Type.Integer(), max_latency_ms: Type.Integer() }),
  max_deliveries: Type.Integer(),
  dead_letter: DeadLetterSchema,
  transforms: Type.Array(Type.Record(Type.String(), Type.Unknown())),
  desired_state: Type.Union([Type.Literal('running'), Type.Literal('stopped')]),
  status: StatusSchema,
  last_error: Type.Union([Type.String(), Type.Null()]),
  paused_at: Type.Union([Timestamp, Type.Null()], {
    description: 'Since when the stream is paused (its consumer holds it and takes nothing); start resumes it',
  }),
  consumer_worker: Type.Union([Type.String(), Type.Null()], { description: 'The worker consuming it now' }),
  created_by: Type.Union([Uuid, Type.Null()]),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const StreamRun = Type.Object({
  id: Uuid,
  stream_id: Uuid,
  worker: Type.String(),
  status: Type.Union([
    Type.Literal('running'),
    Type.Literal('stopped'),
    Type.Literal('failed'),
    Type.Literal('interrupted'),
  ]),
  started_at: Timestamp,
  ended_at: NullableTimestamp,
  messages_received: Type.Integer(),
  messages_written: Type.Integer({ description: 'Messages written (their rows committed) or found already written' }),
  rows_written: Type.Integer(),
  duplicates: Type.Integer({ description: 'Redelivered messages found in the ledger, not written again' }),
  dead_lettered: Type.Integer(),
  bytes: Type.Integer(),
  lag_messages: Type.Union([Type.Integer(), Type.Null()], { description: 'Messages waiting at the broker' }),
  latency_seconds: Type.Union([Type.Number(), Type.Null()], {
    description: 'Publish to committed, of the latest batch',
  }),
  last_message_at: NullableTimestamp,
  errors: Type.Integer(),
  last_error: Type.Union([Type.String(), Type.Null()]),
});

export const DeadLetter = Type.Object({
  id: Type.String(),
  stream_id: Uuid,
  message_id: Type.String(),
  subject: Type.Union([Type.String(), Type.Null()]),
  payload: Type.String({ description: 'The message body as UTF-8 (lossy for binary bodies)' }),
  payload_bytes: Type.Integer(),
  reason: Type.String(),
  deliveries: Type.Integer(),
  created_at: Timestamp,
  retry_requested_at: NullableTimestamp,
});

export const ListQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })) },
  { additionalProperties: false },
);
export const DeadLetterParams = Type.Object({ id: Uuid, dead_letter_id: Type.String({ pattern: '^[0-9]{1,18}$' }) });
