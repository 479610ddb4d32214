/** Small helpers for calling the API over real HTTP in tests. */
import type { TestApp } from './app.js';
import { TEST_ADMIN_PASSWORD } from './app.js';

export interface ApiResult<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
  setCookies: string[];
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  cookie?: string;
}

export async function api<T = Record<string, unknown>>(
  t: TestApp,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  if (options.cookie) headers['cookie'] = options.cookie;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${t.url}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : {}) as T,
    headers: response.headers,
    setCookies: response.headers.getSetCookie(),
  };
}

export interface Session {
  accessToken: string;
  /** `svc_refresh=<value>`, ready for a Cookie header. */
  cookie: string;
  passwordChangeRequired: boolean;
}

export function refreshCookieOf(setCookies: string[]): string {
  const cookie = setCookies.find((c) => c.startsWith('svc_refresh='));
  if (!cookie) throw new Error('no svc_refresh cookie set');
  return cookie.split(';')[0]!;
}

export async function login(t: TestApp, username: string, password: string): Promise<Session> {
  const result = await api<{ access_token: string; password_change_required: boolean }>(
    t,
    'POST',
    '/api/v1/auth/login',
    { body: { username, password } },
  );
  if (result.status !== 200)
    throw new Error(`login of ${username} failed: ${result.status} ${JSON.stringify(result.body)}`);
  return {
    accessToken: result.body.access_token,
    cookie: refreshCookieOf(result.setCookies),
    passwordChangeRequired: result.body.password_change_required,
  };
}

export const adminLogin = (t: TestApp) => login(t, 'admin', TEST_ADMIN_PASSWORD);

let counter = 0;
/** Creates a user through the API (as the admin) and signs it in. */
export async function createUser(
  t: TestApp,
  adminToken: string,
  options: { isAdmin?: boolean; username?: string } = {},
) {
  counter += 1;
  const username = options.username ?? `user${counter}_${Math.random().toString(36).slice(2, 8)}`;
  const password = `pw-${username}-long-enough`;
  const created = await api<{ id: string }>(t, 'POST', '/api/v1/users', {
    token: adminToken,
    body: { username, email: `${username}@example.com`, password, is_admin: options.isAdmin ?? false },
  });
  if (created.status !== 201) throw new Error(`create user failed: ${created.status} ${JSON.stringify(created.body)}`);
  const session = await login(t, username, password);
  return { id: created.body.id, username, password, session };
}

export async function createProject(
  t: TestApp,
  adminToken: string,
  name = `project-${Math.random().toString(36).slice(2, 10)}`,
) {
  const result = await api<{ id: string; name: string }>(t, 'POST', '/api/v1/admin/projects', {
    token: adminToken,
    body: { name },
  });
  if (result.status !== 201) throw new Error(`create project failed: ${result.status} ${JSON.stringify(result.body)}`);
  return result.body;
}

export async function createApiToken(
  t: TestApp,
  token: string,
  body: { name?: string; scope: 'read' | 'write'; project_ids?: string[]; expires_at?: string },
) {
  const result = await api<{ id: string; token: string }>(t, 'POST', '/api/v1/api-tokens', {
    token,
    body: { name: 'test token', ...body },
  });
  if (result.status !== 201) throw new Error(`create token failed: ${result.status} ${JSON.stringify(result.body)}`);
  return result.body;
}
