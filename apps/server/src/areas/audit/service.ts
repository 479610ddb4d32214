/** The audit log: append-only events. Details must never hold a secret; callers pass ids and names only. */
import type { Db } from '../../platform/db/index.js';
import type { Principal } from '../../platform/authn.js';
import { requireAdmin } from '../../platform/authz.js';
import { validationFailed } from '../../platform/errors/index.js';
import type { RequestContext } from '../../platform/request-context.js';
import { presentAuditEvent } from './events.js';
import { createAuditRepository } from './repository.js';

export type AuditContext = RequestContext;

export interface AuditEvent {
  kind: string;
  target?: { type: string; id: string };
  details?: Record<string, unknown>;
}

export type AuditService = ReturnType<typeof createAuditService>;

export interface AuditQuery {
  kind?: string;
  actor_id?: string;
  since?: string;
  until?: string;
  cursor?: string;
  limit?: number;
}

export function createAuditService(db: Db) {
  const repository = createAuditRepository();
  return {
    async list(principal: Principal, query: AuditQuery) {
      requireAdmin(principal, 'audit:read');
      const limit = query.limit ?? 100;
      let beforeId: string | undefined;
      if (query.cursor) {
        beforeId = Buffer.from(query.cursor, 'base64url').toString();
        if (!/^\d+$/.test(beforeId))
          throw validationFailed([{ path: 'cursor', message: 'is not a cursor from this list' }]);
      }
      const rows = await repository.list(db, {
        kind: query.kind,
        actorId: query.actor_id,
        since: query.since ? new Date(query.since) : undefined,
        until: query.until ? new Date(query.until) : undefined,
        beforeId,
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      return {
        items: page.map(presentAuditEvent),
        next_cursor: rows.length > limit ? Buffer.from(String(page[page.length - 1]!.id)).toString('base64url') : null,
      };
    },
    /** Retention of audit events (instance-wide; the retention area enforces the floor and who may set it). */
    retention: {
      nthNewest: (n: number) => repository.nthNewest(db, n),
      countBefore: (before: Date) => repository.countBefore(db, before),
      deleteBefore: (before: Date, limit: number) => repository.deleteBefore(db, before, limit),
    },
    async record(context: AuditContext, event: AuditEvent, trx: Db = db) {
      await repository.insert(trx, {
        kind: event.kind,
        actor_user_id: context.actorUserId ?? null,
        actor_token_id: context.actorTokenId ?? null,
        client_address: context.clientAddress ?? null,
        user_agent: context.userAgent ?? null,
        request_id: context.requestId ?? null,
        target_type: event.target?.type ?? null,
        target_id: event.target?.id ?? null,
        details: event.details ?? {},
      });
    },
  };
}
