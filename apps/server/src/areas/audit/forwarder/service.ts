/** Audit forwarding destinations (administrators): settings with write-only secrets, and delivery status. */
import type { Principal } from '../../../platform/authn.js';
import { requireAdmin } from '../../../platform/authz.js';
import { onUniqueViolation, type Db } from '../../../platform/db/index.js';
import { conflict, notFound, validationFailed } from '../../../platform/errors/index.js';
import type { RequestContext } from '../../../platform/request-context.js';
import { createSealer, secretsColumn } from '../../../platform/sealed-config.js';
import type { SecretBox } from '../../../platform/secrets.js';
import type { AuditService } from '../service.js';
import type { AuditForwarderRow, AuditForwardersRepository } from './repository.js';
import { DESTINATION_SETTINGS } from './schemas.js';
import { normalizeTlsSettings, tlsSettingProblems } from './tls-settings.js';

const DESTINATION = 'Audit forwarder';
const nameTaken = (name: string) => conflict(`An audit forwarder named "${name}" already exists`);

export interface AuditForwarderInput {
  name: string;
  type: 'http' | 'syslog';
  config: Record<string, unknown>;
  actions?: string[];
  enabled?: boolean;
  start_from?: 'now' | 'beginning';
}

export type AuditForwarderPatch = Partial<Pick<AuditForwarderInput, 'name' | 'config' | 'actions' | 'enabled'>>;

export type AuditForwardersService = ReturnType<typeof createAuditForwardersService>;

export function createAuditForwardersService(deps: {
  db: Db;
  repository: AuditForwardersRepository;
  box: SecretBox;
  audit: AuditService;
  maxBacklog: number;
  test(row: AuditForwarderRow): Promise<{ ok: boolean; detail: string }>;
}) {
  const { db, repository, audit } = deps;
  const sealer = createSealer(deps.box, 'config');

  const present = async (row: AuditForwarderRow) => ({
    id: row.id,
    name: row.name,
    type: row.type,
    config: row.settings,
    secrets_set: Object.keys(secretsColumn.read(row.secrets)).sort(),
    actions: row.actions,
    enabled: row.enabled,
    cursor: String(row.cursor),
    backlog: await repository.backlog(db, row.cursor, deps.maxBacklog + 1),
    sent: Number(row.sent),
    failed: Number(row.failed),
    skipped: Number(row.skipped),
    last_delivered_at: row.last_delivered_at?.toISOString() ?? null,
    last_error: row.last_error,
    last_error_at: row.last_error_at?.toISOString() ?? null,
    next_attempt_at: row.next_attempt_at.toISOString(),
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  });

  const find = async (id: string) => {
    const row = await repository.find(db, id);
    if (!row) throw notFound(DESTINATION);
    return row;
  };

  /**
   * The settings of a destination of `type` validated and sealed (`previous` secrets kept where the
   * input leaves them out); a syslog destination's PEM fields are put in shape and checked as a whole,
   * its stored client key included.
   */
  const seal = (
    type: AuditForwarderRow['type'],
    config: Record<string, unknown>,
    previous?: Record<string, string>,
  ) => {
    if (type === 'http') return sealer.seal(DESTINATION_SETTINGS.http, config, previous);
    const sealed = sealer.seal(DESTINATION_SETTINGS.syslog, normalizeTlsSettings(config), previous);
    const problems = tlsSettingProblems(sealer.unseal(sealed.plain, sealed.secrets));
    if (problems.length) throw validationFailed(problems);
    return sealed;
  };

  const record = (context: RequestContext, kind: string, id: string, details: Record<string, unknown>, trx: Db) =>
    audit.record(context, { kind, target: { type: 'audit_forwarder', id }, details }, trx);

  return {
    /** The whole configuration, secrets decrypted: for delivery only. */
    unseal: (row: AuditForwarderRow) => sealer.unseal(row.settings, secretsColumn.read(row.secrets)),
    async list(principal: Principal) {
      requireAdmin(principal, 'audit:read');
      return Promise.all((await repository.list(db)).map(present));
    },
    async get(principal: Principal, id: string) {
      requireAdmin(principal, 'audit:read');
      return present(await find(id));
    },
    async create(principal: Principal, input: AuditForwarderInput, context: RequestContext) {
      requireAdmin(principal, 'audit:write');
      const sealed = seal(input.type, input.config);
      const row = await onUniqueViolation(
        db.transaction().execute(async (trx) => {
          const created = await repository.insert(trx, {
            name: input.name,
            type: input.type,
            settings: sealed.plain,
            secrets: secretsColumn.write(sealed.secrets),
            actions: input.actions ?? [],
            enabled: input.enabled ?? true,
            cursor: input.start_from === 'beginning' ? '0' : await repository.lastAuditId(trx),
            last_delivered_at: null,
            last_error: null,
            last_error_at: null,
            created_by: principal.userId,
          });
          await record(context, 'audit_forwarder_created', created.id, { name: input.name, type: input.type }, trx);
          return created;
        }),
        () => nameTaken(input.name),
      );
      return present(row);
    },
    async update(principal: Principal, id: string, patch: AuditForwarderPatch, context: RequestContext) {
      requireAdmin(principal, 'audit:write');
      const row = await find(id);
      const changes: Parameters<AuditForwardersRepository['update']>[2] = {};
      if (patch.name !== undefined) changes.name = patch.name;
      if (patch.actions !== undefined) changes.actions = patch.actions;
      if (patch.enabled !== undefined) {
        changes.enabled = patch.enabled;
        // Re-enabled or changed: try at once, with a fresh backoff.
        changes.next_attempt_at = new Date();
        changes.attempts = 0;
      }
      if (patch.config !== undefined) {
        const sealed = seal(row.type, { ...row.settings, ...patch.config }, secretsColumn.read(row.secrets));
        changes.settings = sealed.plain;
        changes.secrets = secretsColumn.write(sealed.secrets);
        changes.next_attempt_at = new Date();
        changes.attempts = 0;
      }
      const updated = await onUniqueViolation(
        db.transaction().execute(async (trx) => {
          const result = await repository.update(trx, id, changes);
          if (!result) throw notFound(DESTINATION);
          await record(context, 'audit_forwarder_updated', id, { fields: Object.keys(patch) }, trx);
          return result;
        }),
        () => nameTaken(patch.name ?? row.name),
      );
      return present(updated);
    },
    async remove(principal: Principal, id: string, context: RequestContext) {
      requireAdmin(principal, 'audit:write');
      const row = await find(id);
      await db.transaction().execute(async (trx) => {
        await repository.remove(trx, id);
        await record(context, 'audit_forwarder_deleted', id, { name: row.name }, trx);
      });
    },
    async test(principal: Principal, id: string, context: RequestContext) {
      requireAdmin(principal, 'audit:write');
      const result = await deps.test(await find(id));
      await audit.record(context, {
        kind: 'audit_forwarder_tested',
        target: { type: 'audit_forwarder', id },
        details: { ok: result.ok },
      });
      return result;
    },
  };
}
