/**
 * Alert rules: a kind with its parameters, the items it watches (scope), severity, timing (`for`,
 * `keep_firing_for`, `repeat_interval`), channels and mute; their states per item and their history.
 * The evaluator (evaluator.ts) moves the states on the elected leader.
 */
import type { Principal } from '../../../platform/authn.js';
import { resourceGuard, type ProjectAccess } from '../../../platform/authz.js';
import { auditedWrites } from '../../../platform/audited-writes.js';
import type { Db } from '../../../platform/db/index.js';
import { validationFailed, type FieldError } from '../../../platform/errors/index.js';
import type { RequestContext } from '../../../platform/request-context.js';
import { createSealer } from '../../../platform/sealed-config.js';
import type { SecretBox } from '../../../platform/secrets.js';
import type { AuditService } from '../../audit/service.js';
import { ALERT_RULE, ruleNameTaken } from '../errors.js';
import { itemKindsOf, type AlertState, type RuleKind, type ScopeItem } from './conditions.js';
import type { AlertRuleRow, AlertRulesRepository, AlertStateRow } from './repository.js';
import { RULE_PARAMS } from './schemas.js';
import { authorship } from '../../../platform/presenters.js';

export interface AlertRuleInput {
  project_id: string;
  name: string;
  kind: RuleKind;
  params?: Record<string, unknown>;
  scope?: ScopeItem[];
  severity?: 'info' | 'warning' | 'critical';
  for?: number;
  keep_firing_for?: number;
  repeat_interval?: number | null;
  channel_ids?: string[];
  muted_until?: string | null;
  enabled?: boolean;
}

export type AlertRulePatch = Partial<Omit<AlertRuleInput, 'project_id' | 'kind'>>;

/** What a rule's scope may name: the items of the project, as the areas that own them know them. */
export type ItemDirectory = (projectId: string) => Promise<Array<{ kind: string; id: string }>>;

const ITEM_NOUNS: Record<string, string> = {
  pipeline: 'a pipeline',
  export: 'an export',
  file_ingestion: 'a file ingestion',
  inbox: 'an inbox',
  dw_model: 'a warehouse model',
  cdc_table: 'a CDC table',
  stream: 'a stream',
};

const URGENCY: AlertState[] = ['ok', 'resolved', 'pending', 'firing'];

/** Where an item is shown in the web UI. */
export function itemLink(
  baseUrl: string,
  kind: string,
  id: string,
  value: Record<string, unknown> = {},
): string | null {
  const base = baseUrl.replace(/\/$/, '');
  if (kind === 'pipeline') return `${base}/pipelines?id=${encodeURIComponent(id)}`;
  if (kind === 'cdc_table') return `${base}/cdc-tables?id=${encodeURIComponent(id)}`;
  if (kind === 'stream') return `${base}/streams?id=${encodeURIComponent(id)}`;
  const execution = value['execution_id'];
  return typeof execution === 'string'
    ? `${base}/executions?id=${encodeURIComponent(execution)}`
    : `${base}/executions`;
}

export type AlertRulesService = ReturnType<typeof createAlertRulesService>;

export function createAlertRulesService(
  deps: ProjectAccess & {
    db: Db;
    repository: AlertRulesRepository;
    box: SecretBox;
    audit: AuditService;
    items: ItemDirectory;
    /** The channel ids among `ids` that a rule of the project may not use. */
    unusableChannels(projectId: string, ids: string[]): Promise<string[]>;
    baseUrl: () => string;
  },
) {
  const { db, repository } = deps;
  const writes = auditedWrites<AlertRuleRow>(deps, { kind: 'alert_rule', label: ALERT_RULE, nameTaken: ruleNameTaken });
  const validator = createSealer(deps.box, 'params');
  const guard = resourceGuard(deps, ALERT_RULE, (id) => repository.find(db, id), {
    capabilities: ['alert:read', 'alert:write'],
  });

  const presentState = (row: AlertStateRow) => ({
    item_kind: row.item_kind,
    item_id: row.item_id,
    item_name: row.item_name,
    state: row.state,
    since: row.since.toISOString(),
    deadline_at: row.deadline_at?.toISOString() ?? null,
    last_notified_at: row.last_notified_at?.toISOString() ?? null,
    value: row.value,
    link: itemLink(deps.baseUrl(), row.item_kind, row.item_id, row.value),
  });

  const present = (row: AlertRuleRow, states: AlertStateRow[]) => {
    const own = states.filter((s) => s.rule_id === row.id);
    const state = own.reduce<AlertState>(
      (worst, s) => (URGENCY.indexOf(s.state) > URGENCY.indexOf(worst) ? s.state : worst),
      'ok',
    );
    return {
      id: row.id,
      project_id: row.project_id,
      name: row.name,
      kind: row.kind,
      params: row.params,
      scope: row.scope,
      severity: row.severity,
      for: row.for_seconds,
      keep_firing_for: row.keep_firing_for_seconds,
      repeat_interval: row.repeat_interval_seconds,
      channel_ids: row.channel_ids,
      muted_until: row.muted_until?.toISOString() ?? null,
      enabled: row.enabled,
      state,
      items: own.map(presentState),
      ...authorship(row),
    };
  };

  const presentOne = async (row: AlertRuleRow) => present(row, await repository.states(db, [row.id]));

  /** Parameters, scope and channels of a rule of `projectId`, checked; 422 naming the field. */
  const checked = async (projectId: string, kind: RuleKind, input: AlertRulePatch) => {
    const problems: FieldError[] = [];
    let params: Record<string, number> | undefined;
    if (input.params !== undefined) params = validator.seal(RULE_PARAMS[kind], input.params).plain as never;
    if (input.scope) {
      const wanted = itemKindsOf(kind);
      const known = new Set((await deps.items(projectId)).map((item) => `${item.kind}:${item.id}`));
      input.scope.forEach((item, index) => {
        const path = `scope.${index}`;
        if (!wanted.includes(item.kind))
          problems.push({ path: `${path}.kind`, message: `a ${kind} rule watches ${wanted.join(', ')} items` });
        else if (item.kind === 'sync') {
          if (!/^[0-9a-f-]{36}>[0-9a-f-]{36}$/i.test(item.id))
            problems.push({ path: `${path}.id`, message: 'is "<source connector id>><destination connector id>"' });
        } else if (!known.has(`${item.kind}:${item.id}`))
          problems.push({ path: `${path}.id`, message: `is not ${ITEM_NOUNS[item.kind] ?? item.kind} of the project` });
      });
    }
    if (input.channel_ids?.length) {
      const unusable = await deps.unusableChannels(projectId, input.channel_ids);
      for (const id of unusable)
        problems.push({
          path: `channel_ids.${input.channel_ids.indexOf(id)}`,
          message: 'is not a notification config of the project or of the instance',
        });
    }
    if (problems.length) throw validationFailed(problems);
    return params;
  };

  return {
    async list(principal: Principal, projectId?: string) {
      const rows = await repository.list(db, await guard.scope(principal, 'alert:read', projectId));
      const states = await repository.states(
        db,
        rows.map((r) => r.id),
      );
      return rows.map((row) => present(row, states));
    },
    async get(principal: Principal, id: string) {
      return presentOne(await guard.find(principal, id, 'alert:read'));
    },
    async create(principal: Principal, input: AlertRuleInput, context: RequestContext) {
      await deps.authorize(principal, 'alert:write', input.project_id);
      const params = (await checked(input.project_id, input.kind, { ...input, params: input.params ?? {} }))!;
      const row = await writes.create(
        context,
        input.name,
        (trx) =>
          repository.insert(trx, {
            project_id: input.project_id,
            name: input.name,
            kind: input.kind,
            params,
            scope: input.scope ?? [],
            severity: input.severity ?? 'warning',
            for_seconds: input.for ?? 0,
            keep_firing_for_seconds: input.keep_firing_for ?? 0,
            repeat_interval_seconds: input.repeat_interval ?? null,
            channel_ids: input.channel_ids ?? [],
            muted_until: input.muted_until ? new Date(input.muted_until) : null,
            enabled: input.enabled ?? true,
            created_by: principal.userId,
          }),
        () => ({ name: input.name, kind: input.kind, project_id: input.project_id }),
      );
      return presentOne(row);
    },
    async update(principal: Principal, id: string, patch: AlertRulePatch, context: RequestContext) {
      const row = await guard.find(principal, id, 'alert:write');
      const params = await checked(row.project_id, row.kind, patch);
      const changes: Parameters<AlertRulesRepository['update']>[2] = {};
      if (patch.name !== undefined) changes.name = patch.name;
      if (params !== undefined) changes.params = params;
      if (patch.scope !== undefined) changes.scope = patch.scope;
      if (patch.severity !== undefined) changes.severity = patch.severity;
      if (patch.for !== undefined) changes.for_seconds = patch.for;
      if (patch.keep_firing_for !== undefined) changes.keep_firing_for_seconds = patch.keep_firing_for;
      if (patch.repeat_interval !== undefined) changes.repeat_interval_seconds = patch.repeat_interval;
      if (patch.channel_ids !== undefined) changes.channel_ids = patch.channel_ids;
      if (patch.muted_until !== undefined) changes.muted_until = patch.muted_until ? new Date(patch.muted_until) : null;
      if (patch.enabled !== undefined) changes.enabled = patch.enabled;
      const updated = await writes.update(
        context,
        id,
        patch.name ?? row.name,
        patch,
        (trx) => repository.update(trx, id, changes),
        {
          kind: patch.muted_until !== undefined ? 'alert_rule_muted' : 'alert_rule_updated',
          details: { fields: Object.keys(patch), muted_until: patch.muted_until ?? null },
        },
      );
      return presentOne(updated);
    },
    async remove(principal: Principal, id: string, context: RequestContext) {
      const row = await guard.find(principal, id, 'alert:write');
      await writes.remove(context, id, { name: row.name }, (trx) => repository.remove(trx, id));
    },
    async events(principal: Principal, id: string, query: { limit?: number; before?: string }) {
      await guard.find(principal, id, 'alert:read');
      const events = await repository.events(db, id, query.limit ?? 100, query.before);
      const notifications = await repository.notificationsOf(
        db,
        events.map((e) => e.id),
      );
      return {
        items: events.map((e) => ({
          id: String(e.id),
          rule_id: e.rule_id,
          item_kind: e.item_kind,
          item_id: e.item_id,
          item_name: e.item_name,
          previous_state: e.previous_state,
          state: e.state,
          repeat: e.repeat,
          muted: e.muted,
          value: e.value,
          at: e.at.toISOString(),
          notifications: notifications
            .filter((n) => String(n.event_id) === String(e.id))
            .map((n) => ({
              channel_id: n.channel_id,
              user_id: n.user_id,
              status: n.status,
              attempts: n.attempts,
              last_error: n.last_error,
              sent_at: n.sent_at?.toISOString() ?? null,
            })),
        })),
      };
    },
    /** Firing and pending items of the rules the caller may read: the navigation's badge. */
    async summary(principal: Principal) {
      const counts = await repository.counts(db, await guard.scope(principal, 'alert:read'));
      const of = (state: string) => Number(counts.find((c) => c.state === state)?.n ?? 0);
      return { firing: of('firing'), pending: of('pending') };
    },
  };
}
