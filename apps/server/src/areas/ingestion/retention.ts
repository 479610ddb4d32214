/**
 * What retention policies may prune of the Ingestion area's data, each in short batches and by age:
 * the kept bodies of inbox requests (the records stay; a request without its body can no longer be
 * replayed), the service's stored copies of uploaded and fetched files (the records stay; a file
 * without its copy can no longer be reloaded; a folder source's files are the user's and are left
 * alone), and stream dead letters. The retention area wraps these into target kinds.
 */
import { sql } from 'kysely';
import type { Db } from '../../platform/db/index.js';
import type { FileStorage } from './file-ingestions/storage.js';

export interface AgeRules {
  projectId: string;
  before: Date;
}

export interface PrunableData {
  count(rules: AgeRules): Promise<number>;
  /** At most `limit` items, in one short transaction; the number pruned. */
  prune(rules: AgeRules, limit: number): Promise<number>;
}

export interface IngestionRetention {
  inboxBodies: PrunableData;
  fileCopies: PrunableData;
  deadLetters: PrunableData;
}

/** Files whose load is over: a pending or loading file still needs its copy. */
const FINISHED = ['loaded', 'partially_loaded', 'failed', 'skipped_duplicate'];
/**
 * Only the service's own copies (of uploads, of files fetched from a bucket or an SFTP server, and of
 * members expanded from a zip archive): a folder source's stored path is the user's own file in the
 * project's folder (or its archive), never pruned here.
 */
const COPIES = sql`(archive_id is not null or ingestion_id in (select id from file_ingestions where source->>'kind' <> 'folder'))`;

export function createIngestionRetention(db: Db, storage: FileStorage): IngestionRetention {
  const count = async (query: ReturnType<typeof sql<{ n: number }>>) =>
    Number((await query.execute(db)).rows[0]?.n ?? 0);
  return {
    inboxBodies: {
      count: ({ projectId, before }) =>
        count(sql<{ n: number }>`select count(*)::int as n from inbox_requests
          where project_id = ${projectId} and received_at < ${before} and body is not null
            and coalesce(load_status, 'loaded') not in ('pending', 'loading')`),
      prune: async ({ projectId, before }, limit) => {
        const result = await sql`update inbox_requests set body = null
          where id in (select id from inbox_requests
                        where project_id = ${projectId} and received_at < ${before} and body is not null
                          and coalesce(load_status, 'loaded') not in ('pending', 'loading')
                        limit ${limit} for update skip locked)`.execute(db);
        return Number(result.numAffectedRows ?? 0n);
      },
    },
    fileCopies: {
      count: ({ projectId, before }) =>
        count(sql<{ n: number }>`select count(*)::int as n from file_ingestion_files
          where project_id = ${projectId} and coalesce(finished_at, created_at) < ${before}
            and stored_path is not null and status = any(${FINISHED}) and ${COPIES}`),
      prune: async ({ projectId, before }, limit) => {
        // The records let go of their copies first; the files go after the commit (a crash in between
        // leaves a file no record names, never a record naming a file that is gone mid-load).
        const { rows } = await sql<{ stored_path: string }>`update file_ingestion_files f set stored_path = null
          from (select id, stored_path from file_ingestion_files
                 where project_id = ${projectId} and coalesce(finished_at, created_at) < ${before}
                   and stored_path is not null and status = any(${FINISHED}) and ${COPIES}
                 limit ${limit} for update skip locked) expired
          where f.id = expired.id
          returning expired.stored_path`.execute(db);
        for (const row of rows) await storage.remove(row.stored_path).catch(() => undefined);
        return rows.length;
      },
    },
    deadLetters: {
      count: ({ projectId, before }) =>
        count(sql<{ n: number }>`select count(*)::int as n from stream_dead_letters d
          join streams s on s.id = d.stream_id
          where s.project_id = ${projectId} and d.created_at < ${before}`),
      prune: async ({ projectId, before }, limit) => {
        const result = await sql`delete from stream_dead_letters
          where id in (select d.id from stream_dead_letters d join streams s on s.id = d.stream_id
                        where s.project_id = ${projectId} and d.created_at < ${before}
                        limit ${limit} for update of d skip locked)`.execute(db);
        return Number(result.numAffectedRows ?? 0n);
      },
    },
  };
}
