import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Form } from 'react-aria-components';
import { api, unwrap, type JsonBody } from '../../api/client';
import { useCurrentProject } from '../../project-context';
import { WithCreateForm } from '../../components/CreateRoute';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { DeleteButton } from '../../components/DeleteButton';
import { CheckboxList, ChoiceField, FormSubmit, NumberInput } from '../../components/fields';
import { TextInput } from '../../components/fields';
import { useChannels } from './Channels';
import { ScopePicker, everythingOf, itemKindsOf, scopeText, useScopeItems, type ScopeItem } from './scope';
import { onSubmitted } from '../../components/form-data';
import { ProjectNote } from '../../components/ProjectNote';

type RuleBody = JsonBody<'/api/v1/alert-rules', 'post'>;
type Kind = RuleBody['kind'];
type Severity = NonNullable<RuleBody['severity']>;

/** Each kind's one parameter in the form (the API takes more: docs/alerting.md). */
const KINDS: Array<{ value: Kind; label: string; param?: { name: string; label: string; fraction?: boolean } }> = [
  { value: 'run_failed', label: 'a run failed' },
  { value: 'consecutive_failures', label: 'failures in a row', param: { name: 'count', label: 'Failures in a row' } },
  { value: 'run_duration', label: 'a run too long', param: { name: 'max_seconds', label: 'Longest run (seconds)' } },
  {
    value: 'freshness',
    label: 'no success for',
    param: { name: 'max_age_seconds', label: 'Longest without success (seconds)' },
  },
  { value: 'cdc_lag', label: 'CDC lag', param: { name: 'max_lag_seconds', label: 'Largest lag (seconds)' } },
  {
    value: 'stream_lag',
    label: 'stream lag',
    param: { name: 'max_lag_seconds', label: 'Largest publish-to-commit lag (seconds)' },
  },
  {
    value: 'row_count',
    label: 'too few rows',
    param: { name: 'fraction', label: 'Fraction of the median of the last runs (0 to 1)', fraction: true },
  },
];

/** The severities of alerts, as choices. */
export const SEVERITIES: Array<{ value: Severity; label: string }> = [
  { value: 'info', label: 'info' },
  { value: 'warning', label: 'warning' },
  { value: 'critical', label: 'critical' },
];

/** The class a state is shown with. */
export const stateClass = (state: string) =>
  state === 'firing' ? 'status failed' : state === 'pending' ? 'status running' : 'status succeeded';

function NewRule({ onCreated }: { onCreated: () => void }) {
  const queries = useQueryClient();
  const channels = useChannels();
  const { projectId: project, project: current } = useCurrentProject();
  const [kind, setKind] = useState<Kind>('run_failed');
  const [severity, setSeverity] = useState<Severity>('warning');
  const [chosen, setChosen] = useState<string[]>([]);
  const [watch, setWatch] = useState<'all' | 'chosen'>('all');
  const [scope, setScope] = useState<ScopeItem[]>([]);
  const [invalid, setInvalid] = useState<string | undefined>();
  const [formKey, setFormKey] = useState(0);
  const create = useMutation({
    mutationFn: (body: RuleBody) => unwrap(api.POST('/api/v1/alert-rules', { body })),
    onSuccess: () => {
      setFormKey((k) => k + 1);
      setChosen([]);
      setWatch('all');
      setScope([]);
      void queries.invalidateQueries({ queryKey: ['alert-rules'] });
      onCreated();
    },
  });
  // Another kind watches other items: those chosen for the previous kind that it cannot watch go.
  const changeKind = (next: Kind) => {
    setKind(next);
    setScope((items) => items.filter((item) => itemKindsOf(next).includes(item.kind)));
  };
  const param = KINDS.find((k) => k.value === kind)?.param;
  const usable = (channels.data?.items ?? []).filter((c) => c.project_id === project || c.project_id === null);
  const submit = onSubmitted(({ text }) => {
    if (!project) return;
    if (watch === 'chosen' && scope.length === 0) {
      setInvalid('Choose the items to watch, or watch all of them.');
      return;
    }
    setInvalid(undefined);
    create.mutate({
      project_id: project,
      name: text('name'),
      kind,
      severity,
      params: param ? { [param.name]: Number(text(param.name)) } : {},
      for: Number(text('for') || 0),
      ...(text('keep_firing_for') ? { keep_firing_for: Number(text('keep_firing_for')) } : {}),
      // Empty: one notification per state change.
      repeat_interval: text('repeat_interval') ? Number(text('repeat_interval')) : null,
      channel_ids: chosen,
      // Empty: every item of the project the kind watches.
      scope: watch === 'chosen' ? scope : [],
    });
  });
  return (
    <Card id="new-alert-rule" title="New alert rule">
      <Form key={formKey} onSubmit={submit}>
        <ProjectNote project={current} />
        <TextInput name="name" label="Name" isRequired />
        <ChoiceField
          label="Fires when"
          value={kind}
          onChange={changeKind}
          choices={KINDS.map((k) => ({ value: k.value, label: k.label }))}
        />
        <ChoiceField
          label="Watches"
          value={watch}
          onChange={setWatch}
          choices={[
            { value: 'all', label: everythingOf(kind) },
            { value: 'chosen', label: 'Chosen items' },
          ]}
        />
        {watch === 'chosen' ? (
          <ScopePicker projectId={project} ruleKind={kind} value={scope} onChange={setScope} />
        ) : null}
        {param ? (
          param.fraction ? (
            <TextInput name={param.name} label={param.label} isRequired inputMode="numeric" />
          ) : (
            <NumberInput
              name={param.name}
              label={param.label}
              isRequired
              min={kind === 'consecutive_failures' ? 2 : 0}
            />
          )
        ) : null}
        <ChoiceField
          label="Severity"
          value={severity}
          onChange={setSeverity}
          orientation="horizontal"
          choices={SEVERITIES}
        />
        <NumberInput
          name="for"
          label="Pending for (seconds)"
          min={0}
          description="How long the condition must hold before it fires."
        />
        <NumberInput
          name="keep_firing_for"
          label="Keep firing for (seconds)"
          min={0}
          description="How long it stays firing after the condition cleared, so a flapping item alerts once."
        />
        <NumberInput
          name="repeat_interval"
          label="Repeat every (seconds)"
          min={1}
          description="While firing, notify again at this interval; empty: once per state change."
        />
        <CheckboxList
          label="Channels"
          items={usable.map((c) => ({ id: c.id, name: `${c.name} (${c.type})` }))}
          value={chosen}
          onChange={setChosen}
        />
        <FormSubmit
          label="Create rule"
          error={create.error}
          invalid={invalid}
          isDisabled={create.isPending || !project}
        />
      </Form>
    </Card>
  );
}

/** A rule's history: every change of state of its items, with what was sent. */
function History({ ruleId, name }: { ruleId: string; name: string }) {
  const events = useQuery({
    queryKey: ['alert-rules', ruleId, 'events'],
    queryFn: () => unwrap(api.GET('/api/v1/alert-rules/{id}/events', { params: { path: { id: ruleId } } })),
    refetchInterval: 5000,
  });
  return (
    <DataTable
      caption={`History of ${name}`}
      read={events}
      empty="Nothing has happened yet."
      columns={[
        { header: 'At', cell: (e) => new Date(e.at).toLocaleString() },
        { header: 'Item', cell: (e) => `${e.item_kind} ${e.item_name ?? e.item_id}` },
        {
          header: 'Change',
          cell: (e) => (
            <>
              {e.previous_state} → <span className={stateClass(e.state)}>{e.state}</span>
              {e.repeat ? ' (repeat)' : ''}
            </>
          ),
        },
        {
          header: 'Notifications',
          cell: (e) =>
            e.muted ? 'muted' : e.notifications.length ? e.notifications.map((n) => n.status).join(', ') : '—',
        },
      ]}
    />
  );
}

/** Alert rules with the state of their items; mute, unmute, delete; the history of one. */
export function AlertRules() {
  const queries = useQueryClient();
  const rules = useQuery({
    queryKey: ['alert-rules'],
    queryFn: () => unwrap(api.GET('/api/v1/alert-rules')),
    refetchInterval: 5000,
  });
  const [shown, setShown] = useState<{ id: string; name: string } | undefined>();
  const { projectId } = useCurrentProject();
  // The names of the items scoped rules watch (those of the current project).
  const named = useScopeItems(
    projectId,
    undefined,
    (rules.data?.items ?? []).some((r) => r.scope.length > 0),
  );
  const mute = useMutation({
    mutationFn: ({ id, until }: { id: string; until: string | null }) =>
      unwrap(api.PATCH('/api/v1/alert-rules/{id}', { params: { path: { id } }, body: { muted_until: until } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['alert-rules'] }),
  });
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/alert-rules/{id}', { params: { path: { id } } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['alert-rules'] }),
  });
  return (
    <WithCreateForm base="/alerts" label="New alert rule" back="Alerts" form={(done) => <NewRule onCreated={done} />}>
      <DataTable
        caption="Alert rules"
        read={rules}
        error={mute.error ?? remove.error}
        empty="No alert rules yet."
        columns={[
          { header: 'Name', cell: (r) => r.name },
          { header: 'Kind', cell: (r) => r.kind },
          { header: 'Severity', cell: (r) => r.severity },
          { header: 'Watches', cell: (r) => scopeText(r, named.groups) },
          {
            header: 'State',
            cell: (r) => <span className={stateClass(r.state)}>{r.state}</span>,
            cellProps: () => ({ role: 'status' }),
          },
          {
            header: 'Items',
            cell: (r) =>
              r.items.filter((i) => i.state === 'firing' || i.state === 'pending').length
                ? r.items
                    .filter((i) => i.state === 'firing' || i.state === 'pending')
                    .map((i) => `${i.item_name ?? i.item_id}: ${i.state}`)
                    .join('; ')
                : `${r.items.length} watched`,
          },
          {
            header: 'Muted until',
            cell: (r) =>
              r.muted_until && new Date(r.muted_until) > new Date() ? new Date(r.muted_until).toLocaleString() : '—',
          },
        ]}
        actionsClassName="row"
        actions={(r) => {
          const muted = r.muted_until !== null && new Date(r.muted_until) > new Date();
          return (
            <>
              <Button
                className="secondary"
                aria-label={`History of ${r.name}`}
                onPress={() => setShown({ id: r.id, name: r.name })}
              >
                History
              </Button>
              <Button
                className="secondary"
                aria-label={`${muted ? 'Unmute' : 'Mute for an hour'} ${r.name}`}
                onPress={() =>
                  mute.mutate({ id: r.id, until: muted ? null : new Date(Date.now() + 3_600_000).toISOString() })
                }
              >
                {muted ? 'Unmute' : 'Mute for an hour'}
              </Button>
              <DeleteButton name={`the rule ${r.name}`} label={`Delete ${r.name}`} deletes={remove} id={r.id} />
            </>
          );
        }}
      />
      {shown ? <History ruleId={shown.id} name={shown.name} /> : null}
    </WithCreateForm>
  );
}
