import { Type } from 'typebox';

export const StreamRunsQuery = Type.Object({
  token: Type.Optional(Type.String({ description: 'Access token (SSE clients cannot send headers)' })),
});
