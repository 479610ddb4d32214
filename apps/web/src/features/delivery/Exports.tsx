import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, Form } from 'react-aria-components';
import { api, unwrap, type JsonBody, type JsonAnswer } from '../../api/client';
import { useConnectors } from '../../api/queries';
import { WithCreateForm } from '../../components/CreateRoute';
import { useItemRoute } from '../../navigation';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { DeleteButton } from '../../components/DeleteButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ItemSelect } from '../../components/ItemSelect';
import {
  describeTiming,
  ScheduleFields,
  timingOf,
  type MissedPolicy,
  type TimingKind,
} from '../../components/ScheduleFields';
import { ChoiceField, FormSubmit, TextAreaInput, TextInput } from '../../components/fields';
import { useCurrentProject } from '../../project-context';
import { onSubmitted } from '../../components/form-data';

type Format = 'csv' | 'ndjson' | 'parquet';
type ExportBody = JsonBody<'/api/v1/exports', 'post'>;
type ExportItem = JsonAnswer<'/api/v1/exports', 'get'>['items'][number];

/** A new export of the current project: a warehouse query or a connector's dataset, to a file of the project's folder. */
function NewExport({
  projectId,
  projectName,
  onCreated,
}: {
  projectId: string;
  projectName: string;
  onCreated: (id: string) => void;
}) {
  const queries = useQueryClient();
  const connectors = useConnectors();
  const [source, setSource] = useState<'warehouse_query' | 'connector'>('warehouse_query');
  const [connector, setConnector] = useState<string | undefined>();
  const [timing, setTiming] = useState<TimingKind | 'none'>('none');
  const [policy, setPolicy] = useState<MissedPolicy>('skip');
  // A new key empties the form after an export was created.
  const [formKey, setFormKey] = useState(0);
  const create = useMutation({
    meta: { success: 'Export created.' },
    mutationFn: (body: ExportBody) => unwrap(api.POST('/api/v1/exports', { body })),
    onSuccess: (created) => {
      onCreated(created.id);
      setFormKey((k) => k + 1);
      setConnector(undefined);
      setTiming('none');
      void queries.invalidateQueries({ queryKey: ['exports'] });
    },
  });
  const ofProject = (connectors.data?.items ?? []).filter((c) => c.project_id === projectId);
  const submit = onSubmitted(({ form, text }) => {
    create.mutate({
      project_id: projectId,
      name: text('name'),
      source:
        source === 'warehouse_query'
          ? { kind: 'warehouse_query', query: text('query') }
          : { kind: 'connector', connector_id: connector ?? '', dataset: text('dataset') },
      destination: { kind: 'files', folder: text('folder') || 'exports' },
      format: { type: text('format') as Format },
      ...(timing === 'none' ? {} : { schedule: { ...timingOf(form, timing), missed_policy: policy } }),
    });
  });
  return (
    <Card id="new-export" title="New export">
      <p className="muted">
        In project {projectName}. Files go to the project&apos;s folder; S3, SFTP, HTTP and database destinations are
        set up through the API.
      </p>
      <Form key={formKey} onSubmit={submit}>
        <TextInput name="name" label="Name" isRequired />
        <ChoiceField
          label="Source"
          value={source}
          onChange={setSource}
          orientation="horizontal"
          choices={[
            { value: 'warehouse_query', label: 'warehouse query' },
            { value: 'connector', label: 'connector dataset' },
          ]}
        />
        {source === 'warehouse_query' ? (
          <TextAreaInput
            name="query"
            label="Warehouse query"
            rows={3}
            isRequired
            description="A SELECT over the project's warehouse schema, run as the project's own role"
          />
        ) : (
          <>
            <ItemSelect
              label="Connector"
              items={ofProject}
              value={connector}
              onChange={setConnector}
              empty="No connectors in this project"
            />
            <TextInput
              name="dataset"
              label="Dataset"
              isRequired
              spellCheck={false}
              description="A table the connector discovers, e.g. public.orders"
            />
          </>
        )}
        <TextInput
          name="folder"
          label="Folder"
          defaultValue="exports"
          description="Inside the project's folder of the files root"
        />
        <ChoiceField
          name="format"
          label="Format"
          defaultValue="csv"
          choices={[
            { value: 'csv', label: 'CSV' },
            { value: 'ndjson', label: 'NDJSON' },
            { value: 'parquet', label: 'Parquet' },
          ]}
        />
        <ScheduleFields
          timing={timing}
          onTimingChange={setTiming}
          policy={policy}
          onPolicyChange={setPolicy}
          what="The export"
          withNone
        />
        <FormSubmit label="Create export" error={create.error} isDisabled={create.isPending} />
      </Form>
    </Card>
  );
}

/** `every 60 s; next 24/11/2026, 21:00:00`, `... ; paused`, or `on demand`. */
function scheduleText(item: ExportItem) {
  const schedule = item.schedule;
  if (!schedule) return 'on demand';
  const next = schedule.paused
    ? 'paused'
    : schedule.next_due_at
      ? `next ${new Date(schedule.next_due_at).toLocaleString()}`
      : '';
  return `${describeTiming(schedule)}; ${next}`;
}

/**
 * Exports of the current project: created here from a warehouse query or a connector's dataset to a
 * file of the project's folder (other destinations through the API), run on demand or on a schedule;
 * each run's counts and trigger, its failed rows with their reasons, and download links.
 */
export function Exports() {
  const queries = useQueryClient();
  const { projectId, project, isLoading } = useCurrentProject();
  // The open item is in the address (/exports/<id>): shareable, and the back button closes it.
  const [selected, setSelected] = useItemRoute('/exports');
  const exports = useQuery({
    queryKey: ['exports', projectId],
    enabled: !!projectId,
    queryFn: () => unwrap(api.GET('/api/v1/exports', { params: { query: { project_id: projectId! } } })),
    refetchInterval: 5000,
  });
  const run = useMutation({
    meta: { success: 'Export run started.' },
    mutationFn: (id: string) => unwrap(api.POST('/api/v1/exports/{id}/run', { params: { path: { id } } })),
    onSuccess: (_, id) => {
      setSelected(id);
      void queries.invalidateQueries({ queryKey: ['export-runs', id] });
    },
  });
  const pause = useMutation({
    meta: { success: 'Schedule updated.' },
    mutationFn: ({ id, paused }: { id: string; paused: boolean }) =>
      unwrap(api.PATCH('/api/v1/exports/{id}', { params: { path: { id } }, body: { schedule: { paused } } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ['exports'] }),
  });
  const remove = useMutation({
    meta: { success: 'Export deleted.' },
    mutationFn: (id: string) => unwrap(api.DELETE('/api/v1/exports/{id}', { params: { path: { id } } })),
    onSuccess: (_, id) => {
      if (id === selected) setSelected(undefined);
      void queries.invalidateQueries({ queryKey: ['exports'] });
    },
  });
  if (!project) return isLoading ? null : <p className="empty">No project to export from.</p>;
  const chosen = exports.data?.items.find((e) => e.id === selected);
  return (
    <WithCreateForm
      base="/exports"
      label="New export"
      back="Exports"
      form={(done) => (
        <NewExport
          key={project.id}
          projectId={project.id}
          projectName={project.name}
          onCreated={(id) => done(`/exports/${id}`)}
        />
      )}
    >
      <DataTable
        caption="Exports"
        read={exports}
        error={run.error ?? pause.error ?? remove.error}
        empty="No exports in this project yet."
        columns={[
          { header: 'Name', cell: (item) => item.name },
          {
            header: 'Source',
            cell: (item) =>
              item.source['kind'] === 'warehouse_query'
                ? 'warehouse query'
                : String(item.source['dataset'] ?? item.source['kind']),
          },
          { header: 'Destination', cell: (item) => String(item.destination['kind']) },
          { header: 'Schedule', cell: scheduleText },
        ]}
        actions={(item) => (
          <div className="row">
            <Button aria-label={`Run ${item.name}`} onPress={() => run.mutate(item.id)} isDisabled={run.isPending}>
              Run
            </Button>
            {item.schedule ? (
              <Button
                className="secondary"
                aria-label={`${item.schedule.paused ? 'Resume' : 'Pause'} the schedule of ${item.name}`}
                onPress={() => pause.mutate({ id: item.id, paused: !item.schedule!.paused })}
                isDisabled={pause.isPending}
              >
                {item.schedule.paused ? 'Resume' : 'Pause'}
              </Button>
            ) : null}
            <Button className="secondary" aria-label={`History of ${item.name}`} onPress={() => setSelected(item.id)}>
              History
            </Button>
            <DeleteButton
              name={item.name}
              label={`Delete ${item.name}`}
              warning="Its runs, snapshot and failed rows go with it; files already written stay."
              deletes={remove}
              id={item.id}
            />
          </div>
        )}
      />
      {chosen ? <ExportHistory id={chosen.id} name={chosen.name} /> : null}
    </WithCreateForm>
  );
}

function ExportHistory({ id, name }: { id: string; name: string }) {
  const runs = useQuery({
    queryKey: ['export-runs', id],
    queryFn: () => unwrap(api.GET('/api/v1/exports/{id}/runs', { params: { path: { id } } })),
    refetchInterval: 2000,
  });
  const failed = useQuery({
    queryKey: ['export-failed-rows', id],
    queryFn: () => unwrap(api.GET('/api/v1/exports/{id}/failed-rows', { params: { path: { id } } })),
    refetchInterval: 5000,
  });
  const [downloadError, setDownloadError] = useState<unknown>();
  const download = async (runId: string, file: string) => {
    setDownloadError(undefined);
    try {
      const link = await unwrap(
        api.POST('/api/v1/exports/{id}/runs/{run}/download-link', { params: { path: { id, run: runId } } }),
      );
      const response = await api.GET('/api/v1/exports/{id}/runs/{run}/download', {
        params: {
          path: { id, run: runId },
          query: Object.fromEntries(new URL(link.url, location.origin).searchParams),
        },
        parseAs: 'blob',
      });
      if (!response.data) throw new Error('The download failed');
      const href = URL.createObjectURL(response.data as unknown as Blob);
      const anchor = document.createElement('a');
      anchor.href = href;
      anchor.download = file.split('/').pop() ?? 'export';
      anchor.click();
      URL.revokeObjectURL(href);
    } catch (error) {
      setDownloadError(error);
    }
  };
  return (
    <>
      {downloadError ? <ErrorNotice error={downloadError} /> : null}
      <DataTable
        caption={`Runs of ${name}`}
        read={runs}
        rowKey={(r) => r.execution_id}
        empty="No runs yet."
        columns={[
          { header: 'Started', cell: (r) => new Date(r.started_at).toLocaleString() },
          { header: 'Status', cell: (r) => <span className={`status ${r.status}`}>{r.status}</span> },
          { header: 'Trigger', cell: (r) => r.trigger },
          { header: 'Extracted', cell: (r) => r.extracted },
          { header: 'Added / changed / removed', cell: (r) => `${r.added} / ${r.changed} / ${r.removed}` },
          { header: 'Delivered', cell: (r) => r.delivered },
          { header: 'Failed', cell: (r) => r.failed },
        ]}
        actions={(r) =>
          r.files[0] && !r.files[0].name.startsWith('s3://') ? (
            <Button
              className="secondary"
              aria-label={`Download the file of the run of ${new Date(r.started_at).toLocaleString()}`}
              onPress={() => void download(r.execution_id, r.files[0]!.name)}
            >
              Download
            </Button>
          ) : null
        }
      />
      <DataTable
        caption={`Failed rows of ${name}`}
        read={failed}
        rowKey={(r) => r.row_key}
        empty="No failed rows."
        columns={[
          { header: 'Key', cell: (r) => <code>{r.row_key}</code> },
          { header: 'Reason', cell: (r) => r.reason },
          { header: 'Attempts', cell: (r) => r.attempts },
        ]}
      />
    </>
  );
}
