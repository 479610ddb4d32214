/**
 * The deny-list of revoked credentials: access tokens (jti), session families (sid) and personal API
 * tokens. PostgreSQL holds it (losing Redis loses no revocation); every process keeps the live entries
 * in memory so the check on each request costs a set lookup. A revocation is in the revoking process's
 * set at once, reaches the other processes through pub/sub at once, and, should a message be lost, by
 * a sync from PostgreSQL every few seconds. Entries are kept until the credential would have expired
 * anyway; the retention sweep prunes them.
 */
import { sql, type Generated } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../../platform/db/index.js';
import type { SharedState } from '../../platform/shared-state/index.js';

export type RevokedKind = 'access_token' | 'session' | 'api_token';

export interface RevokedCredentialsTable {
  id: string;
  kind: RevokedKind;
  revoked_at: Generated<Date>;
  expires_at: Date;
}

declare module '../../platform/db/schema.js' {
  interface Database {
    revoked_credentials: RevokedCredentialsTable;
  }
}

export const REVOCATIONS_CHANNEL = 'identity.revoked';
const SYNC_INTERVAL_MS = 5000;

export interface Revocations {
  isRevoked(kind: RevokedKind, id: string): boolean;
  revoke(db: Db, entries: Array<{ kind: RevokedKind; id: string; expiresAt: Date }>): Promise<void>;
  pruneExpired(): Promise<number>;
  close(): Promise<void>;
}

export async function createRevocations(db: Db, shared: SharedState, logger: Logger): Promise<Revocations> {
  const live = new Map<string, number>(); // `${kind}:${id}` -> expiry (ms)
  const remember = (kind: string, id: string, expiresAt: number) => {
    if (expiresAt > Date.now()) live.set(`${kind}:${id}`, expiresAt);
  };
  let syncedUntil = new Date(0);

  const sync = async () => {
    // Rows revoked since the last sync (with a margin for clock and commit order), live ones only.
    const since = new Date(syncedUntil.getTime() - 2000);
    const rows = await db
      .selectFrom('revoked_credentials')
      .select(['kind', 'id', 'expires_at', 'revoked_at'])
      .where('revoked_at', '>=', since)
      .where('expires_at', '>', sql<Date>`now()`)
      .execute();
    for (const row of rows) {
      remember(row.kind, row.id, row.expires_at.getTime());
      if (row.revoked_at > syncedUntil) syncedUntil = row.revoked_at;
    }
  };

  const unsubscribe = await shared.subscribe(REVOCATIONS_CHANNEL, (message) => {
    try {
      const entries = JSON.parse(message) as Array<[string, string, number]>;
      for (const [kind, id, expiresAt] of entries) remember(kind, id, expiresAt);
    } catch {
      // malformed message: the periodic sync covers it
    }
  });
  await sync();
  const timer = setInterval(() => {
    sync().catch((error: Error) => logger.warn({ err: { message: error.message } }, 'deny-list sync failed'));
    const now = Date.now();
    for (const [key, expiresAt] of live) if (expiresAt <= now) live.delete(key);
  }, SYNC_INTERVAL_MS);
  timer.unref();

  return {
    isRevoked(kind, id) {
      const expiresAt = live.get(`${kind}:${id}`);
      return expiresAt !== undefined && expiresAt > Date.now();
    },
    async revoke(trx, entries) {
      if (entries.length === 0) return;
      await trx
        .insertInto('revoked_credentials')
        .values(entries.map((e) => ({ kind: e.kind, id: e.id, expires_at: e.expiresAt })))
        .onConflict((oc) => oc.columns(['kind', 'id']).doNothing())
        .execute();
      for (const e of entries) remember(e.kind, e.id, e.expiresAt.getTime());
      await shared
        .publish(REVOCATIONS_CHANNEL, JSON.stringify(entries.map((e) => [e.kind, e.id, e.expiresAt.getTime()])))
        .catch((error: Error) =>
          logger.warn(
            { err: { message: error.message } },
            'deny-list broadcast failed; other processes sync within seconds',
          ),
        );
    },
    async pruneExpired() {
      const result = await db
        .deleteFrom('revoked_credentials')
        .where('expires_at', '<', sql<Date>`now()`)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async close() {
      clearInterval(timer);
      await unsubscribe();
    },
  };
}
