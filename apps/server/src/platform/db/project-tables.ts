/**
 * The queries every table of named project resources shares (a uuid `id`, a `project_id`, a `name`
 * and an `updated_at`): find by id, the list of some projects by name, update and delete. Written
 * once so that each area's repository keeps only the queries of its own.
 */
import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Db } from './index.js';
import type { Database } from './schema.js';

/** No project has this id: an empty list of projects matches no row (`in ()` is not SQL). */
const NO_PROJECT = '00000000-0000-0000-0000-000000000000';

/** The ids for `project_id in (...)`: an empty list becomes one that matches nothing. */
export const inProjects = (projectIds: readonly string[]): string[] =>
  projectIds.length ? [...projectIds] : [NO_PROJECT];

/** JSON text for a jsonb column: node-pg would send a JS array as a PostgreSQL array. */
export const jsonb = <T>(value: T): T => JSON.stringify(value) as unknown as T;

interface ProjectColumns {
  id: string;
  project_id: string;
  name: string;
  updated_at: Date;
}

/** Tables with the columns these queries rely on. */
export type ProjectTable = {
  [T in keyof Database]: Database[T] extends { project_id: string; name: string; updated_at: unknown } ? T : never;
}[keyof Database];

export function projectTable<T extends ProjectTable>(table: T) {
  type Row = Selectable<Database[T]>;
  // Kysely cannot follow column names through a table named by a type parameter; the rows are typed on the way out.
  const loose = (db: Db) => db as unknown as Kysely<Record<string, ProjectColumns>>;
  const name: string = table;
  return {
    find: (db: Db, id: string) =>
      loose(db).selectFrom(name).selectAll().where('id', '=', id).executeTakeFirst() as Promise<Row | undefined>,
    /** The rows of these projects (null: every project), by name. */
    list: (db: Db, projectIds: string[] | null) => {
      let query = loose(db).selectFrom(name).selectAll().orderBy('name');
      if (projectIds) query = query.where('project_id', 'in', inProjects(projectIds));
      return query.execute() as Promise<Row[]>;
    },
    /** Sets `changes` (their jsonb fields already as JSON text) and stamps updated_at; undefined when the row is gone. */
    update: (db: Db, id: string, changes: Updateable<Database[T]>) =>
      loose(db)
        .updateTable(name)
        .set({ ...(changes as object), updated_at: sql<Date>`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst() as Promise<Row | undefined>,
    /** Whether a row was deleted. */
    remove: async (db: Db, id: string) =>
      Number((await loose(db).deleteFrom(name).where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
  };
}

/** Tables of resources looked at every `poll_interval_seconds` (null: never), next at `next_poll_at`. */
export type PolledTable = {
  [T in keyof Database]: Database[T] extends { poll_interval_seconds: number | null; next_poll_at: Date | null }
    ? T
    : never;
}[keyof Database];

/** The rows due for a look, claimed (their next look moved on) so that one process starts each. */
export const claimDuePolls = <T extends PolledTable>(db: Db, table: T, limit: number) => {
  const loose = db as unknown as Kysely<
    Record<string, { id: string; poll_interval_seconds: number | null; next_poll_at: Date | null }>
  >;
  const name: string = table;
  return loose
    .updateTable(name)
    .set({ next_poll_at: sql`now() + make_interval(secs => poll_interval_seconds)` })
    .where(
      'id',
      'in',
      loose
        .selectFrom(name)
        .select('id')
        .where('poll_interval_seconds', 'is not', null)
        .where((eb) => eb.or([eb('next_poll_at', 'is', null), eb('next_poll_at', '<=', sql<Date>`now()`)]))
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .execute() as Promise<Array<Selectable<Database[T]>>>;
};

/** Tables of scheduled resources, next due at `next_due_at` (null: not scheduled). */
export type ScheduledTable = {
  [T in keyof Database]: Database[T] extends { next_due_at: Date | null } ? T : never;
}[keyof Database];

/** The rows whose schedule is due, locked in the caller's transaction; rows another process holds are skipped. */
export const lockDueSchedules = <T extends ScheduledTable>(db: Db, table: T, limit: number) => {
  const loose = db as unknown as Kysely<Record<string, { next_due_at: Date | null }>>;
  const name: string = table;
  return loose
    .selectFrom(name)
    .selectAll()
    .where('next_due_at', '<=', sql<Date>`now()`)
    .orderBy('next_due_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute() as Promise<Array<Selectable<Database[T]>>>;
};
