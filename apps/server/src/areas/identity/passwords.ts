/** bcrypt through the native binding, whose async calls hash on libuv's thread pool, off the event loop. */
import bcrypt from 'bcrypt';
import { BUILT_IN_ADMIN_PASSWORD } from '../../platform/config/index.js';
import { validationFailed } from '../../platform/errors/index.js';

export const MIN_PASSWORD_LENGTH = 12;

export function hashPassword(password: string, rounds: number): Promise<string> {
  return bcrypt.hash(password, rounds);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

/** The password policy: at least 12 characters, not the username, not the built-in default. */
export function checkPasswordPolicy(password: string, username: string, field: string): void {
  const problems: string[] = [];
  if ([...password].length < MIN_PASSWORD_LENGTH) problems.push(`must be at least ${MIN_PASSWORD_LENGTH} characters`);
  if (password.toLowerCase() === username.toLowerCase()) problems.push('must not be the username');
  if (password === BUILT_IN_ADMIN_PASSWORD) problems.push('must not be the built-in default password');
  if (problems.length > 0) throw validationFailed(problems.map((message) => ({ path: field, message })));
}
