import { Type, type TObject } from 'typebox';
import { NullableTimestamp, NullableUuid, Timestamp, Uuid } from '../../../platform/schemas.js';
import { FACILITIES } from './syslog.js';

const secret = (description: string) => Type.String({ minLength: 1, maxLength: 8000, description, 'x-secret': true });

const HttpSettings = Type.Object(
  {
    url: Type.String({
      format: 'uri',
      pattern: '^https?://',
      maxLength: 2000,
      description: 'Receives POSTed JSON batches',
    }),
    headers: Type.Optional(
      Type.Record(Type.String({ pattern: '^[A-Za-z0-9-]{1,100}$' }), Type.String({ maxLength: 4000 }), {
        description: 'Extra request headers (write-only: they may carry credentials)',
        'x-secret': true,
      }),
    ),
    token: Type.Optional(secret('Sent as X-Svc-Verification-Token, for the receiver to check')),
  },
  { additionalProperties: false },
);

const SyslogSettings = Type.Object(
  {
    host: Type.String({ minLength: 1, maxLength: 255 }),
    port: Type.Integer({ minimum: 1, maximum: 65535, default: 514 }),
    transport: Type.Union([Type.Literal('udp'), Type.Literal('tcp'), Type.Literal('tls')], { default: 'tcp' }),
    framing: Type.Union([Type.Literal('octet-counting'), Type.Literal('lf')], {
      default: 'octet-counting',
      description: 'TCP and TLS: RFC 6587 octet counting ("<length> <message>") or one message per line',
    }),
    facility: Type.Union(
      Object.keys(FACILITIES).map((name) => Type.Literal(name)),
      { default: 'local0' },
    ),
    app_name: Type.String({ minLength: 1, maxLength: 48, pattern: '^[\\x21-\\x7e]+$', default: 'svc' }),
    hostname: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' })),
    ca: Type.Optional(
      Type.String({
        maxLength: 100_000,
        description: "TLS: PEM of the CA certificates the server is verified against (else the system's)",
      }),
    ),
    client_cert: Type.Optional(
      Type.String({
        maxLength: 100_000,
        description:
          'TLS: PEM of the client certificate (then its intermediates) shown to a server that demands one (mutual TLS); needs client_key',
      }),
    ),
    client_key: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 20_000,
        description: "TLS: PEM of the client certificate's private key, unencrypted (write-only)",
        'x-secret': true,
      }),
    ),
    insecure: Type.Optional(
      Type.Boolean({ default: false, description: "TLS: accept a server certificate that can't be verified" }),
    ),
  },
  { additionalProperties: false },
);

export const DESTINATION_SETTINGS: Record<'http' | 'syslog', TObject> = { http: HttpSettings, syslog: SyslogSettings };

const Type_ = Type.Union([Type.Literal('http'), Type.Literal('syslog')]);
const Actions = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  maxItems: 200,
  uniqueItems: true,
  description: 'Audit event kinds to forward; empty: every kind',
});

export const AuditForwarder = Type.Object({
  id: Uuid,
  name: Type.String(),
  type: Type_,
  config: Type.Record(Type.String(), Type.Unknown()),
  secrets_set: Type.Array(Type.String()),
  actions: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  cursor: Type.String({ description: 'Id of the last audit event delivered (or passed over)' }),
  backlog: Type.Integer({ description: 'Events after the cursor, waiting (counted up to the backlog limit + 1)' }),
  sent: Type.Integer(),
  failed: Type.Integer({ description: 'Events of failed attempts (each is retried)' }),
  skipped: Type.Integer({
    description: 'Events passed over because the backlog overflowed (each overflow is audited)',
  }),
  last_delivered_at: NullableTimestamp,
  last_error: Type.Union([Type.String(), Type.Null()]),
  last_error_at: NullableTimestamp,
  next_attempt_at: Timestamp,
  created_by: NullableUuid,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const CreateAuditForwarderBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    type: Type_,
    config: Type.Record(Type.String(), Type.Unknown()),
    actions: Type.Optional(Actions),
    enabled: Type.Optional(Type.Boolean()),
    start_from: Type.Optional(
      Type.Union([Type.Literal('now'), Type.Literal('beginning')], {
        description: 'now (default): events from the creation on; beginning: the whole audit log',
      }),
    ),
  },
  { additionalProperties: false },
);

export const UpdateAuditForwarderBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    config: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    actions: Type.Optional(Actions),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const ForwarderTestResult = Type.Object({
  ok: Type.Boolean(),
  detail: Type.String({ description: 'The remote answer, or why the delivery failed' }),
});
