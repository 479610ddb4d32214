import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button, Form } from 'react-aria-components';
import { api, unwrap } from '../../api/client';
import { useProjects } from '../../api/queries';
import { Card } from '../../components/Card';
import { DataTable } from '../../components/DataTable';
import { ErrorNotice } from '../../components/ErrorNotice';
import { ItemSelect } from '../../components/ItemSelect';
import { ChoiceField, FormSubmit, TextAreaInput, TextInput } from '../../components/fields';

type Format = 'csv' | 'ndjson' | 'parquet';

/**
 * Exports: a warehouse query delivered to a file in the project's folder (more destinations through
 * the API), run on demand; each run's counts, its failed rows with their reasons, and download links.
 */
export function Exports() {
  const queries = useQueryClient();
  const projects = useProjects();
  const [project, setProject] = useState<string | undefined>();
  const [selected, setSelected] = useState<string | undefined>();
  const exports = useQuery({ queryKey: ['exports'], queryFn: () => unwrap(api.GET('/api/v1/exports')) });
  const create = useMutation({
    mutationFn: (body: { name: string; query: string; folder: string; format: Format }) =>
      unwrap(
        api.POST('/api/v1/exports', {
          body: {
            project_id: project!,
            name: body.name,
            source: { kind: 'warehouse_query', query: body.query },
            destination: { kind: 'files', folder: body.folder },
            format: { type: body.format },
          },
        }),
      ),
    onSuccess: (created) => {
      setSelected(created.id);
      void queries.invalidateQueries({ queryKey: ['exports'] });
    },
  });
  const run = useMutation({
    mutationFn: (id: string) => unwrap(api.POST('/api/v1/exports/{id}/run', { params: { path: { id } } })),
    onSuccess: (_, id) => {
      setSelected(id);
      void queries.invalidateQueries({ queryKey: ['export-runs', id] });
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    create.mutate({
      name: String(form.get('name')),
      query: String(form.get('query')),
      folder: String(form.get('folder') || 'exports'),
      format: String(form.get('format')) as Format,
    });
  };
  const chosen = exports.data?.items.find((e) => e.id === selected);
  return (
    <>
      <Card id="new-export" title="New export">
        <Form onSubmit={submit}>
          <ItemSelect label="Project" items={projects.data?.items ?? []} value={project} onChange={setProject} />
          <TextInput name="name" label="Name" isRequired />
          <TextAreaInput
            name="query"
            label="Warehouse query"
            rows={3}
            isRequired
            description="A SELECT over the project's warehouse schema, run as the project's own role"
          />
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
          <FormSubmit label="Create export" error={create.error} isDisabled={create.isPending || !project} />
        </Form>
      </Card>
      <DataTable
        caption="Exports"
        rows={exports.data?.items}
        rowKey={(item) => item.id}
        pending={exports.isPending}
        error={exports.error ?? run.error}
        empty="No exports yet."
        columns={[
          { header: 'Name', cell: (item) => item.name },
          { header: 'Destination', cell: (item) => String(item.destination['kind']) },
          { header: 'Mode', cell: (item) => item.mode },
        ]}
        actions={(item) => (
          <div className="row">
            <Button aria-label={`Run ${item.name}`} onPress={() => run.mutate(item.id)} isDisabled={run.isPending}>
              Run
            </Button>
            <Button className="secondary" aria-label={`History of ${item.name}`} onPress={() => setSelected(item.id)}>
              History
            </Button>
          </div>
        )}
      />
      {chosen ? <ExportHistory id={chosen.id} name={chosen.name} /> : null}
    </>
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
        rows={runs.data?.items}
        rowKey={(r) => r.execution_id}
        pending={runs.isPending}
        error={runs.error}
        empty="No runs yet."
        columns={[
          { header: 'Started', cell: (r) => new Date(r.started_at).toLocaleString() },
          { header: 'Status', cell: (r) => <span className={`status ${r.status}`}>{r.status}</span> },
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
        rows={failed.data?.items}
        rowKey={(r) => r.row_key}
        pending={failed.isPending}
        error={failed.error}
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
