import { sql, type Generated, type Selectable } from 'kysely';
import { countByProject, type Db } from '../../../platform/db/index.js';

export interface SourceStream {
  /** The stream's name, unique in the pipeline (the key of its incremental state); default: the dataset. */
  name?: string;
  connector_id: string;
  namespace?: string | null;
  /** Table, file dataset or API endpoint of the connector. */
  dataset?: string;
  /** SQL connectors: a SELECT instead of a dataset. */
  query?: string;
  cursor_column?: string;
}

export interface PipelineDestinationSpec {
  connector_id: string;
  namespace?: string | null;
  table: string;
  mode: 'append' | 'overwrite' | 'upsert';
  key_columns?: string[];
}

export interface EtlPipelinesTable {
  id: Generated<string>;
  project_id: string;
  name: string;
  description: Generated<string>;
  sources: SourceStream[];
  transforms: Array<Record<string, unknown>>;
  destination: PipelineDestinationSpec;
  depends_on: string[];
  version: Generated<number>;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface EtlStreamStateTable {
  pipeline_id: string;
  stream: string;
  cursor_column: string;
  cursor_value: unknown;
  updated_at: Generated<Date>;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    etl_pipelines: EtlPipelinesTable;
    etl_stream_state: EtlStreamStateTable;
  }
}

export type PipelineRow = Selectable<EtlPipelinesTable>;

const NO_PROJECT = '00000000-0000-0000-0000-000000000000';
/** JSON text for a jsonb column: node-pg would send a JS array as a PostgreSQL array. */
const json = <T>(value: T): T => JSON.stringify(value) as unknown as T;

export function createPipelinesRepository() {
  return {
    countByProject: (db: Db, projectIds: string[]) => countByProject(db, 'etl_pipelines', projectIds),
    namesIn: (db: Db, projectIds: string[]) =>
      projectIds.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('etl_pipelines')
            .select(['id', 'project_id', 'name'])
            .where('project_id', 'in', projectIds)
            .execute(),
    insert: (
      db: Db,
      row: Pick<
        EtlPipelinesTable,
        'project_id' | 'name' | 'sources' | 'transforms' | 'destination' | 'depends_on' | 'created_by'
      > & { description?: string },
    ) =>
      db
        .insertInto('etl_pipelines')
        .values({
          ...row,
          sources: json(row.sources),
          transforms: json(row.transforms),
          destination: json(row.destination),
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    find: (db: Db, id: string) => db.selectFrom('etl_pipelines').selectAll().where('id', '=', id).executeTakeFirst(),
    list: (db: Db, projectIds: string[] | null) => {
      let query = db.selectFrom('etl_pipelines').selectAll().orderBy('name');
      if (projectIds) query = query.where('project_id', 'in', projectIds.length ? projectIds : [NO_PROJECT]);
      return query.execute();
    },
    /** id and dependencies of every pipeline of a project: the graph a change is checked against. */
    graph: (db: Db, projectId: string) =>
      db.selectFrom('etl_pipelines').select(['id', 'name', 'depends_on']).where('project_id', '=', projectId).execute(),
    dependents: (db: Db, id: string) =>
      db
        .selectFrom('etl_pipelines')
        .selectAll()
        .where('depends_on', '@>', sql<string[]>`array[${id}]::uuid[]`)
        .orderBy('name')
        .execute(),
    update: (
      db: Db,
      id: string,
      changes: {
        name?: string;
        description?: string;
        sources?: SourceStream[];
        transforms?: Array<Record<string, unknown>>;
        destination?: PipelineDestinationSpec;
        depends_on?: string[];
      },
    ) =>
      db
        .updateTable('etl_pipelines')
        .set({
          ...changes,
          ...(changes.sources ? { sources: json(changes.sources) } : {}),
          ...(changes.transforms ? { transforms: json(changes.transforms) } : {}),
          ...(changes.destination ? { destination: json(changes.destination) } : {}),
          version: sql`version + 1`,
          updated_at: sql`now()`,
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    remove: async (db: Db, id: string) =>
      Number((await db.deleteFrom('etl_pipelines').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
    /** Serialises changes to one project's dependency graph (a cycle check must see the others' edges). */
    lockGraph: async (db: Db, projectId: string) => {
      await sql`select pg_advisory_xact_lock(hashtext(${`etl_graph:${projectId}`}))`.execute(db);
    },
    state: (db: Db, pipelineId: string) =>
      db.selectFrom('etl_stream_state').selectAll().where('pipeline_id', '=', pipelineId).orderBy('stream').execute(),
    resetState: async (db: Db, pipelineId: string, stream?: string) => {
      let query = db.deleteFrom('etl_stream_state').where('pipeline_id', '=', pipelineId);
      if (stream) query = query.where('stream', '=', stream);
      return Number((await query.executeTakeFirst()).numDeletedRows);
    },
    saveCursor: (db: Db, pipelineId: string, stream: string, column: string, value: unknown) =>
      db
        .insertInto('etl_stream_state')
        .values({ pipeline_id: pipelineId, stream, cursor_column: column, cursor_value: JSON.stringify(value) })
        .onConflict((oc) =>
          oc
            .columns(['pipeline_id', 'stream'])
            .doUpdateSet({ cursor_column: column, cursor_value: JSON.stringify(value), updated_at: sql`now()` }),
        )
        .execute(),
  };
}

export type PipelinesRepository = ReturnType<typeof createPipelinesRepository>;
