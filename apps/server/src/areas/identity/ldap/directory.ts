/**
 * LDAP directory client: authenticates a login against an LDAP server (OpenLDAP, Active Directory, ...)
 * and reads the user's email and group DNs. No HTTP, no database: callers map the outcome to sessions.
 *
 * Flow of ldapAuthenticate: connect (ldaps://, or ldap:// upgraded with StartTLS when start_tls) -> bind as
 * the service account (or stay anonymous without bind_dn) -> search user_base_dn for exactly one entry
 * matching user_filter -> on a second connection bind as that entry's DN with the password -> read the groups
 * (a search under group_base_dn, or the entry's memberOf). Every client opened is unbound, also on failure.
 *
 * Failure reasons:
 * - unreachable: the server could not be reached (connection refused, DNS, connect or operation timeout,
 *   connection dropped) or the URL is not a valid ldap:// / ldaps:// URL;
 * - tls_failed: the certificate is not trusted or does not match the host, the TLS handshake failed, or the
 *   server refused StartTLS;
 * - bind_failed: the service account could not bind, or the directory refused a search made on behalf of the
 *   service (user_base_dn / group_base_dn missing, insufficient access, invalid user_filter): the configuration
 *   is at fault, not the person logging in;
 * - unknown_user: no entry matches; ambiguous_user: more than one entry matches;
 * - wrong_password: the user bind was refused (invalid credentials, or another refusal such as a disabled or
 *   locked account, named in the message), or the password is empty.
 * Passwords never appear in messages, and nothing is logged here.
 */
import net from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import type { Client, Entry } from 'ldapts';

export interface LdapConfig {
  /** ldap://host:port or ldaps://host:port */
  url: string;
  /** upgrade an ldap:// connection with StartTLS */
  start_tls: boolean;
  /** PEM of the CA to trust for ldaps/StartTLS (else the system CAs); certificates are always verified */
  ca_pem?: string;
  /** service account used to search; anonymous search when absent */
  bind_dn?: string;
  /** where users are searched */
  user_base_dn: string;
  /**
   * e.g. "(uid={username})": {username} is replaced by the escaped login name (RFC 4515).
   * A filter without {username} (e.g. "(objectClass=person)") is combined with (username_attribute={username}).
   */
  user_filter: string;
  /** e.g. "uid" */
  username_attribute: string;
  /** e.g. "mail" */
  email_attribute: string;
  /** when set, groups are found by searching here for (|(member={dn})(uniqueMember={dn})); else the user's memberOf is used */
  group_base_dn?: string;
  /** connect and operation timeout, default 5000 */
  timeout_ms?: number;
}

export type LdapFailureReason =
  'unknown_user' | 'wrong_password' | 'ambiguous_user' | 'unreachable' | 'bind_failed' | 'tls_failed';

export type LdapOutcome =
  | { ok: true; dn: string; username: string; email: string | null; groups: string[] /* group DNs */ }
  | { ok: false; reason: LdapFailureReason; message: string };

/** Reasons ldapCheck reports: the transport ones of LdapOutcome plus configuration problems. */
export type LdapCheckReason =
  | 'invalid_config'
  | 'unreachable'
  | 'tls_failed'
  | 'bind_failed'
  | 'base_dn_not_found'
  | 'group_base_dn_not_found'
  | 'invalid_filter'
  | 'search_failed';

const DEFAULT_TIMEOUT_MS = 5_000;
/** Upper bound for waiting on an unbind: the socket is destroyed anyway, this only bounds the await. */
const UNBIND_WAIT_MS = 1_000;
const GROUP_PAGE_SIZE = 200;

/** RFC 4515 escaping of an assertion value: \ * ( ) and NUL become \5c \2a \28 \29 \00. */
export function escapeFilterValue(value: string): string {
  return value.replace(/[\\*()\0]/g, (char) => `\\${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

// ---------------------------------------------------------------------------------------------------------
// Errors

type Phase = 'connect' | 'tls' | 'service_bind' | 'user_search' | 'user_bind' | 'group_search' | 'base_search';

/** A failure decided by this module (not thrown by ldapts), carrying its reason. */
class DirectoryError extends Error {
  constructor(
    readonly reason: LdapFailureReason | LdapCheckReason,
    message: string,
  ) {
    super(message);
    this.name = 'DirectoryError';
  }
}

/** ldapts result-code errors carry the numeric LDAP result code; Node socket/TLS errors a string code. */
function ldapResultCode(error: unknown): number | undefined {
  const code: unknown = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'number' ? code : undefined;
}

const TLS_ERROR_CODE =
  /^(ERR_SSL_|ERR_TLS_|ERR_OSSL_|UNABLE_TO_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH|INVALID_CA|INVALID_PURPOSE|PATH_LENGTH_EXCEEDED)/;
const TLS_ERROR_MESSAGE =
  /secure TLS connection|certificate|\bSSL\b|\bTLS\b|handshake|ssl3_|tls_|wrong version number/i;
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'EADDRNOTAVAIL',
]);
const NETWORK_ERROR_MESSAGE = /Connection timeout|timed out|Connection closed|Socket error|socket|ECONNRESET|EPIPE/i;

/** unreachable / tls_failed for transport errors (never for LDAP result codes), else undefined. */
function transportReason(error: unknown): 'unreachable' | 'tls_failed' | undefined {
  if (!(error instanceof Error) || ldapResultCode(error) !== undefined) return undefined;
  const code = (error as NodeJS.ErrnoException).code;
  if (typeof code === 'string' && TLS_ERROR_CODE.test(code)) return 'tls_failed';
  if ((error as { library?: unknown }).library === 'SSL routines') return 'tls_failed';
  if (TLS_ERROR_MESSAGE.test(error.message)) return 'tls_failed';
  if (typeof code === 'string' && NETWORK_ERROR_CODES.has(code)) return 'unreachable';
  if (NETWORK_ERROR_MESSAGE.test(error.message)) return 'unreachable';
  return undefined;
}

/** A one-line description of an error (never containing a password: neither ldapts nor the server echo them). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const message = error.message.split('\n').filter(Boolean).join(': ');
  if (typeof code === 'number') {
    // ldapts appends " Code: 0x31" to the server's diagnostic message, which is often empty.
    const diagnostic = message.replace(/\s*Code: 0x[0-9a-f]+$/i, '').trim();
    return `${ldapCodeLabel(code)}${diagnostic ? `: ${diagnostic}` : ''}`;
  }
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}

const LDAP_CODE_NAMES: Record<number, string> = {
  1: 'operationsError',
  2: 'protocolError',
  3: 'timeLimitExceeded',
  4: 'sizeLimitExceeded',
  7: 'authMethodNotSupported',
  8: 'strongerAuthRequired',
  13: 'confidentialityRequired',
  19: 'constraintViolation',
  32: 'noSuchObject',
  34: 'invalidDNSyntax',
  48: 'inappropriateAuthentication',
  49: 'invalidCredentials',
  50: 'insufficientAccessRights',
  51: 'busy',
  52: 'unavailable',
  53: 'unwillingToPerform',
  80: 'other',
};

function ldapCodeLabel(code: number): string {
  return `LDAP result ${code}${LDAP_CODE_NAMES[code] ? ` ${LDAP_CODE_NAMES[code]}` : ''}`;
}

const LDAP_NO_SUCH_OBJECT = 32;
const LDAP_INVALID_CREDENTIALS = 49;
const LDAP_INSUFFICIENT_ACCESS = 50;
const LDAP_UNAVAILABLE = 52;
const LDAP_BUSY = 51;

/** Maps any error thrown during `phase` to an LdapOutcome failure. */
function failure(
  error: unknown,
  phase: Phase,
  config: LdapConfig,
): { ok: false; reason: LdapFailureReason; message: string } {
  if (error instanceof DirectoryError) {
    return { ok: false, reason: error.reason as LdapFailureReason, message: error.message };
  }
  const transport = transportReason(error);
  const code = ldapResultCode(error);
  const detail = describe(error);
  if (transport === 'tls_failed' || (phase === 'tls' && transport !== 'unreachable')) {
    return { ok: false, reason: 'tls_failed', message: `TLS with ${config.url} failed: ${detail}` };
  }
  if (transport === 'unreachable' || phase === 'connect' || code === LDAP_BUSY || code === LDAP_UNAVAILABLE) {
    return { ok: false, reason: 'unreachable', message: `LDAP server ${config.url} is unreachable: ${detail}` };
  }
  switch (phase) {
    case 'service_bind':
      return {
        ok: false,
        reason: 'bind_failed',
        message: `the service account ${config.bind_dn ?? ''} could not bind: ${detail}`,
      };
    case 'user_bind':
      return {
        ok: false,
        reason: 'wrong_password',
        message:
          code === LDAP_INVALID_CREDENTIALS
            ? 'invalid credentials'
            : `the directory refused the login (${code !== undefined ? ldapCodeLabel(code) : detail})`,
      };
    case 'user_search':
      return {
        ok: false,
        reason: 'bind_failed',
        message:
          code === LDAP_NO_SUCH_OBJECT
            ? `user_base_dn ${config.user_base_dn} does not exist`
            : code === LDAP_INSUFFICIENT_ACCESS
              ? `the directory refused the user search under ${config.user_base_dn} (insufficient access for ${config.bind_dn ?? 'anonymous'})`
              : `the user search under ${config.user_base_dn} failed: ${detail}`,
      };
    case 'group_search':
      return {
        ok: false,
        reason: 'bind_failed',
        message:
          code === LDAP_NO_SUCH_OBJECT
            ? `group_base_dn ${config.group_base_dn ?? ''} does not exist`
            : `the group search failed: ${detail}`,
      };
    default:
      return { ok: false, reason: 'bind_failed', message: detail };
  }
}

// ---------------------------------------------------------------------------------------------------------
// Connections

interface Target {
  secure: boolean;
  host: string;
}

function parseTarget(url: string): Target {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DirectoryError('unreachable', `invalid LDAP URL ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'ldap:' && parsed.protocol !== 'ldaps:') {
    throw new DirectoryError(
      'unreachable',
      `invalid LDAP URL ${JSON.stringify(url)}: the scheme must be ldap:// or ldaps://`,
    );
  }
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host) throw new DirectoryError('unreachable', `invalid LDAP URL ${JSON.stringify(url)}: no host`);
  return { secure: parsed.protocol === 'ldaps:', host };
}

function timeoutOf(config: LdapConfig): number {
  const value = config.timeout_ms;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : DEFAULT_TIMEOUT_MS;
}

function tlsOptions(config: LdapConfig, host: string): ConnectionOptions {
  return {
    minVersion: 'TLSv1.2',
    rejectUnauthorized: true,
    ...(config.ca_pem ? { ca: [config.ca_pem] } : {}),
    // Hostname verification uses `host`; SNI only carries DNS names.
    host,
    ...(net.isIP(host) ? {} : { servername: host }),
  };
}

/** Rejects with a timeout error when `promise` does not settle in time (for steps ldapts does not time itself). */
function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`${what} timed out after ${ms} ms`), { code: 'ETIMEDOUT' })),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Tracks the clients of one call so every one of them is unbound at the end. */
class Connections {
  private readonly clients: Client[] = [];

  constructor(
    private readonly config: LdapConfig,
    private readonly target: Target,
    private readonly timeoutMs: number,
  ) {}

  /** A new client; ldap:// + start_tls is upgraded here, ldaps:// connects on its first operation. */
  async open(setPhase: (phase: Phase) => void): Promise<Client> {
    const { config, target, timeoutMs } = this;
    setPhase('connect');
    // ldapts is loaded by the first directory a process asks, not by every process.
    const { Client: LdapClient } = await import('ldapts');
    const client = new LdapClient({
      url: config.url,
      timeout: timeoutMs,
      connectTimeout: timeoutMs,
      // Only ldaps:// gets tlsOptions here: ldapts would otherwise open ldap:// URLs with TLS directly.
      ...(target.secure ? { tlsOptions: tlsOptions(config, target.host) } : {}),
    });
    this.clients.push(client);
    if (!target.secure && config.start_tls) {
      setPhase('tls');
      await withTimeout(client.startTLS(tlsOptions(config, target.host)), timeoutMs, 'StartTLS');
    }
    return client;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.clients.map((client) => unbindQuietly(client)));
    this.clients.length = 0;
  }
}

async function unbindQuietly(client: Client): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.unbind().catch(() => undefined),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, UNBIND_WAIT_MS);
        timer.unref();
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Entries

function attributeValues(entry: Entry, name: string): string[] {
  const wanted = name.toLowerCase();
  const key = Object.keys(entry).find((candidate) => candidate !== 'dn' && candidate.toLowerCase() === wanted);
  if (key === undefined) return [];
  const raw = entry[key];
  const list: (string | Buffer)[] = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  return list.map((value) => (Buffer.isBuffer(value) ? value.toString('utf8') : value)).filter((value) => value !== '');
}

function userFilter(config: LdapConfig, username: string): string {
  const escaped = escapeFilterValue(username);
  const template = config.user_filter.trim();
  if (template.includes('{username}')) return template.split('{username}').join(escaped);
  // Without the placeholder the filter would match every user: narrow it to the login name.
  const base = template === '' ? '' : template.startsWith('(') ? template : `(${template})`;
  const byName = `(${config.username_attribute}=${escaped})`;
  return base ? `(&${base}${byName})` : byName;
}

async function bindService(client: Client, config: LdapConfig, bindPassword: string | undefined): Promise<void> {
  if (!config.bind_dn) return; // anonymous
  if (!bindPassword) {
    // An empty password would be an "unauthenticated bind": it succeeds as anonymous on many servers.
    throw new DirectoryError('bind_failed', `the service account ${config.bind_dn} has no password configured`);
  }
  await client.bind(config.bind_dn, bindPassword);
}

async function findGroups(client: Client, config: LdapConfig, userDn: string, userEntry: Entry): Promise<string[]> {
  if (!config.group_base_dn) return attributeValues(userEntry, 'memberOf');
  const dn = escapeFilterValue(userDn);
  const { searchEntries } = await client.search(config.group_base_dn, {
    scope: 'sub',
    filter: `(|(member=${dn})(uniqueMember=${dn}))`,
    attributes: ['1.1'],
    paged: { pageSize: GROUP_PAGE_SIZE },
  });
  return [...new Set(searchEntries.map((entry) => entry.dn))];
}

// ---------------------------------------------------------------------------------------------------------
// API

/** Binds as the service account, finds exactly one user entry, binds as that DN with the password, reads its attributes and groups. Never logs or returns the passwords. An empty password is always wrong_password (an LDAP "unauthenticated bind" would otherwise succeed). Always unbinds every client it opened, also after a failure (an open client keeps the process alive). */
export async function ldapAuthenticate(
  config: LdapConfig,
  bindPassword: string | undefined,
  username: string,
  password: string,
): Promise<LdapOutcome> {
  if (typeof password !== 'string' || password === '') {
    return { ok: false, reason: 'wrong_password', message: 'empty password' };
  }
  if (typeof username !== 'string' || username.trim() === '') {
    return { ok: false, reason: 'unknown_user', message: 'empty username' };
  }
  let phase = 'connect' as Phase; // set through setPhase, also from Connections.open
  const setPhase = (next: Phase) => {
    phase = next;
  };
  let connections: Connections | undefined;
  try {
    connections = new Connections(config, parseTarget(config.url), timeoutOf(config));
    const service = await connections.open(setPhase);

    setPhase('service_bind');
    await bindService(service, config, bindPassword);

    setPhase('user_search');
    const attributes = [
      config.username_attribute,
      config.email_attribute,
      ...(config.group_base_dn ? [] : ['memberOf']),
    ];
    // sizeLimit 2: enough to tell "exactly one" from "several" without fetching a whole directory.
    const { searchEntries } = await service.search(config.user_base_dn, {
      scope: 'sub',
      filter: userFilter(config, username),
      attributes,
      sizeLimit: 2,
    });
    if (searchEntries.length === 0)
      return { ok: false, reason: 'unknown_user', message: 'no matching user in the directory' };
    if (searchEntries.length > 1)
      return { ok: false, reason: 'ambiguous_user', message: 'several directory entries match this login' };
    const entry = searchEntries[0] as Entry;

    // The user's bind runs on its own connection, so the service connection keeps its rights for the group search.
    const userClient = await connections.open(setPhase);
    setPhase('user_bind');
    await userClient.bind(entry.dn, password);

    setPhase('group_search');
    const groups = await findGroups(service, config, entry.dn, entry);

    const names = attributeValues(entry, config.username_attribute);
    const canonical =
      names.find((name) => name.toLowerCase() === username.trim().toLowerCase()) ?? names[0] ?? username;
    return {
      ok: true,
      dn: entry.dn,
      username: canonical,
      email: attributeValues(entry, config.email_attribute)[0] ?? null,
      groups,
    };
  } catch (error) {
    return failure(error, phase, config);
  } finally {
    await connections?.closeAll();
  }
}

/** Checks the configuration works (connect, TLS, service bind, base DN searchable): for a "test" button. */
export async function ldapCheck(
  config: LdapConfig,
  bindPassword: string | undefined,
): Promise<{ ok: true } | { ok: false; reason: string; message: string }> {
  let phase = 'connect' as Phase; // set through setPhase, also from Connections.open
  const setPhase = (next: Phase) => {
    phase = next;
  };
  let connections: Connections | undefined;
  try {
    if (!config.user_base_dn) throw new DirectoryError('invalid_config', 'user_base_dn is required');
    if (!config.username_attribute) throw new DirectoryError('invalid_config', 'username_attribute is required');
    connections = new Connections(config, parseTarget(config.url), timeoutOf(config));
    const client = await connections.open(setPhase);

    setPhase('service_bind');
    await bindService(client, config, bindPassword);

    setPhase('base_search');
    const who = config.bind_dn ?? 'anonymous';
    await checkBase(client, config.user_base_dn, 'base_dn_not_found', 'user_base_dn', who);
    if (config.group_base_dn)
      await checkBase(client, config.group_base_dn, 'group_base_dn_not_found', 'group_base_dn', who);

    // The user filter must be valid: search for a login that should not exist.
    setPhase('user_search');
    try {
      await client.search(config.user_base_dn, {
        scope: 'sub',
        filter: userFilter(config, 'svc-connection-check'),
        attributes: ['1.1'],
        sizeLimit: 1,
      });
    } catch (error) {
      if (ldapResultCode(error) === undefined && transportReason(error) === undefined) {
        throw new DirectoryError(
          'invalid_filter',
          `user_filter ${JSON.stringify(config.user_filter)} is invalid: ${describe(error)}`,
        );
      }
      throw error;
    }
    return { ok: true };
  } catch (error) {
    if (error instanceof DirectoryError) return { ok: false, reason: error.reason, message: error.message };
    const outcome = failure(error, phase, config);
    if (outcome.reason === 'unreachable' || outcome.reason === 'tls_failed' || phase === 'service_bind') return outcome;
    const code = ldapResultCode(error);
    return {
      ok: false,
      reason: phase === 'user_search' && code === 87 ? 'invalid_filter' : 'search_failed',
      message: outcome.message,
    };
  } finally {
    await connections?.closeAll();
  }
}

async function checkBase(
  client: Client,
  dn: string,
  missing: LdapCheckReason,
  label: string,
  who: string,
): Promise<void> {
  try {
    const { searchEntries } = await client.search(dn, {
      scope: 'base',
      filter: '(objectClass=*)',
      attributes: ['1.1'],
      sizeLimit: 1,
    });
    if (searchEntries.length === 0) throw new DirectoryError(missing, `${label} ${dn} is not visible to ${who}`);
  } catch (error) {
    if (ldapResultCode(error) === LDAP_NO_SUCH_OBJECT)
      throw new DirectoryError(missing, `${label} ${dn} does not exist`);
    if (ldapResultCode(error) === LDAP_INSUFFICIENT_ACCESS) {
      throw new DirectoryError('search_failed', `${label} ${dn} cannot be searched by ${who} (insufficient access)`);
    }
    throw error;
  }
}
