/** The audit log: append-only events. Details must never hold a secret; callers pass ids and names only. */
import type { Db } from '../../platform/db/index.js';
import type { RequestContext } from '../../platform/request-context.js';
import { createAuditRepository } from './repository.js';

export type AuditContext = RequestContext;

export interface AuditEvent {
  kind: string;
  target?: { type: string; id: string };
  details?: Record<string, unknown>;
}

export type AuditService = ReturnType<typeof createAuditService>;

export function createAuditService(db: Db) {
  const repository = createAuditRepository();
  return {
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
