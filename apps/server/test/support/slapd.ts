/**
 * A private OpenLDAP server (Debian `slapd`) for tests: its own temp directory, cn=config built with
 * `slapadd -n0`, an mdb database, the memberof overlay, optional TLS (ldaps:// listener plus StartTLS on
 * ldap://) with a throwaway CA made by openssl, on free loopback ports. Seeded with a tiny directory:
 *
 *   dc=svc,dc=test
 *     cn=reader            service account (password "reader-pass"), may read ou=people and ou=groups
 *     ou=people            uid=alice (alice@example.com, "alice-pass-1"), uid=bob (bob@example.com,
 *                          "bob-pass-2"), uid=carol (no mail, "carol-pass-3")
 *     ou=groups            cn=engineers (alice), cn=analysts (alice, bob)   -- groupOfNames
 *
 * ACLs: userPassword is only usable for binding (nobody reads it); bound users (the service account and
 * the people) read the rest of the tree; anonymous clients can only bind. Unauthenticated binds (a DN with an
 * empty password) are accepted, as on some real servers, so tests can catch clients that let them through.
 * Several instances may run at once (separate temp dirs and ports). Needs /usr/sbin/slapd, slapadd and openssl.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'ldapts';

export interface Slapd {
  /** ldap://127.0.0.1:<port> (StartTLS is available on it when started with tls) */
  url: string;
  /** ldaps://127.0.0.1:<port2>, only when started with tls */
  ldapsUrl?: string;
  /** PEM of the throwaway CA that signed the server certificate (SANs: IP 127.0.0.1 and DNS localhost), only with tls */
  caPem?: string;
  baseDn: string;
  adminDn: string;
  adminPassword: string;
  serviceDn: string;
  servicePassword: string;
  stop(): Promise<void>;
}

export const SLAPD_BASE_DN = 'dc=svc,dc=test';
export const SLAPD_PEOPLE_DN = `ou=people,${SLAPD_BASE_DN}`;
export const SLAPD_GROUPS_DN = `ou=groups,${SLAPD_BASE_DN}`;
export const SLAPD_SERVICE_DN = `cn=reader,${SLAPD_BASE_DN}`;
export const SLAPD_SERVICE_PASSWORD = 'reader-pass';

/** The seeded people: login name -> password and mail. */
export const SLAPD_USERS = {
  alice: { dn: `uid=alice,${SLAPD_PEOPLE_DN}`, password: 'alice-pass-1', mail: 'alice@example.com' },
  bob: { dn: `uid=bob,${SLAPD_PEOPLE_DN}`, password: 'bob-pass-2', mail: 'bob@example.com' },
  carol: { dn: `uid=carol,${SLAPD_PEOPLE_DN}`, password: 'carol-pass-3', mail: null },
} as const;

export const SLAPD_GROUPS = {
  engineers: `cn=engineers,${SLAPD_GROUPS_DN}`,
  analysts: `cn=analysts,${SLAPD_GROUPS_DN}`,
} as const;

const SLAPD_BIN = process.env['SVC_TEST_SLAPD'] ?? '/usr/sbin/slapd';
const SLAPADD_BIN = process.env['SVC_TEST_SLAPADD'] ?? '/usr/sbin/slapadd';
const MODULE_PATH = process.env['SVC_TEST_SLAPD_MODULES'] ?? '/usr/lib/ldap';
const SCHEMA_DIR = process.env['SVC_TEST_SLAPD_SCHEMA'] ?? '/etc/ldap/schema';
const START_ATTEMPTS = 3;
const READY_TIMEOUT_MS = 10_000;

/** {SSHA} hash as slappasswd makes it: base64(sha1(password + salt) + salt). */
function ssha(password: string): string {
  const salt = randomBytes(8);
  const digest = createHash('sha1').update(password, 'utf8').update(salt).digest();
  return `{SSHA}${Buffer.concat([digest, salt]).toString('base64')}`;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

interface RunResult {
  code: number | null;
  output: string;
}

/** Runs a command to completion, collecting stdout+stderr (never through a shell). */
function run(command: string, args: string[], cwd: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

async function mustRun(command: string, args: string[], cwd: string): Promise<void> {
  const result = await run(command, args, cwd);
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.code}):\n${result.output}`);
  }
}

interface TlsFiles {
  caPem: string;
  certFile: string;
  keyFile: string;
  caFile: string;
}

/** A throwaway CA and a server certificate for 127.0.0.1 / localhost (EC P-256: fast to generate). */
async function makeCertificates(dir: string): Promise<TlsFiles> {
  const caKey = path.join(dir, 'ca.key');
  const caFile = path.join(dir, 'ca.pem');
  const keyFile = path.join(dir, 'server.key');
  const csrFile = path.join(dir, 'server.csr');
  const certFile = path.join(dir, 'server.pem');
  const extFile = path.join(dir, 'server.ext');
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await writeFile(
    extFile,
    [
      'basicConstraints = critical, CA:FALSE',
      'keyUsage = critical, digitalSignature, keyEncipherment',
      'extendedKeyUsage = serverAuth',
      'subjectAltName = IP:127.0.0.1, DNS:localhost',
      '',
    ].join('\n'),
  );
  // The CA and the server key are independent: make them concurrently.
  await Promise.all([
    mustRun(
      'openssl',
      [
        'req',
        '-x509',
        ...ec,
        '-keyout',
        caKey,
        '-out',
        caFile,
        '-days',
        '2',
        '-subj',
        '/CN=svc test CA',
        '-addext',
        'basicConstraints=critical,CA:TRUE',
        '-addext',
        'keyUsage=critical,keyCertSign,cRLSign',
      ],
      dir,
    ),
    mustRun('openssl', ['req', '-new', ...ec, '-keyout', keyFile, '-out', csrFile, '-subj', '/CN=localhost'], dir),
  ]);
  await mustRun(
    'openssl',
    [
      'x509',
      '-req',
      '-in',
      csrFile,
      '-CA',
      caFile,
      '-CAkey',
      caKey,
      '-set_serial',
      `0x${randomBytes(8).toString('hex')}`,
      '-days',
      '2',
      '-sha256',
      '-extfile',
      extFile,
      '-out',
      certFile,
    ],
    dir,
  );
  return { caPem: await readFile(caFile, 'utf8'), certFile, keyFile, caFile };
}

function configLdif(options: { dir: string; dbDir: string; rootPasswordHash: string; tls?: TlsFiles }): string {
  const { dir, dbDir, rootPasswordHash, tls } = options;
  const global = [
    'dn: cn=config',
    'objectClass: olcGlobal',
    'cn: config',
    `olcPidFile: ${path.join(dir, 'slapd.pid')}`,
    `olcArgsFile: ${path.join(dir, 'slapd.args')}`,
    'olcLogLevel: none',
    // Accept "unauthenticated binds" (a DN with an empty password, which then act as anonymous), as some
    // servers do, so tests can prove that clients refuse empty passwords themselves.
    'olcAllows: bind_anon_dn',
    ...(tls
      ? [
          `olcTLSCACertificateFile: ${tls.caFile}`,
          `olcTLSCertificateFile: ${tls.certFile}`,
          `olcTLSCertificateKeyFile: ${tls.keyFile}`,
          'olcTLSVerifyClient: never',
        ]
      : []),
  ];
  const blocks = [
    global,
    [
      'dn: cn=module{0},cn=config',
      'objectClass: olcModuleList',
      'cn: module{0}',
      `olcModulePath: ${MODULE_PATH}`,
      'olcModuleLoad: back_mdb',
      'olcModuleLoad: memberof',
    ],
    ['dn: cn=schema,cn=config', 'objectClass: olcSchemaConfig', 'cn: schema'],
    [`include: file://${SCHEMA_DIR}/core.ldif`],
    [`include: file://${SCHEMA_DIR}/cosine.ldif`],
    [`include: file://${SCHEMA_DIR}/inetorgperson.ldif`],
    [
      'dn: olcDatabase={-1}frontend,cn=config',
      'objectClass: olcDatabaseConfig',
      'objectClass: olcFrontendConfig',
      'olcDatabase: {-1}frontend',
      'olcSizeLimit: 500',
    ],
    [
      'dn: olcDatabase={0}config,cn=config',
      'objectClass: olcDatabaseConfig',
      'olcDatabase: {0}config',
      'olcAccess: {0}to * by * none',
    ],
    [
      'dn: olcDatabase={1}mdb,cn=config',
      'objectClass: olcDatabaseConfig',
      'objectClass: olcMdbConfig',
      'olcDatabase: {1}mdb',
      `olcSuffix: ${SLAPD_BASE_DN}`,
      `olcRootDN: cn=admin,${SLAPD_BASE_DN}`,
      `olcRootPW: ${rootPasswordHash}`,
      `olcDbDirectory: ${dbDir}`,
      'olcDbMaxSize: 16777216',
      'olcDbNoSync: TRUE',
      'olcDbIndex: objectClass eq',
      'olcDbIndex: uid,mail eq',
      'olcDbIndex: member,uniqueMember eq',
      // Passwords are only ever used to bind; everything else is readable by bound clients (the service
      // account and the people), and anonymous clients can do nothing but bind.
      'olcAccess: {0}to attrs=userPassword by anonymous auth by * none',
      'olcAccess: {1}to * by users read by anonymous auth by * none',
    ],
    [
      'dn: olcOverlay={0}memberof,olcDatabase={1}mdb,cn=config',
      'objectClass: olcOverlayConfig',
      'objectClass: olcMemberOf',
      'olcOverlay: {0}memberof',
      'olcMemberOfGroupOC: groupOfNames',
      'olcMemberOfMemberAD: member',
      'olcMemberOfMemberOfAD: memberOf',
    ],
  ];
  return blocks.map((lines) => lines.join('\n')).join('\n\n') + '\n';
}

async function seed(url: string, adminDn: string, adminPassword: string): Promise<void> {
  const client = new Client({ url, timeout: 5_000, connectTimeout: 5_000 });
  try {
    await client.bind(adminDn, adminPassword);
    const add = (dn: string, entry: Record<string, string | string[]>) => client.add(dn, entry);
    await add(SLAPD_BASE_DN, { objectClass: ['dcObject', 'organization'], dc: 'svc', o: 'svc test' });
    await add(SLAPD_PEOPLE_DN, { objectClass: 'organizationalUnit', ou: 'people' });
    await add(SLAPD_GROUPS_DN, { objectClass: 'organizationalUnit', ou: 'groups' });
    await add(SLAPD_SERVICE_DN, {
      objectClass: ['organizationalRole', 'simpleSecurityObject'],
      cn: 'reader',
      userPassword: ssha(SLAPD_SERVICE_PASSWORD),
    });
    for (const [uid, user] of Object.entries(SLAPD_USERS)) {
      const name = uid.charAt(0).toUpperCase() + uid.slice(1);
      await add(user.dn, {
        objectClass: 'inetOrgPerson',
        uid,
        cn: `${name} Example`,
        sn: 'Example',
        givenName: name,
        userPassword: ssha(user.password),
        ...(user.mail ? { mail: user.mail } : {}),
      });
    }
    // Groups after the people, so the memberof overlay fills in memberOf on them.
    await add(SLAPD_GROUPS.engineers, { objectClass: 'groupOfNames', cn: 'engineers', member: [SLAPD_USERS.alice.dn] });
    await add(SLAPD_GROUPS.analysts, {
      objectClass: 'groupOfNames',
      cn: 'analysts',
      member: [SLAPD_USERS.alice.dn, SLAPD_USERS.bob.dn],
    });
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves once slapd answers a bind; rejects as soon as the process exits (e.g. a port was taken meanwhile). */
async function waitUntilReady(
  child: ChildProcess,
  url: string,
  adminDn: string,
  adminPassword: string,
  log: () => string,
): Promise<void> {
  const exited = new Promise<never>((_, reject) => {
    const fail = () =>
      reject(new Error(`slapd exited (${child.exitCode ?? child.signalCode}) during startup:\n${log()}`));
    if (child.exitCode !== null || child.signalCode !== null) fail();
    else child.once('exit', fail);
  });
  exited.catch(() => undefined);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError: unknown;
  while (Date.now() < deadline) {
    const client = new Client({ url, timeout: 1_000, connectTimeout: 1_000 });
    try {
      await Promise.race([client.bind(adminDn, adminPassword), exited]);
      return;
    } catch (error) {
      if (child.exitCode !== null || child.signalCode !== null) throw error;
      lastError = error;
    } finally {
      await client.unbind().catch(() => undefined);
    }
    await delay(25);
  }
  throw new Error(`slapd did not answer on ${url} within ${READY_TIMEOUT_MS} ms (${String(lastError)}):\n${log()}`);
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const killed = await Promise.race([
    exited.then(() => false),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), 3_000);
    }),
  ]);
  clearTimeout(timer);
  if (killed && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited;
  }
}

/** Processes still running when the test process exits are killed (a crashed test must not leak slapd). */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;
function track(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const proc of running) proc.kill('SIGKILL');
    });
  }
}

/** Starts a seeded slapd in a fresh temp directory on free ports (about 0.3 s). Call stop() when done. */
export async function startSlapd(options: { tls?: boolean } = {}): Promise<Slapd> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-slapd-'));
  try {
    const configDir = path.join(dir, 'slapd.d');
    const dbDir = path.join(dir, 'db');
    await Promise.all([mkdir(configDir), mkdir(dbDir)]);
    const tls = options.tls ? await makeCertificates(dir) : undefined;

    const adminDn = `cn=admin,${SLAPD_BASE_DN}`;
    const adminPassword = randomBytes(12).toString('hex');
    const ldifFile = path.join(dir, 'config.ldif');
    await writeFile(ldifFile, configLdif({ dir, dbDir, rootPasswordHash: ssha(adminPassword), tls }));
    await mustRun(SLAPADD_BIN, ['-n', '0', '-F', configDir, '-l', ldifFile], dir);

    let lastError: unknown;
    for (let attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
      if (attempt > 1) {
        // A fresh database: the previous attempt may have stored part of the seed.
        await rm(dbDir, { recursive: true, force: true });
        await mkdir(dbDir);
      }
      const port = await freePort();
      let tlsPort = tls ? await freePort() : undefined;
      while (tlsPort === port) tlsPort = await freePort();
      const url = `ldap://127.0.0.1:${port}`;
      const ldapsUrl = tlsPort ? `ldaps://127.0.0.1:${tlsPort}` : undefined;
      const listeners = [`${url}/`, ...(ldapsUrl ? [`${ldapsUrl}/`] : [])].join(' ');
      // Any -d keeps slapd in the foreground (so we own the process); level "none" prints only the messages
      // logged whatever the level (startup errors such as a taken port), no per-operation noise.
      const child = spawn(SLAPD_BIN, ['-h', listeners, '-F', configDir, '-d', 'none'], {
        cwd: dir,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      track(child);
      let log = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        if (log.length < 20_000) log += chunk.toString();
      });
      const spawnFailed = new Promise<never>((_, reject) => child.once('error', reject));
      spawnFailed.catch(() => undefined);
      try {
        await Promise.race([waitUntilReady(child, url, adminDn, adminPassword, () => log), spawnFailed]);
        await seed(url, adminDn, adminPassword);
      } catch (error) {
        lastError = error;
        // Only an early exit (most likely a port taken between freePort() and slapd's bind) is worth retrying.
        const exitedEarly = child.exitCode !== null || child.signalCode !== null;
        await stopProcess(child);
        if (exitedEarly && child.pid !== undefined) continue;
        break;
      }
      let stopped: Promise<void> | undefined;
      return {
        url,
        ...(ldapsUrl ? { ldapsUrl } : {}),
        ...(tls ? { caPem: tls.caPem } : {}),
        baseDn: SLAPD_BASE_DN,
        adminDn,
        adminPassword,
        serviceDn: SLAPD_SERVICE_DN,
        servicePassword: SLAPD_SERVICE_PASSWORD,
        stop() {
          stopped ??= (async () => {
            await stopProcess(child);
            await rm(dir, { recursive: true, force: true });
          })();
          return stopped;
        },
      };
    }
    throw lastError instanceof Error ? lastError : new Error(`slapd did not start: ${String(lastError)}`);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
