import { Type } from 'typebox';
import { Uuid } from '../../platform/schemas.js';

const Config = Type.Record(Type.String(), Type.Unknown(), {
  description: "Fields of the kind's spec (GET /data-connectors/kinds)",
});

export const DataConnector = Type.Object({
  id: Uuid,
  project_id: Uuid,
  environment_id: Type.Union([Uuid, Type.Null()]),
  name: Type.String(),
  kind: Type.String(),
  config: Type.Record(Type.String(), Type.Unknown(), { description: 'The configuration without its secret fields' }),
  secrets_set: Type.Array(Type.String(), {
    description: 'Names of the secret fields that hold a value (never the values)',
  }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const CreateConnectorBody = Type.Object(
  {
    project_id: Uuid,
    environment_id: Type.Optional(Type.Union([Uuid, Type.Null()])),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    kind: Type.String({ minLength: 1, maxLength: 50 }),
    config: Config,
  },
  { additionalProperties: false },
);

export const UpdateConnectorBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    environment_id: Type.Optional(Type.Union([Uuid, Type.Null()])),
    config: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'Fields to change; omitted fields (secrets too) keep their value; null removes a field',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const Kind = Type.Object({
  kind: Type.String(),
  title: Type.String(),
  version: Type.Integer(),
  spec: Type.Record(Type.String(), Type.Unknown(), {
    description: 'JSON Schema of the configuration; secret fields carry "x-secret": true',
  }),
  capabilities: Type.Object({
    read: Type.Boolean(),
    write: Type.Boolean(),
    writeModes: Type.Array(Type.String()),
    stream: Type.Optional(
      Type.Object(
        { starts: Type.Array(Type.String()) },
        { description: 'Message brokers: the start positions a stream of this kind may take' },
      ),
    ),
  }),
  secret_fields: Type.Array(Type.String()),
});

export const TestResult = Type.Object({
  ok: Type.Boolean(),
  code: Type.Optional(
    Type.String({ description: 'auth_failed, unreachable, timeout, missing_privilege, not_found, ...' }),
  ),
  message: Type.Optional(Type.String()),
  detail: Type.Optional(Type.String()),
  duration_ms: Type.Integer(),
});

export const DiscoverResult = Type.Object({
  datasets: Type.Array(
    Type.Object({
      namespace: Type.Union([Type.String(), Type.Null()]),
      name: Type.String(),
      columns: Type.Integer(),
      primary_key: Type.Array(Type.String()),
      row_estimate: Type.Union([Type.Integer(), Type.Null()]),
    }),
  ),
});
