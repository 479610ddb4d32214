/**
 * The typed API client: paths and bodies come from the generated schema (schema.d.ts, from the
 * server's /openapi.json). Every call carries the in-memory access token; a 401 triggers one silent
 * refresh and one retry.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';
import { currentToken, refreshSession } from '../session-store';

export interface ErrorEnvelope {
  detail: string;
  request_id: string;
  errors?: Array<{ path: string; message: string }>;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly envelope: ErrorEnvelope,
  ) {
    super(envelope.detail);
  }
}

const auth: Middleware = {
  onRequest({ request }) {
    const token = currentToken();
    if (token) request.headers.set('authorization', `Bearer ${token}`);
    return request;
  },
  async onResponse({ request, response }) {
    if (response.status !== 401 || request.url.includes('/api/v1/auth/')) return response;
    const token = await refreshSession();
    if (!token) return response;
    const retry = request.clone();
    retry.headers.set('authorization', `Bearer ${token}`);
    return fetch(retry);
  },
};

export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });
api.use(auth);

/** The data of a call, or an ApiError with the envelope (detail and request_id) to show. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (error !== undefined || !response.ok) {
    const envelope = (error ?? {
      detail: response.statusText,
      request_id: response.headers.get('x-request-id') ?? '',
    }) as ErrorEnvelope;
    throw new ApiError(response.status, envelope);
  }
  return data as T;
}

/** The JSON body a route of the API takes (`JsonBody<'/api/v1/exports', 'post'>`). */
export type JsonBody<P extends keyof paths, M extends keyof paths[P]> =
  NonNullable<paths[P][M] extends { requestBody?: infer B } ? B : never> extends {
    content: { 'application/json': infer J };
  }
    ? J
    : never;

/** The JSON a route of the API answers with 200. */
export type JsonAnswer<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer J } } };
}
  ? J
  : never;
