import { Type } from 'typebox';
import { NullableUuid, Timestamp, Uuid } from '../../../platform/schemas.js';

const Method = Type.Union(
  [
    Type.Literal('full'),
    Type.Literal('partial'),
    Type.Literal('hash'),
    Type.Literal('null'),
    Type.Literal('regex_replace'),
    Type.Literal('email_domain'),
  ],
  {
    description:
      'full (a constant of the column type), partial (keep first/last N characters), hash (keyed HMAC, deterministic per project), null, regex_replace, email_domain',
  },
);

const Options = Type.Object(
  {
    keep_first: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 1000, description: 'partial: characters kept at the start (default 0)' }),
    ),
    keep_last: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 1000, description: 'partial: characters kept at the end (default 4)' }),
    ),
    pattern: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'regex_replace: what each match replaces' }),
    ),
    replacement: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'regex_replace: literal text put in place of each match (default ****)',
      }),
    ),
  },
  { additionalProperties: false },
);

const Names = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 500, uniqueItems: true, description });

const Exempt = Type.Object(
  {
    capabilities: Type.Optional(
      Names('Holders of any of these capabilities in the project see clear values (default data:read_unmasked)'),
    ),
    roles: Type.Optional(Names('Members with one of these roles see clear values')),
  },
  { additionalProperties: false },
);

export const CreateMaskingPolicyBody = Type.Object(
  {
    project_id: Uuid,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    method: Method,
    options: Type.Optional(Options),
    columns: Type.Optional(Names('Column names it covers, in every dataset (case does not matter)')),
    tags: Type.Optional(Names('Catalog tags: it covers every column carrying one')),
    exempt: Type.Optional(Exempt),
  },
  { additionalProperties: false },
);

export const UpdateMaskingPolicyBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    method: Type.Optional(Method),
    options: Type.Optional(Options),
    columns: Type.Optional(Names('Column names')),
    tags: Type.Optional(Names('Catalog tags')),
    exempt: Type.Optional(Exempt),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const MaskingPolicy = Type.Object({
  id: Uuid,
  project_id: Uuid,
  name: Type.String(),
  method: Method,
  options: Type.Record(Type.String(), Type.Unknown()),
  columns: Type.Array(Type.String()),
  tags: Type.Array(Type.String()),
  exempt: Type.Object({ capabilities: Type.Array(Type.String()), roles: Type.Array(Type.String()) }),
  created_by: NullableUuid,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const MaskingPreviewBody = Type.Object(
  {
    project_id: Uuid,
    columns: Type.Array(
      Type.Object(
        {
          name: Type.String({ minLength: 1, maxLength: 200 }),
          type: Type.Optional(Type.String({ maxLength: 40 })),
          tags: Type.Optional(Names('Tags')),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 500 },
    ),
    rows: Type.Array(Type.Array(Type.Unknown(), { maxItems: 500 }), { maxItems: 100 }),
  },
  { additionalProperties: false },
);

export const MaskingPreview = Type.Object({
  masked: Type.Record(Type.String(), Type.Object({ policy: Type.String(), method: Type.String() })),
  rows: Type.Array(Type.Array(Type.Unknown())),
});
