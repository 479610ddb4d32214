/** An audit log row as the API shows it and the forwarder sends it (schemas.ts: AuditEvent). */
import type { Static } from 'typebox';
import type { AuditEvent } from './schemas.js';

export type AuditEventView = Static<typeof AuditEvent>;

export const presentAuditEvent = (
  row: Omit<AuditEventView, 'id' | 'occurred_at'> & { id: string | number; occurred_at: Date },
): AuditEventView => ({
  id: String(row.id),
  occurred_at: row.occurred_at.toISOString(),
  kind: row.kind,
  actor_user_id: row.actor_user_id,
  actor_token_id: row.actor_token_id,
  client_address: row.client_address,
  user_agent: row.user_agent,
  request_id: row.request_id,
  target_type: row.target_type,
  target_id: row.target_id,
  details: row.details,
});
