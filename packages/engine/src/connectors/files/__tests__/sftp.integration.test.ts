/**
 * The files connector over SFTP, against a real OpenSSH server started on loopback for this file:
 * its own host key, public key login as the current OS user, internal-sftp. The remote directories
 * are local temporary directories, so the test also looks at them directly.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { secretFields, type ConnectorHandle } from '../../../types.js';
import { openSftp, sftpConnector, type SftpConfig } from '../sftp-definition.js';
import {
  CANONICAL_COLUMNS,
  CANONICAL_DOC,
  CANONICAL_ROWS,
  batchesOf,
  col,
  collect,
  dataset,
  quiet,
  rowsOf,
} from '../../../__tests__/support.js';
import { connectorContract } from '../../../__tests__/contract.js';
import { fileWriteContract } from './write-contract.js';

const run = promisify(execFile);
const SSHD = '/usr/sbin/sshd';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Processes whose parent is `pid` (Linux /proc): sshd forks one per open connection. */
async function childrenOf(pid: number): Promise<number[]> {
  const children: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]); // after "pid (comm) state"
    if (ppid === pid) children.push(Number(entry));
  }
  return children;
}

async function eventually(probe: () => Promise<boolean>, timeoutMs = 5_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

async function waitForPort(port: number, sshd: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (sshd.exitCode !== null) throw new Error(`sshd exited with ${sshd.exitCode}: ${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`sshd did not listen on ${port}: ${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('sftp connector', () => {
  let work: string;
  let sshd: ChildProcess;
  let port: number;
  let privateKey: string;
  let otherKey: string;
  let hostKeySha256: string;
  let sshdLog = '';
  let dir: string;
  const handles: ConnectorHandle[] = [];

  const login = (extra: Partial<SftpConfig> = {}): SftpConfig => ({
    host: '127.0.0.1',
    port,
    username: userInfo().username,
    private_key: privateKey,
    host_key_sha256: hostKeySha256,
    path: dir,
    format: 'csv',
    ...extra,
  });
  const open = (extra: Partial<SftpConfig> = {}, context = quiet): ConnectorHandle => {
    const handle = openSftp(login(extra), context);
    handles.push(handle);
    return handle;
  };

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'svc-sshd-'));
    await mkdir('/run/sshd', { recursive: true }).catch(() => undefined); // sshd's privilege separation directory; only root can (and must) have it
    for (const name of ['host_key', 'client_key', 'other_key']) {
      await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', join(work, name)]);
    }
    privateKey = await readFile(join(work, 'client_key'), 'utf8');
    otherKey = await readFile(join(work, 'other_key'), 'utf8');
    await writeFile(join(work, 'authorized_keys'), await readFile(join(work, 'client_key.pub')));
    // The fingerprint as OpenSSH prints it: "256 SHA256:... host_key (ED25519)".
    hostKeySha256 = (await run('ssh-keygen', ['-l', '-E', 'sha256', '-f', join(work, 'host_key.pub')])).stdout.split(
      ' ',
    )[1]!;
    port = await freePort();
    const config = [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(work, 'host_key')}`,
      `PidFile ${join(work, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(work, 'authorized_keys')}`,
      'StrictModes no',
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'Subsystem sftp internal-sftp',
      'UsePAM no',
      'LogLevel ERROR',
    ];
    await writeFile(join(work, 'sshd_config'), `${config.join('\n')}\n`);
    sshd = spawn(SSHD, ['-D', '-e', '-f', join(work, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
    sshd.stderr!.on('data', (chunk: Buffer) => (sshdLog += chunk.toString()));
    await waitForPort(port, sshd, () => sshdLog);
  });

  afterAll(async () => {
    if (sshd && sshd.exitCode === null) {
      const exited = new Promise((resolve) => sshd.once('exit', resolve));
      sshd.kill('SIGTERM');
      await exited;
    }
    if (work) await rm(work, { recursive: true, force: true });
  });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-sftp-'));
  });

  afterEach(async () => {
    for (const handle of handles.splice(0)) await handle.close();
    await rm(dir, { recursive: true, force: true });
  });

  // Its own directory for the whole suite (the tests here get a new one each); Parquet keeps every canonical type.
  let contractDir: string | undefined;
  const contractLogin = async (extra: Partial<SftpConfig> = {}) =>
    login({ path: (contractDir ??= await mkdtemp(join(tmpdir(), 'svc-sftp-contract-'))), format: 'parquet', ...extra });
  afterAll(() => (contractDir ? rm(contractDir, { recursive: true, force: true }) : undefined));
  connectorContract('sftp', {
    capabilities: sftpConnector.capabilities,
    open: async () => openSftp(await contractLogin(), quiet),
    broken: { open: async () => openSftp(await contractLogin({ private_key: otherKey }), quiet), code: 'auth_failed' },
    dataset,
    incremental: true,
  });

  it('is registered with its kind, capabilities and spec, credentials marked secret', () => {
    expect(sftpConnector).toMatchObject({
      kind: 'sftp',
      title: 'Files over SFTP',
      version: 1,
      capabilities: { read: true, write: true, writeModes: ['append', 'overwrite'] },
    });
    expect(sftpConnector.spec).toMatchObject({ additionalProperties: false });
    expect(sftpConnector.spec.required).toEqual(expect.arrayContaining(['host', 'username', 'path']));
    expect(sftpConnector.spec.properties['port']).toMatchObject({ type: 'integer', default: 22 });
    expect(secretFields(sftpConnector.spec).sort()).toEqual(['passphrase', 'password', 'private_key']);
    expect(Object.keys(sftpConnector.spec.properties)).toEqual(
      expect.arrayContaining(['host_key_sha256', 'format', 'pattern', 'header', 'delimiter']),
    );
  });

  it('checks ok with a key and the pinned host key, and ok unpinned (logging the key to pin)', async () => {
    const handle = await sftpConnector.open(login(), quiet);
    handles.push(handle);
    expect(await handle.check()).toEqual({ ok: true });
    expect(await readdir(dir)).toEqual([]); // the write probe is gone

    const logged: unknown[] = [];
    const unpinned = open(
      { host_key_sha256: undefined },
      { ...quiet, log: (level, message, fields) => logged.push({ level, message, ...fields }) },
    );
    expect(await unpinned.check()).toEqual({ ok: true });
    expect(logged).toContainEqual(expect.objectContaining({ level: 'info', host_key_sha256: hostKeySha256 }));
  });

  it('reports a wrong private key as auth_failed, not retryable, without the key in the message', async () => {
    const handle = open({ private_key: otherKey, password: 'hunter2-secret' });
    const result = await handle.check();
    expect(result).toMatchObject({ ok: false, code: 'auth_failed' });
    const message = (result as { message: string }).message;
    expect(message).toContain(userInfo().username);
    for (const secret of ['hunter2-secret', ...otherKey.split('\n').filter((line) => line.length > 20)])
      expect(message).not.toContain(secret);
    await expect(handle.discover()).rejects.toMatchObject({ code: 'auth_failed', retryable: false });
  });

  it('refuses a server whose host key is not the pinned one', async () => {
    const wrong = `SHA256:${'A'.repeat(43)}`;
    const result = await open({ host_key_sha256: wrong }).check();
    expect(result).toMatchObject({ ok: false, code: 'auth_failed' });
    expect((result as { message: string }).message).toMatch(/host key/);
    expect((result as { message: string }).message).toContain(hostKeySha256);
    expect(await open({ host_key_sha256: 'not a fingerprint' }).check()).toMatchObject({
      ok: false,
      code: 'invalid_config',
    });
  });

  it('reports a closed port as unreachable and a missing remote directory as not_found', async () => {
    const closed = await freePort();
    expect(await open({ port: closed }).check()).toMatchObject({ ok: false, code: 'unreachable' });
    await expect(open({ port: closed }).discover()).rejects.toMatchObject({ code: 'unreachable', retryable: true });

    const missing = open({ path: join(dir, 'nope') });
    expect(await missing.check()).toMatchObject({ ok: false, code: 'not_found' });
    await expect(missing.discover()).rejects.toMatchObject({ code: 'not_found' });
    expect(await open({ path: 'relative/dir' }).check()).toMatchObject({ ok: false, code: 'invalid_config' });
  });

  it('reports a server that never completes the SSH handshake as a timeout (after 10 s)', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket.on('error', () => undefined))); // accepts, never speaks
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const started = Date.now();
      const result = await open({ port: (silent.address() as { port: number }).port }).check();
      expect(result).toMatchObject({ ok: false, code: 'timeout' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(9_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  describe('round trip of every canonical type', () => {
    const columns = CANONICAL_COLUMNS;
    const doc = CANONICAL_DOC;
    const rows = CANONICAL_ROWS;
    const roundTrip = async (format: SftpConfig['format']) => {
      const handle = open({ format });
      const summary = await handle.write!(
        { dataset: dataset('all_types'), mode: 'overwrite', columns, runId: 'r1' },
        batchesOf(columns, rows.slice(0, 2), rows.slice(2)),
      );
      expect(summary).toEqual({ rowsWritten: 3 });
      expect(await readdir(dir)).toEqual([`all_types.${format}`]);
      const batches = await collect(handle.read!({ dataset: dataset('all_types') }));
      return { types: batches[0]!.columns.map((c) => c.type), rows: rowsOf(batches), schema: batches[0]!.columns };
    };

    it('parquet keeps every type and value exactly', async () => {
      const back = await roundTrip('parquet');
      expect(back.types).toEqual(columns.map((c) => c.type));
      expect(back.schema.find((c) => c.name === 'money')).toMatchObject({
        precision: 20,
        scale: 6,
        sourceType: 'FIXED_LEN_BYTE_ARRAY(9) DECIMAL(20, 6)',
      });
      expect(back.rows).toEqual(rows);
      const [described] = await open({ format: 'parquet' }).discover();
      expect(described).toMatchObject({ name: 'all_types', rowEstimate: 3 });
      expect(described!.columns.map((c) => c.type)).toEqual(columns.map((c) => c.type));
    });

    it('csv keeps values, with the types text can express', async () => {
      const back = await roundTrip('csv');
      expect(back.types).toEqual([
        'int32',
        'boolean',
        'int32',
        'int64',
        'float64',
        'float64',
        'decimal',
        'string',
        'string',
        'date',
        'time',
        'timestamp',
        'timestamptz',
        'string',
        'string',
      ]);
      expect(back.rows).toEqual([
        [...rows[0]!.slice(0, 13), JSON.stringify(doc), 'AAEC/v8='],
        [...rows[1]!.slice(0, 13), '[]', ''],
        rows[2],
      ]);
      expect(await readFile(join(dir, 'all_types.csv'), 'utf8')).toContain('\n3,,,,,,,,,,,,,,\n');
    });

    it('ndjson keeps values; uuid and binary (base64) come back as string, int16/float32 as int32/float64', async () => {
      const back = await roundTrip('ndjson');
      expect(back.types).toEqual([
        'int32',
        'boolean',
        'int32',
        'int64',
        'float64',
        'float64',
        'decimal',
        'string',
        'string',
        'date',
        'time',
        'timestamp',
        'timestamptz',
        'json',
        'string',
      ]);
      expect(back.rows).toEqual([[...rows[0]!.slice(0, 14), 'AAEC/v8='], [...rows[1]!.slice(0, 14), ''], rows[2]]);
    });
  });

  fileWriteContract(
    (format) => open({ format }),
    () => dir,
  );

  it('discovers the datasets of the remote directory with inferred types, skipping other files', async () => {
    await writeFile(
      join(dir, 'orders.csv'),
      'id,big,price,active,day,seen,note\n1,9007199254740993,12.50,true,2024-02-29,2024-02-29T12:34:56Z,"a, b"\n2,3,0.1,false,2023-01-01,2023-01-01T00:00:00Z,\n',
    );
    await writeFile(join(dir, 'people.csv'), 'name,age\nada,36\n');
    await writeFile(join(dir, 'people-run1.csv'), 'name,age,email\nbob,41,b@example.com\n');
    await writeFile(join(dir, 'notes.txt'), 'not a dataset');
    await writeFile(join(dir, '.hidden.csv'), 'x\n1\n');
    const discovered = await open().discover();
    expect(
      discovered.map((d) => [d.name, d.columns.map((c) => `${c.name}:${c.type}${c.nullable ? '?' : ''}`)]),
    ).toEqual([
      [
        'orders',
        ['id:int32', 'big:int64', 'price:float64', 'active:boolean', 'day:date', 'seen:timestamptz', 'note:string?'],
      ],
      ['people', ['name:string', 'age:int32', 'email:string?']],
    ]);
    expect(rowsOf(await collect(open().read!({ dataset: dataset('people') })))).toEqual([
      ['ada', 36, null],
      ['bob', 41, 'b@example.com'],
    ]);
  });

  it('reads a 25,000-row Parquet file in row ranges of the batch size', async () => {
    const handle = open({ format: 'parquet' });
    const columns = [col('id', 'int64'), col('payload', 'string')];
    const chunk = (from: number) => Array.from({ length: 5_000 }, (_, i) => [String(from + i), `p${from + i}`]);
    await handle.write!(
      { dataset: dataset('big'), mode: 'overwrite', columns, runId: 'r' },
      batchesOf(columns, chunk(1), chunk(5_001), chunk(10_001), chunk(15_001), chunk(20_001)),
    );
    const batches = await collect(handle.read!({ dataset: dataset('big'), batchSize: 10_000 }));
    expect(batches.map((b) => b.rows.length)).toEqual([10_000, 10_000, 5_000]);
    expect(batches[1]!.rows[0]).toEqual(['10001', 'p10001']);
  });

  it('ends the SFTP connection on close, also after a failed connect', async () => {
    for (const handle of handles.splice(0)) await handle.close();
    expect(await eventually(async () => (await childrenOf(sshd.pid!)).length === 0)).toBe(true);

    const failed = open({ private_key: otherKey });
    expect(await failed.check()).toMatchObject({ ok: false });
    await failed.close();
    const handle = open();
    expect(await handle.check()).toEqual({ ok: true });
    expect((await childrenOf(sshd.pid!)).length).toBeGreaterThan(0); // the connection is held until close
    await handle.close();
    await handle.close(); // twice is harmless
    expect(await eventually(async () => (await childrenOf(sshd.pid!)).length === 0)).toBe(true);
  });
});
