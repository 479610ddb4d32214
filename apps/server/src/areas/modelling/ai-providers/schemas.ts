import { Type } from 'typebox';
import { NullableUuid, Timestamp, Uuid } from '../../../platform/schemas.js';

const ProviderType = Type.Union(
  [Type.Literal('openai'), Type.Literal('anthropic'), Type.Literal('openai_compatible')],
  {
    description: 'openai_compatible: a self-hosted server speaking the OpenAI chat API (Ollama, vLLM, LiteLLM)',
  },
);

const ProviderFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  type: ProviderType,
  base_url: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 2000,
      description: 'Default: the public API of openai and anthropic; required for openai_compatible',
    }),
  ),
  model: Type.String({ minLength: 1, maxLength: 200 }),
  api_key: Type.Optional(
    Type.Union([Type.String({ minLength: 1, maxLength: 10_000 }), Type.Null()], {
      description: 'Write-only: stored encrypted, never answered; null removes it',
    }),
  ),
  temperature: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 2 }), Type.Null()])),
  max_tokens: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 200_000 }), Type.Null()])),
  requests_per_minute: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1, maximum: 100_000 }), Type.Null()], { description: 'null: no limit' }),
  ),
  tokens_per_month: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'Input and output tokens; null: no limit' }),
  ),
  enabled: Type.Optional(Type.Boolean()),
};

export const ProviderBody = Type.Object(
  {
    project_id: Type.Optional(
      Type.Union([Uuid, Type.Null()], { description: 'null or absent: instance-wide (administrators only)' }),
    ),
    ...ProviderFields,
  },
  { additionalProperties: false },
);
export const ProviderPatch = Type.Partial(Type.Object(ProviderFields, { additionalProperties: false }), {
  minProperties: 1,
});

export const Provider = Type.Object({
  id: Uuid,
  project_id: NullableUuid,
  name: Type.String(),
  type: Type.String(),
  base_url: Type.String(),
  model: Type.String(),
  api_key_set: Type.Boolean({ description: 'Whether an API key is stored (its value is never answered)' }),
  temperature: Type.Union([Type.Number(), Type.Null()]),
  max_tokens: Type.Union([Type.Integer(), Type.Null()]),
  requests_per_minute: Type.Union([Type.Integer(), Type.Null()]),
  tokens_per_month: Type.Union([Type.Integer(), Type.Null()]),
  enabled: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const TestResult = Type.Object({
  ok: Type.Boolean(),
  reply: Type.String({ description: "The start of the model's answer to a fixed question" }),
  input_tokens: Type.Integer(),
  output_tokens: Type.Integer(),
  duration_ms: Type.Integer(),
});

export const Usage = Type.Object({
  requests_last_minute: Type.Integer(),
  tokens_this_month: Type.Integer(),
  requests_per_minute: Type.Union([Type.Integer(), Type.Null()]),
  tokens_per_month: Type.Union([Type.Integer(), Type.Null()]),
  recent: Type.Array(
    Type.Object({
      at: Timestamp,
      project_id: NullableUuid,
      user_id: NullableUuid,
      purpose: Type.String(),
      status: Type.String(),
      input_tokens: Type.Integer(),
      output_tokens: Type.Integer(),
    }),
  ),
});

export const DraftModelBody = Type.Object(
  {
    project_id: Uuid,
    question: Type.String({ minLength: 1, maxLength: 4000 }),
    include_samples: Type.Optional(
      Type.Boolean({ description: 'Put a few sample rows (masked) of each table into the prompt; default false' }),
    ),
  },
  { additionalProperties: false },
);
export const DraftModel = Type.Object({
  sql: Type.String({ description: 'Checked: one SELECT reading only ref() and source() of the project' }),
  refs: Type.Array(Type.String()),
  sources: Type.Array(Type.Object({ schema: Type.String(), table: Type.String() })),
});

export const SuggestStepsBody = Type.Object(
  {
    project_id: Uuid,
    description: Type.String({ minLength: 1, maxLength: 4000 }),
    columns: Type.Optional(
      Type.Array(Type.Object({ name: Type.String({ minLength: 1 }), type: Type.String({ minLength: 1 }) }), {
        maxItems: 500,
      }),
    ),
  },
  { additionalProperties: false },
);
export const SuggestedSteps = Type.Object({
  steps: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
    description: 'Checked against the step schema; nothing is saved',
  }),
});

export const DescribeDatasetBody = Type.Object({ dataset_id: Uuid }, { additionalProperties: false });
export const DatasetDescription = Type.Object({
  description: Type.String(),
  columns: Type.Array(Type.Object({ name: Type.String(), description: Type.String() })),
});
