/** bcrypt through the native binding, whose async calls hash on libuv's thread pool, off the event loop. */
import bcrypt from 'bcrypt';

export function hashPassword(password: string, rounds: number): Promise<string> {
  return bcrypt.hash(password, rounds);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}
