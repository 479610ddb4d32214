import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Form } from 'react-aria-components';
import { api, unwrap, type JsonBody, type JsonAnswer } from '../../api/client';
import { useMe } from '../../api/queries';
import { WithCreateForm } from '../../components/CreateRoute';
import { useItemRoute } from '../../navigation';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { DeleteButton } from '../../components/DeleteButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ChoiceField, FormSubmit, NumberInput, TextInput } from '../../components/fields';
import { useCurrentProject } from '../../project-context';
import { onSubmitted } from '../../components/form-data';
import { ProjectNote } from '../../components/ProjectNote';

type PolicyBody = JsonBody<'/api/v1/retention-policies', 'post'>;
type Policy = JsonAnswer<'/api/v1/retention-policies', 'get'>['items'][number];
type Kind =
  | 'warehouse_table'
  | 'execution_history'
  | 'execution_logs'
  | 'inbox_request_bodies'
  | 'ingested_file_copies'
  | 'stream_dead_letters'
  | 'audit_events';
type Timing = 'none' | 'cron' | 'interval';

const describeTarget = (target: Record<string, unknown>) =>
  target['kind'] === 'warehouse_table'
    ? `${String(target['action'] ?? 'delete')} ${String(target['schema'] ?? 'main')}.${String(target['table'])} by ${String(target['timestamp_column'])}`
    : String(target['kind']).replaceAll('_', ' ');

/** A new policy: what it prunes, how old is too old, and when it runs by itself. */
function NewPolicy({ admin, onCreated }: { admin: boolean; onCreated: () => void }) {
  const queries = useQueryClient();
  const { projectId: project, project: current } = useCurrentProject();
  const [kind, setKind] = useState<Kind>('execution_history');
  const [action, setAction] = useState<'delete' | 'archive'>('delete');
  const [timing, setTiming] = useState<Timing>('none');
  const [formKey, setFormKey] = useState(0);
  const create = useMutation({
    mutationFn: (body: PolicyBody) => unwrap(api.POST('/api/v1/retention-policies', { body })),
    onSuccess: () => {
      setFormKey((k) => k + 1);
      void queries.invalidateQueries({ queryKey: ['retention-policies'] });
      onCreated();
    },
  });
  const instance = kind === 'audit_events';
  const submit = onSubmitted(({ text }) => {
    if (!instance && !project) return;
    const target: PolicyBody['target'] =
      kind === 'warehouse_table'
        ? {
            kind,
            table: text('table'),
            timestamp_column: text('timestamp_column'),
            action,
            ...(text('schema') ? { schema: text('schema') } : {}),
          }
        : { kind };
    const when =
      timing === 'cron'
        ? { cron: text('cron'), timezone: text('timezone') || 'UTC' }
        : timing === 'interval'
          ? { interval_seconds: Number(text('interval_seconds')) }
          : {};
    create.mutate({
      project_id: instance ? null : project,
      name: text('name'),
      target,
      max_age: text('max_age'),
      ...(text('max_rows') ? { max_rows: Number(text('max_rows')) } : {}),
      ...(kind.startsWith('execution_') && text('keep_last_failed')
        ? { keep_last_failed: Number(text('keep_last_failed')) }
        : {}),
      ...when,
    });
  });
  const kinds: Array<{ value: Kind; label: string; description: string }> = [
    { value: 'execution_history', label: 'execution history', description: 'Finished runs with their logs.' },
    {
      value: 'execution_logs',
      label: 'execution logs',
      description: 'Log lines of finished runs; the runs stay.',
    },
    {
      value: 'warehouse_table',
      label: 'warehouse table',
      description: "Rows of a table in the project's warehouse, by a timestamp column.",
    },
    {
      value: 'inbox_request_bodies',
      label: 'inbox request bodies',
      description: 'Bodies kept of inbox requests; the records stay, replay is no longer possible.',
    },
    {
      value: 'ingested_file_copies',
      label: 'ingested file copies',
      description:
        'Stored copies of ingested files whose load is over; the records stay, reload is no longer possible.',
    },
    {
      value: 'stream_dead_letters',
      label: 'stream dead letters',
      description: "Messages the project's streams could not write.",
    },
    ...(admin
      ? [
          {
            value: 'audit_events' as const,
            label: 'audit events',
            description: 'The whole instance; never younger than the configured floor.',
          },
        ]
      : []),
  ];
  return (
    <Card id="new-retention-policy" title="New retention policy">
      <Form key={formKey} onSubmit={submit}>
        <TextInput name="name" label="Name" isRequired />
        <ChoiceField label="Prunes" value={kind} onChange={setKind} choices={kinds} />
        {instance ? <p className="muted">For the whole instance.</p> : <ProjectNote project={current} />}
        {kind === 'warehouse_table' ? (
          <>
            <TextInput name="schema" label="Schema" description="Empty: main." spellCheck={false} />
            <TextInput name="table" label="Table" isRequired spellCheck={false} />
            <TextInput
              name="timestamp_column"
              label="Timestamp column"
              isRequired
              spellCheck={false}
              description="Index it: each batch finds its rows by it."
            />
            <ChoiceField
              label="Expired rows"
              value={action}
              onChange={setAction}
              orientation="horizontal"
              choices={[
                { value: 'delete', label: 'delete' },
                { value: 'archive', label: 'archive to a file, then delete' },
              ]}
            />
          </>
        ) : null}
        <TextInput
          name="max_age"
          label="Maximum age"
          isRequired
          spellCheck={false}
          description="A number and a unit (s, m, h, d, w), e.g. 30d."
        />
        <NumberInput name="max_rows" label="Keep at most (rows)" min={1} description="Optional: the newest are kept." />
        {kind.startsWith('execution_') ? (
          <NumberInput
            name="keep_last_failed"
            label="Keep the last failed runs"
            min={0}
            description="Kept whatever their age."
          />
        ) : null}
        <ChoiceField
          label="Runs by itself"
          value={timing}
          onChange={setTiming}
          orientation="horizontal"
          choices={[
            { value: 'none', label: 'never' },
            { value: 'cron', label: 'cron' },
            { value: 'interval', label: 'interval' },
          ]}
        />
        {timing === 'cron' ? (
          <>
            <TextInput name="cron" label="Cron expression" isRequired spellCheck={false} />
            <TextInput
              name="timezone"
              label="Time zone"
              spellCheck={false}
              defaultValue={Intl.DateTimeFormat().resolvedOptions().timeZone}
            />
          </>
        ) : null}
        {timing === 'interval' ? (
          <NumberInput name="interval_seconds" label="Every (seconds)" isRequired min={60} />
        ) : null}
        <FormSubmit
          label="Create policy"
          error={create.error}
          isDisabled={create.isPending || (!instance && !project)}
        />
      </Form>
    </Card>
  );
}

/** One policy: its dry run (counts per table) and its sweeps. */
function PolicyDetail({ policy }: { policy: Policy }) {
  const queries = useQueryClient();
  const sweeps = useQuery({
    queryKey: ['retention-sweeps', policy.id],
    queryFn: () => unwrap(api.GET('/api/v1/retention-policies/{id}/sweeps', { params: { path: { id: policy.id } } })),
    refetchInterval: 2000,
  });
  const preview = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/v1/retention-policies/{id}/preview', { params: { path: { id: policy.id } } })),
  });
  const run = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/retention-policies/{id}/run', { params: { path: { id: policy.id } } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['retention-sweeps', policy.id] }),
  });
  return (
    <Card id="retention-policy" title={policy.name}>
      <p>
        {describeTarget(policy.target)}; older than {policy.max_age}
        {policy.max_rows !== null ? `, beyond the newest ${policy.max_rows}` : ''}
        {policy.keep_last_failed > 0 ? `, keeping the last ${policy.keep_last_failed} failed` : ''}.
      </p>
      <div className="row">
        <Button className="secondary" onPress={() => preview.mutate()} isDisabled={preview.isPending}>
          Preview
        </Button>
        <Button onPress={() => run.mutate()} isDisabled={run.isPending}>
          Run now
        </Button>
      </div>
      <ErrorNotice error={preview.error ?? run.error} />
      {preview.data ? (
        <div role="status">
          <h3>Would delete</h3>
          <p>
            {preview.data.total} rows older than {new Date(preview.data.cutoff).toLocaleString()}:
          </p>
          <ul>
            {Object.entries(preview.data.counts).map(([table, n]) => (
              <li key={table}>
                {table}: {n}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <DataTable
        caption="Sweeps"
        read={sweeps}
        empty="No sweeps yet."
        columns={[
          { header: 'Started', cell: (sweep) => new Date(sweep.created_at).toLocaleString() },
          { header: 'Trigger', cell: (sweep) => sweep.trigger },
          { header: 'Status', cell: (sweep) => <span className={`status ${sweep.status}`}>{sweep.status}</span> },
          { header: 'Deleted', cell: (sweep) => sweep.total },
          {
            header: 'Per table',
            cell: (sweep) =>
              Object.entries(sweep.counts)
                .map(([table, n]) => `${table} ${n}`)
                .join(', ') || '—',
          },
          { header: 'Batches', cell: (sweep) => sweep.batches },
          { header: 'Error', cell: (sweep) => sweep.error ?? '' },
        ]}
      />
    </Card>
  );
}

/** Retention policies: list, create, preview counts, run, and the history of sweeps. */
export function Retention() {
  const queries = useQueryClient();
  const me = useMe();
  // The open item is in the address (/retention/<id>): shareable, and the back button closes it.
  const [selected, setSelected] = useItemRoute('/retention');
  const policies = useQuery({
    queryKey: ['retention-policies'],
    queryFn: () => unwrap(api.GET('/api/v1/retention-policies')),
  });
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/retention-policies/{id}', { params: { path: { id } } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['retention-policies'] }),
  });
  const current = policies.data?.items.find((p) => p.id === selected);
  return (
    <WithCreateForm
      base="/retention"
      label="New retention policy"
      back="Retention"
      form={(done) => <NewPolicy admin={me.data?.is_admin ?? false} onCreated={done} />}
    >
      <DataTable
        caption="Retention policies"
        read={policies}
        rowProps={(policy) => (policy.id === selected ? { 'aria-current': 'true' } : {})}
        error={remove.error}
        empty="No retention policies yet."
        columns={[
          { header: 'Name', cell: (policy) => policy.name },
          { header: 'Prunes', cell: (policy) => describeTarget(policy.target) },
          { header: 'Maximum age', cell: (policy) => policy.max_age },
          {
            header: 'Schedule',
            cell: (policy) =>
              policy.cron
                ? `${policy.cron} (${policy.timezone})`
                : policy.interval_seconds
                  ? `every ${policy.interval_seconds} s`
                  : 'on demand',
          },
          {
            header: 'Next run',
            cell: (policy) => (policy.next_run_at ? new Date(policy.next_run_at).toLocaleString() : '—'),
          },
        ]}
        actions={(policy) => (
          <div className="row">
            <Button className="secondary" aria-label={`Open ${policy.name}`} onPress={() => setSelected(policy.id)}>
              Open
            </Button>
            <DeleteButton
              name={`the retention policy ${policy.name}`}
              label={`Delete ${policy.name}`}
              deletes={remove}
              id={policy.id}
            />
          </div>
        )}
      />
      {current ? <PolicyDetail key={current.id} policy={current} /> : null}
    </WithCreateForm>
  );
}
