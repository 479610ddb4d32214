/**
 * Typed domain errors. Areas throw errors made by defineError; the error handler (./handler.ts)
 * alone turns them, and every framework error, into the envelope {detail, request_id, ...extras}.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly statusCode: number,
    detail: string,
    readonly extras: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

export function defineError<Args extends unknown[]>(
  code: string,
  statusCode: number,
  build: (...args: Args) => { detail: string; extras?: Record<string, unknown>; headers?: Record<string, string> },
) {
  return (...args: Args): AppError => {
    const { detail, extras, headers } = build(...args);
    return new AppError(code, statusCode, detail, extras, headers);
  };
}

export interface FieldError {
  path: string;
  message: string;
}

export const unauthenticated = defineError('unauthenticated', 401, (detail: string = 'Authentication required') => ({
  detail,
  headers: { 'WWW-Authenticate': 'Bearer' },
}));
export const forbidden = defineError('forbidden', 403, (detail: string) => ({ detail }));
export const notFound = defineError('not_found', 404, (what: string = 'Resource') => ({ detail: `${what} not found` }));
export const conflict = defineError('conflict', 409, (detail: string) => ({ detail }));
export const validationFailed = defineError('validation_failed', 422, (errors: FieldError[]) => ({
  detail: `Validation failed: ${errors.map((e) => `${e.path || '(body)'} ${e.message}`).join('; ')}`,
  extras: { errors },
}));
/** A connector could not do what was asked (connect, discover, read, drop its replication slot): named for the user. */
export const connectorFailed = defineError(
  'connector_failed',
  422,
  (detail: string, errors: FieldError[], code?: string) => ({
    detail,
    extras: { ...(code !== undefined ? { code } : {}), errors },
  }),
);
export const tooManyRequests = defineError('rate_limited', 429, (resetSeconds: number) => ({
  detail: `Rate limit exceeded; retry in ${resetSeconds} s`,
  headers: { 'Retry-After': String(resetSeconds) },
}));

export const ErrorEnvelope = {
  type: 'object',
  required: ['detail', 'request_id'],
  properties: {
    detail: { type: 'string' },
    request_id: { type: 'string', format: 'uuid' },
    reason: { type: 'string' },
    required_capability: { type: 'string' },
    project_id: { type: 'string', format: 'uuid' },
    environment_id: { type: ['string', 'null'], format: 'uuid' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: { path: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
  additionalProperties: true,
} as const;
