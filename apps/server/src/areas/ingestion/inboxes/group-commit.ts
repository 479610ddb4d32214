/**
 * Group commit of the receive route's accepted requests: the rows that arrive while inserts are
 * committing wait and go together in the next one (one multi-row INSERT, one commit). Each caller's
 * promise resolves only once the statement holding its row has committed, so a 202 is never sent for
 * a row that is not durable.
 *
 * Up to `inFlight` statements run at once (each on its own pooled connection), so a group is not
 * held back behind the commit of the one before it. A statement that PostgreSQL itself refused (an
 * error with a SQLSTATE: nothing of it committed, a single statement being its own transaction) is
 * tried again row by row, so that one bad row (its inbox deleted a moment ago) fails only its own
 * request; any other failure (a lost connection: whether it committed is unknown) rejects every row
 * of the group, so each of those requests is answered 5xx, never 202, and none is inserted twice.
 */
export interface GroupCommitOptions {
  /** Most rows in one statement. */
  maxRows?: number;
  /** Most statements committing at once. */
  inFlight?: number;
}

type Waiting<Row, Id> = { row: Row; resolve(id: Id): void; reject(error: Error): void };

/** An error PostgreSQL answered for a statement (so the statement did not commit). */
const refusedByServer = (error: unknown) =>
  typeof (error as { code?: unknown } | null)?.code === 'string' &&
  /^[0-9A-Z]{5}$/.test((error as { code: string }).code);

export function groupCommit<Row, Id>(
  insertMany: (rows: Row[]) => Promise<Id[]>,
  { maxRows = 500, inFlight = 2 }: GroupCommitOptions = {},
) {
  const waiting: Array<Waiting<Row, Id>> = [];
  let running = 0;

  const settle = async (group: Array<Waiting<Row, Id>>) => {
    try {
      const ids = await insertMany(group.map((w) => w.row));
      if (ids.length !== group.length) throw new Error(`inserted ${ids.length} rows of ${group.length}`);
      group.forEach((w, i) => w.resolve(ids[i]!));
    } catch (error) {
      if (group.length > 1 && refusedByServer(error)) {
        await Promise.all(group.map((w) => settle([w])));
        return;
      }
      for (const w of group) w.reject(error as Error);
    }
  };

  const pump = () => {
    while (running < inFlight && waiting.length) {
      const group = waiting.splice(0, maxRows);
      running += 1;
      void settle(group).finally(() => {
        running -= 1;
        pump();
      });
    }
  };

  return {
    /** Resolves with the row's id once the statement holding it has committed. */
    insert: (row: Row) =>
      new Promise<Id>((resolve, reject) => {
        waiting.push({ row, resolve, reject });
        pump();
      }),
  };
}
