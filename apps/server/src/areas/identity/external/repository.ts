import { sql, type Generated, type Selectable } from 'kysely';
import type { Db } from '../../../platform/db/index.js';

export type ProviderKind = 'oidc' | 'ldap';

export interface IdentityProvidersTable {
  id: Generated<string>;
  kind: ProviderKind;
  name: string;
  enabled: boolean;
  position: number;
  /** The configuration without its secret fields. */
  config: Record<string, unknown>;
  /** Secret fields (client secret, bind password), each encrypted on its own. */
  secrets: Record<string, string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface ExternalIdentitiesTable {
  provider_id: string;
  subject: string;
  user_id: string;
  created_at: Generated<Date>;
  last_login_at: Generated<Date>;
}

export interface SsoLoginStatesTable {
  jti: string;
  provider_id: string;
  code_verifier: string;
  nonce: string;
  redirect_to: string;
  expires_at: Date;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    identity_providers: IdentityProvidersTable;
    external_identities: ExternalIdentitiesTable;
    sso_login_states: SsoLoginStatesTable;
  }
}

export type ProviderRow = Selectable<IdentityProvidersTable>;

export function createExternalIdentityRepository() {
  return {
    insertProvider: (
      db: Db,
      row: Pick<IdentityProvidersTable, 'kind' | 'name' | 'enabled' | 'position' | 'config' | 'secrets'>,
    ) => db.insertInto('identity_providers').values(row).returningAll().executeTakeFirstOrThrow(),
    findProvider: (db: Db, id: string) =>
      db.selectFrom('identity_providers').selectAll().where('id', '=', id).executeTakeFirst(),
    listProviders: (db: Db, kind: ProviderKind) =>
      db
        .selectFrom('identity_providers')
        .selectAll()
        .where('kind', '=', kind)
        .orderBy('position')
        .orderBy('name')
        .execute(),
    updateProvider: (
      db: Db,
      id: string,
      changes: Partial<Pick<IdentityProvidersTable, 'name' | 'enabled' | 'position' | 'config' | 'secrets'>>,
    ) =>
      db
        .updateTable('identity_providers')
        .set({ ...changes, updated_at: sql`now()` })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
    removeProvider: async (db: Db, id: string) =>
      Number((await db.deleteFrom('identity_providers').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,

    findIdentity: (db: Db, providerId: string, subject: string) =>
      db
        .selectFrom('external_identities')
        .selectAll()
        .where('provider_id', '=', providerId)
        .where('subject', '=', subject)
        .executeTakeFirst(),
    linkIdentity: (db: Db, providerId: string, subject: string, userId: string) =>
      db
        .insertInto('external_identities')
        .values({ provider_id: providerId, subject, user_id: userId })
        .onConflict((oc) => oc.columns(['provider_id', 'subject']).doUpdateSet({ last_login_at: sql`now()` }))
        .execute(),

    saveLoginState: (db: Db, state: SsoLoginStatesTable) => db.insertInto('sso_login_states').values(state).execute(),
    /** Takes a login state once: the first callback that presents it gets it, any other none. */
    consumeLoginState: (db: Db, jti: string) =>
      db.deleteFrom('sso_login_states').where('jti', '=', jti).returningAll().executeTakeFirst(),
    pruneLoginStates: async (db: Db) =>
      Number(
        (
          await db
            .deleteFrom('sso_login_states')
            .where('expires_at', '<', sql<Date>`now()`)
            .executeTakeFirst()
        ).numDeletedRows,
      ),
  };
}

export type ExternalIdentityRepository = ReturnType<typeof createExternalIdentityRepository>;
