import { Type } from 'typebox';
import { NullableTimestamp } from '../../../platform/schemas.js';

export const License = Type.Object({
  state: Type.Union([Type.Literal('unlicensed'), Type.Literal('licensed'), Type.Literal('expired')]),
  customer: Type.Union([Type.String(), Type.Null()]),
  seats: Type.Union([Type.Integer(), Type.Null()]),
  features: Type.Array(Type.String()),
  expires_at: NullableTimestamp,
});
export const PutLicenseBody = Type.Object(
  { license: Type.String({ minLength: 1, maxLength: 20_000 }) },
  { additionalProperties: false },
);
