/**
 * OIDC single sign-on against a real OpenID provider (oidc-provider) on a local port: the browser's
 * part is played by fetch with a small cookie jar, through the provider's login and consent pages.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_RATE_LIMITS, startTestApp, type TestApp } from '../support/app.js';
import { adminLogin, api, createProject } from '../support/http.js';

/** Cookies per origin, enough for the provider's interaction cookies. */
class Browser {
  private jar = new Map<string, Map<string, string>>();
  constructor(private readonly login = 'ana') {}
  cookie(origin: string, name: string): string | undefined {
    return this.jar.get(origin)?.get(name);
  }
  async get(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const cookies = this.jar.get(target.origin);
    const headers = new Headers(init.headers);
    if (cookies?.size) headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...value] = pair!.split('=');
      if (!this.jar.has(target.origin)) this.jar.set(target.origin, new Map());
      this.jar.get(target.origin)!.set(name!.trim(), value.join('='));
    }
    return response;
  }
  /** Follows redirects at the provider until one leaves it (to our callback). */
  async through(url: string, stopOrigin: string): Promise<string> {
    let next = url;
    for (let i = 0; i < 20; i++) {
      if (new URL(next).origin === stopOrigin) return next;
      const response = await this.get(next);
      if (response.status >= 300 && response.status < 400) {
        next = new URL(response.headers.get('location')!, next).href;
        continue;
      }
      const html = await response.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (!action) throw new Error(`no form at ${next}: ${response.status} ${html.slice(0, 300)}`);
      const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1] ?? 'login';
      const body = new URLSearchParams(
        prompt === 'login' ? { prompt, login: this.login, password: 'any' } : { prompt },
      );
      const submitted = await this.get(new URL(action, next).href, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      next = new URL(submitted.headers.get('location')!, next).href;
    }
    throw new Error('too many redirects');
  }
}

describe('OIDC single sign-on', () => {
  let t: TestApp;
  let idp: Server;
  let issuer: string;
  let admin: string;
  let projectId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { ...NO_RATE_LIMITS, SVC_SSO_STATE_TTL_SECONDS: '3' } });
    admin = (await adminLogin(t)).accessToken;
    projectId = (await createProject(t, admin)).id;
    idp = createServer();
    await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: 'svc',
          client_secret: 'svc-client-secret-1',
          redirect_uris: [`${t.url}/api/v1/sso/callback`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['preferred_username'],
        groups: ['groups'],
      },
      scopes: ['openid', 'email', 'profile', 'groups'],
      conformIdTokenClaims: false,
      findAccount: async (_ctx: unknown, sub: string) => ({
        accountId: sub,
        claims: async () => ({
          sub,
          preferred_username: `sso-${sub}`,
          email: `${sub}@corp.example`,
          email_verified: true,
          groups: ['data-team'],
        }),
      }),
      features: { devInteractions: { enabled: true } },
      cookies: { keys: ['test-cookie-key'] },
    } as never);
    idp.on('request', provider.callback());
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((r) => idp?.close(r));
  });

  const configure = async (name: string, config: Record<string, unknown>) => {
    const created = await api<{ id: string; secrets_set: string[]; config: Record<string, unknown> }>(
      t,
      'POST',
      '/api/v1/sso/providers',
      {
        token: admin,
        body: {
          name,
          config: {
            issuer,
            client_id: 'svc',
            client_secret: 'svc-client-secret-1',
            scopes: ['openid', 'email', 'profile', 'groups'],
            group_mappings: [{ group: 'data-team', project_id: projectId, role: 'editor' }],
            ...config,
          },
        },
      },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  };
  const startAt = async (browser: Browser, providerId: string) => {
    const started = await browser.get(`${t.url}/api/v1/sso/${providerId}/start?redirect_to=/pipelines`);
    expect(started.status).toBe(302);
    const location = new URL(started.headers.get('location')!);
    expect(location.origin).toBe(issuer);
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('nonce')).toBeTruthy();
    return browser.through(location.href, new URL(t.url).origin);
  };

  it('signs a new user in: provisioned, mapped to a project role, a normal session through the refresh cookie', async () => {
    const provider = await configure('corp', {});
    expect(provider.secrets_set).toEqual(['client_secret']);
    expect(JSON.stringify(provider)).not.toContain('svc-client-secret-1');
    const discovery = await api<{ providers: Array<{ id: string; name: string }> }>(t, 'GET', '/api/v1/sso/discovery');
    expect(discovery.body.providers).toEqual([expect.objectContaining({ id: provider.id, name: 'corp' })]);

    const browser = new Browser();
    const callback = await startAt(browser, provider.id);
    expect(callback).toMatch(/\/api\/v1\/sso\/callback\?code=/);
    const stateCookie = browser.cookie(new URL(t.url).origin, 'svc_sso_state')!;
    expect(stateCookie).toBeTruthy();
    const landed = await browser.get(callback);
    expect(landed.status, await landed.clone().text()).toBe(302);
    expect(landed.headers.get('location')).toBe('/pipelines');
    const cookie = landed.headers.getSetCookie().find((c) => c.startsWith('svc_refresh='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/Path=\/api\/v1\/auth/);
    const refreshed = await api<{ access_token: string }>(t, 'POST', '/api/v1/auth/refresh', {
      cookie: cookie.split(';')[0],
    });
    expect(refreshed.status).toBe(200);
    const me = await api<{ username: string; email: string }>(t, 'GET', '/api/v1/me', {
      token: refreshed.body.access_token,
    });
    expect(me.body).toMatchObject({ username: 'sso-ana', email: 'ana@corp.example' });
    // The group mapping made the user an editor of the project.
    const members = await api<{ items: Array<{ username: string; role: string }> }>(
      t,
      'GET',
      `/api/v1/admin/projects/${projectId}/members`,
      { token: admin },
    );
    expect(members.body.items).toContainEqual(expect.objectContaining({ username: 'sso-ana', role: 'editor' }));

    // The same callback again, with the browser's state cookie as it was: the state was taken once.
    const replayed = await fetch(callback, { headers: { cookie: `svc_sso_state=${stateCookie}` }, redirect: 'manual' });
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toMatchObject({ detail: expect.stringMatching(/already completed/) });

    // A second sign-in finds the same user (linked by subject), no duplicate.
    const second = new Browser();
    const again = await second.get(await startAt(second, provider.id));
    expect(again.status).toBe(302);
    const users = await api<{ items: Array<{ username: string }> }>(t, 'GET', '/api/v1/users', { token: admin });
    expect(users.body.items.filter((u) => u.username === 'sso-ana')).toHaveLength(1);
  });

  it('refuses a tampered state, an expired state, and a provider whose issuer does not match', async () => {
    const provider = await configure('corp2', {});
    const browser = new Browser();
    const callback = new URL(await startAt(browser, provider.id));
    const state = callback.searchParams.get('state')!;
    const [header, payload, signature] = state.split('.');
    const forged = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    forged['pid'] = '00000000-0000-0000-0000-000000000000';
    callback.searchParams.set(
      'state',
      `${header}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`,
    );
    const tampered = await browser.get(callback.href);
    expect(tampered.status).toBe(401);
    expect(await tampered.json()).toMatchObject({ detail: expect.stringMatching(/not one this service issued/) });

    // A good callback, presented by a browser other than the one that started the sign-in.
    const stolen = await new Browser().get(await startAt(new Browser(), provider.id));
    expect(stolen.status).toBe(401);
    expect(await stolen.json()).toMatchObject({ detail: expect.stringMatching(/another browser/) });

    const lateBrowser = new Browser();
    const late = await startAt(lateBrowser, provider.id);
    await new Promise((r) => setTimeout(r, 3_500));
    const expired = await lateBrowser.get(late);
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ detail: expect.stringMatching(/expired/) });

    // The same server under another name: its discovery document names an issuer other than the one configured.
    const wrongIssuer = await configure('wrong issuer', { issuer: issuer.replace('127.0.0.1', 'localhost') });
    const refused = await new Browser().get(`${t.url}/api/v1/sso/${wrongIssuer.id}/start`);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({
      errors: [expect.objectContaining({ path: 'issuer', message: expect.stringMatching(/issuer/i) })],
    });
    const audit = await api<{ items: Array<{ kind: string }> }>(t, 'GET', '/api/v1/audit-log?kind=sso_login_failed', {
      token: admin,
    });
    expect(audit.body.items.length).toBeGreaterThanOrEqual(2);
  });

  it('links an existing account by its verified e-mail instead of creating another', async () => {
    const local = await api<{ id: string }>(t, 'POST', '/api/v1/users', {
      token: admin,
      body: { username: 'local-bea', email: 'bea@corp.example', password: 'local-bea-password-1' },
    });
    expect(local.status).toBe(201);
    const provider = await configure('corp4', {});
    const browser = new Browser('bea');
    const landed = await browser.get(await startAt(browser, provider.id));
    expect(landed.status).toBe(302);
    const cookie = landed.headers.getSetCookie().find((c) => c.startsWith('svc_refresh='))!;
    const refreshed = await api<{ access_token: string }>(t, 'POST', '/api/v1/auth/refresh', {
      cookie: cookie.split(';')[0],
    });
    const me = await api<{ id: string; username: string }>(t, 'GET', '/api/v1/me', {
      token: refreshed.body.access_token,
    });
    expect(me.body).toMatchObject({ id: local.body.id, username: 'local-bea' });
  });

  it('lets administrators read, change and remove a provider; a change without the secret keeps it', async () => {
    const provider = await configure('managed', {});
    const renamed = await api<{ name: string; secrets_set: string[] }>(
      t,
      'PATCH',
      `/api/v1/sso/providers/${provider.id}`,
      {
        token: admin,
        body: { name: 'managed 2', config: { issuer, client_id: 'svc', scopes: ['openid', 'email'] } },
      },
    );
    expect(renamed.body).toMatchObject({ name: 'managed 2', secrets_set: ['client_secret'] });
    const read = await api<{ config: Record<string, unknown> }>(t, 'GET', `/api/v1/sso/providers/${provider.id}`, {
      token: admin,
    });
    expect(read.body.config).not.toHaveProperty('client_secret');
    // The kept secret still works: a sign-in completes.
    const browser = new Browser();
    expect((await browser.get(await startAt(browser, provider.id))).status).toBe(302);
    expect((await api(t, 'DELETE', `/api/v1/sso/providers/${provider.id}`, { token: admin })).status).toBe(204);
    expect((await api(t, 'GET', `/api/v1/sso/providers/${provider.id}`, { token: admin })).status).toBe(404);
  });

  it('refuses an e-mail domain the provider does not allow', async () => {
    const provider = await configure('corp3', { allowed_email_domains: ['other.example'] });
    const browser = new Browser();
    const refused = await browser.get(await startAt(browser, provider.id));
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ detail: expect.stringMatching(/domain is not allowed/) });
  });
});
