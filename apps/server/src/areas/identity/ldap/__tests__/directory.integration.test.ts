/**
 * The LDAP client against a real OpenLDAP (slapd started by test/support/slapd.ts, with TLS and the memberof
 * overlay). Needs /usr/sbin/slapd, slapadd and openssl (Debian packages slapd, ldap-utils, openssl).
 */
import net from 'node:net';
import { Client } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLAPD_GROUPS, SLAPD_USERS, startSlapd, type Slapd } from '../../../../../test/support/slapd.js';
import { escapeFilterValue, ldapAuthenticate, ldapCheck, type LdapConfig } from '../directory.js';

let slapd: Slapd;
/** A second server without TLS configured: StartTLS is refused there. */
let plainSlapd: Slapd;

beforeAll(async () => {
  [slapd, plainSlapd] = await Promise.all([startSlapd({ tls: true }), startSlapd()]);
});

afterAll(async () => {
  await Promise.all([slapd?.stop(), plainSlapd?.stop()]);
});

function config(overrides: Partial<LdapConfig> = {}): LdapConfig {
  return {
    url: slapd.url,
    start_tls: false,
    bind_dn: slapd.serviceDn,
    user_base_dn: `ou=people,${slapd.baseDn}`,
    user_filter: '(uid={username})',
    username_attribute: 'uid',
    email_attribute: 'mail',
    group_base_dn: `ou=groups,${slapd.baseDn}`,
    timeout_ms: 3_000,
    ...overrides,
  };
}

const bothGroups = [SLAPD_GROUPS.analysts, SLAPD_GROUPS.engineers].sort();

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 0;
}

function openSockets(): number {
  return process
    .getActiveResourcesInfo()
    .filter((name) => name === 'TCPSocketWrap' || name === 'TLSWrap' || name === 'TCPWrap').length;
}

describe('escapeFilterValue', () => {
  it('escapes the RFC 4515 specials and nothing else', () => {
    expect(escapeFilterValue('a\\b*c(d)e\0f')).toBe('a\\5cb\\2ac\\28d\\29e\\00f');
    expect(escapeFilterValue('alice)(uid=*')).toBe('alice\\29\\28uid=\\2a');
    expect(escapeFilterValue('jürgen.o-k@x')).toBe('jürgen.o-k@x');
  });
});

describe('ldapAuthenticate', () => {
  it('logs alice in with her email and groups found under group_base_dn', async () => {
    const outcome = await ldapAuthenticate(config(), slapd.servicePassword, 'alice', SLAPD_USERS.alice.password);
    expect(outcome).toMatchObject({
      ok: true,
      dn: SLAPD_USERS.alice.dn,
      username: 'alice',
      email: 'alice@example.com',
    });
    expect(outcome.ok && [...outcome.groups].sort()).toEqual(bothGroups);
  });

  it('reads the groups from memberOf when no group_base_dn is set (the harness loads the memberof overlay)', async () => {
    const outcome = await ldapAuthenticate(
      config({ group_base_dn: undefined }),
      slapd.servicePassword,
      'alice',
      SLAPD_USERS.alice.password,
    );
    expect(outcome.ok).toBe(true);
    expect(outcome.ok && [...outcome.groups].sort()).toEqual(bothGroups);

    const bob = await ldapAuthenticate(
      config({ group_base_dn: undefined }),
      slapd.servicePassword,
      'bob',
      SLAPD_USERS.bob.password,
    );
    expect(bob).toMatchObject({ ok: true, groups: [SLAPD_GROUPS.analysts] });
  });

  it('returns only the groups the user belongs to', async () => {
    const outcome = await ldapAuthenticate(config(), slapd.servicePassword, 'bob', SLAPD_USERS.bob.password);
    expect(outcome).toEqual({
      ok: true,
      dn: SLAPD_USERS.bob.dn,
      username: 'bob',
      email: 'bob@example.com',
      groups: [SLAPD_GROUPS.analysts],
    });
  });

  it('returns the canonical username of the entry', async () => {
    const outcome = await ldapAuthenticate(config(), slapd.servicePassword, 'ALICE', SLAPD_USERS.alice.password);
    expect(outcome).toMatchObject({ ok: true, username: 'alice', dn: SLAPD_USERS.alice.dn });
  });

  it('logs carol in with no email and no groups', async () => {
    const outcome = await ldapAuthenticate(config(), slapd.servicePassword, 'carol', SLAPD_USERS.carol.password);
    expect(outcome).toEqual({ ok: true, dn: SLAPD_USERS.carol.dn, username: 'carol', email: null, groups: [] });
  });

  it('refuses a wrong password', async () => {
    const outcome = await ldapAuthenticate(config(), slapd.servicePassword, 'alice', 'not-her-password');
    expect(outcome).toMatchObject({ ok: false, reason: 'wrong_password' });
    // Another user's password does not work either.
    expect(await ldapAuthenticate(config(), slapd.servicePassword, 'alice', SLAPD_USERS.bob.password)).toMatchObject({
      ok: false,
      reason: 'wrong_password',
    });
  });

  it('refuses an empty password (an unauthenticated bind)', async () => {
    // The harness server accepts unauthenticated binds, so only the client's own check stands in the way.
    const raw = new Client({ url: slapd.url, timeout: 3_000, connectTimeout: 3_000 });
    try {
      await expect(raw.bind(SLAPD_USERS.alice.dn, '')).resolves.toBeUndefined();
    } finally {
      await raw.unbind();
    }
    const outcome = await ldapAuthenticate(config(), slapd.servicePassword, 'alice', '');
    expect(outcome).toMatchObject({ ok: false, reason: 'wrong_password' });
  });

  it('reports an unknown user', async () => {
    const outcome = await ldapAuthenticate(config(), slapd.servicePassword, 'mallory', 'whatever-1');
    expect(outcome).toMatchObject({ ok: false, reason: 'unknown_user' });
  });

  it.each(['*', 'alice)(uid=*', '*)(|(uid=*', 'al*', 'alice)(|(objectClass=*)', 'alice\\', 'alice\0'])(
    'escapes the login name %j (filter injection finds nobody)',
    async (username) => {
      const outcome = await ldapAuthenticate(config(), slapd.servicePassword, username, SLAPD_USERS.alice.password);
      expect(outcome).toMatchObject({ ok: false, reason: 'unknown_user' });
    },
  );

  it('reports several matching entries as ambiguous', async () => {
    const outcome = await ldapAuthenticate(
      config({ user_filter: '(|(uid={username})(objectClass=inetOrgPerson))' }),
      slapd.servicePassword,
      'alice',
      SLAPD_USERS.alice.password,
    );
    expect(outcome).toMatchObject({ ok: false, reason: 'ambiguous_user' });
  });

  it('narrows a filter without {username} to the username attribute', async () => {
    const outcome = await ldapAuthenticate(
      config({ user_filter: '(objectClass=inetOrgPerson)' }),
      slapd.servicePassword,
      'bob',
      SLAPD_USERS.bob.password,
    );
    expect(outcome).toMatchObject({ ok: true, dn: SLAPD_USERS.bob.dn });
  });

  it('works over StartTLS when the CA is given', async () => {
    const outcome = await ldapAuthenticate(
      config({ start_tls: true, ca_pem: slapd.caPem }),
      slapd.servicePassword,
      'alice',
      SLAPD_USERS.alice.password,
    );
    expect(outcome).toMatchObject({ ok: true, dn: SLAPD_USERS.alice.dn });
  });

  it('fails StartTLS when the certificate is not trusted', async () => {
    const outcome = await ldapAuthenticate(
      config({ start_tls: true }),
      slapd.servicePassword,
      'alice',
      SLAPD_USERS.alice.password,
    );
    expect(outcome).toMatchObject({ ok: false, reason: 'tls_failed' });
  });

  it('fails StartTLS when the server does not offer TLS', async () => {
    const outcome = await ldapAuthenticate(
      config({ url: plainSlapd.url, start_tls: true, ca_pem: slapd.caPem }),
      plainSlapd.servicePassword,
      'alice',
      SLAPD_USERS.alice.password,
    );
    expect(outcome).toMatchObject({ ok: false, reason: 'tls_failed' });
  });

  it('works over ldaps:// when the CA is given', async () => {
    const outcome = await ldapAuthenticate(
      config({ url: slapd.ldapsUrl as string, ca_pem: slapd.caPem }),
      slapd.servicePassword,
      'alice',
      SLAPD_USERS.alice.password,
    );
    expect(outcome).toMatchObject({ ok: true, dn: SLAPD_USERS.alice.dn, email: 'alice@example.com' });
    expect(outcome.ok && [...outcome.groups].sort()).toEqual(bothGroups);
  });

  it('fails ldaps:// when the certificate is not trusted or the port does not speak TLS', async () => {
    expect(
      await ldapAuthenticate(
        config({ url: slapd.ldapsUrl as string }),
        slapd.servicePassword,
        'alice',
        SLAPD_USERS.alice.password,
      ),
    ).toMatchObject({
      ok: false,
      reason: 'tls_failed',
    });
    const plainPort = new URL(slapd.url).port;
    expect(
      await ldapAuthenticate(
        config({ url: `ldaps://127.0.0.1:${plainPort}`, ca_pem: slapd.caPem }),
        slapd.servicePassword,
        'alice',
        SLAPD_USERS.alice.password,
      ),
    ).toMatchObject({ ok: false, reason: 'tls_failed' });
  });

  it('reports a closed port as unreachable', async () => {
    const port = await closedPort();
    const outcome = await ldapAuthenticate(
      config({ url: `ldap://127.0.0.1:${port}` }),
      slapd.servicePassword,
      'alice',
      SLAPD_USERS.alice.password,
    );
    expect(outcome).toMatchObject({ ok: false, reason: 'unreachable' });
  });

  it('reports a server that never answers as unreachable within timeout_ms', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const started = Date.now();
      const outcome = await ldapAuthenticate(
        config({ url: `ldap://127.0.0.1:${port}`, timeout_ms: 300 }),
        slapd.servicePassword,
        'alice',
        SLAPD_USERS.alice.password,
      );
      expect(outcome).toMatchObject({ ok: false, reason: 'unreachable' });
      expect(Date.now() - started).toBeLessThan(2_000);
      const viaStartTls = await ldapAuthenticate(
        config({ url: `ldap://127.0.0.1:${port}`, start_tls: true, ca_pem: slapd.caPem, timeout_ms: 300 }),
        slapd.servicePassword,
        'alice',
        SLAPD_USERS.alice.password,
      );
      expect(viaStartTls).toMatchObject({ ok: false, reason: 'unreachable' });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('reports a wrong or missing service password as bind_failed', async () => {
    expect(await ldapAuthenticate(config(), 'wrong-reader-pass', 'alice', SLAPD_USERS.alice.password)).toMatchObject({
      ok: false,
      reason: 'bind_failed',
    });
    // Without a password the service bind would be an unauthenticated (anonymous) bind: refused up front.
    for (const missing of [undefined, '']) {
      expect(await ldapAuthenticate(config(), missing, 'alice', SLAPD_USERS.alice.password)).toMatchObject({
        ok: false,
        reason: 'bind_failed',
        message: expect.stringContaining('no password'),
      });
    }
  });

  it('reports a refused anonymous search as a configuration failure, not as an unknown user', async () => {
    // The harness ACLs let anonymous clients only bind.
    const outcome = await ldapAuthenticate(
      config({ bind_dn: undefined }),
      undefined,
      'alice',
      SLAPD_USERS.alice.password,
    );
    expect(outcome).toMatchObject({ ok: false, reason: 'bind_failed' });
  });

  it('never puts the passwords into the outcome', async () => {
    const outcomes = await Promise.all([
      ldapAuthenticate(config(), 'wrong-reader-pass', 'alice', SLAPD_USERS.alice.password),
      ldapAuthenticate(config(), slapd.servicePassword, 'alice', 'not-her-password'),
      ldapAuthenticate(config({ start_tls: true }), slapd.servicePassword, 'alice', SLAPD_USERS.alice.password),
      ldapAuthenticate(config(), slapd.servicePassword, 'alice', SLAPD_USERS.alice.password),
    ]);
    const text = JSON.stringify(outcomes);
    for (const secret of ['wrong-reader-pass', 'not-her-password', slapd.servicePassword, SLAPD_USERS.alice.password]) {
      expect(text).not.toContain(secret);
    }
  });

  it('closes every connection it opened, after successes and failures', async () => {
    const before = openSockets();
    await Promise.all([
      ldapAuthenticate(config(), slapd.servicePassword, 'alice', SLAPD_USERS.alice.password),
      ldapAuthenticate(config(), slapd.servicePassword, 'alice', 'not-her-password'),
      ldapAuthenticate(config(), slapd.servicePassword, 'mallory', 'x-1'),
      ldapAuthenticate(config(), 'wrong-reader-pass', 'alice', SLAPD_USERS.alice.password),
      ldapAuthenticate(config({ start_tls: true }), slapd.servicePassword, 'alice', SLAPD_USERS.alice.password),
      ldapAuthenticate(
        config({ start_tls: true, ca_pem: slapd.caPem }),
        slapd.servicePassword,
        'alice',
        SLAPD_USERS.alice.password,
      ),
      ldapAuthenticate(
        config({ url: slapd.ldapsUrl as string }),
        slapd.servicePassword,
        'alice',
        SLAPD_USERS.alice.password,
      ),
      ldapAuthenticate(
        config({ url: slapd.ldapsUrl as string, ca_pem: slapd.caPem }),
        slapd.servicePassword,
        'alice',
        SLAPD_USERS.alice.password,
      ),
      ldapCheck(config(), slapd.servicePassword),
      ldapCheck(config({ user_base_dn: `ou=nowhere,${slapd.baseDn}` }), slapd.servicePassword),
    ]);
    const deadline = Date.now() + 2_000;
    while (openSockets() > before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(openSockets()).toBeLessThanOrEqual(before);
  });
});

describe('ldapCheck', () => {
  it('accepts a working configuration over plain LDAP, StartTLS and ldaps', async () => {
    expect(await ldapCheck(config(), slapd.servicePassword)).toEqual({ ok: true });
    expect(await ldapCheck(config({ start_tls: true, ca_pem: slapd.caPem }), slapd.servicePassword)).toEqual({
      ok: true,
    });
    expect(
      await ldapCheck(config({ url: slapd.ldapsUrl as string, ca_pem: slapd.caPem }), slapd.servicePassword),
    ).toEqual({ ok: true });
  });

  it('names what is wrong', async () => {
    const port = await closedPort();
    expect(await ldapCheck(config({ url: `ldap://127.0.0.1:${port}` }), slapd.servicePassword)).toMatchObject({
      ok: false,
      reason: 'unreachable',
    });
    expect(await ldapCheck(config({ url: 'http://127.0.0.1:389' }), slapd.servicePassword)).toMatchObject({
      ok: false,
      reason: 'unreachable',
    });
    expect(await ldapCheck(config({ start_tls: true }), slapd.servicePassword)).toMatchObject({
      ok: false,
      reason: 'tls_failed',
    });
    expect(await ldapCheck(config(), 'wrong-reader-pass')).toMatchObject({ ok: false, reason: 'bind_failed' });
    expect(
      await ldapCheck(config({ user_base_dn: `ou=nowhere,${slapd.baseDn}` }), slapd.servicePassword),
    ).toMatchObject({
      ok: false,
      reason: 'base_dn_not_found',
    });
    expect(
      await ldapCheck(config({ group_base_dn: `ou=nogroups,${slapd.baseDn}` }), slapd.servicePassword),
    ).toMatchObject({
      ok: false,
      reason: 'group_base_dn_not_found',
    });
    expect(await ldapCheck(config({ user_filter: '(uid={username}' }), slapd.servicePassword)).toMatchObject({
      ok: false,
      reason: 'invalid_filter',
    });
    expect(await ldapCheck(config({ bind_dn: undefined }), undefined)).toMatchObject({
      ok: false,
      reason: 'search_failed',
    });
  });
});
