/**
 * The scope of an alert rule: every item of its project the rule's kind applies to, or a chosen
 * list of them. Run rules watch pipelines, syncs, exports, file ingestions, inboxes and warehouse
 * models; `cdc_lag` watches CDC tables and `stream_lag` streams. The items are read through each
 * area's own list in the current project; a sync (a source and destination pair) is offered once it
 * has run in the project.
 */
import { useQueries } from '@tanstack/react-query';
import { api, unwrap, type JsonBody } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { CheckboxList } from '../../components/fields';

type RuleBody = JsonBody<'/api/v1/alert-rules', 'post'>;
export type ScopeItem = NonNullable<RuleBody['scope']>[number];
type ItemKind = ScopeItem['kind'];
type Named = { id: string; name: string };

const GROUPS: Record<ItemKind, { label: string; noun: string; plural: string }> = {
  pipeline: { label: 'Pipelines', noun: 'pipeline', plural: 'pipelines' },
  sync: { label: 'Syncs', noun: 'sync', plural: 'syncs that ran' },
  export: { label: 'Exports', noun: 'export', plural: 'exports' },
  file_ingestion: { label: 'File ingestions', noun: 'file ingestion', plural: 'file ingestions' },
  inbox: { label: 'Inboxes', noun: 'inbox', plural: 'inboxes' },
  dw_model: { label: 'Warehouse models', noun: 'model', plural: 'warehouse models' },
  cdc_table: { label: 'CDC tables', noun: 'CDC table', plural: 'CDC tables' },
  stream: { label: 'Streams', noun: 'stream', plural: 'streams' },
};

/** "a, b or c". */
const either = (words: string[]) =>
  words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}` : (words[0] ?? '');

const RUN_KINDS: ItemKind[] = ['pipeline', 'sync', 'export', 'file_ingestion', 'inbox', 'dw_model'];
const ALL_KINDS: ItemKind[] = [...RUN_KINDS, 'cdc_table', 'stream'];

/** The kinds of item a rule of `ruleKind` watches (as the server's conditions.ts says). */
export const itemKindsOf = (ruleKind: RuleBody['kind']): ItemKind[] =>
  ruleKind === 'cdc_lag' ? ['cdc_table'] : ruleKind === 'stream_lag' ? ['stream'] : RUN_KINDS;

/** What a rule with an empty scope watches. */
export const everythingOf = (ruleKind: RuleBody['kind']) =>
  ruleKind === 'cdc_lag'
    ? 'All CDC tables of the project'
    : ruleKind === 'stream_lag'
      ? 'All streams of the project'
      : 'All runs of the project';

const named = (items: Named[]): Named[] => items.map(({ id, name }) => ({ id, name }));

/** The syncs that ran in the project: each source and destination pair, named by its connectors. */
async function syncsOf(projectId: string): Promise<Named[]> {
  const [runs, connectors] = await Promise.all([
    unwrap(api.GET('/api/v1/executions', { params: { query: { project_id: projectId, kind: 'sync', limit: 500 } } })),
    unwrap(api.GET('/api/v1/data-connectors')),
  ]);
  const names = new Map(connectors.items.map((c) => [c.id, c.name]));
  const pairs = new Map<string, string>();
  for (const run of runs.items) {
    const source = run.params['source_connector_id'];
    const destination = run.params['destination_connector_id'];
    if (typeof source === 'string' && typeof destination === 'string')
      pairs.set(
        `${source}>${destination}`,
        `${names.get(source) ?? source} → ${names.get(destination) ?? destination}`,
      );
  }
  return [...pairs].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
}

const FETCH: Record<ItemKind, (projectId: string) => Promise<Named[]>> = {
  pipeline: async (project_id) =>
    named((await unwrap(api.GET('/api/v1/etl/pipelines', { params: { query: { project_id } } }))).items),
  sync: syncsOf,
  export: async (project_id) =>
    named((await unwrap(api.GET('/api/v1/exports', { params: { query: { project_id } } }))).items),
  file_ingestion: async (project_id) =>
    named((await unwrap(api.GET('/api/v1/file-ingestions', { params: { query: { project_id } } }))).items),
  inbox: async (project_id) =>
    named((await unwrap(api.GET('/api/v1/inboxes', { params: { query: { project_id } } }))).items),
  dw_model: async (project_id) =>
    named((await unwrap(api.GET('/api/v1/dw-models', { params: { query: { project_id } } }))).items),
  cdc_table: async (project_id) =>
    named((await unwrap(api.GET('/api/v1/cdc-tables', { params: { query: { project_id } } }))).items),
  stream: async (project_id) =>
    named((await unwrap(api.GET('/api/v1/streams', { params: { query: { project_id } } }))).items),
};

/** The items of `kinds` in the project, a group per kind, read while `enabled`. */
export function useScopeItems(projectId: string | undefined, kinds: ItemKind[] = ALL_KINDS, enabled = true) {
  const results = useQueries({
    queries: kinds.map((kind) => ({
      queryKey: ['alert-scope-items', kind, projectId],
      queryFn: () => FETCH[kind](projectId!),
      enabled: enabled && !!projectId,
    })),
  });
  return {
    groups: kinds.map((kind, index) => ({ kind, items: results[index]?.data ?? [] })),
    loading: results.some((r) => r.isLoading),
    error: results.find((r) => r.error)?.error,
  };
}

/**
 * The items a rule watches, ticked in a list per kind. `value` is the chosen items; items of other
 * kinds are left out of it by the caller when the rule's kind changes.
 */
export function ScopePicker({
  projectId,
  ruleKind,
  value,
  onChange,
}: {
  projectId: string | undefined;
  ruleKind: RuleBody['kind'];
  value: ScopeItem[];
  onChange: (scope: ScopeItem[]) => void;
}) {
  const kinds = itemKindsOf(ruleKind);
  const { groups, loading, error } = useScopeItems(projectId, kinds);
  const shown = groups.filter((group) => group.items.length > 0);
  return (
    <fieldset aria-busy={loading || undefined}>
      <legend>Items watched</legend>
      <ErrorNotice error={error} />
      {loading ? <p className="muted">Loading the items of the project…</p> : null}
      {!loading && shown.length === 0 ? (
        <p className="empty">The project has no {either(kinds.map((kind) => GROUPS[kind].plural))} yet.</p>
      ) : null}
      {shown.map((group) => (
        <CheckboxList
          key={group.kind}
          label={GROUPS[group.kind].label}
          items={group.items}
          value={value.filter((item) => item.kind === group.kind).map((item) => item.id)}
          onChange={(ids) =>
            onChange([
              ...value.filter((item) => item.kind !== group.kind),
              ...ids.map((id) => ({ kind: group.kind, id })),
            ])
          }
        />
      ))}
    </fieldset>
  );
}

/**
 * A rule's scope in words: what an empty scope watches, or its items by kind and name (the names of
 * `groups`, else of the rule's item states, else the id), the first few of a long list.
 */
export function scopeText(
  rule: {
    kind: RuleBody['kind'];
    scope: Array<{ kind: string; id: string }>;
    items: Array<{ item_kind: string; item_id: string; item_name: string | null }>;
  },
  groups: Array<{ kind: ItemKind; items: Named[] }>,
  shown = 4,
): string {
  if (rule.scope.length === 0) return everythingOf(rule.kind);
  const nameOf = (item: { kind: string; id: string }) =>
    groups.find((g) => g.kind === item.kind)?.items.find((i) => i.id === item.id)?.name ??
    rule.items.find((s) => s.item_kind === item.kind && s.item_id === item.id)?.item_name ??
    item.id;
  const words = rule.scope
    .slice(0, shown)
    .map((item) => `${GROUPS[item.kind as ItemKind]?.noun ?? item.kind} ${nameOf(item)}`);
  const more = rule.scope.length - shown;
  return `${words.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}
