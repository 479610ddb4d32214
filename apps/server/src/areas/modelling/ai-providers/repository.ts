import { sql, type Generated, type Selectable } from 'kysely';
import type { Db } from '../../../platform/db/index.js';

export type ProviderType = 'openai' | 'anthropic' | 'openai_compatible';
export type UsageStatus = 'ok' | 'invalid_output' | 'error' | 'refused';

export interface AiProvidersTable {
  id: Generated<string>;
  /** null: instance-wide, managed by administrators, usable in every project. */
  project_id: string | null;
  name: string;
  type: ProviderType;
  base_url: string;
  model: string;
  /** Encrypted (platform/secrets.ts); never answered. */
  api_key: string | null;
  temperature: number | null;
  max_tokens: number | null;
  requests_per_minute: number | null;
  tokens_per_month: string | null;
  enabled: Generated<boolean>;
  created_by: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface AiUsageTable {
  id: Generated<string>;
  provider_id: string;
  project_id: string | null;
  user_id: string | null;
  purpose: string;
  status: UsageStatus;
  input_tokens: number;
  output_tokens: number;
  at: Generated<Date>;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    ai_providers: AiProvidersTable;
    ai_usage: AiUsageTable;
  }
}

export type ProviderRow = Selectable<AiProvidersTable>;
export type ProviderFields = Omit<ProviderRow, 'id' | 'created_at' | 'updated_at' | 'created_by' | 'project_id'>;

export function createProvidersRepository() {
  return {
    find: (db: Db, id: string) => db.selectFrom('ai_providers').selectAll().where('id', '=', id).executeTakeFirst(),
    /** The providers of these projects (null: every project) and the instance-wide ones. */
    list: (db: Db, projectIds: string[] | null) => {
      let query = db.selectFrom('ai_providers').selectAll().orderBy('name');
      if (projectIds)
        query = query.where((eb) =>
          projectIds.length
            ? eb.or([eb('project_id', 'is', null), eb('project_id', 'in', projectIds)])
            : eb('project_id', 'is', null),
        );
      return query.execute();
    },
    insert: (db: Db, row: ProviderFields & { project_id: string | null; created_by: string | null }) =>
      db.insertInto('ai_providers').values(row).returningAll().executeTakeFirstOrThrow(),
    update: (db: Db, id: string, fields: Partial<ProviderFields>) =>
      db
        .updateTable('ai_providers')
        .set({ ...fields, updated_at: sql`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    remove: (db: Db, id: string) => db.deleteFrom('ai_providers').where('id', '=', id).execute(),
    /** Serialises the calls of one provider between the limit check and the record of the call. */
    lockProvider: (trx: Db, id: string) =>
      sql`select pg_advisory_xact_lock(hashtext(${`ai_provider:${id}`}))`.execute(trx),
    recordUsage: (db: Db, row: Omit<Selectable<AiUsageTable>, 'id' | 'at'>) =>
      db.insertInto('ai_usage').values(row).returning('id').executeTakeFirstOrThrow(),
    updateUsage: (db: Db, id: string, fields: Pick<AiUsageTable, 'status' | 'input_tokens' | 'output_tokens'>) =>
      db.updateTable('ai_usage').set(fields).where('id', '=', id).execute(),
    /** Calls in the last minute and tokens since the start of the month (UTC), counted against the limits. */
    counts: async (db: Db, providerId: string) => {
      const row = await db
        .selectFrom('ai_usage')
        .select([
          sql<number>`count(*) filter (where at > now() - interval '1 minute')::int`.as('requests_last_minute'),
          sql<string>`coalesce(sum(input_tokens + output_tokens) filter (where at >= date_trunc('month', now() at time zone 'UTC') at time zone 'UTC'), 0)::bigint`.as(
            'tokens_this_month',
          ),
        ])
        .where('provider_id', '=', providerId)
        .where('status', '<>', 'refused')
        .executeTakeFirstOrThrow();
      return { requests_last_minute: row.requests_last_minute, tokens_this_month: Number(row.tokens_this_month) };
    },
    recent: (db: Db, providerId: string, projectIds: string[] | null, limit: number) => {
      let query = db
        .selectFrom('ai_usage')
        .selectAll()
        .where('provider_id', '=', providerId)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit);
      if (projectIds)
        query = projectIds.length ? query.where('project_id', 'in', projectIds) : query.where(sql<boolean>`false`);
      return query.execute();
    },
  };
}

export type ProvidersRepository = ReturnType<typeof createProvidersRepository>;
