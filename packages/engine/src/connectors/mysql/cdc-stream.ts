/**
 * One table's transactions read from the row-based binlog with zongji. zongji emits events
 * synchronously as packets arrive; they are queued (the socket paused while the queue is long) and
 * handled one at a time, so that each transaction is handed over, and awaited, in commit order.
 *
 * A transaction is the row events of the table between a group's start and its commit marker (an
 * XID event for InnoDB, a COMMIT query otherwise). Its position is the end of the commit marker: a
 * stream started there continues with the next transaction, so a restart neither loses nor repeats
 * one. Positions only ever advance at group boundaries, so a heartbeat never points inside a group.
 */
import type { RowDataPacket } from 'mysql2';
import type ZongJi from '@vlasky/zongji';
import type {
  AnyBinlogEvent,
  BinlogEventByName,
  BinlogEventName,
  QueryEvent,
  RowData,
  RowsEvent,
  TableMapEvent,
  XidEvent,
} from '@vlasky/zongji';
import type { RowChange, SourceTransaction } from '../../cdc/types.js';
import type { ColumnSchema, Value } from '../../types.js';
import { ConnectorError } from '../../types.js';
import { classify, type MysqlClient, type MysqlConfig } from './client.js';
import { describeKeyedTable, type KeyedTable } from './cdc-checks.js';
import { exactLabels, type ExactLabels, fixLabels } from './cdc-labels.js';
import { type BinlogPosition, formatPosition, replicaServerId } from './cdc-position.js';
import { decoder } from './type-mapping.js';

export const DEFAULT_HEARTBEAT_MS = 10_000;

const CAPTURED_EVENTS: BinlogEventName[] = [
  'rotate',
  'mariadbgtid',
  'tablemap',
  'writerows',
  'updaterows',
  'deleterows',
  'xid',
  'query',
  'xaprepare',
];
/** Queued events at which the binlog socket is paused, and below which it resumes. */
const QUEUE_HIGH_WATER = 1_000;
const QUEUE_LOW_WATER = 100;
/** ER_MASTER_FATAL_ERROR_READING_BINLOG: the requested file is gone (purged) or the position is not in it. */
const BINLOG_UNREADABLE = 1236;

export interface StreamRequest {
  database: string;
  table: string;
  captureId: string;
  from: BinlogPosition;
  onTransaction: (tx: SourceTransaction) => Promise<void>;
  signal: AbortSignal;
  heartbeatMs: number;
}

type Arrival = { event: AnyBinlogEvent; file: string; offset: number } | { error: unknown };

/** How the row images of one table id map to canonical columns. */
interface RowShape {
  tableId: number;
  columns: ColumnSchema[];
  decoders: ((raw: unknown) => Value)[];
  /** Index in `columns` of each primary key column. */
  keyIndexes: number[];
}

function isEvent<N extends BinlogEventName>(event: AnyBinlogEvent, name: N): event is BinlogEventByName<N> {
  return event.getEventName() === name;
}

const LEADING_COMMENTS = /^(?:\s+|\/\*(?!!)[\s\S]*?\*\/|(?:--\s|#)[^\n]*(?:\n|$))*/;
const IDENTIFIER = String.raw`(?:\`((?:[^\`]|\`\`)+)\`|([\w$\u0080-\uffff]+))`;
const TRUNCATE = new RegExp(String.raw`^truncate\s+(?:table\s+)?${IDENTIFIER}(?:\s*\.\s*${IDENTIFIER})?`, 'i');

/** The statement text without the comments a client may put before it. */
export function statementText(query: string): string {
  return query.replace(LEADING_COMMENTS, '').trim();
}

/** The table a TRUNCATE statement empties (`defaultDatabase` for an unqualified name), or undefined for another statement. */
export function truncatedTable(
  statement: string,
  defaultDatabase: string,
): { database: string; table: string } | undefined {
  const match = TRUNCATE.exec(statement);
  if (!match) return undefined;
  const unquote = (quoted: string | undefined, bare: string | undefined) =>
    quoted !== undefined ? quoted.replaceAll('``', '`') : bare;
  const first = unquote(match[1], match[2]) ?? '';
  const second = unquote(match[3], match[4]);
  return second === undefined ? { database: defaultDatabase, table: first } : { database: first, table: second };
}

/** Connection options for zongji: the connector's (through the egress policy), less the pool's own. */
async function binlogConnectionOptions(client: MysqlClient) {
  const { connectionLimit: _poolOnly, ...options } = await client.connectionOptions();
  return options;
}

function binlogError(error: unknown, from: BinlogPosition, password: string | undefined): ConnectorError {
  const e = error as { errno?: number; message?: string };
  if (e.errno === BINLOG_UNREADABLE) {
    return new ConnectorError(
      'failed',
      `the binlog cannot be read from ${from.file}:${from.offset} (${e.message ?? ''}): the server no longer has it (purged) or the position is invalid; a resync is needed`,
      false,
      { cause: error },
    );
  }
  if (/schema changed between binlog event and metadata fetch/.test(e.message ?? '')) {
    return new ConnectorError(
      'schema_mismatch',
      `${e.message}: binlog events older than a schema change cannot be decoded with today's columns; set binlog_row_metadata=FULL on the server (events then describe their own columns), or resync`,
      false,
      { cause: error },
    );
  }
  return classify(error, password);
}

export class BinlogTableStream {
  private readonly queue: Arrival[] = [];
  private wake: (() => void) | undefined;
  private failed = false;
  private socketPaused = false;
  private zongji: ZongJi | undefined;
  /** Where a restart would resume: the end of the last group handled. */
  private resumeAt: BinlogPosition;
  private lastEventTime = 0;
  private lastHandedOut = Date.now();
  /** Inside a group (a transaction) of the binlog: query events there do not commit by themselves. */
  private inGroup = false;
  private changes: RowChange[] = [];
  /** The table as described now; undefined once a schema change may have made it stale. */
  private description: KeyedTable | undefined;
  private shape: RowShape | undefined;

  constructor(
    private readonly client: MysqlClient,
    private readonly config: MysqlConfig,
    private readonly request: StreamRequest,
  ) {
    this.resumeAt = request.from;
  }

  async run(): Promise<void> {
    const { signal } = this.request;
    const onAbort = () => this.wake?.();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      await this.start();
      while (!signal.aborted) {
        const arrival = await this.next();
        if (arrival) await this.handle(arrival);
        if (!signal.aborted && Date.now() - this.lastHandedOut >= this.request.heartbeatMs) await this.heartbeat();
      }
    } catch (error) {
      // Once aborted, a failure (the consumer giving up, say) still ends the stream as asked.
      if (!signal.aborted) throw error;
    } finally {
      signal.removeEventListener('abort', onAbort);
      await this.stop();
    }
  }

  private async start(): Promise<void> {
    const conn = await this.client.connection();
    let sourceServerId: number;
    let labels: Map<string, ExactLabels>;
    try {
      const [rows] = await conn.promise().query<RowDataPacket[]>('select @@server_id as id');
      sourceServerId = Number(rows[0]?.['id']);
      labels = await exactLabels(conn, this.request.database, this.request.table);
    } catch (error) {
      throw this.client.classify(error);
    } finally {
      conn.release();
    }
    // zongji is loaded by the first binlog stream a process reads, not by every process.
    const { default: BinlogReader } = await import('@vlasky/zongji');
    const zongji = new BinlogReader(await binlogConnectionOptions(this.client));
    this.zongji = zongji;
    // zongji's resume pair (filename, position) is kept coherent across rotations and only moves at
    // group boundaries; read it now, while this event is the latest one.
    zongji.on('binlog', (event) => {
      // Before zongji decodes the row events that follow this table map (see cdc-labels.ts).
      if (event.getEventName() === 'tablemap') {
        const schemas = (event as TableMapEvent).tableMap[(event as TableMapEvent).tableId]?.columnSchemas;
        if (schemas) fixLabels(schemas, labels);
      }
      this.receive({
        event,
        file: zongji.options.filename ?? this.request.from.file,
        offset: zongji.options.position ?? this.request.from.offset,
      });
    });
    zongji.on('error', (error) => this.receive({ error }));
    zongji.start({
      serverId: replicaServerId(this.request.captureId, sourceServerId),
      filename: this.request.from.file,
      position: this.request.from.offset,
      includeEvents: CAPTURED_EVENTS,
      includeSchema: { [this.request.database]: [this.request.table] },
    });
  }

  private async stop(): Promise<void> {
    const zongji = this.zongji;
    this.zongji = undefined;
    if (!zongji) return;
    await new Promise<void>((resolve) => {
      zongji.once('stopped', () => resolve());
      zongji.stop();
    });
  }

  private receive(arrival: Arrival): void {
    // Nothing after a failure may be handled: it could be decoded wrongly or follow a lost event.
    if (this.failed) return;
    if ('error' in arrival) this.failed = true;
    this.queue.push(arrival);
    // Repeated on purpose: zongji resumes the socket itself after fetching a table's columns.
    if (this.queue.length >= QUEUE_HIGH_WATER) {
      this.socketPaused = true;
      this.binlogSocket()?.pause();
    }
    this.wake?.();
  }

  /**
   * The binlog connection's socket. Flow control pauses the socket, not the connection: zongji pauses
   * the connection while it fetches a table's columns, and resuming that would let row events through
   * before their columns are known (zongji then drops them). Packets read while the connection is
   * paused wait in the driver.
   */
  private binlogSocket(): { pause(): void; resume(): void } | undefined {
    return (this.zongji?.connection as { stream?: { pause(): void; resume(): void } } | null | undefined)?.stream;
  }

  /** The next arrival, or undefined when a heartbeat is due first (or the stream is aborted). */
  private async next(): Promise<Arrival | undefined> {
    if (this.queue.length === 0) {
      const wait = Math.max(0, this.lastHandedOut + this.request.heartbeatMs - Date.now());
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
    const arrival = this.queue.shift();
    if (this.socketPaused && this.queue.length <= QUEUE_LOW_WATER) {
      this.socketPaused = false;
      this.binlogSocket()?.resume();
    }
    return arrival;
  }

  private async handle(arrival: Arrival): Promise<void> {
    if ('error' in arrival) throw binlogError(arrival.error, this.request.from, this.config.password);
    const { event } = arrival;
    if (event.timestamp > 0) this.lastEventTime = event.timestamp;
    if (isEvent(event, 'rotate')) {
      this.resumeAt = { ...this.resumeAt, file: arrival.file, offset: arrival.offset };
    } else if (isEvent(event, 'mariadbgtid')) {
      this.inGroup = !event.standalone;
    } else if (isEvent(event, 'tablemap')) {
      this.inGroup = true;
      // A new table id follows a schema change (or the table being reopened): describe it again.
      if (this.shape?.tableId !== event.tableId) this.forgetSchema();
    } else if (isEvent(event, 'writerows')) {
      const shape = await this.shapeOf(event);
      for (const row of event.rows)
        this.changes.push({ op: 'insert', columns: shape.columns, values: this.values(shape, row), oldKey: null });
    } else if (isEvent(event, 'updaterows')) {
      const shape = await this.shapeOf(event);
      for (const { before, after } of event.rows) {
        this.changes.push({
          op: 'update',
          columns: shape.columns,
          values: this.values(shape, after),
          oldKey: this.key(shape, before),
        });
      }
    } else if (isEvent(event, 'deleterows')) {
      const shape = await this.shapeOf(event);
      for (const row of event.rows)
        this.changes.push({ op: 'delete', columns: shape.columns, values: null, oldKey: this.key(shape, row) });
    } else if (isEvent(event, 'xid')) {
      await this.commit(arrival.file, arrival.offset, event);
    } else if (isEvent(event, 'query')) {
      await this.query(arrival.file, arrival.offset, event);
    } else if (isEvent(event, 'xaprepare')) {
      if (this.changes.length > 0) {
        throw new ConnectorError(
          'unsupported',
          `an XA transaction changed "${this.request.database}"."${this.request.table}": change capture does not follow XA PREPARE / XA COMMIT; use ordinary transactions and resync`,
          false,
        );
      }
      this.endGroup(arrival.file, arrival.offset, event.gtid);
    }
  }

  private async query(file: string, offset: number, event: QueryEvent): Promise<void> {
    const statement = statementText(event.query);
    const keyword = statement.toUpperCase();
    if (keyword === 'BEGIN' || keyword.startsWith('XA START')) {
      this.inGroup = true;
    } else if (keyword === 'COMMIT' || keyword.startsWith('XA COMMIT')) {
      await this.commit(file, offset, event);
    } else if (keyword === 'ROLLBACK' || keyword.startsWith('XA ROLLBACK')) {
      this.changes = [];
      this.endGroup(file, offset, event.gtid);
    } else if (!this.inGroup) {
      // A statement of its own (DDL): it commits by itself.
      if (keyword.includes(this.request.table.toUpperCase())) this.forgetSchema();
      const target = truncatedTable(statement, event.schema);
      if (target?.database === this.request.database && target.table === this.request.table) {
        this.changes.push({ op: 'truncate', columns: (await this.described()).columns, values: null, oldKey: null });
      }
      await this.commit(file, offset, event);
    }
  }

  private endGroup(file: string, offset: number, gtid: string | undefined): void {
    this.inGroup = false;
    const lastGtid = gtid ?? this.resumeAt.gtid;
    this.resumeAt = lastGtid ? { file, offset, gtid: lastGtid } : { file, offset };
  }

  private async commit(file: string, offset: number, event: XidEvent | QueryEvent): Promise<void> {
    this.endGroup(file, offset, event.gtid);
    if (this.changes.length === 0) return; // a transaction of other tables: only the position moves
    const changes = this.changes;
    this.changes = [];
    await this.handOut({
      position: formatPosition(this.resumeAt),
      commitTime: new Date(event.timestamp).toISOString(),
      changes,
    });
  }

  /** A transaction without changes at the resume position, so that positions and lag keep moving. */
  private async heartbeat(): Promise<void> {
    // Caught up, the source is idle as of now; behind, it is as of the last event read.
    const asOf = this.queue.length === 0 || this.lastEventTime === 0 ? Date.now() : this.lastEventTime;
    await this.handOut({
      position: formatPosition(this.resumeAt),
      commitTime: new Date(asOf).toISOString(),
      changes: [],
    });
  }

  private async handOut(tx: SourceTransaction): Promise<void> {
    if (this.request.signal.aborted) return;
    await this.request.onTransaction(tx);
    this.lastHandedOut = Date.now();
  }

  private forgetSchema(): void {
    this.description = undefined;
    this.shape = undefined;
  }

  private async described(): Promise<KeyedTable> {
    if (!this.description) {
      const conn = await this.client.connection();
      try {
        this.description = await describeKeyedTable(conn, this.request.database, this.request.table);
      } catch (error) {
        throw this.client.classify(error);
      } finally {
        conn.release();
      }
    }
    return this.description;
  }

  /**
   * The columns of this event's row images, in their order, as the table describes them now. An image
   * may have fewer columns than the table (it predates an added column): changes carry the columns
   * they have.
   */
  private async shapeOf(event: RowsEvent): Promise<RowShape> {
    if (this.shape?.tableId === event.tableId) return this.shape;
    const table = await this.described();
    const names = (event.tableMap[event.tableId]?.columns ?? []).map((column) => column.name);
    const where = `"${this.request.database}"."${this.request.table}"`;
    const columns = names.map((name) => {
      const column = table.columns.find((c) => c.name === name);
      if (!column)
        throw new ConnectorError(
          'schema_mismatch',
          `column "${name}" of ${where} in the binlog no longer exists in the table (dropped or renamed since): a resync is needed`,
          false,
        );
      return column;
    });
    const keyIndexes = table.primaryKey.map((key) => {
      const index = names.indexOf(key);
      if (index < 0)
        throw new ConnectorError(
          'schema_mismatch',
          `primary key column "${key}" of ${where} is not in the binlog row images: a resync is needed`,
          false,
        );
      return index;
    });
    this.shape = { tableId: event.tableId, columns, decoders: columns.map(decoder), keyIndexes };
    return this.shape;
  }

  private values(shape: RowShape, row: RowData): Value[] {
    return shape.columns.map((column, i) => shape.decoders[i]!(row[column.name] ?? null));
  }

  private key(shape: RowShape, row: RowData): Value[] {
    return shape.keyIndexes.map((i) => shape.decoders[i]!(row[shape.columns[i]!.name] ?? null));
  }
}
