/**
 * The instance license: a JWT signed with Ed25519 (EdDSA), verified against SVC_LICENSE_PUBLIC_KEY,
 * with claims customer, seats, features, iat and exp. No license: community mode, writable. Installed
 * and past exp: read-only (see platform/license-gate.ts), judged against the clock on every request.
 * Every process holds the installed license in memory; installing one is broadcast, and each process
 * also reloads it from the database every minute.
 */
import { createVerifier } from 'fast-jwt';
import type { Principal } from '../../../platform/authn.js';
import { requireAdmin } from '../../../platform/authz.js';
import type { Db } from '../../../platform/db/index.js';
import { validationFailed } from '../../../platform/errors/index.js';
import type { LicenseStatus } from '../../../platform/license-gate.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { SharedState } from '../../../platform/shared-state/index.js';
import type { Logger } from 'pino';
import type { Generated } from 'kysely';
import type { AuditService } from '../../audit/service.js';

export interface LicensesTable {
  id: Generated<string>;
  token: string;
  installed_at: Generated<Date>;
  installed_by: string | null;
}

declare module '../../../platform/db/schema.js' {
  interface Database {
    licenses: LicensesTable;
  }
}

interface LicenseClaims {
  customer: string;
  seats: number;
  features: string[];
  iat: number;
  exp: number;
}

const CHANNEL = 'platform.license-changed';
const RELOAD_INTERVAL_MS = 60_000;

function claimsOf(payload: Record<string, unknown>): LicenseClaims | string {
  if (typeof payload['customer'] !== 'string' || payload['customer'].length === 0)
    return 'claim customer must be a non-empty string';
  if (!Number.isInteger(payload['seats']) || (payload['seats'] as number) < 0)
    return 'claim seats must be a non-negative integer';
  if (!Array.isArray(payload['features']) || !payload['features'].every((f) => typeof f === 'string'))
    return 'claim features must be an array of strings';
  if (typeof payload['exp'] !== 'number' || typeof payload['iat'] !== 'number')
    return 'claims iat and exp are required';
  return payload as unknown as LicenseClaims;
}

export type LicenseService = Awaited<ReturnType<typeof createLicenseService>> & LicenseStatus;

export async function createLicenseService(deps: {
  db: Db;
  publicKey: string | undefined;
  audit: AuditService;
  shared: SharedState;
  logger: Logger;
}) {
  const { db, audit, shared, logger } = deps;
  // Signature and claims are checked here; expiry is a state (expired = read-only), not a rejection.
  const verify = deps.publicKey
    ? createVerifier({
        key: deps.publicKey,
        algorithms: ['EdDSA'],
        ignoreExpiration: true,
        requiredClaims: ['iat', 'exp'],
      })
    : undefined;
  let current: LicenseClaims | undefined;

  const parse = (token: string): LicenseClaims | string => {
    if (!verify) return 'no license public key is configured (SVC_LICENSE_PUBLIC_KEY)';
    let payload: Record<string, unknown>;
    try {
      payload = verify(token) as Record<string, unknown>;
    } catch (error) {
      return `is not a valid license: ${(error as Error).message}`;
    }
    return claimsOf(payload);
  };

  const reload = async () => {
    const row = await db
      .selectFrom('licenses')
      .select(['token'])
      .orderBy('installed_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!row) {
      current = undefined;
      return;
    }
    const parsed = parse(row.token);
    if (typeof parsed === 'string')
      logger.error({ problem: parsed }, 'the installed license cannot be verified; ignoring it');
    current = typeof parsed === 'string' ? undefined : parsed;
  };

  await reload();
  const unsubscribe = await shared.subscribe(CHANNEL, () => void reload().catch(() => undefined));
  const timer = setInterval(
    () =>
      void reload().catch((error: Error) => logger.warn({ err: { message: error.message } }, 'license reload failed')),
    RELOAD_INTERVAL_MS,
  );
  timer.unref();

  return {
    isReadOnly(): boolean {
      return current !== undefined && current.exp * 1000 <= Date.now();
    },
    describe() {
      if (!current)
        return { state: 'unlicensed' as const, customer: null, seats: null, features: [], expires_at: null };
      return {
        state: current.exp * 1000 <= Date.now() ? ('expired' as const) : ('licensed' as const),
        customer: current.customer,
        seats: current.seats,
        features: current.features,
        expires_at: new Date(current.exp * 1000).toISOString(),
      };
    },
    async install(principal: Principal, token: string, context: RequestContext) {
      requireAdmin(principal, 'license:write');
      const parsed = parse(token.trim());
      if (typeof parsed === 'string') throw validationFailed([{ path: 'license', message: parsed }]);
      if (parsed.exp * 1000 <= Date.now())
        throw validationFailed([{ path: 'license', message: 'has already expired' }]);
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('licenses').values({ token: token.trim(), installed_by: principal.userId }).execute();
        await audit.record(
          context,
          {
            kind: 'license_installed',
            details: {
              customer: parsed.customer,
              seats: parsed.seats,
              features: parsed.features,
              expires_at: new Date(parsed.exp * 1000).toISOString(),
            },
          },
          trx,
        );
      });
      current = parsed;
      await shared.publish(CHANNEL, 'installed').catch(() => undefined);
      return this.describe();
    },
    async close() {
      clearInterval(timer);
      await unsubscribe();
    },
  };
}
