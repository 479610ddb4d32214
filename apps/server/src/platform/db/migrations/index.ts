/** Every migration, in order. Forward-only: a released migration is never edited, only followed. */
import type { Migration } from 'kysely';
import * as m0001 from './0001_identity.js';
import * as m0002 from './0002_access.js';

export const migrations: Record<string, Migration> = {
  '0001_identity': m0001,
  '0002_access': m0002,
};
