/**
 * First boot against an empty users table: seed one administrator from SVC_INITIAL_ADMIN_*, who must
 * change the password at first login, and write the password once (mode 0600) to the initial password file.
 */
import { constants as fsConstants } from 'node:fs';
import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../../platform/config/index.js';
import type { Db } from '../../platform/db/index.js';
import type { AuditService } from '../audit/service.js';
import { hashPassword } from './passwords.js';
import type { UsersRepository } from './users/repository.js';

export const DEFAULT_INITIAL_PASSWORD_FILE = '/var/svc/initial-password.txt';
const SEED_LOCK_KEY = 0x5_7c_d1_01;

/** The configured file; unset: the documented default when its directory can be written, else the data dir. */
export async function resolveInitialPasswordFile(config: Config): Promise<string> {
  if (config.auth.initialPasswordFile) return path.resolve(config.auth.initialPasswordFile);
  const dir = path.dirname(DEFAULT_INITIAL_PASSWORD_FILE);
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await access(dir, fsConstants.W_OK);
    return DEFAULT_INITIAL_PASSWORD_FILE;
  } catch {
    return path.resolve(config.dataDir, 'initial-password.txt');
  }
}

export async function seedInitialAdmin(deps: {
  db: Db;
  config: Config;
  logger: Logger;
  users: UsersRepository;
  audit: AuditService;
}): Promise<{ id: string } | undefined> {
  const { db, config, logger, users, audit } = deps;
  const seeded = await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`.execute(trx);
    if ((await users.count(trx)) > 0) return undefined;
    const user = await users.insert(trx, {
      username: config.auth.initialAdminUsername,
      email: config.auth.initialAdminEmail,
      password_hash: await hashPassword(config.auth.initialAdminPassword, config.auth.bcryptRounds),
      is_admin: true,
      password_change_required: true,
    });
    await audit.record(
      {},
      {
        kind: 'user_created',
        target: { type: 'user', id: user.id },
        details: { username: user.username, seeded: true },
      },
      trx,
    );
    return user;
  });
  if (!seeded) return undefined;
  const file = await resolveInitialPasswordFile(config);
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(file, `${config.auth.initialAdminPassword}\n`, { mode: 0o600, flag: 'wx' });
    logger.warn(
      { username: seeded.username, password_file: file },
      'initial administrator created; its password is in the password file and must be changed at first login',
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    logger.warn(
      { username: seeded.username, password_file: file, code },
      'initial administrator created; the password file was not written (it exists already or cannot be created)',
    );
  }
  return seeded;
}
