/**
 * Users as the authenticator sees them, cached in-process so that an authenticated request needs no
 * database round trip. A change to a user (disable, role, profile) calls forget(), which drops the
 * entry here and, through shared pub/sub, in every other process; the short lifetime bounds staleness
 * should a message be lost.
 */
import type { Db } from '../../../platform/db/index.js';
import type { SharedState } from '../../../platform/shared-state/index.js';
import type { UserRow, UsersRepository } from './repository.js';

const TTL_MS = 10_000;
export const USER_CHANGED_CHANNEL = 'identity.user-changed';

export interface UserCache {
  /** The cached entry, if fresh: `{ row }` (row undefined: known not to exist), else undefined. */
  peek(id: string): { row: UserRow | undefined } | undefined;
  get(id: string): Promise<UserRow | undefined>;
  forget(id: string): Promise<void>;
  close(): Promise<void>;
}

export async function createUserCache(db: Db, users: UsersRepository, shared: SharedState): Promise<UserCache> {
  const entries = new Map<string, { row: UserRow | undefined; expiresAt: number }>();
  const unsubscribe = await shared.subscribe(USER_CHANGED_CHANNEL, (id) => entries.delete(id));
  return {
    peek(id) {
      const cached = entries.get(id);
      return cached && cached.expiresAt > Date.now() ? cached : undefined;
    },
    async get(id) {
      const cached = entries.get(id);
      if (cached && cached.expiresAt > Date.now()) return cached.row;
      const row = await users.findById(db, id);
      if (entries.size > 50_000) entries.clear(); // bounded: a cache, not a copy of the table
      entries.set(id, { row, expiresAt: Date.now() + TTL_MS });
      return row;
    },
    async forget(id) {
      entries.delete(id);
      await shared.publish(USER_CHANGED_CHANNEL, id);
    },
    async close() {
      await unsubscribe();
    },
  };
}
