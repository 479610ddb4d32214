/**
 * The queries of a history table: rows that belong to one parent resource (the files of an ingestion,
 * the messages of a feed, the requests of an inbox), read newest first with an optional status
 * filter, or one by id within its parent (another parent's row is not found).
 */
import type { Kysely, SelectExpression, Selectable } from 'kysely';
import type { Db } from './index.js';
import type { Database } from './schema.js';

/** At most this many rows when the caller names no limit. */
const DEFAULT_LIMIT = 200;

export interface HistoryFilter<Status extends string> {
  status?: Status;
  limit?: number;
}

type LooseDb = Kysely<Record<string, Record<string, unknown>>>;
type LooseSelection = SelectExpression<Record<string, Record<string, unknown>>, string>;

export function historyTable<T extends keyof Database, Parent extends keyof Database[T] & string>(
  table: T,
  options: {
    /** The column naming the parent. */
    parent: Parent;
    /** Newest first by this column, then by `tieBreak` (both descending). */
    newest: keyof Database[T] & string;
    tieBreak: keyof Database[T] & string;
  },
) {
  type Row = Selectable<Database[T]>;
  // Kysely cannot follow column names through a table named by a type parameter; the rows are typed on the way out.
  const loose = (db: Db) => db as unknown as LooseDb;
  const name: string = table;
  const parent: string = options.parent;
  return {
    /** One row of this parent, or undefined. */
    find: (db: Db, parentId: string, id: string) =>
      loose(db)
        .selectFrom(name)
        .selectAll()
        .where(parent, '=', parentId)
        .where('id', '=', id)
        .executeTakeFirst() as Promise<Row | undefined>,
    /** The parent's rows newest first, of one status when given; `columns` instead of every column. */
    recent: <Shown = Row>(
      db: Db,
      parentId: string,
      filter: HistoryFilter<string>,
      columns?: readonly LooseSelection[],
    ) => {
      const from = loose(db).selectFrom(name);
      let query = (columns ? from.select(columns) : from.selectAll())
        .where(parent, '=', parentId)
        .orderBy(options.newest, 'desc')
        .orderBy(options.tieBreak, 'desc')
        .limit(filter.limit ?? DEFAULT_LIMIT);
      if (filter.status) query = query.where('status', '=', filter.status);
      return query.execute() as Promise<Shown[]>;
    },
  };
}
