import { Type, type TObject } from 'typebox';
import { NullableTimestamp, NullableUuid, Timestamp, Uuid } from '../../../platform/schemas.js';
import type { RuleKind } from './conditions.js';

const Seconds = (description: string) => Type.Integer({ minimum: 0, maximum: 31_536_000, description });

/** The parameters of each kind, validated when a rule is created or changed (422 naming params.<field>). */
export const RULE_PARAMS: Record<RuleKind, TObject> = {
  run_failed: Type.Object({}, { additionalProperties: false }),
  consecutive_failures: Type.Object(
    { count: Type.Integer({ minimum: 2, maximum: 100, description: 'Failed runs in a row' }) },
    { additionalProperties: false },
  ),
  run_duration: Type.Object(
    {
      max_seconds: Type.Integer({
        minimum: 1,
        maximum: 31_536_000,
        description: 'A run still running this long after its start fires (the deadline is set when it starts)',
      }),
    },
    { additionalProperties: false },
  ),
  freshness: Type.Object(
    {
      max_age_seconds: Type.Integer({
        minimum: 1,
        maximum: 31_536_000,
        description: 'No successful run of the item for this long fires',
      }),
    },
    { additionalProperties: false },
  ),
  cdc_lag: Type.Object(
    {
      max_lag_seconds: Type.Optional(Type.Number({ minimum: 0 })),
      max_lag_bytes: Type.Optional(Type.Integer({ minimum: 0 })),
      max_retained_wal_bytes: Type.Optional(
        Type.Integer({ minimum: 0, description: 'WAL the replication slot holds back on the source (slot bloat)' }),
      ),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
  stream_lag: Type.Object(
    {
      max_lag_seconds: Type.Optional(
        Type.Number({ minimum: 0, description: 'Publish to committed in the destination, of the latest batch' }),
      ),
      max_lag_messages: Type.Optional(
        Type.Integer({ minimum: 0, description: 'Messages waiting at the broker, as the consumer saw last' }),
      ),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
  row_count: Type.Object(
    {
      fraction: Type.Number({
        exclusiveMinimum: 0,
        maximum: 1,
        description:
          "A successful run writing fewer rows than this fraction of the median of the item's previous runs fires",
      }),
      last_runs: Type.Optional(Type.Integer({ minimum: 1, maximum: 49, default: 10 })),
      min_runs: Type.Optional(Type.Integer({ minimum: 1, maximum: 49, default: 3 })),
    },
    { additionalProperties: false },
  ),
};

const Kind = Type.Union(
  [
    Type.Literal('run_failed'),
    Type.Literal('consecutive_failures'),
    Type.Literal('run_duration'),
    Type.Literal('freshness'),
    Type.Literal('cdc_lag'),
    Type.Literal('stream_lag'),
    Type.Literal('row_count'),
  ],
  { description: 'run_failed, consecutive_failures, run_duration, freshness, cdc_lag, stream_lag, row_count' },
);
const Severity = Type.Union([Type.Literal('info'), Type.Literal('warning'), Type.Literal('critical')]);
const State = Type.Union([
  Type.Literal('ok'),
  Type.Literal('pending'),
  Type.Literal('firing'),
  Type.Literal('resolved'),
]);
const ScopeItem = Type.Object(
  {
    kind: Type.Union(
      [
        Type.Literal('pipeline'),
        Type.Literal('sync'),
        Type.Literal('export'),
        Type.Literal('file_ingestion'),
        Type.Literal('inbox'),
        Type.Literal('dw_model'),
        Type.Literal('cdc_table'),
        Type.Literal('stream'),
      ],
      {
        description:
          'pipeline, sync (id: "<source connector id>><destination connector id>"), export, file_ingestion, inbox, dw_model (run rules), cdc_table (cdc_lag) or stream (stream_lag)',
      },
    ),
    id: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false },
);
const Scope = Type.Array(ScopeItem, {
  maxItems: 200,
  description:
    "The items the rule watches; empty: every item of the project (every run's subject, every CDC table or every stream)",
});
const Params = Type.Record(Type.String(), Type.Unknown(), { description: "The kind's parameters (docs/alerting.md)" });

const Timing = {
  severity: Type.Optional(Severity),
  for: Type.Optional(Seconds('Seconds the condition must hold before the rule fires (pending until then)')),
  keep_firing_for: Type.Optional(Seconds('Seconds the rule keeps firing after the condition cleared')),
  repeat_interval: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1, maximum: 31_536_000 }), Type.Null()], {
      description: 'Seconds between repeated notifications while firing; null: notify once per state change',
    }),
  ),
  channel_ids: Type.Optional(Type.Array(Uuid, { maxItems: 20, uniqueItems: true })),
  muted_until: Type.Optional(Type.Union([Timestamp, Type.Null()], { description: 'No notification before then' })),
  enabled: Type.Optional(Type.Boolean()),
};

export const ItemState = Type.Object({
  item_kind: Type.String(),
  item_id: Type.String(),
  item_name: Type.Union([Type.String(), Type.Null()]),
  state: State,
  since: Timestamp,
  deadline_at: NullableTimestamp,
  last_notified_at: NullableTimestamp,
  value: Type.Record(Type.String(), Type.Unknown()),
  link: Type.Union([Type.String(), Type.Null()]),
});

export const AlertRule = Type.Object({
  id: Uuid,
  project_id: Uuid,
  name: Type.String(),
  kind: Kind,
  params: Type.Record(Type.String(), Type.Unknown()),
  scope: Type.Array(Type.Object({ kind: Type.String(), id: Type.String() })),
  severity: Severity,
  for: Type.Integer(),
  keep_firing_for: Type.Integer(),
  repeat_interval: Type.Union([Type.Integer(), Type.Null()]),
  channel_ids: Type.Array(Uuid),
  muted_until: NullableTimestamp,
  enabled: Type.Boolean(),
  state: Type.Union([State], { description: 'The most urgent state of its items (firing > pending > resolved > ok)' }),
  items: Type.Array(ItemState),
  created_by: NullableUuid,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const CreateAlertRuleBody = Type.Object(
  {
    project_id: Uuid,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    kind: Kind,
    params: Type.Optional(Params),
    scope: Type.Optional(Scope),
    ...Timing,
  },
  { additionalProperties: false },
);

export const UpdateAlertRuleBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    params: Type.Optional(Params),
    scope: Type.Optional(Scope),
    ...Timing,
  },
  { additionalProperties: false, minProperties: 1 },
);

export const AlertEvent = Type.Object({
  id: Type.String(),
  rule_id: Uuid,
  item_kind: Type.String(),
  item_id: Type.String(),
  item_name: Type.Union([Type.String(), Type.Null()]),
  previous_state: State,
  state: State,
  repeat: Type.Boolean({ description: 'A repeated notification of a rule still firing' }),
  muted: Type.Boolean({ description: 'The rule was muted: nothing was sent' }),
  value: Type.Record(Type.String(), Type.Unknown()),
  at: Timestamp,
  notifications: Type.Array(
    Type.Object({
      channel_id: NullableUuid,
      user_id: NullableUuid,
      status: Type.Union([Type.Literal('pending'), Type.Literal('sent'), Type.Literal('failed')]),
      attempts: Type.Integer(),
      last_error: Type.Union([Type.String(), Type.Null()]),
      sent_at: NullableTimestamp,
    }),
  ),
});

export const AlertEventsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
    before: Type.Optional(Type.String({ pattern: '^[0-9]{1,19}$', description: 'Events older than this event id' })),
  },
  { additionalProperties: false },
);

export const FiringSummary = Type.Object({
  firing: Type.Integer({ description: 'Rule items firing in the projects the caller may read' }),
  pending: Type.Integer(),
});
