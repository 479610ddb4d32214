/**
 * AI providers: a project's (or, by an administrator, instance-wide) connection to an LLM, and the
 * uses that help write models and pipelines. Every call is counted against the provider's limits
 * (requests per minute, tokens per month) before it is made, recorded (who, purpose, tokens, never
 * the content) and audited; its answer is checked before it is returned, and nothing it proposes is
 * saved or run.
 */
import type { EgressPolicy } from '@svc/engine';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Counter } from 'prom-client';
import type { Principal } from '../../../platform/authn.js';
import {
  projectScope,
  projectsWith,
  requireAdmin,
  type Capability,
  type ProjectAccess,
} from '../../../platform/authz.js';
import { auditedWrites } from '../../../platform/audited-writes.js';
import type { Db } from '../../../platform/db/index.js';
import { notFound, validationFailed, type FieldError } from '../../../platform/errors/index.js';
import type { RequestContext } from '../../../platform/request-context.js';
import type { SecretBox } from '../../../platform/secrets.js';
import type { AuditService } from '../../audit/service.js';
import { projectSchemaName, type Warehouse } from '../../connectivity/warehouse.js';
import type { CatalogService } from '../../governance/catalog/service.js';
import type { MaskingService } from '../../governance/masking/service.js';
import {
  aiAnswerInvalid,
  aiLimitReached,
  aiProviderDisabled,
  aiProviderFailed,
  AI_PROVIDER,
  aiProviderNameTaken,
} from '../errors.js';
import type { ModelsRepository } from '../dw-models/repository.js';
import { clientConfig, MODELS_SCHEMA, placementOf } from '../dw-models/service.js';
import { ident } from '../dw-models/sql.js';
import { complete, DEFAULT_BASE_URLS, ProviderCallFailed } from './llm.js';
import type { ProviderRow, ProviderType, ProvidersRepository } from './repository.js';
import {
  checkDescription,
  checkDraft,
  checkSteps,
  defaultMasking,
  describePrompt,
  draftModelPrompt,
  InvalidAnswer,
  maskRow,
  stepsPrompt,
  type WarehouseTable,
} from './uses.js';

export interface ProviderInput {
  project_id?: string | null;
  name: string;
  type: ProviderType;
  base_url?: string;
  model: string;
  api_key?: string | null;
  temperature?: number | null;
  max_tokens?: number | null;
  requests_per_minute?: number | null;
  tokens_per_month?: number | null;
  enabled?: boolean;
}
export type ProviderPatchInput = Partial<Omit<ProviderInput, 'project_id'>>;

const SAMPLE_ROWS = 3;
const PROMPT_TABLES = 50;

export const presentProvider = (row: ProviderRow) => ({
  id: row.id,
  project_id: row.project_id,
  name: row.name,
  type: row.type,
  base_url: row.base_url,
  model: row.model,
  api_key_set: row.api_key !== null,
  temperature: row.temperature,
  max_tokens: row.max_tokens,
  requests_per_minute: row.requests_per_minute,
  tokens_per_month: row.tokens_per_month === null ? null : Number(row.tokens_per_month),
  enabled: row.enabled,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export type ProvidersService = ReturnType<typeof createProvidersService>;

export function createProvidersService(
  deps: ProjectAccess & {
    db: Db;
    repository: ProvidersRepository;
    models: ModelsRepository;
    audit: AuditService;
    box: SecretBox;
    egress: EgressPolicy;
    warehouse: Warehouse | undefined;
    catalog: CatalogService;
    /** The project's masking policies, as they apply to the caller: sample values go through them. */
    masking: Pick<MaskingService, 'maskerFor'>;
    logger: Logger;
    metrics: { calls: Counter<'purpose' | 'status'>; tokens: Counter<'direction'> };
  },
) {
  const { db, repository, authorize, audit, box } = deps;
  const writes = auditedWrites<ProviderRow>(deps, {
    kind: 'ai_provider',
    label: AI_PROVIDER,
    nameTaken: aiProviderNameTaken,
  });

  /** A project's provider needs `capability` on the project; an instance-wide one is read by everyone and changed by administrators. */
  const find = async (principal: Principal, id: string, capability: Capability | 'admin') => {
    const row = await repository.find(db, id);
    if (!row) throw notFound(AI_PROVIDER);
    if (row.project_id === null) {
      if (capability !== 'ai:read' && capability !== 'ai:use') requireAdmin(principal, 'ai:write');
    } else {
      await authorize(principal, capability === 'admin' ? 'ai:write' : capability, row.project_id);
    }
    return row;
  };

  const problemsOf = (fields: { type: ProviderType; base_url: string | undefined; api_key: string | null }) => {
    const problems: FieldError[] = [];
    if (!fields.base_url) problems.push({ path: 'base_url', message: `is required for ${fields.type}` });
    else {
      try {
        const url = new URL(fields.base_url);
        if (url.protocol !== 'https:' && url.protocol !== 'http:')
          problems.push({ path: 'base_url', message: 'must be an http or https URL' });
        if (url.username || url.password) problems.push({ path: 'base_url', message: 'must not carry credentials' });
      } catch {
        problems.push({ path: 'base_url', message: 'is not a URL' });
      }
    }
    if (fields.type === 'anthropic' && !fields.api_key)
      problems.push({ path: 'api_key', message: 'is required for anthropic' });
    return problems;
  };

  /** A row's values as the text a prompt shows (JSON for objects, ISO for times; nulls kept). */
  const asText = (row: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(row).map(([column, value]) => [
        column,
        value === null || value === undefined
          ? null
          : value instanceof Date
            ? value.toISOString()
            : typeof value === 'object' && !Buffer.isBuffer(value)
              ? JSON.stringify(value)
              : String(value),
      ]),
    );

  /** The tables and views of the project's warehouse schemas, read as the project's role (and samples, masked, when asked). */
  const warehouseTables = async (
    projectId: string,
    samples: { viewer: Principal } | undefined,
  ): Promise<WarehouseTable[]> => {
    if (!deps.warehouse) return [];
    const tenant = await deps.warehouse.forProject(projectId, MODELS_SCHEMA);
    const prefix = projectSchemaName(projectId, '');
    const client = new pg.Client(clientConfig(tenant));
    await client.connect();
    try {
      await client.query('begin read only');
      const { rows } = await client.query<{ schema: string; name: string; column: string; type: string }>(
        `select n.nspname as schema, c.relname as name, a.attname as column, format_type(a.atttypid, a.atttypmod) as type
           from pg_class c join pg_namespace n on n.oid = c.relnamespace
           join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
          where starts_with(n.nspname, $1) and c.relkind in ('r', 'v', 'm', 'p') and position('__svc_' in c.relname) = 0
            and pg_has_role(n.nspowner, 'USAGE')
          order by 1, 2, a.attnum`,
        [prefix],
      );
      const tables = new Map<string, WarehouseTable>();
      for (const row of rows) {
        const key = `${row.schema}.${row.name}`;
        let table = tables.get(key);
        if (!table) {
          if (tables.size >= PROMPT_TABLES) continue;
          table = { schema: row.schema.slice(prefix.length), name: row.name, columns: [] };
          tables.set(key, table);
        }
        table.columns.push({ name: row.column, type: row.type });
      }
      if (samples) {
        const masker = await deps.masking.maskerFor(samples.viewer, projectId);
        for (const [key, table] of tables) {
          const [schema] = key.split('.');
          const result = await client.query(
            `select * from ${ident(schema!)}.${ident(table.name)} limit ${SAMPLE_ROWS}`,
          );
          // Values go into a prompt as text: masked as text by the project's policies, then by name
          // (a floor for what leaves the service to a third party) where no policy applies.
          const columns = table.columns.map((c) => ({ name: c.name, type: 'string' as const }));
          const covered = new Set(Object.keys((masker.active && masker.columns(columns)?.masked) || {}));
          const rows = (result.rows as Array<Record<string, unknown>>).map(asText);
          table.samples = (masker.active ? masker.objects(columns, rows) : rows).map((r) =>
            maskRow(r, (column) => (covered.has(column) ? undefined : defaultMasking(column))),
          );
        }
      }
      await client.query('rollback');
      return [...tables.values()];
    } finally {
      await client.end().catch(() => undefined);
    }
  };

  /**
   * One call of `provider` for `projectId`, counted and audited: refused with 429 when a limit is
   * reached (the refusal is recorded too), otherwise made and its tokens recorded.
   */
  const call = async (
    principal: Principal,
    provider: ProviderRow,
    projectId: string | null,
    purpose: string,
    request: { system: string; prompt: string },
    context: RequestContext,
  ) => {
    if (!provider.enabled) throw aiProviderDisabled();
    const reserved = await db.transaction().execute(async (trx) => {
      await repository.lockProvider(trx, provider.id);
      const counts = await repository.counts(trx, provider.id);
      let refusal: string | undefined;
      if (provider.requests_per_minute !== null && counts.requests_last_minute >= provider.requests_per_minute)
        refusal = `the provider's limit of ${provider.requests_per_minute} requests per minute is reached`;
      else if (provider.tokens_per_month !== null && counts.tokens_this_month >= Number(provider.tokens_per_month))
        refusal = `the provider's limit of ${Number(provider.tokens_per_month).toLocaleString('en')} tokens this month is reached`;
      const usage = await repository.recordUsage(trx, {
        provider_id: provider.id,
        project_id: projectId,
        user_id: principal.userId,
        purpose,
        status: refusal ? 'refused' : 'ok',
        input_tokens: 0,
        output_tokens: 0,
      });
      return { id: usage.id, refusal };
    });
    const finish = async (status: 'ok' | 'invalid_output' | 'error' | 'refused', input: number, output: number) => {
      deps.metrics.calls.inc({ purpose, status });
      deps.metrics.tokens.inc({ direction: 'input' }, input);
      deps.metrics.tokens.inc({ direction: 'output' }, output);
      if (status !== 'refused')
        await repository.updateUsage(db, reserved.id, { status, input_tokens: input, output_tokens: output });
      await audit.record(context, {
        kind: 'ai_call',
        target: { type: 'ai_provider', id: provider.id },
        details: { purpose, status, project_id: projectId, input_tokens: input, output_tokens: output },
      });
    };
    if (reserved.refusal) {
      await finish('refused', 0, 0);
      throw aiLimitReached(reserved.refusal);
    }
    const started = performance.now();
    try {
      const completion = await complete(
        {
          type: provider.type,
          baseUrl: provider.base_url,
          model: provider.model,
          apiKey: provider.api_key ? box.decrypt(provider.api_key) : undefined,
        },
        deps.egress,
        {
          ...request,
          temperature: provider.temperature ?? undefined,
          maxTokens: provider.max_tokens ?? undefined,
        },
      );
      deps.logger.info(
        {
          provider_id: provider.id,
          purpose,
          input_tokens: completion.inputTokens,
          output_tokens: completion.outputTokens,
          duration_ms: Math.round(performance.now() - started),
          ...(completion.warnings.length ? { warnings: completion.warnings } : {}),
        },
        'AI provider called',
      );
      return {
        ...completion,
        durationMs: performance.now() - started,
        /** Records the outcome once the answer was checked. */
        settle: (valid: boolean) =>
          finish(valid ? 'ok' : 'invalid_output', completion.inputTokens, completion.outputTokens),
      };
    } catch (error) {
      await finish('error', 0, 0);
      if (error instanceof ProviderCallFailed) throw aiProviderFailed(error.message);
      throw error;
    }
  };

  /** Runs a use: the call, then `check` on the answer (an invalid one is a 422 that says why). */
  const use = async <T>(
    principal: Principal,
    providerId: string,
    projectId: string,
    purpose: string,
    request: { system: string; prompt: string },
    check: (answer: string) => Promise<T> | T,
    context: RequestContext,
  ): Promise<T> => {
    await authorize(principal, 'ai:use', projectId);
    const provider = await find(principal, providerId, 'ai:use');
    if (provider.project_id !== null && provider.project_id !== projectId)
      throw validationFailed([{ path: 'project_id', message: 'is not the project of this AI provider' }]);
    const answer = await call(principal, provider, projectId, purpose, request, context);
    try {
      const checked = await check(answer.text);
      await answer.settle(true);
      return checked;
    } catch (error) {
      await answer.settle(false);
      if (error instanceof InvalidAnswer) throw aiAnswerInvalid(error.message);
      throw error;
    }
  };

  return {
    async list(principal: Principal, projectId?: string) {
      const scope = await projectScope(deps, principal, 'ai:read', projectId);
      return (await repository.list(db, scope)).map(presentProvider);
    },

    async get(principal: Principal, id: string) {
      return presentProvider(await find(principal, id, 'ai:read'));
    },

    async create(principal: Principal, input: ProviderInput, context: RequestContext) {
      const projectId = input.project_id ?? null;
      if (projectId === null) requireAdmin(principal, 'ai:write');
      else await authorize(principal, 'ai:write', projectId);
      const baseUrl = input.base_url ?? DEFAULT_BASE_URLS[input.type];
      const problems = problemsOf({ type: input.type, base_url: baseUrl, api_key: input.api_key ?? null });
      if (problems.length) throw validationFailed(problems);
      const row = await writes.create(
        context,
        input.name,
        (trx) =>
          repository.insert(trx, {
            project_id: projectId,
            name: input.name,
            type: input.type,
            base_url: baseUrl!,
            model: input.model,
            api_key: input.api_key ? box.encrypt(input.api_key) : null,
            temperature: input.temperature ?? null,
            max_tokens: input.max_tokens ?? null,
            requests_per_minute: input.requests_per_minute ?? null,
            tokens_per_month:
              input.tokens_per_month === undefined || input.tokens_per_month === null
                ? null
                : String(input.tokens_per_month),
            enabled: input.enabled ?? true,
            created_by: principal.userId,
          }),
        (created) => ({ name: created.name, project_id: projectId }),
      );
      return presentProvider(row);
    },

    async update(principal: Principal, id: string, patch: ProviderPatchInput, context: RequestContext) {
      const current = await find(principal, id, 'admin');
      const type = patch.type ?? current.type;
      const baseUrl =
        patch.base_url ?? (patch.type && patch.type !== current.type ? DEFAULT_BASE_URLS[type] : current.base_url);
      const apiKey =
        patch.api_key === undefined ? current.api_key : patch.api_key === null ? null : box.encrypt(patch.api_key);
      const problems = problemsOf({ type, base_url: baseUrl, api_key: apiKey });
      if (problems.length) throw validationFailed(problems);
      const row = await writes.update(context, id, patch.name ?? current.name, patch, (trx) =>
        repository.update(trx, id, {
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          type,
          base_url: baseUrl!,
          ...(patch.model !== undefined ? { model: patch.model } : {}),
          api_key: apiKey,
          ...(patch.temperature !== undefined ? { temperature: patch.temperature } : {}),
          ...(patch.max_tokens !== undefined ? { max_tokens: patch.max_tokens } : {}),
          ...(patch.requests_per_minute !== undefined ? { requests_per_minute: patch.requests_per_minute } : {}),
          ...(patch.tokens_per_month !== undefined
            ? { tokens_per_month: patch.tokens_per_month === null ? null : String(patch.tokens_per_month) }
            : {}),
          ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
        }),
      );
      return presentProvider(row);
    },

    async remove(principal: Principal, id: string, context: RequestContext) {
      const row = await find(principal, id, 'admin');
      await writes.remove(context, id, { name: row.name }, (trx) => repository.remove(trx, id));
    },

    /**
     * A fixed, tiny question: whether the provider answers with this configuration (counted like any
     * call). Whoever may change the provider may test it (ai:write; an administrator, instance-wide).
     */
    async test(principal: Principal, id: string, context: RequestContext) {
      const provider = await find(principal, id, 'admin');
      const answer = await call(
        principal,
        provider,
        provider.project_id,
        'test',
        { system: 'You are a connection test. Answer with the single word OK.', prompt: 'Are you there?' },
        context,
      );
      await answer.settle(true);
      return {
        ok: true,
        reply: answer.text.slice(0, 200),
        input_tokens: answer.inputTokens,
        output_tokens: answer.outputTokens,
        duration_ms: Math.round(answer.durationMs),
      };
    },

    /** Calls counted against the limits, and the latest calls (of the projects the caller may read). */
    async usage(principal: Principal, id: string) {
      const provider = await find(principal, id, 'ai:read');
      const counts = await repository.counts(db, id);
      const scope = provider.project_id ? [provider.project_id] : await projectsWith(deps, principal, 'ai:read');
      const recent = await repository.recent(db, id, scope, 50);
      return {
        ...counts,
        requests_per_minute: provider.requests_per_minute,
        tokens_per_month: provider.tokens_per_month === null ? null : Number(provider.tokens_per_month),
        recent: recent.map((r) => ({
          at: r.at.toISOString(),
          project_id: r.project_id,
          user_id: r.user_id,
          purpose: r.purpose,
          status: r.status,
          input_tokens: r.input_tokens,
          output_tokens: r.output_tokens,
        })),
      };
    },

    /** A warehouse model drafted from a question and the project's warehouse schema; checked, not saved. */
    async draftModel(
      principal: Principal,
      id: string,
      input: { project_id: string; question: string; include_samples?: boolean },
      context: RequestContext,
    ) {
      await authorize(principal, 'model:read', input.project_id);
      // Sample rows are warehouse data, as a model preview shows them: the same capability.
      if (input.include_samples) await authorize(principal, 'model:run', input.project_id);
      const [tables, models] = await Promise.all([
        warehouseTables(input.project_id, input.include_samples ? { viewer: principal } : undefined),
        deps.models.inProject(db, input.project_id),
      ]);
      return use(
        principal,
        id,
        input.project_id,
        'draft_model',
        draftModelPrompt(input.question, tables, models),
        (answer) => checkDraft(answer, { models, tables, placement: placementOf(input.project_id) }),
        context,
      );
    },

    /** Pipeline transform steps suggested from a description; checked against the step schema, not saved. */
    async suggestSteps(
      principal: Principal,
      id: string,
      input: { project_id: string; description: string; columns?: Array<{ name: string; type: string }> },
      context: RequestContext,
    ) {
      return use(
        principal,
        id,
        input.project_id,
        'suggest_steps',
        stepsPrompt(input.description, input.columns ?? []),
        (answer) => ({ steps: checkSteps(answer) }),
        context,
      );
    },

    /** A description of a catalog dataset and its columns (names and types only in the prompt); not saved. */
    async describeDataset(principal: Principal, id: string, input: { dataset_id: string }, context: RequestContext) {
      const dataset = await deps.catalog.getDataset(principal, input.dataset_id);
      return use(
        principal,
        id,
        dataset.project_id,
        'describe_dataset',
        describePrompt(dataset),
        (answer) => checkDescription(answer, dataset.columns),
        context,
      );
    },
  };
}
