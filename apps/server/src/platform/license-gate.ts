/**
 * Read-only mode: while the installed license is past its expiry, every unsafe method is refused
 * with 403 license_expired, platform-wide, except on routes marked `licenseExempt` (sign-in,
 * refresh, logout, one's own password change, installing a license). No restart needed: the state
 * is checked against the clock on every request.
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from './errors/index.js';

export interface LicenseStatus {
  /** True while an installed license is past its expiry. */
  isReadOnly(): boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Writes that stay possible in read-only mode, so that users and administrators can recover. */
    licenseExempt?: boolean;
  }
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function createLicenseGate(license: LicenseStatus) {
  return (request: FastifyRequest): void => {
    if (!UNSAFE_METHODS.has(request.method) || request.routeInfo.config.licenseExempt) return;
    if (request.routeInfo.url === undefined) return;
    if (license.isReadOnly()) throw new AppError('license_expired', 403, 'license_expired');
  };
}
