/**
 * Loads batches with `LOAD DATA LOCAL INFILE` fed from our own stream (append and overwrite; the
 * driver is given the stream for any file name the server asks for, so no file of this machine is
 * ever read), or with multi-row INSERTs run as prepared statements (upsert, and servers that refuse
 * LOCAL INFILE). Values only ever travel as data, never as SQL text. The target table is created, or
 * widened with the columns it lacks (never narrowed).
 * append / upsert: one transaction for the whole write, so a failed attempt leaves nothing behind
 * and its retry does not write twice. overwrite: a staging table named after the run is filled,
 * then swapped in with one atomic RENAME TABLE; readers see the old rows until then.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { PoolConnection, ResultSetHeader, RowDataPacket } from 'mysql2';
import {
  ConnectorError,
  type ColumnSchema,
  type DatasetSchema,
  type RecordBatch,
  type WriteRequest,
  type WriteSummary,
} from '../../types.js';
import { type MysqlClient, qualified, quoteIdent } from './client.js';
import { describeTable } from './discover.js';
import { ddlType, encodeValue, type Param, typeHintComment } from './type-mapping.js';

/** A statement carries at most 65,535 parameters; rows per statement stay well below. */
const MAX_PARAMS = 65_535;
const MAX_ROWS_PER_INSERT = 1_000;
/** Bytes of values per statement, kept under half the server's max_allowed_packet. */
const MAX_BYTES_PER_INSERT = 8 * 1024 * 1024;
/** MySQL identifiers are at most 64 characters. */
const MAX_IDENT = 64;

type Conn = ReturnType<PoolConnection['promise']>;

function validate(request: WriteRequest): void {
  if (request.columns.length === 0)
    throw new ConnectorError('invalid_config', 'a write needs at least one column', false);
  const names = new Set(request.columns.map((c) => c.name));
  if (names.size !== request.columns.length)
    throw new ConnectorError('invalid_config', 'column names must be unique', false);
  if (request.mode === 'upsert') {
    if (!request.keyColumns?.length) throw new ConnectorError('invalid_config', 'upsert needs key columns', false);
    const missing = request.keyColumns.filter((k) => !names.has(k));
    if (missing.length > 0)
      throw new ConnectorError(
        'invalid_config',
        `key columns not among the written columns: ${missing.join(', ')}`,
        false,
      );
  }
}

function columnDefinition(column: ColumnSchema, key: boolean): string {
  return `${quoteIdent(column.name)} ${ddlType(column, key)}${key ? ' not null' : ' null'}${typeHintComment(column.type)}`;
}

async function createTable(
  conn: Conn,
  database: string,
  table: string,
  columns: ColumnSchema[],
  keys: string[],
): Promise<void> {
  const definitions = columns.map((c) => columnDefinition(c, keys.includes(c.name)));
  if (keys.length > 0) definitions.push(`primary key (${keys.map(quoteIdent).join(', ')})`);
  // utf8mb4_bin: every character (emoji too) and case-sensitive keys, as the source had them.
  await conn.query(
    `create table if not exists ${qualified(database, table)} (${definitions.join(', ')}) engine=InnoDB default charset=utf8mb4 collate=utf8mb4_bin`,
  );
}

/** Schema evolution widens only: columns the table lacks are added (nullable); none is dropped or altered. */
async function addMissingColumns(
  conn: Conn,
  database: string,
  table: string,
  existing: DatasetSchema,
  columns: ColumnSchema[],
): Promise<void> {
  const present = new Set(existing.columns.map((c) => c.name));
  const missing = columns.filter((c) => !present.has(c.name));
  if (missing.length === 0) return;
  await conn.query(
    `alter table ${qualified(database, table)} ${missing.map((c) => `add column ${columnDefinition(c, false)}`).join(', ')}`,
  );
}

/** ON DUPLICATE KEY UPDATE needs a primary or unique key on exactly the key columns. */
async function assertUniqueKey(conn: Conn, database: string, table: string, keys: string[]): Promise<void> {
  const [rows] = await conn.query<RowDataPacket[]>(
    `select index_name as index_name, column_name as column_name from information_schema.statistics
      where table_schema = ? and table_name = ? and non_unique = 0 order by index_name, seq_in_index`,
    [database, table],
  );
  const indexes = new Map<string, string[]>();
  for (const row of rows)
    indexes.set(String(row['index_name']), [
      ...(indexes.get(String(row['index_name'])) ?? []),
      String(row['column_name']),
    ]);
  const wanted = [...keys].sort().join('\0');
  if (![...indexes.values()].some((cols) => [...cols].sort().join('\0') === wanted)) {
    throw new ConnectorError(
      'schema_mismatch',
      `upsert into "${table}" needs a primary or unique key on (${keys.join(', ')})`,
      false,
    );
  }
}

function sideTableName(table: string, runId: string, role: 'stage' | 'old'): string {
  const suffix = `__svc_${role}_${createHash('sha256').update(runId).digest('hex').slice(0, 10)}`;
  return table.slice(0, MAX_IDENT - suffix.length) + suffix;
}

function approximateBytes(value: Param): number {
  if (value === null) return 4;
  if (Buffer.isBuffer(value)) return value.length;
  if (typeof value === 'string') return value.length * 4;
  return 8;
}

class Inserter {
  rows = 0;
  private pending: Param[][] = [];
  private pendingBytes = 0;
  private readonly fullShape: number;

  constructor(
    private readonly conn: Conn,
    private readonly target: string,
    private readonly columns: ColumnSchema[],
    private readonly keys: string[] | undefined,
    private readonly maxBytes: number,
    private readonly signal?: AbortSignal,
  ) {
    this.fullShape = Math.max(1, Math.min(MAX_ROWS_PER_INSERT, Math.floor(MAX_PARAMS / columns.length)));
  }

  async add(row: Param[]): Promise<void> {
    this.pending.push(row);
    this.pendingBytes += row.reduce<number>((sum, v) => sum + approximateBytes(v), 0);
    if (this.pending.length >= this.fullShape || this.pendingBytes >= this.maxBytes) await this.flush();
  }

  async flush(): Promise<void> {
    const rows = this.pending;
    if (rows.length === 0) return;
    this.signal?.throwIfAborted();
    this.pending = [];
    this.pendingBytes = 0;
    const names = this.columns.map((c) => quoteIdent(c.name));
    const tuple = `(${names.map(() => '?').join(', ')})`;
    let sql = `insert into ${this.target} (${names.join(', ')}) values ${Array.from({ length: rows.length }, () => tuple).join(', ')}`;
    if (this.keys) {
      // VALUES(col) works on MariaDB and MySQL alike (MySQL 8.0.20+ only warns about it).
      const updates = names.filter((_, i) => !this.keys!.includes(this.columns[i]!.name));
      const assignments =
        updates.length > 0 ? updates.map((n) => `${n} = values(${n})`) : [`${names[0]} = ${names[0]}`];
      sql += ` on duplicate key update ${assignments.join(', ')}`;
    }
    await this.conn.execute(sql, rows.flat());
    // The driver caches prepared statements: keep only the common full-size shape.
    if (rows.length !== this.fullShape) this.conn.unprepare(sql);
    this.rows += rows.length;
  }
}

/** A batch may carry only the columns its write declared. */
function assertDeclared(batch: RecordBatch, known: Set<string>): void {
  const unknown = batch.columns.filter((c) => !known.has(c.name));
  if (unknown.length > 0)
    throw new ConnectorError(
      'schema_mismatch',
      `batch columns not declared by the write: ${unknown.map((c) => c.name).join(', ')}`,
      false,
    );
}

async function insertBatches(
  conn: Conn,
  target: string,
  known: Set<string>,
  keys: string[] | undefined,
  batches: AsyncIterable<RecordBatch>,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<number> {
  let rows = 0;
  for await (const batch of batches) {
    signal?.throwIfAborted();
    if (batch.rows.length === 0) continue;
    assertDeclared(batch, known);
    const inserter = new Inserter(conn, target, batch.columns, keys, maxBytes, signal);
    const types = batch.columns.map((c) => c.type);
    for (const row of batch.rows) await inserter.add(types.map((type, i) => encodeValue(row[i] ?? null, type)));
    await inserter.flush();
    rows += inserter.rows;
  }
  return rows;
}

/** MySQL refuses LOCAL INFILE: the server's local_infile is off (1148, 3948) or the client flag is missing. */
const LOCAL_INFILE_REFUSED = new Set([1148, 3948, 2068]);
const LOAD_CHUNK = 256 * 1024;

/** A value as a field of LOAD DATA's default format: `\N` for NULL; backslash, tab, newline and NUL escaped. */
function loadDataField(value: Param, hex: boolean): string {
  if (value === null) return '\\N';
  if (hex) return (value as Buffer).toString('hex');
  const text = typeof value === 'string' ? value : String(value);
  return /[\\\t\n\0]/.test(text)
    ? text.replace(/[\\\t\n\0]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\0'))
    : text;
}

/**
 * The rows of `batches` as LOAD DATA text in the order of `columns` (a column a batch lacks is NULL);
 * binary values as hex, turned back into bytes by the statement's SET clause.
 */
function loadDataText(columns: ColumnSchema[], batches: AsyncIterable<RecordBatch>, signal?: AbortSignal): Readable {
  const hex = columns.map((c) => c.type === 'binary');
  const types = columns.map((c) => c.type);
  const known = new Set(columns.map((c) => c.name));
  return Readable.from(
    (async function* () {
      let chunk = '';
      for await (const batch of batches) {
        signal?.throwIfAborted();
        assertDeclared(batch, known);
        const at = columns.map((c) => batch.columns.findIndex((b) => b.name === c.name));
        for (const row of batch.rows) {
          for (let i = 0; i < columns.length; i++) {
            const raw = at[i]! < 0 ? null : (row[at[i]!] ?? null);
            chunk += (i === 0 ? '' : '\t') + loadDataField(encodeValue(raw, types[i]!), hex[i]!);
          }
          chunk += '\n';
          if (chunk.length >= LOAD_CHUNK) {
            yield Buffer.from(chunk, 'utf8');
            chunk = '';
          }
        }
      }
      if (chunk) yield Buffer.from(chunk, 'utf8');
    })(),
    { objectMode: false },
  );
}

/** Warnings that mean a value did not fit its column (wrong value, out of range, truncated, NULL in NOT NULL, a CHECK). */
const VALUE_WARNINGS = new Set([1048, 1264, 1265, 1292, 1366, 1406, 3140, 4025]);

/**
 * LOAD DATA LOCAL runs as if IGNORE were given (the server cannot stop the client's file midway): a
 * value that does not fit becomes a warning and is converted, and a duplicate key skips its row.
 * INSERT in strict mode refuses both, and so does this: any warning (notes, such as a decimal
 * rounded to its scale, which INSERT also accepts, are not warnings) fails the write.
 */
async function refuseWarnings(conn: Conn, count: number): Promise<void> {
  const [rows] = await conn.query<RowDataPacket[]>('show warnings limit 5');
  const warnings = rows.filter((w) => String(w['Level']) !== 'Note');
  if (warnings.length === 0) return;
  const first = warnings[0]!;
  const value = VALUE_WARNINGS.has(Number(first['Code']));
  throw new ConnectorError(
    value ? 'schema_mismatch' : 'failed',
    `${value ? 'a value does not fit its column' : 'a row was not loaded as sent'} (${String(first['Message'])}; ${count} warning(s) in all)`,
    false,
  );
}

/**
 * One LOAD DATA LOCAL INFILE of `stream` (LOAD DATA text of `columns`) into `target`; the rows loaded.
 * Undefined when the server refuses LOCAL INFILE before any row was read (the caller then inserts).
 * A failure leaves the connection unusable (the driver may still be sending the stream): the caller
 * destroys it.
 */
async function loadText(
  conn: Conn,
  target: string,
  columns: ColumnSchema[],
  stream: Readable,
): Promise<number | undefined> {
  let opened = false;
  const fields = columns.map((c, i) => (c.type === 'binary' ? `@svc_${i}` : quoteIdent(c.name)));
  const unhex = columns.flatMap((c, i) => (c.type === 'binary' ? [`${quoteIdent(c.name)} = unhex(@svc_${i})`] : []));
  try {
    const [result] = await conn.query<ResultSetHeader>({
      sql:
        `load data local infile 'svc-rows' into table ${target} character set utf8mb4 ` +
        `fields terminated by '\\t' escaped by '\\\\' lines terminated by '\\n' (${fields.join(', ')})` +
        (unhex.length > 0 ? ` set ${unhex.join(', ')}` : ''),
      // Whatever file the server names, it gets these rows and nothing else.
      infileStreamFactory: () => {
        opened = true;
        return stream;
      },
    });
    if (result.warningStatus > 0) await refuseWarnings(conn, result.warningStatus);
    return result.affectedRows;
  } catch (error) {
    const errno = (error as { errno?: number }).errno;
    if (!opened && errno !== undefined && LOCAL_INFILE_REFUSED.has(errno)) {
      stream.destroy();
      return undefined;
    }
    throw error;
  }
}

async function statementBytes(conn: Conn): Promise<number> {
  const [rows] = await conn.query<RowDataPacket[]>('select @@max_allowed_packet as max');
  const max = Number(rows[0]?.['max'] ?? 0);
  return max > 0 ? Math.min(MAX_BYTES_PER_INSERT, Math.floor(max / 2)) : MAX_BYTES_PER_INSERT;
}

/** Per destination database: which runs have committed their appends. */
export const RUNS_TABLE = '_svc_runs';

/** What a write loads: record batches, or LOAD DATA text already made (a bulk import). */
type Rows = { batches: AsyncIterable<RecordBatch> } | { text: Readable };

export async function writeTable(
  client: MysqlClient,
  request: WriteRequest,
  defaultDatabase: string,
  rows: Rows,
  signal?: AbortSignal,
): Promise<WriteSummary> {
  validate(request);
  const database = request.dataset.namespace ?? defaultDatabase;
  const table = request.dataset.name;
  const known = new Set(request.columns.map((c) => c.name));
  const keys = request.mode === 'upsert' ? request.keyColumns : undefined;
  const pooled = await client.connection();
  const conn = pooled.promise();
  let broken = false;
  try {
    signal?.throwIfAborted();
    const maxBytes = await statementBytes(conn);
    const existing = await describeTable(pooled, database, table);
    /** A LOAD DATA that failed may have left the driver sending: the connection is not reused. */
    const load = async (target: string, text: Readable) => {
      try {
        return await loadText(conn, target, request.columns, text);
      } catch (error) {
        broken = true;
        throw error;
      }
    };
    /**
     * LOAD DATA where it can, else INSERTs. Upserts of batches insert (LOAD DATA has no ON DUPLICATE
     * KEY UPDATE); upserts of text load a temporary copy of the table, then insert it on duplicate key.
     */
    const writeRows = async (target: string, upsertKeys: string[] | undefined): Promise<number> => {
      if ('text' in rows) {
        const into = upsertKeys
          ? `svc_upsert_${createHash('sha256').update(request.runId).digest('hex').slice(0, 10)}`
          : target;
        if (upsertKeys) {
          await conn.query(`drop temporary table if exists ${quoteIdent(into)}`);
          // No keys: a key the input carries twice is loaded twice, and its last row wins below.
          await conn.query(`create temporary table ${quoteIdent(into)} as select * from ${target} limit 0`);
        }
        const loaded = await load(upsertKeys ? quoteIdent(into) : target, rows.text);
        if (loaded === undefined)
          throw new ConnectorError(
            'unsupported',
            'the server refuses LOAD DATA LOCAL INFILE (local_infile is off)',
            false,
          );
        if (!upsertKeys) return loaded;
        const names = request.columns.map((c) => quoteIdent(c.name));
        const updates = names.filter((_, i) => !upsertKeys.includes(request.columns[i]!.name));
        const assignments =
          updates.length > 0 ? updates.map((n) => `${n} = values(${n})`) : [`${names[0]} = ${names[0]}`];
        await conn.query(
          `insert into ${target} (${names.join(', ')}) select ${names.join(', ')} from ${quoteIdent(into)} on duplicate key update ${assignments.join(', ')}`,
        );
        await conn.query(`drop temporary table ${quoteIdent(into)}`);
        return loaded;
      }
      if (!upsertKeys) {
        const loaded = await load(target, loadDataText(request.columns, rows.batches, signal));
        if (loaded !== undefined) return loaded;
      }
      return insertBatches(conn, target, known, upsertKeys, rows.batches, maxBytes, signal);
    };

    if (request.mode === 'overwrite') {
      const stage = sideTableName(table, request.runId, 'stage');
      const old = sideTableName(table, request.runId, 'old');
      // Leftovers of an earlier attempt of this run.
      await conn.query(`drop table if exists ${qualified(database, stage)}, ${qualified(database, old)}`);
      try {
        if (existing) {
          // The table's own definition (types, keys, indexes) survives the overwrite.
          await conn.query(`create table ${qualified(database, stage)} like ${qualified(database, table)}`);
          await addMissingColumns(conn, database, stage, existing, request.columns);
        } else {
          await createTable(conn, database, stage, request.columns, []);
        }
        const written = await writeRows(qualified(database, stage), undefined);
        signal?.throwIfAborted();
        if (existing) {
          await conn.query(
            `rename table ${qualified(database, table)} to ${qualified(database, old)}, ${qualified(database, stage)} to ${qualified(database, table)}`,
          );
          await conn.query(`drop table ${qualified(database, old)}`);
        } else {
          await conn.query(`rename table ${qualified(database, stage)} to ${qualified(database, table)}`);
        }
        return { rowsWritten: written };
      } catch (error) {
        await conn.query(`drop table if exists ${qualified(database, stage)}`).catch(() => undefined);
        throw error;
      }
    }

    if (!existing) await createTable(conn, database, table, request.columns, keys ?? []);
    else {
      await addMissingColumns(conn, database, table, existing, request.columns);
      if (keys) await assertUniqueKey(conn, database, table, keys);
    }
    const appending = request.mode === 'append';
    const runs = qualified(database, RUNS_TABLE);
    // Appends are exactly once per run: the rows and the run's marker commit together, and a retried
    // run that finds its marker writes nothing (its batches are still consumed, so cursors advance).
    if (appending)
      await conn.query(
        `create table if not exists ${runs} (run_id varchar(191) not null, dataset varchar(191) not null, committed_at datetime(6) not null default current_timestamp(6), primary key (run_id, dataset)) engine=InnoDB`,
      );
    await conn.beginTransaction();
    try {
      if (appending) {
        const [done] = await conn.query<RowDataPacket[]>(
          `select 1 from ${runs} where run_id = ? and dataset = ? for update`,
          [request.runId, table],
        );
        if (done.length > 0) {
          if ('text' in rows) rows.text.destroy();
          else for await (const batch of rows.batches) void batch;
          await conn.commit();
          return { rowsWritten: 0 };
        }
      }
      const written = await writeRows(qualified(database, table), keys);
      signal?.throwIfAborted();
      if (appending) await conn.query(`insert into ${runs} (run_id, dataset) values (?, ?)`, [request.runId, table]);
      await conn.commit();
      return { rowsWritten: written };
    } catch (error) {
      await conn.rollback().catch(() => {
        broken = true;
      });
      throw error;
    }
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw client.classify(error);
  } finally {
    if (broken) pooled.destroy();
    else pooled.release();
  }
}
