import { Type } from 'typebox';
import { NullableTimestamp, NullableUuid, Timestamp, Uuid } from '../../../platform/schemas.js';
import { Destination } from '../file-ingestions/schemas.js';

export const ATTACHMENT_FORMATS = ['csv', 'json', 'ndjson', 'xlsx', 'parquet'] as const;

export const Filters = Type.Object(
  {
    from: Type.Optional(
      Type.String({ minLength: 1, maxLength: 320, description: 'Only messages whose sender contains this' }),
    ),
    subject_pattern: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description: 'A regular expression the subject must match (case-insensitive)',
      }),
    ),
    since: Type.Optional(
      Type.String({ format: 'date', description: 'Only messages received on or after this day (YYYY-MM-DD)' }),
    ),
  },
  { additionalProperties: false },
);

export const Load = Type.Union([
  Type.Object(
    {
      kind: Type.Literal('attachments', { description: 'Load the attachments that match, each as a file' }),
      glob: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'File name glob; default *' })),
      mime_types: Type.Optional(
        Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
          maxItems: 50,
          description: 'Accepted MIME types (any, when omitted)',
        }),
      ),
      format: Type.Optional(
        Type.Union(
          ATTACHMENT_FORMATS.map((f) => Type.Literal(f)),
          { description: 'Default: from the name (.csv, .json, .ndjson/.jsonl, .xlsx, .parquet), then the MIME type' },
        ),
      ),
      delimiter: Type.Optional(Type.String({ minLength: 1, maxLength: 4, description: 'CSV: default ,' })),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('message_fields', {
        description: 'One row per message: message_id, sender, recipients, subject, sent_at, text',
      }),
    },
    { additionalProperties: false },
  ),
]);

const PostAction = Type.Union(
  [Type.Literal('none'), Type.Literal('mark_seen'), Type.Literal('move'), Type.Literal('delete')],
  { description: 'What happens to a message once loaded' },
);

const definition = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  host: Type.String({ minLength: 1, maxLength: 253 }),
  port: Type.Integer({ minimum: 1, maximum: 65535 }),
  tls: Type.Boolean({
    description: 'IMAP over TLS (port 993 usually); false: plain, upgraded by STARTTLS when offered',
  }),
  username: Type.String({ minLength: 1, maxLength: 320 }),
  password: Type.String({ minLength: 1, maxLength: 1000, 'x-secret': true, description: 'Write-only; kept encrypted' }),
  mailbox: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Default: INBOX' })),
  filters: Type.Optional(Filters),
  load: Load,
  post_action: Type.Optional(PostAction),
  move_to: Type.Optional(
    Type.Union([Type.String({ minLength: 1, maxLength: 500 }), Type.Null()], {
      description: 'post_action move: the folder',
    }),
  ),
  destination: Destination,
  poll_interval_seconds: Type.Optional(
    Type.Union([Type.Integer({ minimum: 10, maximum: 604_800 }), Type.Null()], {
      description: 'Look for new messages this often (none: only on request)',
    }),
  ),
  idle: Type.Optional(
    Type.Boolean({
      description:
        'Keep a connection open and wait for new mail with IMAP IDLE: a new message starts a run within seconds (default false). A hint only: every (re)connection looks for messages missed meanwhile, and the poll interval still applies',
    }),
  ),
};

export const EmailFeedBody = Type.Object({ project_id: Uuid, ...definition }, { additionalProperties: false });
export const EmailFeedPatch = Type.Partial(Type.Object(definition, { additionalProperties: false }), {
  additionalProperties: false,
});

export const EmailFeed = Type.Object({
  id: Uuid,
  project_id: Uuid,
  name: Type.String(),
  host: Type.String(),
  port: Type.Integer(),
  tls: Type.Boolean(),
  username: Type.String(),
  has_password: Type.Boolean(),
  mailbox: Type.String(),
  filters: Type.Object({}, { additionalProperties: true }),
  load: Type.Object({ kind: Type.String() }, { additionalProperties: true }),
  post_action: Type.String(),
  move_to: Type.Union([Type.String(), Type.Null()]),
  destination: Type.Object({}, { additionalProperties: true }),
  poll_interval_seconds: Type.Union([Type.Integer(), Type.Null()]),
  next_poll_at: NullableTimestamp,
  idle: Type.Boolean({ description: 'Whether a worker watches the mailbox with IMAP IDLE' }),
  status: Type.Union([Type.Literal('active'), Type.Literal('degraded')]),
  status_reason: Type.Union([Type.String(), Type.Null()], {
    description: 'degraded: why the mailbox could not be read',
  }),
  status_changed_at: NullableTimestamp,
  uid_validity: Type.Union([Type.String(), Type.Null()], { description: "The mailbox's UIDVALIDITY last seen" }),
  last_uid: Type.String({ description: 'The highest UID handled under that UIDVALIDITY' }),
  last_polled_at: NullableTimestamp,
  created_by: NullableUuid,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const MessageStatus = Type.Union([
  Type.Literal('loaded'),
  Type.Literal('partially_loaded'),
  Type.Literal('failed'),
  Type.Literal('skipped'),
]);

export const MessageRecord = Type.Object({
  id: Uuid,
  feed_id: Uuid,
  uid_validity: Type.String(),
  uid: Type.String(),
  message_id: Type.Union([Type.String(), Type.Null()]),
  from: Type.Union([Type.String(), Type.Null()]),
  subject: Type.Union([Type.String(), Type.Null()]),
  sent_at: NullableTimestamp,
  attachments: Type.Array(
    Type.Object({
      filename: Type.String(),
      content_type: Type.String(),
      size: Type.Integer(),
      loaded: Type.Boolean({ description: 'Whether it matched and was loaded' }),
      rows_loaded: Type.Integer(),
      error: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  rows_loaded: Type.Integer(),
  status: MessageStatus,
  error: Type.Union([Type.String(), Type.Null()]),
  execution_id: NullableUuid,
  created_at: Timestamp,
});

export const MessagesQuery = Type.Object(
  {
    status: Type.Optional(MessageStatus),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  },
  { additionalProperties: false },
);

export const RunQuery = Type.Object(
  {
    from_start: Type.Optional(
      Type.Boolean({
        description: 'Read the mailbox from its first message again (messages loaded already are still skipped)',
      }),
    ),
  },
  { additionalProperties: false },
);
