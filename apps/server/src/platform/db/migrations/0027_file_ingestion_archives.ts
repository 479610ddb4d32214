/**
 * File ingestions take zip archives: each member loaded is a history row of its own that names the
 * archive's row and its path in the archive.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table file_ingestion_files
      add column archive_id uuid references file_ingestion_files (id) on delete set null,
      add column archive_member text`.execute(db);
  await sql`create index file_ingestion_files_archive on file_ingestion_files (archive_id) where archive_id is not null`.execute(
    db,
  );
}
